import { Prisma } from "@/lib/generated/prisma/client";
import { csvHeader, csvRow } from "./csv";
import { jsonArray } from "./json";
import type { People } from "./people";
import type { ExportSession } from "./session";

/**
 * The `quality-grades` dataset: every grade of a calibration, gold or washout re-grade task
 * (lib/quality-tasks), apart from the study's grades, which never hold them. One row per cell,
 * under the answer's own repetition; with the set's expected score and tolerance (calibration,
 * gold) or the grader's first score of the same cell (re-grade), so accuracy and intra-rater
 * figures can be checked by hand. Graders as per-study pseudonyms unless identities are exported.
 */
export const QUALITY_GRADES_HEADER = [
  "purpose",
  "task_id",
  "round",
  "grader",
  "grader_name",
  "item_id",
  "model",
  "status",
  "submitted_at",
  "time_spent_ms",
  "rubric",
  "dimension",
  "repetition",
  "criterion",
  "score",
  "category",
  "na",
  "expected_score",
  "tolerance",
  "first_score",
  "answer_order",
] as const;

type Row = Record<(typeof QUALITY_GRADES_HEADER)[number], string | number | boolean | null>;

const rowsSql = (studyId: string) => Prisma.sql`
  SELECT t.purpose::text AS purpose, t.id::text AS task_id, t.round, t."graderId"::text AS grader_id, q."externalId" AS item_id, m.name AS model,
         t.status::text AS status, t."submittedAt" AS submitted_at, t."timeSpentMs"::float8 AS time_spent_ms,
         g.rubric, g.dimension, g.repetition, g.criterion, g.score, g.category, g.na,
         (SELECT (e->>'score')::int FROM jsonb_array_elements(qs.expected) e
            WHERE e->>'rubric' = g.rubric AND e->>'dimension' = g.dimension AND (e->>'repetition')::int = g.repetition) AS expected_score,
         qs.tolerance,
         (SELECT f.score FROM "Grade" f WHERE f."assignmentId" = t."sourceAssignmentId" AND f.rubric = g.rubric AND f.dimension = g.dimension
            AND f.repetition = g.repetition AND f.criterion = g.criterion) AS first_score,
         array_to_string(t."answerOrder", ' ') AS answer_order
  FROM "QualityTask" t
  JOIN "QualityGrade" g ON g."taskId" = t.id
  JOIN "ResponseSet" rs ON rs.id = t."responseSetId"
  JOIN "QaItem" q ON q.id = rs."itemId"
  JOIN "LlmModel" m ON m.id = rs."modelId"
  LEFT JOIN "QualitySet" qs ON qs."responseSetId" = t."responseSetId" AND t.purpose <> 'REGRADE'
  WHERE t."studyId" = ${studyId}::uuid AND t.status <> 'CANCELLED'
  ORDER BY t.purpose, t."graderId", t.round, q."externalId", m.name, t.id, g.rubric, g.dimension, g.repetition, g.criterion`;

export async function* qualityGradesChunks(session: ExportSession, studyId: string, people: People, identities: boolean, format: "csv" | "json"): AsyncGenerator<string> {
  const s = rowsSql(studyId);
  const raw = (await session.query(s.text, s.values as unknown[])) as (Omit<Row, "grader" | "grader_name" | "submitted_at"> & { grader_id: string; submitted_at: Date | null })[];
  const records: Row[] = raw.map(({ grader_id, submitted_at, ...r }) => ({
    ...r,
    grader: people.get(grader_id)?.pseudonym ?? grader_id,
    grader_name: identities ? (people.get(grader_id)?.name ?? null) : null,
    submitted_at: submitted_at ? new Date(submitted_at).toISOString() : null,
    repetition: r.repetition === 0 ? null : r.repetition,
  }));
  if (format === "json") {
    yield* jsonArray([records]);
    return;
  }
  yield csvHeader(QUALITY_GRADES_HEADER);
  yield records.map((r) => csvRow(QUALITY_GRADES_HEADER.map((k) => r[k]))).join("");
}
