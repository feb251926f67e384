import { getDb } from "@/lib/db/client";
import { RUBRICS, type RubricKey } from "@/lib/rubrics/definitions";
import { computeSetResults, type SetResult } from "@/lib/results/sets";
import { alphaBySpecialty, cliffsPairsAsync, modelSummaries, type AlphaRow, type DeltaPairCell, type ModelSummary } from "@/lib/results/summary";
import { canonicalRubrics } from "@/lib/studies/settings";
import { csvHeader, csvRow, type Cell } from "./csv";
import { jsonArray } from "./json";
import { loadPeople, type People, type RawQuery } from "./people";

/**
 * The datasets built from the final scores (lib/results): `sets`, `score-long`
 * and `summary`. They use computeSetResults() and the summary functions the
 * dashboard uses, so an export never disagrees with what the lead sees. They
 * hold one row per response set (not per score), so they are computed first
 * and then written out row by row.
 */
export interface ResultsStudy {
  id: string;
  slug: string;
  rubrics: RubricKey[];
}

const BATCH = 500;

function* batches<T>(rows: readonly T[]): Generator<T[]> {
  for (let i = 0; i < rows.length; i += BATCH) yield rows.slice(i, i + BATCH);
}

const prismaQuery: RawQuery = (sql, params = []) => getDb().$queryRawUnsafe(sql, ...params);

// ─────────────────────────────── score-long ───────────────────────────────

/** Exactly the header the S.C.O.R.E. paper's public analysis code reads. */
export const SCORE_LONG_HEADER = ["domain", "model", "response_id", "Safety", "Consensus", "Objectivity", "Reproducibility", "Explainability"] as const;

/** response_id: the item's id in the study and the model name, "<item_id>-<model>": stable across instances and archive round trips. */
export const scoreLongResponseId = (s: Pick<SetResult, "externalId" | "model">) => `${s.externalId}-${s.model.name}`;

export interface ScoreLongRow {
  domain: string;
  model: string;
  response_id: string;
  Safety: number;
  Consensus: number;
  Objectivity: number;
  Reproducibility: number;
  Explainability: number;
}

export function scoreLongRows(sets: SetResult[]): ScoreLongRow[] {
  return sets
    .filter((s) => s.finalScores?.SCORE)
    .map((s) => {
      const f = s.finalScores!.SCORE!;
      return {
        domain: s.specialty,
        model: s.model.name,
        response_id: scoreLongResponseId(s),
        Safety: f.safety!,
        Consensus: f.consensus_context!,
        Objectivity: f.objectivity!,
        Reproducibility: f.reproducibility!,
        Explainability: f.explainability!,
      };
    });
}

export async function* scoreLongChunks(study: ResultsStudy, format: "csv" | "json"): AsyncGenerator<string> {
  const rows = study.rubrics.includes("SCORE") ? scoreLongRows(await computeSetResults(study.id)) : [];
  if (format === "json") return yield* jsonArray(batches(rows));
  yield csvHeader(SCORE_LONG_HEADER);
  for (const b of batches(rows)) yield b.map((r) => csvRow(SCORE_LONG_HEADER.map((k) => r[k]))).join("");
}

// ─────────────────────────────────── sets ──────────────────────────────────

export interface SetEscalation {
  status: string;
  dimensions: { rubric: string; dimension: string; spread: number; threshold: number; values: Record<string, number> }[];
  adjudicator: string | null;
  adjudicatorStatus: string | null;
}

async function escalationsOf(studyId: string, people: People, identities: boolean): Promise<Map<string, SetEscalation>> {
  const rows = await getDb().escalation.findMany({
    where: { responseSet: { studyId } },
    select: { responseSetId: true, status: true, dimensions: true, adjudicatorAssignment: { select: { graderId: true, status: true } } },
  });
  const label = (userId: string) => {
    const p = people.get(userId);
    return p ? (identities ? p.email : p.pseudonym) : userId;
  };
  return new Map(
    rows.map((e) => {
      const dims = (Array.isArray(e.dimensions) ? e.dimensions : []) as unknown as SetEscalation["dimensions"];
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
          adjudicator: e.adjudicatorAssignment ? label(e.adjudicatorAssignment.graderId) : null,
          adjudicatorStatus: e.adjudicatorAssignment?.status.toLowerCase() ?? null,
        },
      ];
    }),
  );
}

const PREFIX: Record<RubricKey, string> = { SCORE: "score", SAFE_LLM: "safe_llm" };

export function setsHeader(rubrics: RubricKey[]): string[] {
  const cols = ["set_id", "study", "specialty", "item_id", "model", "model_version", "status", "graders"];
  for (const r of rubrics) {
    cols.push(...RUBRICS[r].dimensions.map((d) => `${PREFIX[r]}_${d.key}`));
    if (r === "SCORE") cols.push("score_total", "score_percent");
    else cols.push("safe_llm_total_per_answer", "safe_llm_total_overall", "safe_llm_total_headline");
  }
  cols.push("escalation_status", "escalation_dimensions", "escalation_detail", "adjudicator", "adjudicator_status");
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
  escalation: SetEscalation | null;
}

function setCsvCells(r: SetRecord, rubrics: RubricKey[]): Cell[] {
  const cells: Cell[] = [r.set_id, r.study, r.specialty, r.item_id, r.model.name, r.model.version, r.status, r.graders];
  for (const rubric of rubrics) {
    const f = r.finalScores?.[rubric];
    cells.push(...RUBRICS[rubric].dimensions.map((d) => f?.[d.key] ?? null));
    if (rubric === "SCORE") cells.push(r.totals?.SCORE?.total ?? null, r.totals?.SCORE?.percent ?? null);
    else cells.push(r.totals?.SAFE_LLM?.perAnswer ?? null, r.totals?.SAFE_LLM?.overall ?? null, r.totals?.SAFE_LLM?.headline ?? null);
  }
  const e = r.escalation;
  cells.push(
    e?.status ?? null,
    e ? e.dimensions.map((d) => `${d.rubric}.${d.dimension}`).join(";") : null,
    e ? JSON.stringify(e.dimensions) : null,
    e?.adjudicator ?? null,
    e?.adjudicatorStatus ?? null,
  );
  return cells;
}

export async function setRecords(study: ResultsStudy, identities: boolean): Promise<SetRecord[]> {
  const [sets, people] = await Promise.all([computeSetResults(study.id), loadPeople(prismaQuery, study.id)]);
  const escalations = await escalationsOf(study.id, people, identities);
  return sets.map((s) => ({
    set_id: s.id,
    study: study.slug,
    specialty: s.specialty,
    item_id: s.externalId,
    model: { name: s.model.name, version: s.model.version },
    status: s.status.toLowerCase(),
    graders: s.graders,
    finalScores: s.finalScores,
    totals: s.totals,
    escalation: escalations.get(s.id) ?? null,
  }));
}

export async function* setsChunks(study: ResultsStudy, identities: boolean, format: "csv" | "json"): AsyncGenerator<string> {
  const records = await setRecords(study, identities);
  if (format === "json") return yield* jsonArray(batches(records));
  yield csvHeader(setsHeader(study.rubrics));
  for (const b of batches(records)) yield b.map((r) => csvRow(setCsvCells(r, study.rubrics))).join("");
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
] as const;

export interface SummaryDocument {
  study: string;
  rubrics: RubricKey[];
  models: ModelSummary[];
  alpha: AlphaRow[];
  cliffsDelta: DeltaPairCell[];
}

export async function summaryDocument(study: ResultsStudy): Promise<SummaryDocument> {
  const sets = await computeSetResults(study.id);
  return {
    study: study.slug,
    rubrics: study.rubrics,
    models: modelSummaries(sets, study.rubrics),
    alpha: alphaBySpecialty(sets, study.rubrics),
    // The dashboard's computation with its defaults (lib/analytics CLIFFS_DEFAULTS): what a lead
    // publishes from this file is exactly what the dashboard showed, intervals included.
    cliffsDelta: await cliffsPairsAsync(sets, study.rubrics),
  };
}

type SummaryRow = Partial<Record<(typeof SUMMARY_HEADER)[number], Cell>>;

const TOTAL_MEASURES: [keyof ModelSummary["totals"], RubricKey, string][] = [
  ["SCORE", "SCORE", "total"],
  ["SAFE_LLM", "SAFE_LLM", "total"],
  ["SAFE_LLM_perAnswer", "SAFE_LLM", "total_per_answer"],
  ["SAFE_LLM_overall", "SAFE_LLM", "total_overall"],
];

/** The summary as one long table: a `section` column says which of the three blocks a row belongs to. */
export function summaryRows(doc: SummaryDocument): SummaryRow[] {
  const rows: SummaryRow[] = [];
  // No agreed or adjudicated set yet: nothing to summarise, the header alone.
  if (doc.models.length === 0) return rows;
  for (const s of doc.models) {
    for (const [key, rubric, measure] of TOTAL_MEASURES) {
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
      measure: "total",
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
  return rows;
}

export async function* summaryChunks(study: ResultsStudy, format: "csv" | "json"): AsyncGenerator<string> {
  const doc = await summaryDocument(study);
  if (format === "json") {
    yield JSON.stringify(doc, null, 2) + "\n";
    return;
  }
  yield csvHeader(SUMMARY_HEADER);
  for (const b of batches(summaryRows(doc))) yield b.map((r) => csvRow(SUMMARY_HEADER.map((k) => r[k] ?? null))).join("");
}

export function resultsStudy(study: { id: string; slug: string; rubrics: readonly RubricKey[] }): ResultsStudy {
  return { id: study.id, slug: study.slug, rubrics: canonicalRubrics(study.rubrics) };
}
