import { LEAD_ROLES } from "@/lib/auth/roles";
import { requireJudgeForLead } from "@/lib/judges/runner/access";
import { startRunInput } from "@/lib/judges/runner/contract";
import { judgeRuns, runProgress, startRun } from "@/lib/judges/runner/runs";
import { apiRoute, json, readJson } from "@/lib/server/api-route";

export const GET = apiRoute<{ id: string; judgeId: string }>(LEAD_ROLES, async ({ user, params }) => {
  const { judge } = await requireJudgeForLead(user, params.id, params.judgeId);
  return { runs: await judgeRuns(judge.id) };
});

/** Starts a background run; the workers (every app instance's) do the work. */
export const POST = apiRoute<{ id: string; judgeId: string }>(LEAD_ROLES, async ({ req, user, params, log }) => {
  const { judge } = await requireJudgeForLead(user, params.id, params.judgeId);
  const run = await startRun(judge.id, await readJson(req, startRunInput), user.id);
  log.info({ judgeId: judge.id, runId: run.id, tasks: run.tasks }, "judge run started");
  return json(await runProgress(run.id), { status: 201 });
});
