import { offsetOf, type Page } from "@/lib/tables/search-params";
import { getDb, getPool } from "@/lib/db/client";
import { storedCriteria } from "@/lib/rubrics/criteria";
import type { SetStatus } from "@/lib/generated/prisma/enums";
import { storedRubrics } from "@/lib/rubrics/study-rubrics";
import { finalScoresOf, type FinalGraders, type FinalBands, type FinalScores, type FinalTotals, type ScoringStudy } from "@/lib/scoring/final-scores";
import { graderRubricTotals, graderRubricValues, type StoredCell } from "@/lib/scoring/study-values";
import type { AnswerReferenceMetrics } from "@/lib/reference-metrics/contract";
import { excludedWorkSql } from "@/lib/results/exclusion";

/**
 * Response sets with their final scores (finalScoresOf: per dimension, the
 * mean over all the set's graders of each grader's value; only for sets that
 * are agreed or adjudicated). Unblinded: for leads only.
 */
export interface SetResult {
  id: string;
  itemId: string;
  externalId: string;
  specialty: string;
  model: { id: string; name: string; version: string };
  status: SetStatus;
  graders: number;
  finalScores: FinalScores | null;
  totals: FinalTotals | null;
  bands: FinalBands | null;
  /** Whose scores are final: the clinician panel's, or (hybrid mode) an automated judge's; null while not final. */
  finalBy?: "panel" | "judge" | null;
  /** Each answer's reference-based metrics (lib/reference-metrics), by repetition. */
  answers?: AnswerReferenceMetrics[];
  /** Analysed graders (submitted, not excluded) who flagged the set's answers as contradicting each other. */
  contradictions?: number;
}

export type { ScoringStudy };

/** [rubric, dimension, repetition, score, category, na, criterion] */
type CellTuple = [string, string, number, number | null, string | null, boolean, string];
type SetResultRow = {
  id: string;
  status: SetStatus;
  itemId: string;
  externalId: string;
  specialty: string;
  modelId: string;
  model: string;
  version: string;
  criteria: unknown;
  graders: (CellTuple[] | null)[];
  /** Hybrid mode: the judge's cells when its scores are the set's final ones. */
  judge: CellTuple[] | null;
  /** [repetition, bleu, rouge1, rougeL, embeddingSimilarity] per answer. */
  answers: [number, number | null, number | null, number | null, number | null][] | null;
  contradictions: number;
};

/** How a set's row gives its submitted graders (their cells) to finalScoresOf: values are computed only for a final set. */
const ROW_GRADERS = (study: ScoringStudy, criteria: unknown): FinalGraders<StoredCell[]> => ({
  values: (cells) => graderRubricValues(study.rubrics, cells, study.repetitions),
  totals: (cells) => graderRubricTotals(study.rubrics, cells, study.repetitions, { criteria: storedCriteria(criteria) ?? [] }),
});

/** Sets' final scores from their rows: each row carries its submitted graders' cells, one array per grader. */
function setResultsOfRows(study: ScoringStudy, rows: SetResultRow[]): SetResult[] {
  return rows.map((s) => {
    const cells = (tuples: CellTuple[] | null) =>
      (tuples ?? []).map(([rubric, dimension, repetition, score, category, na, criterion]): StoredCell => ({ rubric, dimension, repetition, score, category, na, criterion }));
    const graders = s.graders.map(cells);
    const model = { id: s.modelId, name: s.model, version: s.version };
    // A judged set (hybrid mode) is final with the judge as its one grader; its status stays as the clinicians' path left it (never assigned).
    const { finalScores, totals, bands } = s.judge
      ? finalScoresOf(study, "AGREED", [cells(s.judge)], ROW_GRADERS(study, s.criteria))
      : finalScoresOf(study, s.status, graders, ROW_GRADERS(study, s.criteria));
    const finalBy = finalScores === null ? null : s.judge ? "judge" : "panel";
    const answers = (s.answers ?? []).map(([repetition, bleu, rouge1, rougeL, embeddingSimilarity]) => ({ repetition, bleu, rouge1, rougeL, embeddingSimilarity }));
    return { id: s.id, itemId: s.itemId, externalId: s.externalId, specialty: s.specialty, model, status: s.status, graders: graders.length, finalScores, totals, bands, finalBy, answers, contradictions: s.contradictions };
  });
}

/** Rows of a query, a batch at a time (an export session's server-side cursor). */
export type CursorQuery = <T extends Record<string, unknown>>(sql: string, params: unknown[], batch: number) => AsyncIterable<T[]>;

/** The cheap columns of a set, by which a page of sets is chosen before any score is read. */
const SET_FROM = `
FROM "ResponseSet" rs
JOIN "QaItem" i ON i.id = rs."itemId"
JOIN "Specialty" sp ON sp.id = i."specialtyId"
JOIN "LlmModel" m ON m.id = rs."modelId"
WHERE rs."studyId" = $1::uuid AND ($2::text IS NULL OR rs.status::text = $2::text)`;

// Each submitted grader's cells (graders excluded from the analysis left out: lib/results/exclusion.ts) as [rubric, dimension, repetition, score] tuples: a set's scores arrive with the set.
const GRADERS_OF_SET = `
(SELECT coalesce(json_agg((SELECT json_agg(json_build_array(g.rubric, g.dimension, g.repetition, g.score, g.category, g.na, g.criterion))
                           FROM "Grade" g WHERE g."assignmentId" = a.id)), '[]'::json)
 FROM "Assignment" a WHERE a."responseSetId" = s.id AND a.status = 'SUBMITTED' AND NOT ${excludedWorkSql("a")}) AS graders,
(SELECT count(*)::int FROM "Assignment" a WHERE a."responseSetId" = s.id AND a.status = 'SUBMITTED' AND a."contradictionFlag" AND NOT ${excludedWorkSql("a")}) AS contradictions,
(SELECT json_agg(json_build_array(j.rubric, j.dimension, j.repetition, j.score, j.category, j.na, ''))
 FROM "JudgeScore" j WHERE j."responseSetId" = s.id AND j."judgeId" = s."finalJudgeId") AS judge,
(SELECT json_agg(json_build_array(r.repetition, r.bleu, r.rouge1, r."rougeL", r."embeddingSimilarity") ORDER BY r.repetition)
 FROM "Response" r WHERE r."responseSetId" = s.id) AS answers`;

/** The order of every list of sets, and the tie-break of the others: the question's id, then the model's name (unique in a study). */
const NATURAL_ORDER = `"externalId" ASC, model ASC`;

/**
 * One row per set with its graders' scores. `pick` narrows and orders the
 * sets by their cheap columns (a page, a cursor's next batch) before the
 * scores are read, so a page of 25 reads 25 sets' grades, not the study's.
 */
function setResultsSql(pick: { where?: string; order?: string; limit?: string } = {}) {
  return `
WITH s AS (
  SELECT rs.id, rs.status::text AS status, rs."finalJudgeId", i.id AS "itemId", i."externalId", i.criteria, sp.name AS specialty, m.id AS "modelId", m.name AS model, m.version
  ${SET_FROM} ${pick.where ?? ""}
  ORDER BY ${pick.order ?? NATURAL_ORDER} ${pick.limit ?? ""}
)
SELECT s.id::text AS id, s.status, s."itemId"::text AS "itemId", s."externalId", s.specialty,
       s."modelId"::text AS "modelId", s.model, s.version, s.criteria, ${GRADERS_OF_SET}
FROM s
ORDER BY ${pick.order ?? NATURAL_ORDER}`;
}
const SET_RESULTS_SQL = setResultsSql();

const loadScoringStudy = async (studyId: string): Promise<ScoringStudy> => {
  const s = await getDb().study.findUniqueOrThrow({ where: { id: studyId }, select: { rubrics: true, repetitions: true, safeLlmScoring: true } });
  return { ...s, rubrics: storedRubrics(s.rubrics) };
};

/** Every set's results at once (the results table sorted by a total; tests), in the order of the question's id, then the model's name. */
export async function computeSetResults(studyId: string, filter: { status?: SetStatus } = {}): Promise<SetResult[]> {
  const study = await loadScoringStudy(studyId);
  const { rows } = await getPool().query<SetResultRow>(SET_RESULTS_SQL, [studyId, filter.status ?? null]);
  return setResultsOfRows(study, rows);
}

/** Where a cursor of the sets API stands: the last set it returned, by question id and model name. */
export interface SetCursor {
  externalId: string;
  model: string;
}

/**
 * Up to `limit` sets after `after`, in the natural order (the sets API): a
 * keyset page, so the thousandth page costs what the first does.
 */
export async function setResultsAfter(studyId: string, filter: { status?: SetStatus }, after: SetCursor | null, limit: number): Promise<{ sets: SetResult[]; next: SetCursor | null }> {
  const sql = setResultsSql({ where: `AND ($3::text IS NULL OR (i."externalId", m.name) > ($3::text, $4::text))`, limit: `LIMIT $5::int` });
  // One more than asked: whether there is a next page is known without a count.
  const [study, { rows }] = await Promise.all([
    loadScoringStudy(studyId),
    getPool().query<SetResultRow>(sql, [studyId, filter.status ?? null, after?.externalId ?? null, after?.model ?? null, limit + 1]),
  ]);
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { sets: setResultsOfRows(study, page), next: more && last ? { externalId: last.externalId, model: last.model } : null };
}

/** A set (rs) on which a grader raised a potential-harm flag, in work not cancelled. */
const HARM_FLAGGED = `EXISTS (SELECT 1 FROM "Assignment" a WHERE a."responseSetId" = rs.id AND a."harmFlag" AND a.status <> 'CANCELLED')`;

/** The ids of the study's sets with a potential-harm flag (the results table sorted by a total filters by them). */
export async function harmFlaggedSetIds(studyId: string): Promise<Set<string>> {
  const { rows } = await getPool().query<{ id: string }>(`SELECT rs.id::text AS id FROM "ResponseSet" rs WHERE rs."studyId" = $1::uuid AND ${HARM_FLAGGED}`, [studyId]);
  return new Set(rows.map((r) => r.id));
}

/** The results table's columns that are the set's own (sorted in SQL); the totals need every set's scores. */
export const SET_COLUMN_SORTS = { externalId: `"externalId"`, specialty: "specialty", model: "model", status: "status" } as const;
export type SetColumnSort = keyof typeof SET_COLUMN_SORTS;

/**
 * One page of the results table sorted by one of the set's own columns: the
 * page is chosen in SQL and only its sets' grades are read. Ties keep the
 * natural order.
 */
export async function setResultsPage(
  studyId: string,
  q: { status?: SetStatus; specialty?: string; harm?: "flagged"; sort: SetColumnSort; desc: boolean; page: number; pageSize: number },
): Promise<Page<SetResult>> {
  const where = `AND ($3::text IS NULL OR sp.name = $3::text) AND (NOT $4::bool OR ${HARM_FLAGGED})`;
  const order = `${SET_COLUMN_SORTS[q.sort]} ${q.desc ? "DESC" : "ASC"}, ${NATURAL_ORDER}`;
  const params = [studyId, q.status ?? null, q.specialty ?? null, q.harm === "flagged"];
  const [study, { rows }, count] = await Promise.all([
    loadScoringStudy(studyId),
    getPool().query<SetResultRow>(setResultsSql({ where, order, limit: `OFFSET $5::int LIMIT $6::int` }), [...params, offsetOf(q.page, q.pageSize), q.pageSize]),
    getPool().query<{ n: number }>(`SELECT count(*)::int AS n ${SET_FROM} ${where}`, params),
  ]);
  return { rows: setResultsOfRows(study, rows), total: count.rows[0].n, page: q.page, pageSize: q.pageSize };
}

/**
 * The same results, `batch` sets at a time, read through a cursor: for
 * exports, whose memory must not grow with the study. A set and its scores
 * come in one row, so memory holds one batch of sets.
 */
export async function* setResultBatches(cursor: CursorQuery, study: ScoringStudy & { id: string }, filter: { status?: SetStatus } = {}, batch = 500): AsyncGenerator<SetResult[]> {
  for await (const rows of cursor<SetResultRow>(SET_RESULTS_SQL, [study.id, filter.status ?? null], batch)) yield setResultsOfRows(study, rows);
}

/** One set's results (its detail view): null when the set is not the study's. */
export async function setResultOf(studyId: string, setId: string): Promise<SetResult | null> {
  const [study, { rows }] = await Promise.all([loadScoringStudy(studyId), getPool().query<SetResultRow>(setResultsSql({ where: `AND rs.id = $3::uuid` }), [studyId, null, setId])]);
  return rows.length ? setResultsOfRows(study, rows)[0] : null;
}
