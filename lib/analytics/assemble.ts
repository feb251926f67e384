/**
 * From a study's raw rows (load.ts) to every number of the dashboard. Pure: no
 * database, so unit tests feed it hand-made rows.
 *
 * Final scores follow lib/results/sets.ts exactly (mean over all submitted
 * graders of each grader's value, for agreed or adjudicated sets); the
 * summaries, alpha and Cliff's delta are lib/results/summary.ts's; agreement is
 * agreement.ts's.
 */
import type { EscalationOverrides } from "@/lib/rubrics/escalation-rule";
import type { RubricDocument } from "@/lib/rubrics/document";
import type { SetResult } from "@/lib/results/sets";
import { ALL_SPECIALTIES, alphaBySpecialty, CLIFFS_BOOTSTRAP, cliffsPairs, cliffsPairsAsync, finalOnly, modelSummaries, type DeltaPairCell } from "@/lib/results/summary";
import type { GraderRubricValues, Thresholds } from "@/lib/scoring/escalation";
import { finalScoresOf, type FinalGraders, type GraderTotals } from "@/lib/scoring/final-scores";
import { graderRubricScoresFrom } from "@/lib/scoring/study-values";
import { comparisonMeasures, type Measure } from "@/lib/results/measures";
import { AGREEMENT_NOTE, agreementRows, designOf, escalationRate, ICC_NOTE, type PrimarySet } from "./agreement";
import { JOURNAL_BOOTSTRAP, JOURNAL_NOTE, JOURNAL_ON_REQUEST, journalRubrics } from "./journal";
import { radarChart, rankingRows } from "./blocks";
import { decodeRows, rowSource, type CellLayout, type GraderRow } from "./grader-cells";
import { SET_STATUSES, type AlphaBlock, type Block, type CliffsBlock, type GraderProgress, type SetStatusKey, type StudyStats } from "./types";

export interface LoadedSet {
  id: string;
  itemId: string;
  externalId: string;
  specialty: string;
  model: { id: string; name: string; version: string };
  status: SetStatusKey;
}

export interface LoadedAssignment {
  setId: string;
  graderId: string;
  kind: "PRIMARY" | "ADJUDICATOR";
  status: "PENDING" | "IN_PROGRESS" | "SUBMITTED";
  /** Packed grade codes (grader-cells.ts) of a submitted assignment; null otherwise. */
  cells: ArrayLike<number> | null;
  /** A submitted assignment's record (graderRecordOf), when the reader made it already (load.ts does, as the rows arrive). */
  record?: GraderRecord;
}

export interface LoadedStudy {
  study: Omit<StudyStats["study"], "rubrics" | "rubricDocuments"> & { rubrics: RubricDocument[]; thresholds: Thresholds; escalationRules?: EscalationOverrides };
  /** How the assignments' cells are packed (grader-cells.ts). */
  layout: CellLayout;
  /** The study's models, by name. */
  models: string[];
  /** In the order of computeSetResults: item external id, then model name. */
  sets: LoadedSet[];
  /** Non-cancelled assignments. */
  assignments: LoadedAssignment[];
  /** The study's graders (members with the GRADER role). */
  graders: { id: string; name: string; active: boolean; external: boolean }[];
  /** Graders the lead excluded from the analysis (lib/results/exclusion.ts): their work is left out of every figure. */
  excluded?: ReadonlySet<string>;
}

export interface StatsQuery {
  specialty?: string | null;
  rubrics?: string[] | null;
  models?: string[] | null;
  /** Compute the journal block (bootstraps: only on request, ?journal=1); "models": its model comparisons only (the study report). */
  journal?: boolean | "models";
  /** A scoring study: derive the pairwise block from final scores (bootstraps: only on request, ?pairwise=1). */
  pairwise?: boolean;
  /** What models are compared on: "total" (default), "dimensions" or a dimension's key (lib/results/measures.ts). */
  measure?: string | null;
}

export interface StatsOptions {
  /** Bootstrap resamples of Cliff's delta (default CLIFFS_BOOTSTRAP's, as the summary export). */
  resamples?: number;
  /** false: leave the heatmap's Cliff's delta cells out (its bootstrap, a worker thread): a caller that does not show them (the study report). */
  cliffs?: boolean;
  seed?: number;
}

export const CLIFFS_DEFAULTS = { ...CLIFFS_BOOTSTRAP, level: 0.95 } as const;

export const ALPHA_NOTE =
  "Cronbach's alpha treats the rubric's dimensions as items and the final per-set scores as subjects: " +
  "it measures the rubric's internal consistency (whether the dimensions rise and fall together), not agreement between graders, which is in the inter-rater agreement table. " +
  "Whiskers: Feldt's 95% interval. Reference lines: 0.7 acceptable, 0.8 good, 0.9 excellent.";

export const CLIFFS_CONVENTION = "Positive delta = the row model's final values (the total, or the dimension) tend to be higher (better) than the column model's; negative = lower.";

/** Criteria marks are not packed (grader-cells.ts), so a row has none. */
const NO_CELLS: never[] = [];

const ok = <T>(data: T): Block<T> => ({ data, reason: null });
const none = <T>(reason: string): Block<T> => ({ data: null, reason });

/** A submitted assignment's cells, its value per dimension and its totals. */
export interface GraderRecord {
  table: GraderRow;
  values: GraderRubricValues;
  totals: GraderTotals;
}

/** A submitted assignment's record from its decoded cells: its value per dimension and its totals, over every rubric of the study. */
export function graderRecordOf(study: Pick<LoadedStudy["study"], "rubrics" | "repetitions">, table: GraderRow): GraderRecord {
  return { table, ...graderRubricScoresFrom(study.rubrics, (rubric) => ({ source: rowSource(table, rubric), cells: NO_CELLS }), study.repetitions) };
}

/** SetResult rows (computeSetResults' shape) from the loaded rows: the graders' values from their packed cells, the final scores as everywhere. */
export function setResultsOf(loaded: LoadedStudy, sets: LoadedSet[], bySet: Map<string, LoadedAssignment[]>, records: Map<LoadedAssignment, GraderRecord>): SetResult[] {
  const read: FinalGraders<LoadedAssignment> = {
    values: (a) => records.get(a)!.values,
    totals: (a) => records.get(a)!.totals,
  };
  return sets.map((s) => {
    const graders = (bySet.get(s.id) ?? []).filter((a) => a.status === "SUBMITTED");
    const { finalScores, totals, bands } = finalScoresOf(loaded.study, s.status, graders, read);
    return { id: s.id, itemId: s.itemId, externalId: s.externalId, specialty: s.specialty, model: s.model, status: s.status, graders: graders.length, finalScores, totals, bands };
  });
}

/** Every number of the dashboard, in one synchronous pass. */
export function assembleStudyStats(loaded: LoadedStudy, query: StatsQuery = {}, options: StatsOptions = {}): StudyStats {
  const core = assembleCore(loaded, query, options, cliffsPairs);
  if (core.pending) core.setCells(core.pending);
  return core.stats;
}

/**
 * The same numbers as `assembleStudyStats`; on a large study the Cliff's delta bootstrap runs
 * in a worker thread while this thread computes the agreement statistics.
 */
export async function assembleStudyStatsAsync(loaded: LoadedStudy, query: StatsQuery = {}, options: StatsOptions = {}): Promise<StudyStats> {
  return (await assembleWithFinals(loaded, query, options)).stats;
}

/** `assembleStudyStatsAsync`'s numbers with the final sets and measures they came from (the derived pairwise block reads them). */
export async function assembleWithFinals(loaded: LoadedStudy, query: StatsQuery = {}, options: StatsOptions = {}): Promise<{ stats: StudyStats; finals: SetResult[]; measures: Measure[] }> {
  const core = assembleCore(loaded, query, options, cliffsPairsAsync);
  if (core.pending) core.setCells(await core.pending);
  return { stats: core.stats, finals: core.finals, measures: core.measures };
}

type CliffsRunner<P> = (finals: SetResult[], rubrics: readonly RubricDocument[], opts: { resamples: number; seed: number }, measures: readonly Measure[]) => P;

/**
 * Everything but the Cliff's delta cells, which `runCliffs` starts computing (synchronously, or
 * in a worker) before the agreement statistics; the caller hands its cells to `setCells`.
 */
function assembleCore<P>(
  loaded: LoadedStudy,
  query: StatsQuery,
  options: StatsOptions,
  runCliffs: CliffsRunner<P>,
): { stats: StudyStats; pending: P | null; setCells: (cells: DeltaPairCell[]) => void; finals: SetResult[]; measures: Measure[] } {
  const { study } = loaded;
  const n = study.repetitions;
  const rubrics = query.rubrics?.length ? study.rubrics.filter((r) => query.rubrics!.includes(r.key)) : [...study.rubrics];
  const allModels = [...loaded.models].sort();
  const models = query.models?.length ? allModels.filter((m) => query.models!.includes(m)) : allModels;
  const specialties = [...new Set(loaded.sets.map((s) => s.specialty))].sort((a, b) => a.localeCompare(b));
  const specialty = query.specialty ?? null;
  const inModels = new Set(models);
  const sets = loaded.sets.filter((s) => (specialty === null || s.specialty === specialty) && inModels.has(s.model.name));

  const inScope = new Set(sets.map((s) => s.id));
  const bySet = new Map<string, LoadedAssignment[]>();
  const submitted: LoadedAssignment[] = [];
  const excluded = loaded.excluded;
  for (const a of loaded.assignments) {
    if (!inScope.has(a.setId) || excluded?.has(a.graderId)) continue;
    const list = bySet.get(a.setId);
    if (list) list.push(a);
    else bySet.set(a.setId, [a]);
    if (a.status === "SUBMITTED") submitted.push(a);
  }
  const records = new Map<LoadedAssignment, GraderRecord>();
  // The reader scores each grader as its row arrives (load.ts); rows made by hand (tests) are scored here.
  const unread = submitted.filter((a) => !a.record);
  const tables = decodeRows(loaded.layout, unread.map((a) => a.cells ?? NO_CELLS));
  const made = new Map(unread.map((a, i) => [a, graderRecordOf(study, tables[i])]));
  for (const a of submitted) records.set(a, a.record ?? made.get(a)!);

  const results = setResultsOf(loaded, sets, bySet, records);
  const finals = finalOnly(results);
  // Cliff's delta first: on a large study its bootstrap runs in a worker while this thread goes on.
  const finalModels = [...new Set(finals.map((s) => s.model.name))].sort();
  const resamples = options.resamples ?? CLIFFS_DEFAULTS.resamples;
  const seed = options.seed ?? CLIFFS_DEFAULTS.seed;
  const measure = query.measure ?? "total";
  const measures = comparisonMeasures(rubrics, measure);
  const skipCliffs = options.cliffs === false;
  const pending = finalModels.length < 2 || skipCliffs ? null : runCliffs(finals, rubrics, { resamples, seed }, measures);
  const scopeName = specialty ?? ALL_SPECIALTIES;
  // With one specialty chosen, summary.ts's "All specialties" group repeats it: leave it out.
  const keep = <T extends { specialty: string }>(rows: T[]) => (specialty === null ? rows : rows.filter((r) => r.specialty === specialty));
  const noFinal =
    sets.length === 0
      ? specialty !== null || query.models?.length
        ? "No response sets match these filters."
        : "No response sets yet: import questions and answers first."
      : "No response set is final yet: a set counts once its primary graders agree or an adjudicator has graded it.";

  const summaries = finals.length > 0 ? keep(modelSummaries(finals, rubrics)) : [];

  // radar
  const radar = rubrics.map((r) => {
    const rubric = r.key;
    if (r.dimensions.filter((d) => d.scale.kind === "ordinal").length < 3) return { rubric, data: null, reason: "A radar needs three or more ordinal dimensions." };
    if (finals.length === 0) return { rubric, data: null, reason: noFinal };
    const chart = radarChart(summaries, r, scopeName, models);
    return chart.series.length > 0 ? { rubric, data: chart, reason: null } : { rubric, data: null, reason: noFinal };
  });

  // alpha
  const alpha =
    finals.length === 0
      ? none<AlphaBlock>(noFinal)
      : ok({
          note: ALPHA_NOTE,
          bars: keep(alphaBySpecialty(finals, rubrics)).map((a) => ({ rubric: a.rubric, specialty: a.specialty, alpha: a.alpha, ci: a.ci, n: a.n, k: a.k, reason: a.reason ?? null })),
        });

  // Cliff's delta
  const cliffs: Block<CliffsBlock> =
    finalModels.length < 2 || skipCliffs
      ? none<CliffsBlock>(
          skipCliffs ? "Not computed: the caller left the Cliff's delta heatmap out." : finals.length === 0 ? noFinal : "Cliff's delta compares models: it needs final response sets of at least two models.",
        )
      : ok({
          convention: CLIFFS_CONVENTION,
          resamples,
          seed,
          level: CLIFFS_DEFAULTS.level,
          models: finalModels,
          specialties: [...new Set(keep(finals).map((s) => s.specialty))].sort((a, b) => a.localeCompare(b)).concat(specialty === null ? [ALL_SPECIALTIES] : []),
          measures: measures.map((m) => ({ ...m })),
          cells: [],
        });
  const setCells = (cells: DeltaPairCell[]) => {
    if (!cliffs.data) return;
    cliffs.data.cells = keep(cells).map((c) => ({
      rubric: c.rubric,
      measure: c.measure,
      measureKind: c.measureKind,
      label: c.label,
      specialty: c.specialty,
      rowModel: c.rowModel,
      colModel: c.colModel,
      delta: c.delta,
      magnitude: c.magnitude as "negligible" | "small" | "medium" | "large" | null,
      ci: c.ci,
      n: c.n,
      m: c.m,
      reason: c.reason ?? null,
    }));
  };

  // inter-rater agreement (primaries only)
  const primarySets: PrimarySet[] = [];
  for (const s of sets) {
    const prim = (bySet.get(s.id) ?? []).filter((a) => a.kind === "PRIMARY" && a.status === "SUBMITTED").sort((a, b) => (a.graderId < b.graderId ? -1 : a.graderId > b.graderId ? 1 : 0));
    if (prim.length >= 2) {
      primarySets.push({
        setId: s.id,
        graderIds: prim.map((a) => a.graderId),
        tables: prim.map((a) => records.get(a)!.table),
        values: prim.map((a) => records.get(a)!.values),
        totals: prim.map((a) => records.get(a)!.totals),
      });
    }
  }
  let agreement: StudyStats["agreement"];
  if (primarySets.length === 0) {
    agreement = none(
      sets.length === 0
        ? noFinal
        : study.gradersPerSet < 2
          ? "Agreement needs at least two primary graders per set (this study has k = 1)."
          : "Agreement needs response sets graded by at least two primary graders; none yet.",
    );
  } else {
    const { design, rows } = agreementRows(primarySets, rubrics, n, study.thresholds, study.escalationRules);
    agreement = ok({ note: `${AGREEMENT_NOTE} ${ICC_NOTE[design]}`, design, escalation: escalationRate(sets.map((s) => s.status)), rows });
  }

  // journal statistics (issue #17): agreement on the primaries' grades, model comparison on the finals
  const journal: StudyStats["journal"] = !query.journal
    ? none(JOURNAL_ON_REQUEST)
    : sets.length === 0 || (primarySets.length === 0 && finals.length === 0)
      ? none(noFinal)
      : ok({ note: JOURNAL_NOTE, design: designOf(primarySets), rubrics: journalRubrics(primarySets, finals, rubrics, n, designOf(primarySets), { ...JOURNAL_BOOTSTRAP, ...(options.seed !== undefined ? { seed: options.seed } : {}) }, query.journal === "models" ? "models" : "all") });

  // ranking
  const ranking = finals.length === 0 ? none<{ rows: ReturnType<typeof rankingRows> }>(noFinal) : ok({ rows: rankingRows(summaries, measures) });

  // progress
  let progress: StudyStats["progress"];
  if (sets.length === 0) progress = none(noFinal);
  else {
    const byStatus = Object.fromEntries(SET_STATUSES.map((s) => [s, 0])) as Record<SetStatusKey, number>;
    for (const s of sets) byStatus[s.status]++;
    const graders = new Map<string, GraderProgress>();
    for (const g of loaded.graders) graders.set(g.id, { id: g.id, name: g.name, active: g.active, external: g.external, done: 0, assigned: 0, adjudications: 0 });
    let done = 0;
    let assigned = 0;
    for (const list of bySet.values()) {
      for (const a of list) {
        const g = graders.get(a.graderId) ?? { id: a.graderId, name: "Former grader", active: false, external: false, done: 0, assigned: 0, adjudications: 0 };
        graders.set(a.graderId, g);
        g.assigned++;
        assigned++;
        if (a.status === "SUBMITTED") {
          g.done++;
          done++;
        }
        if (a.kind === "ADJUDICATOR") g.adjudications++;
      }
    }
    progress = ok({
      sets: { total: sets.length, byStatus },
      assignments: { done, assigned },
      graders: [...graders.values()].filter((g) => g.active || g.assigned > 0).sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id)),
    });
  }

  const stats: StudyStats = {
    study: {
      id: study.id,
      name: study.name,
      slug: study.slug,
      status: study.status,
      rubrics: study.rubrics.map((r) => r.key),
      rubricDocuments: study.rubrics,
      repetitions: study.repetitions,
      gradersPerSet: study.gradersPerSet,
      safeLlmScoring: study.safeLlmScoring,
    },
    filters: { specialty, rubrics: rubrics.map((r) => r.key), models, measure },
    options: { specialties, models: allModels, rubrics: study.rubrics.map((r) => r.key) },
    scope: { specialty: scopeName, sets: sets.length, finalSets: finals.length },
    measures: measures.map((m) => ({ ...m })),
    radar,
    alpha,
    cliffs,
    agreement,
    ranking,
    progress,
    journal,
  };
  return { stats, pending, setCells, finals, measures };
}
