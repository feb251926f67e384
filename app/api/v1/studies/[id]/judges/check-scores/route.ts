import { LEAD_ROLES } from "@/lib/auth/roles";
import { JudgeScoresResult } from "@/lib/judges/contract";
import { importJudgeScores, JUDGE_SCORES_MAX_BYTES } from "@/lib/judges/service";
import { apiRoute } from "@/lib/server/api-route";
import { ApiError } from "@/lib/errors/api-error";
import { requireStudyForLead } from "@/lib/studies/access";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Checks a judge's scores for a judge not registered yet: writes nothing (not even the judge). */
export const POST = apiRoute<{ id: string }>(LEAD_ROLES, async ({ req, user, params, requestId }) => {
  const study = await requireStudyForLead(user, params.id);
  const length = Number(req.headers.get("content-length") ?? 0);
  if (length > JUDGE_SCORES_MAX_BYTES) throw new ApiError(413, `the body is larger than ${JUDGE_SCORES_MAX_BYTES} bytes`);
  const text = await req.text();
  if (Buffer.byteLength(text) > JUDGE_SCORES_MAX_BYTES) throw new ApiError(413, `the body is larger than ${JUDGE_SCORES_MAX_BYTES} bytes`);
  const result = await importJudgeScores({ studyId: study.id, judgeId: null, contentType: req.headers.get("content-type"), text, actorId: user.id, requestId, dryRun: true });
  return JudgeScoresResult.parse(result);
});
