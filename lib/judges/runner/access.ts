import { getDb } from "@/lib/db/client";
import { isUuid } from "@/lib/db/uuid";
import { ApiError } from "@/lib/errors/api-error";
import type { CurrentUser } from "@/lib/server/current-user";
import { requireStudyForLead } from "@/lib/studies/access";

/** The judge, if it belongs to a study the caller leads (admins: any); 404 otherwise, another study's judge included. */
export async function requireJudgeForLead(user: Pick<CurrentUser, "id" | "role">, studyId: string, judgeId: string) {
  const study = await requireStudyForLead(user, studyId);
  if (!isUuid(judgeId)) throw new ApiError(404, "judge not found");
  const judge = await getDb().automatedJudge.findFirst({ where: { id: judgeId, studyId: study.id }, select: { id: true, studyId: true } });
  if (!judge) throw new ApiError(404, "judge not found");
  return { study, judge };
}

/** The run, if it is this judge's. */
export async function requireRunForLead(user: Pick<CurrentUser, "id" | "role">, studyId: string, judgeId: string, runId: string) {
  const { study, judge } = await requireJudgeForLead(user, studyId, judgeId);
  if (!isUuid(runId)) throw new ApiError(404, "run not found");
  const run = await getDb().judgeRun.findFirst({ where: { id: runId, judgeId: judge.id }, select: { id: true, status: true } });
  if (!run) throw new ApiError(404, "run not found");
  return { study, judge, run };
}
