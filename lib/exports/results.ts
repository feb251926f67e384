import { excludedWorkSql } from "@/lib/results/exclusion";
import type { SafeLlmScoring } from "@/lib/generated/prisma/enums";
import type { RubricDocument } from "@/lib/rubrics/document";
import { storedRubrics } from "@/lib/rubrics/study-rubrics";
import type { JudgeComparison } from "@/lib/judges/types";
import { judgeComparisons, judgeSummaryRows } from "./judge-summary";
import { setResultBatches, type CursorQuery, type SetResult } from "@/lib/results/sets";
import { ALL_SPECIALTIES, alphaBySpecialty, cliffsPairsAsync, modelSummaries, summaryTotalKey, type AlphaRow, type DeltaPairCell, type ModelSummary } from "@/lib/results/summary";
import { csvHeader, csvRow, type Cell } from "./csv";
import { jsonArray } from "./json";
import { loadPeople, type People } from "./people";
import { roundDeep, roundForExport } from "./precision";
import type { ExportSession } from "./session";
import { graderPseudonym } from "@/lib/users/pseudonym";
import type { AnswerReferenceMetrics } from "@/lib/reference-metrics/contract";

/**
 * The datasets built from the final scores (lib/results): `sets`, `score-long`
 * and `summary`. Their scores are computed by the functions the dashboard and
 * the sets API use (finalScoresOf, behind computeSetResults and setResultBatches),
 * so an export never disagrees with what the lead sees. They are read on the
 * export's connection, in its one snapshot, through a cursor of SET_BATCH sets
 * (each with its scores): `sets` and `score-long` write each batch out before
 * the next is read, so memory does not grow with the study; `summary` keeps
 * only the per-set results it summarises, not the scores.
 */
export interface ResultsStudy {
  id: string;
  slug: string;
  rubrics: RubricDocument[];
}

const SET_BATCH = 500;

/** The study's scoring settings and its sets' results, a batch at a time, on the export's connection. */
async function* resultBatches(session: ExportSession, study: ResultsStudy, batch = SET_BATCH): AsyncGenerator<SetResult[]> {
  const [settings] = await session.query<{ repetitions: number; safeLlmScoring: SafeLlmScoring }>(
    `SELECT repetitions, "safeLlmScoring"::text AS "safeLlmScoring" FROM "Study" WHERE id = $1::uuid`,
    [study.id],
  );
  if (!settings) return;
  const cursor: CursorQuery = (sql, params, n) => session.cursor(sql, params, n);
  yield* setResultBatches(cursor, { id: study.id, rubrics: study.rubrics, ...settings }, {}, batch);
}

// ─────────────────────────────── score-long ───────────────────────────────

/** response_id: the item's id in the study and the model name, "<item_id>-<model>": stable across instances and archive round trips. */
export const scoreLongResponseId = (s: Pick<SetResult, "externalId" | "model">) => `${s.externalId}-${s.model.name}`;

export type ScoreLongRow = Record<string, string | number | null>;

const LONG_KEYS = ["domain", "model", "response_id"] as const;

/**
 * score-long's value columns: a rubric that names the columns its published analysis code reads
 * (its document's `exports.longColumns`; the first such rubric of the study) has exactly those, so
 * the CSV feeds that code unchanged; otherwise one column per dimension that has a final value
 * (criteria have their total instead), named by its key, prefixed by the rubric's key when the
 * study has several rubrics.
 */
function longColumns(rubrics: readonly RubricDocument[]): { column: string; rubric: string; dimension: string }[] {
  const named = rubrics.find((r) => r.exports?.longColumns);
  if (named) return named.exports!.longColumns!.map((c) => ({ column: c.column, rubric: named.key, dimension: c.dimension }));
  const several = rubrics.length > 1;
  return rubrics.flatMap((r) =>
    r.dimensions.filter((d) => d.scale.kind !== "criteria").map((d) => ({ column: several ? `${r.key}_${d.key}` : d.key, rubric: r.key, dimension: d.key })),
  );
}

/** The reference-based metrics' columns: each the mean over the set's answers (lib/reference-metrics). */
export const METRIC_COLUMNS = ["bleu", "rouge1", "rougeL"] as const;
/** Embedding similarity's column (lib/embeddings), after them: only where some answer has one. */
export const EMBEDDING_COLUMN = "embedding_similarity";

/**
 * score-long's columns. The metrics' columns come last and only for a study whose questions have
 * reference answers, so a study without them keeps exactly the columns its rubric names.
 */
export function scoreLongHeader(rubrics: readonly RubricDocument[], withMetrics = false, withEmbedding = false): string[] {
  return [...LONG_KEYS, ...longColumns(rubrics).map((c) => c.column), ...(withMetrics ? METRIC_COLUMNS : []), ...(withEmbedding ? [EMBEDDING_COLUMN] : [])];
}

/** A set's metrics as the mean over its answers that have them; nulls when none does. */
export function setMetricMeans(s: Pick<SetResult, "answers">): Record<(typeof METRIC_COLUMNS)[number], number | null> {
  const mean = (k: (typeof METRIC_COLUMNS)[number]) => {
    const v = (s.answers ?? []).map((a) => a[k]).filter((x): x is number => x !== null);
    return v.length ? roundForExport(v.reduce((a, b) => a + b, 0) / v.length) : null;
  };
  return { bleu: mean("bleu"), rouge1: mean("rouge1"), rougeL: mean("rougeL") };
}

/** A set's embedding similarity: the mean over its answers that have one; null when none has. */
export function setEmbeddingMean(s: Pick<SetResult, "answers">): { [EMBEDDING_COLUMN]: number | null } {
  const v = (s.answers ?? []).map((a) => a.embeddingSimilarity).filter((x): x is number => x !== null && x !== undefined);
  return { [EMBEDDING_COLUMN]: v.length ? roundForExport(v.reduce((a, b) => a + b, 0) / v.length) : null };
}

/** Whether some answer of the study has reference-based metrics (its questions have reference answers), and an embedding similarity. */
async function studyHasMetrics(session: ExportSession, studyId: string): Promise<{ metrics: boolean; embedding: boolean }> {
  const [row] = await session.query<{ metrics: boolean; embedding: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM "Response" r JOIN "ResponseSet" rs ON rs.id = r."responseSetId" WHERE rs."studyId" = $1::uuid AND r.bleu IS NOT NULL) AS metrics,
            EXISTS (SELECT 1 FROM "Response" r JOIN "ResponseSet" rs ON rs.id = r."responseSetId" WHERE rs."studyId" = $1::uuid AND r."embeddingSimilarity" IS NOT NULL) AS embedding`,
    [studyId],
  );
  return { metrics: row?.metrics ?? false, embedding: row?.embedding ?? false };
}

/** The final value as a cell: a number (a mean: to EXPORT_DECIMALS), a nominal value, or "NA" for not applicable. */
const longValue = (v: unknown) => (v === "N/A" ? "NA" : typeof v === "number" ? roundForExport(v) : typeof v === "string" ? v : null);

export function scoreLongRows(sets: SetResult[], rubrics: readonly RubricDocument[], withMetrics = false, withEmbedding = false, withContradictions = false): ScoreLongRow[] {
  const columns = longColumns(rubrics);
  return sets
    .filter((s) => s.finalScores)
    .map((s) => {
      const row: ScoreLongRow = { domain: s.specialty, model: s.model.name, response_id: scoreLongResponseId(s) };
      for (const c of columns) row[c.column] = longValue(s.finalScores![c.rubric]?.[c.dimension]);
      return { ...row, ...(withMetrics ? setMetricMeans(s) : {}), ...(withEmbedding ? setEmbeddingMean(s) : {}), ...(withContradictions ? { contradiction: s.contradictions ?? 0 } : {}) };
    });
}

/** True when some analysed grader of the study (submitted, not excluded) flagged a set's answers as contradicting each other. */
async function studyHasContradictions(session: ExportSession, studyId: string): Promise<boolean> {
  const [row] = await session.query<{ has: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM "Assignment" a WHERE a."studyId" = $1::uuid AND a."contradictionFlag" AND a.status = 'SUBMITTED' AND NOT ${excludedWorkSql("a")}) AS has`,
    [studyId],
  );
  return row?.has ?? false;
}

export async function* scoreLongChunks(session: ExportSession, study: ResultsStudy, format: "csv" | "json"): AsyncGenerator<string> {
  const has = await studyHasMetrics(session, study.id);
  // Like the metrics: only a study where some grader flagged a contradiction gets the column (last), so others keep their rubric's columns.
  const withContradictions = await studyHasContradictions(session, study.id);
  async function* rows() {
    for await (const b of resultBatches(session, study)) {
      yield scoreLongRows(b, study.rubrics, has.metrics, has.embedding, withContradictions);
    }
  }
  if (format === "json") return yield* jsonArray(rows());
  const header = [...scoreLongHeader(study.rubrics, has.metrics, has.embedding), ...(withContradictions ? ["contradiction"] : [])];
  yield csvHeader(header);
  for await (const b of rows()) if (b.length > 0) yield b.map((r) => csvRow(header.map((k) => r[k] ?? null))).join("");
}

// ─────────────────────────────────── sets ──────────────────────────────────

export interface SetEscalation {
  status: string;
  dimensions: { rubric: string; dimension: string; spread: number | null; threshold: number | null; values: Record<string, number | string> }[];
  adjudicator: string | null;
  adjudicatorStatus: string | null;
}

type EscalationRow = { responseSetId: string; status: string; dimensions: unknown; adjudicator: string | null; adjudicatorStatus: string | null };

/** The escalations of a batch of sets, graders named as the export names them. */
async function escalationsOf(session: ExportSession, setIds: string[], people: People, identities: boolean): Promise<Map<string, SetEscalation>> {
  const rows = await session.query<EscalationRow>(
    `SELECT e."responseSetId"::text AS "responseSetId", e.status::text AS status, e.dimensions,
            a."graderId"::text AS adjudicator, a.status::text AS "adjudicatorStatus"
     FROM "Escalation" e LEFT JOIN "Assignment" a ON a.id = e."adjudicatorAssignmentId"
     WHERE e."responseSetId" = ANY($1::uuid[])`,
    [setIds],
  );
  const label = (userId: string) => {
    const p = people.get(userId);
    return p ? (identities ? p.email : p.pseudonym) : userId;
  };
  return new Map(
    rows.map((e) => {
      const dims = (Array.isArray(e.dimensions) ? e.dimensions : []) as SetEscalation["dimensions"];
      return [
        e.responseSetId,
        {
          status: e.status.toLowerCase(),
          dimensions: dims.map((d) => ({
            rubric: d.rubric,
            dimension: d.dimension,
            spread: d.spread,
            threshold: d.threshold,
            values: Object.fromEntries(Object.entries(d.values ?? {}).map(([k, v]) => [label(k), v])),
          })),
          adjudicator: e.adjudicator ? label(e.adjudicator) : null,
          adjudicatorStatus: e.adjudicatorStatus?.toLowerCase() ?? null,
        },
      ];
    }),
  );
}

/** Column prefix of a rubric: its key in lower case (score_, safe_llm_). */
const prefix = (r: RubricDocument) => r.key.toLowerCase();

type TotalsCell = Record<string, number | null> | undefined;

/**
 * The totals columns of a rubric: the columns its document names (`exports.totalColumns`: the
 * names earlier exports had), or `<rubric>_total_<total>` for each of its totals.
 */
function totalColumns(r: RubricDocument): { column: string; value: (t: TotalsCell) => number | null }[] {
  if (r.exports?.totalColumns) return r.exports.totalColumns.map((c) => ({ column: c.column, value: (t: TotalsCell) => t?.[c.value] ?? null }));
  return r.totals.map((x) => ({ column: `${prefix(r)}_total_${x.key}`, value: (t: TotalsCell) => t?.[x.key] ?? null }));
}

/** A column per banded total (DISCERN's total): the band its final value falls in. */
function bandColumns(r: RubricDocument): { column: string; value: (b: Record<string, string | null> | undefined) => string | null }[] {
  return r.totals.flatMap((x) => (x.method === "sum" && x.bands ? [{ column: `${prefix(r)}_band_${x.key}`, value: (b: Record<string, string | null> | undefined) => b?.[x.key] ?? null }] : []));
}

const setDims = (r: RubricDocument) => r.dimensions.filter((d) => d.scale.kind !== "criteria");

export function setsHeader(rubrics: readonly RubricDocument[], withEmbedding = false): string[] {
  const cols = ["set_id", "study", "specialty", "item_id", "model", "model_version", "status", "graders"];
  for (const r of rubrics) {
    cols.push(...setDims(r).map((d) => `${prefix(r)}_${d.key}`));
    cols.push(...totalColumns(r).map((c) => c.column));
    cols.push(...bandColumns(r).map((c) => c.column));
  }
  cols.push("escalation_status", "escalation_dimensions", "escalation_detail", "adjudicator", "adjudicator_status", "final_by");
  // Reference-based metrics: the mean over the set's answers, then each answer's as JSON.
  cols.push(...METRIC_COLUMNS, ...(withEmbedding ? [EMBEDDING_COLUMN] : []), "answer_metrics");
  return cols;
}

export interface SetRecord {
  set_id: string;
  study: string;
  specialty: string;
  item_id: string;
  model: { name: string; version: string };
  status: string;
  graders: number;
  finalScores: SetResult["finalScores"];
  totals: SetResult["totals"];
  bands: SetResult["bands"];
  escalation: SetEscalation | null;
  /** "panel", "judge" (hybrid mode: an automated judge's scores are final), or null while not final. */
  final_by: "panel" | "judge" | null;
  /** Reference-based metrics, 0-1: the mean over the set's answers (null without a reference answer). */
  bleu: number | null;
  rouge1: number | null;
  rougeL: number | null;
  /** The mean embedding similarity over the set's answers; only when some answer of the study has one. */
  embedding_similarity?: number | null;
  /** Each answer's metrics, by repetition. */
  answers: AnswerReferenceMetrics[];
}

function setCsvCells(r: SetRecord, rubrics: readonly RubricDocument[], withEmbedding: boolean): Cell[] {
  const cells: Cell[] = [r.set_id, r.study, r.specialty, r.item_id, r.model.name, r.model.version, r.status, r.graders];
  for (const rubric of rubrics) {
    const f = r.finalScores?.[rubric.key];
    cells.push(...setDims(rubric).map((d) => longValue(f?.[d.key])));
    cells.push(...totalColumns(rubric).map((c) => c.value(r.totals?.[rubric.key])));
    cells.push(...bandColumns(rubric).map((c) => c.value(r.bands?.[rubric.key])));
  }
  const e = r.escalation;
  cells.push(
    e?.status ?? null,
    e ? e.dimensions.map((d) => `${d.rubric}.${d.dimension}`).join(";") : null,
    e ? JSON.stringify(e.dimensions) : null,
    e?.adjudicator ?? null,
    e?.adjudicatorStatus ?? null,
    r.final_by,
    r.bleu,
    r.rouge1,
    r.rougeL,
    ...(withEmbedding ? [r.embedding_similarity ?? null] : []),
    JSON.stringify(r.answers),
  );
  return cells;
}

/** The `sets` rows, a batch at a time. */
export async function* setRecords(session: ExportSession, study: ResultsStudy, identities: boolean, withEmbedding = false): AsyncGenerator<SetRecord[]> {
  const people = await loadPeople(session.rawQuery, study.id);
  for await (const sets of resultBatches(session, study)) {
    const escalations = await escalationsOf(session, sets.map((s) => s.id), people, identities);
    yield sets.map((s) => ({
      set_id: s.id,
      study: study.slug,
      specialty: s.specialty,
      item_id: s.externalId,
      model: { name: s.model.name, version: s.model.version },
      status: s.status.toLowerCase(),
      graders: s.graders,
      // Means to EXPORT_DECIMALS (lib/exports/precision), in both formats.
      finalScores: roundDeep(s.finalScores),
      totals: roundDeep(s.totals),
      bands: s.bands,
      escalation: roundDeep(escalations.get(s.id) ?? null),
      final_by: s.finalBy ?? null,
      ...setMetricMeans(s),
      ...(withEmbedding ? setEmbeddingMean(s) : {}),
      answers: roundDeep(s.answers ?? []),
    }));
  }
}

export async function* setsChunks(session: ExportSession, study: ResultsStudy, identities: boolean, format: "csv" | "json"): AsyncGenerator<string> {
  const { embedding } = await studyHasMetrics(session, study.id);
  if (format === "json") return yield* jsonArray(setRecords(session, study, identities, embedding));
  yield csvHeader(setsHeader(study.rubrics, embedding));
  for await (const b of setRecords(session, study, identities, embedding)) if (b.length > 0) yield b.map((r) => csvRow(setCsvCells(r, study.rubrics, embedding))).join("");
}

// ───────────────────────────────── summary ─────────────────────────────────

export const SUMMARY_HEADER = [
  "section",
  "specialty",
  "rubric",
  "model",
  "measure",
  "n",
  "mean",
  "sd",
  "alpha",
  "items",
  "row_model",
  "col_model",
  "m",
  "delta",
  "magnitude",
  "ci_low",
  "ci_high",
  "note",
  "judge",
  "reading",
  "value",
] as const;

/** Potential-harm flags raised by graders (work not cancelled), per model in each specialty and in all of them. */
export interface HarmFlagSummary {
  specialty: string;
  model: string;
  flags: number;
  flaggedSets: number;
  /** Flags no lead has acknowledged or resolved yet. */
  unreviewed: number;
}

export interface SummaryDocument {
  study: string;
  rubrics: string[];
  models: ModelSummary[];
  alpha: AlphaRow[];
  cliffsDelta: DeltaPairCell[];
  harmFlags: HarmFlagSummary[];
  /** Each automated judge against the panel (section judge_vs_panel in the CSV). */
  judgeVsPanel: JudgeComparison[];
  /** Graders the lead excluded from the analysis: none of these figures uses their grades (section excluded_grader in the CSV). */
  excludedGraders: ExcludedGrader[];
}

export interface ExcludedGrader {
  /** The grader's per-study pseudonym. */
  grader: string;
  excludedAt: string;
  reason: string | null;
}

async function excludedGraders(session: ExportSession, studyId: string): Promise<ExcludedGrader[]> {
  const rows = await session.rawQuery<{ userId: string; excludedAt: Date; reason: string | null }>(
    `SELECT "userId"::text AS "userId", "excludedAt", "excludedReason" AS reason FROM "StudyMember" WHERE "studyId" = $1::uuid AND "excludedAt" IS NOT NULL ORDER BY "excludedAt", "userId"`,
    [studyId],
  );
  return rows.map((r) => ({ grader: graderPseudonym(studyId, r.userId), excludedAt: new Date(r.excludedAt).toISOString(), reason: r.reason }));
}

async function harmFlagSummary(session: ExportSession, studyId: string): Promise<HarmFlagSummary[]> {
  const rows = await session.rawQuery<{ specialty: string; model: string; all: boolean; flags: number; flaggedSets: number; unreviewed: number }>(
    `SELECT coalesce(sp.name, '') AS specialty, m.name AS model, GROUPING(sp.name) = 1 AS "all",
            count(*)::int AS flags, count(DISTINCT rs.id)::int AS "flaggedSets",
            count(*) FILTER (WHERE hr.status IS NULL OR hr.status = 'OPEN')::int AS unreviewed
       FROM "Assignment" a
       JOIN "ResponseSet" rs ON rs.id = a."responseSetId"
       JOIN "QaItem" i ON i.id = rs."itemId"
       JOIN "Specialty" sp ON sp.id = i."specialtyId"
       JOIN "LlmModel" m ON m.id = rs."modelId"
       LEFT JOIN "HarmReview" hr ON hr."assignmentId" = a.id
      WHERE rs."studyId" = $1::uuid AND a."harmFlag" AND a.status <> 'CANCELLED'
      GROUP BY GROUPING SETS ((sp.name, m.name), (m.name))`,
    [studyId],
  );
  // In the order of the other blocks: specialties as people read them, then all of them; models by name.
  return rows
    .sort((a, b) => Number(a.all) - Number(b.all) || a.specialty.localeCompare(b.specialty) || a.model.localeCompare(b.model))
    .map(({ all, ...r }) => ({ ...r, specialty: all ? ALL_SPECIALTIES : r.specialty }));
}

export async function summaryDocument(session: ExportSession, study: ResultsStudy): Promise<SummaryDocument> {
  const sets: SetResult[] = [];
  for await (const b of resultBatches(session, study, 2000)) sets.push(...b);
  return {
    study: study.slug,
    rubrics: study.rubrics.map((r) => r.key),
    models: modelSummaries(sets, study.rubrics),
    alpha: alphaBySpecialty(sets, study.rubrics),
    // The dashboard's computation with its defaults (lib/analytics CLIFFS_DEFAULTS): what a lead
    // publishes from this file is exactly what the dashboard showed, intervals included.
    cliffsDelta: await cliffsPairsAsync(sets, study.rubrics),
    harmFlags: await harmFlagSummary(session, study.id),
    judgeVsPanel: await judgeComparisons(study.id),
    excludedGraders: await excludedGraders(session, study.id),
  };
}

type SummaryRow = Partial<Record<(typeof SUMMARY_HEADER)[number], Cell>>;

/**
 * The summary's total rows: [ModelSummary.totals key, rubric, measure]: the headline as `total`,
 * then, for a rubric with several totals, each as `total_<key>`, in its document's order.
 */
function totalMeasures(doc: SummaryDocument, rubrics: readonly RubricDocument[], s: ModelSummary): [string, string, string][] {
  const out: [string, string, string][] = [];
  for (const rubric of doc.rubrics) {
    if (s.totals[rubric]) out.push([rubric, rubric, "total"]);
    const r = rubrics.find((x) => x.key === rubric);
    if (r && r.totals.length > 1) for (const t of r.totals) out.push([summaryTotalKey(r, t), rubric, `total_${t.key}`]);
  }
  return out;
}

/** The summary as one long table: a `section` column says which of the four blocks a row belongs to. */
export function summaryRows(doc: SummaryDocument, rubrics: readonly RubricDocument[]): SummaryRow[] {
  // Flags are a safety record: listed even before any set has final scores.
  // Exclusions first: whoever reads the figures below must know whose grades they leave out.
  const rows: SummaryRow[] = (doc.excludedGraders ?? []).map((x) => ({ section: "excluded_grader", value: x.grader, measure: "excluded_at", note: `${x.excludedAt}${x.reason ? `: ${x.reason}` : ""}` }));
  rows.push(...doc.harmFlags.flatMap((h) =>
    (["flags", "flaggedSets", "unreviewed"] as const).map((measure) => ({
      section: "harm_flags",
      specialty: h.specialty,
      model: h.model,
      measure: measure === "flaggedSets" ? "flagged_sets" : measure,
      n: h[measure],
    })),
  ));
  // No agreed or adjudicated set yet: no scores to summarise.
  if (doc.models.length === 0) return rows;
  for (const s of doc.models) {
    for (const [key, rubric, measure] of totalMeasures(doc, rubrics, s)) {
      const t = s.totals[key];
      if (t) rows.push({ section: "model_summary", specialty: s.specialty, rubric, model: s.model, measure, n: t.n, mean: t.mean, sd: t.sd });
    }
    for (const rubric of doc.rubrics) {
      for (const [dim, t] of Object.entries(s.dimensions[rubric] ?? {})) {
        rows.push({ section: "model_summary", specialty: s.specialty, rubric, model: s.model, measure: dim, n: t.n, mean: t.mean, sd: t.sd });
      }
    }
  }
  for (const a of doc.alpha) {
    rows.push({ section: "cronbach_alpha", specialty: a.specialty, rubric: a.rubric, n: a.n, alpha: a.alpha, items: a.k, ci_low: a.ci?.[0] ?? null, ci_high: a.ci?.[1] ?? null, note: a.reason ?? null });
  }
  for (const d of doc.cliffsDelta) {
    rows.push({
      section: "cliffs_delta",
      specialty: d.specialty,
      rubric: d.rubric,
      measure: d.measureKind === "total" ? "total" : d.measure,
      row_model: d.rowModel,
      col_model: d.colModel,
      n: d.n,
      m: d.m,
      delta: d.delta,
      magnitude: d.magnitude,
      ci_low: d.ci?.[0] ?? null,
      ci_high: d.ci?.[1] ?? null,
      note: d.reason ?? null,
    });
  }
  rows.push(...judgeSummaryRows(doc.judgeVsPanel));
  return rows;
}

export async function* summaryChunks(session: ExportSession, study: ResultsStudy, format: "csv" | "json"): AsyncGenerator<string> {
  // Means, SDs, alphas, deltas and intervals to EXPORT_DECIMALS (lib/exports/precision), in both formats.
  const doc = roundDeep(await summaryDocument(session, study));
  if (format === "json") {
    yield JSON.stringify(doc, null, 2) + "\n";
    return;
  }
  yield csvHeader(SUMMARY_HEADER);
  const rows = summaryRows(doc, study.rubrics);
  for (let i = 0; i < rows.length; i += SET_BATCH) yield rows.slice(i, i + SET_BATCH).map((r) => csvRow(SUMMARY_HEADER.map((k) => r[k] ?? null))).join("");
}

export function resultsStudy(study: { id: string; slug: string; rubrics: unknown }): ResultsStudy {
  return { id: study.id, slug: study.slug, rubrics: storedRubrics(study.rubrics) };
}
