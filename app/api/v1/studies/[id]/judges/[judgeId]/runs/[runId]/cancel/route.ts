import { LEAD_ROLES } from "@/lib/auth/roles";
import { requireRunForLead } from "@/lib/judges/runner/access";
import { cancelRun } from "@/lib/judges/runner/jobs";
import { runProgress } from "@/lib/judges/runner/runs";
import { apiRoute } from "@/lib/server/api-route";
import { ApiError } from "@/lib/errors/api-error";

export const POST = apiRoute<{ id: string; judgeId: string; runId: string }>(LEAD_ROLES, async ({ user, params }) => {
  const { run } = await requireRunForLead(user, params.id, params.judgeId, params.runId);
  if (!(await cancelRun(run.id))) throw new ApiError(409, "the run is not running: nothing to cancel");
  return runProgress(run.id);
});
