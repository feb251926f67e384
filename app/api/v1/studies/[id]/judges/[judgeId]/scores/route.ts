import { LEAD_ROLES } from "@/lib/auth/roles";
import { JudgeScoreQuery, JudgeScoresResult } from "@/lib/judges/contract";
import { importJudgeScores, JUDGE_SCORES_MAX_BYTES } from "@/lib/judges/service";
import { apiRoute, zodDetails } from "@/lib/server/api-route";
import { ApiError } from "@/lib/server/errors";
import { requireStudyForLead } from "@/lib/studies/access";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Imports a judge's scores (CSV or JSON rows) into a study the caller leads: all or nothing. */
export const POST = apiRoute<{ id: string; judgeId: string }>(LEAD_ROLES, async ({ req, user, params, requestId, log }) => {
  const study = await requireStudyForLead(user, params.id);
  const query = JudgeScoreQuery.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  if (!query.success) throw new ApiError(400, "invalid query", zodDetails(query.error));
  const length = Number(req.headers.get("content-length") ?? 0);
  if (length > JUDGE_SCORES_MAX_BYTES) throw new ApiError(413, `the body is larger than ${JUDGE_SCORES_MAX_BYTES} bytes`);
  const text = await req.text();
  if (Buffer.byteLength(text) > JUDGE_SCORES_MAX_BYTES) throw new ApiError(413, `the body is larger than ${JUDGE_SCORES_MAX_BYTES} bytes`);
  const result = await importJudgeScores({
    studyId: study.id,
    judgeId: params.judgeId,
    contentType: req.headers.get("content-type"),
    text,
    actorId: user.id,
    requestId,
    dryRun: query.data.dryRun === "1" || query.data.dryRun === "true",
  });
  log.info({ studyId: study.id, judgeId: params.judgeId, created: result.created, updated: result.updated }, "judge scores");
  return JudgeScoresResult.parse(result);
});
