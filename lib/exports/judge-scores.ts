import { roundHalfUp } from "@/lib/stats/judge-readings";
import { csvHeader, csvRow, type Cell } from "./csv";
import { jsonArray } from "./json";
import { roundForExport } from "./precision";
import type { ExportSession } from "./session";

/**
 * The `judge-scores` dataset: every automated judge's judgment, one row each,
 * with both readings (the level given or most probable, and the expected
 * score with its half-up rounding), the probabilities, samples, confidence and
 * rationale, and whether the judge's scores are the set's final ones (hybrid
 * mode). Unblinded (model names): for leads.
 */
export const JUDGE_SCORE_HEADER = [
  "judge",
  "judge_model",
  "judge_version",
  "item_id",
  "model",
  "model_version",
  "repetition",
  "rubric",
  "dimension",
  "score",
  "category",
  "na",
  "expected_score",
  "expected_score_rounded",
  "confidence",
  "probabilities",
  "samples",
  "rationale",
  "final_for_set",
  "updated_at",
] as const;

type Row = Record<(typeof JUDGE_SCORE_HEADER)[number], Cell | Record<string, number> | (number | string)[]>;

const SQL = `
SELECT j.name AS judge, j.model AS judge_model, j.version AS judge_version, q."externalId" AS item_id, m.name AS model, m.version AS model_version,
       NULLIF(s.repetition, 0) AS repetition, s.rubric, s.dimension, s.score, s.category, s.na, s."expectedScore" AS expected_score, s.confidence,
       s.probabilities, s.samples, s.rationale, (rs."finalJudgeId" = j.id) AS final_for_set, s."updatedAt" AS updated_at
FROM "JudgeScore" s
JOIN "AutomatedJudge" j ON j.id = s."judgeId"
JOIN "ResponseSet" rs ON rs.id = s."responseSetId"
JOIN "QaItem" q ON q.id = rs."itemId"
JOIN "LlmModel" m ON m.id = rs."modelId"
WHERE j."studyId" = $1::uuid
ORDER BY j.name COLLATE "C", q."externalId" COLLATE "C", m.name COLLATE "C", s.rubric, s.dimension, s.repetition`;

async function* rows(session: ExportSession, studyId: string): AsyncGenerator<Row[]> {
  for await (const batch of session.cursor<Omit<Row, "expected_score_rounded" | "updated_at"> & { updated_at: Date; expected_score: number | null }>(SQL, [studyId])) {
    yield batch.map((r) => ({
      ...r,
      // A computed expectation: written to EXPORT_DECIMALS; its half-up rounding from the unrounded value.
      expected_score: r.expected_score === null ? null : roundForExport(r.expected_score),
      expected_score_rounded: r.expected_score === null ? null : roundHalfUp(r.expected_score),
      final_for_set: Boolean(r.final_for_set),
      updated_at: r.updated_at.toISOString(),
    }));
  }
}

const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));

export async function* judgeScoresChunks(session: ExportSession, studyId: string, format: "csv" | "json"): AsyncGenerator<string> {
  if (format === "json") return yield* jsonArray(rows(session, studyId));
  yield csvHeader(JUDGE_SCORE_HEADER);
  for await (const batch of rows(session, studyId)) {
    if (batch.length) yield batch.map((r) => csvRow(JUDGE_SCORE_HEADER.map((k) => (k === "probabilities" || k === "samples" ? json(r[k]) : (r[k] as Cell))))).join("");
  }
}
