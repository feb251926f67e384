import { LEAD_ROLES } from "@/lib/auth/roles";
import { requireRunForLead } from "@/lib/judges/runner/access";
import { resumeRun } from "@/lib/judges/runner/jobs";
import { runProgress } from "@/lib/judges/runner/runs";
import { apiRoute } from "@/lib/server/api-route";
import { ApiError } from "@/lib/errors/api-error";

export const POST = apiRoute<{ id: string; judgeId: string; runId: string }>(LEAD_ROLES, async ({ user, params }) => {
  const { run } = await requireRunForLead(user, params.id, params.judgeId, params.runId);
  if ((await resumeRun(run.id)) === 0) throw new ApiError(409, "nothing to resume: no response set of the run failed or was cancelled");
  return runProgress(run.id);
});
