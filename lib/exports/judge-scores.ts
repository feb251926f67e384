import type { RubricDocument } from "@/lib/rubrics/document";
import { roundHalfUp } from "@/lib/stats/judge-readings";
import { csvHeader, csvRow, type Cell } from "./csv";
import { CRITERION_LABELS, NA_LABEL } from "./grades";
import { jsonArray } from "./json";
import { roundForExport } from "./precision";
import type { ExportSession } from "./session";

/**
 * The `judge-scores` dataset: every automated judge's judgment, one row each,
 * with both readings (the level given or most probable, and the expected
 * score with its half-up rounding), the probabilities, samples, confidence and
 * rationale, and whether the judge's scores are the set's final ones (hybrid
 * mode). Unblinded (model names): for leads. As in the grades export,
 * `value` is the level given (a number or a nominal value; empty with na) and
 * `label` its label in the study's rubric documents.
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
  "value",
  "label",
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

/** rubric/dimension/value -> the level's label, from the documents (criteria: Met / Not met). */
function labelLookup(rubrics: readonly RubricDocument[]): (r: { rubric: unknown; dimension: unknown; value: unknown }) => string | null {
  const labels = new Map<string, string>();
  for (const doc of rubrics) {
    for (const d of doc.dimensions) {
      const levels = d.scale.kind === "criteria" ? Object.entries(CRITERION_LABELS).map(([value, label]) => ({ value, label })) : (d.scale.levels ?? []);
      for (const l of levels) labels.set(`${doc.key}/${d.key}/${l.value}`, l.label);
    }
  }
  return (r) => labels.get(`${r.rubric}/${r.dimension}/${r.value}`) ?? null;
}

async function* rows(session: ExportSession, studyId: string, rubrics: readonly RubricDocument[]): AsyncGenerator<Row[]> {
  const labelOf = labelLookup(rubrics);
  type Read = Omit<Row, "value" | "label" | "expected_score_rounded" | "updated_at"> & { updated_at: Date; expected_score: number | null };
  for await (const batch of session.cursor<Read>(SQL, [studyId])) {
    yield batch.map((r) => {
      const value = r.na ? null : (r.score ?? r.category ?? null);
      return {
        ...r,
        value,
        label: r.na ? NA_LABEL : value === null ? null : labelOf({ rubric: r.rubric, dimension: r.dimension, value }),
        // A computed expectation: written to EXPORT_DECIMALS; its half-up rounding from the unrounded value.
        expected_score: r.expected_score === null ? null : roundForExport(r.expected_score),
        expected_score_rounded: r.expected_score === null ? null : roundHalfUp(r.expected_score),
        final_for_set: Boolean(r.final_for_set),
        updated_at: r.updated_at.toISOString(),
      };
    });
  }
}

const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));

export async function* judgeScoresChunks(session: ExportSession, studyId: string, format: "csv" | "json", rubrics: readonly RubricDocument[]): AsyncGenerator<string> {
  if (format === "json") return yield* jsonArray(rows(session, studyId, rubrics));
  yield csvHeader(JUDGE_SCORE_HEADER);
  for await (const batch of rows(session, studyId, rubrics)) {
    if (batch.length) yield batch.map((r) => csvRow(JUDGE_SCORE_HEADER.map((k) => (k === "probabilities" || k === "samples" ? json(r[k]) : (r[k] as Cell))))).join("");
  }
}
