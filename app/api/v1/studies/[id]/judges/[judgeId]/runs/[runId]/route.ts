import { LEAD_ROLES } from "@/lib/auth/roles";
import { requireRunForLead } from "@/lib/judges/runner/access";
import { runProgress } from "@/lib/judges/runner/runs";
import { apiRoute } from "@/lib/server/api-route";

export const GET = apiRoute<{ id: string; judgeId: string; runId: string }>(LEAD_ROLES, async ({ user, params }) => {
  const { run } = await requireRunForLead(user, params.id, params.judgeId, params.runId);
  return runProgress(run.id);
});
