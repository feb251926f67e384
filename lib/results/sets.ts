import { getDb, getPool } from "@/lib/db/client";
import type { SafeLlmScoring, SetStatus } from "@/lib/generated/prisma/enums";
import { RUBRICS, type RubricKey } from "@/lib/rubrics/definitions";
import { finalDimensionValues, type GraderRubricValues } from "@/lib/scoring/escalation";
import { graderDimensionValues, rubricTotal, safeLlmOverallValues, type DimensionValues, type ScoreCell } from "@/lib/scoring/grader-values";

/**
 * Final scores of response sets, exactly as the papers define them: per
 * dimension, the mean over all the set's graders (the k primaries, plus the
 * adjudicator once they have submitted) of each grader's value (SAFE-LLM
 * per-answer domains: that grader's mean over the N answers). They exist only
 * for sets that are agreed or adjudicated. Unblinded: for leads only.
 */
export interface SetResult {
  id: string;
  itemId: string;
  externalId: string;
  specialty: string;
  model: { id: string; name: string; version: string };
  status: SetStatus;
  graders: number;
  finalScores: Partial<Record<RubricKey, DimensionValues>> | null;
  totals: {
    SCORE?: { total: number; percent: number };
    SAFE_LLM?: { perAnswer: number; overall: number; headline: number };
  } | null;
}

interface ScoringStudy {
  rubrics: RubricKey[];
  repetitions: number;
  safeLlmScoring: SafeLlmScoring;
}

type SetResultRow = { id: string; status: SetStatus; itemId: string; externalId: string; specialty: string; modelId: string; model: string; version: string; graders: ([RubricKey, ScoreCell["dimension"], number, number][] | null)[] };

/** One set's final scores from its row: its submitted graders' cells, one array per grader. */
function setResultOf(study: ScoringStudy, s: SetResultRow): SetResult {
  const graders: ScoreCell[][] = s.graders.map((cells) => (cells ?? []).map(([rubric, dimension, repetition, score]) => ({ rubric, dimension, repetition, score })));
  const n = study.repetitions;
  const final = s.status === "AGREED" || s.status === "ADJUDICATED";
  let finalScores: SetResult["finalScores"] = null;
  let totals: SetResult["totals"] = null;
  if (final && graders.length > 0) {
    const values: GraderRubricValues[] = graders.map((cells) => Object.fromEntries(study.rubrics.map((r) => [r, graderDimensionValues(r, cells, n)])));
    finalScores = Object.fromEntries(study.rubrics.map((r) => [r, finalDimensionValues(values, r)]));
    totals = {};
    if (study.rubrics.includes("SCORE")) {
      const total = rubricTotal("SCORE", finalScores.SCORE!)!;
      totals.SCORE = { total, percent: (100 * total) / RUBRICS.SCORE.maxTotal };
    }
    if (study.rubrics.includes("SAFE_LLM")) {
      const perAnswer = rubricTotal("SAFE_LLM", finalScores.SAFE_LLM!)!;
      // The overall (best-answer) score per grader, then the mean over graders.
      const overallPerGrader = graders.map((cells) => rubricTotal("SAFE_LLM", safeLlmOverallValues(cells, n))!);
      const overall = overallPerGrader.reduce((x, y) => x + y, 0) / overallPerGrader.length;
      totals.SAFE_LLM = { perAnswer, overall, headline: study.safeLlmScoring === "OVERALL" ? overall : perAnswer };
    }
  }
  const model = { id: s.modelId, name: s.model, version: s.version };
  return { id: s.id, itemId: s.itemId, externalId: s.externalId, specialty: s.specialty, model, status: s.status, graders: graders.length, finalScores, totals };
}

/** Rows of a query, a batch at a time (an export session's server-side cursor). */
export type CursorQuery = <T extends Record<string, unknown>>(sql: string, params: unknown[], batch: number) => AsyncIterable<T[]>;

// One row per set, ordered by the question's id then the model's name, with each submitted grader's cells as
// [rubric, dimension, repetition, score] tuples: a set's scores arrive with the set.
const SET_RESULTS_SQL = `
SELECT rs.id::text AS id, rs.status::text AS status, i.id::text AS "itemId", i."externalId" AS "externalId",
       sp.name AS specialty, m.id::text AS "modelId", m.name AS model, m.version AS version,
       (SELECT coalesce(json_agg((SELECT json_agg(json_build_array(g.rubric, g.dimension, g.repetition, g.score))
                                  FROM "Grade" g WHERE g."assignmentId" = a.id)), '[]'::json)
        FROM "Assignment" a WHERE a."responseSetId" = rs.id AND a.status = 'SUBMITTED') AS graders
FROM "ResponseSet" rs
JOIN "QaItem" i ON i.id = rs."itemId"
JOIN "Specialty" sp ON sp.id = i."specialtyId"
JOIN "LlmModel" m ON m.id = rs."modelId"
WHERE rs."studyId" = $1::uuid AND ($2::text IS NULL OR rs.status::text = $2::text)
ORDER BY i."externalId" ASC, m.name ASC`;


/** Every set's results at once (the sets API; tests), in the order of the question's id, then the model's name. */
export async function computeSetResults(studyId: string, filter: { status?: SetStatus } = {}): Promise<SetResult[]> {
  const study = await getDb().study.findUniqueOrThrow({ where: { id: studyId }, select: { rubrics: true, repetitions: true, safeLlmScoring: true } });
  const { rows } = await getPool().query<SetResultRow>(SET_RESULTS_SQL, [studyId, filter.status ?? null]);
  return rows.map((r) => setResultOf(study, r));
}

/**
 * The same results, `batch` sets at a time, read through a cursor: for
 * exports, whose memory must not grow with the study. A set and its scores
 * come in one row, so memory holds one batch of sets.
 */
export async function* setResultBatches(cursor: CursorQuery, study: ScoringStudy & { id: string }, filter: { status?: SetStatus } = {}, batch = 500): AsyncGenerator<SetResult[]> {
  for await (const rows of cursor<SetResultRow>(SET_RESULTS_SQL, [study.id, filter.status ?? null], batch)) yield rows.map((r) => setResultOf(study, r));
}
