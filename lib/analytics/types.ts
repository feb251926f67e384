/**
 * The shape of everything the study dashboard shows (GET /api/v1/studies/{id}/stats).
 * Pure types, shared by the server (lib/analytics), the route, the page and the
 * client chart components. lib/analytics/contract.ts describes the same shape in
 * zod for the OpenAPI document; a test parses real output with it.
 *
 * Every block is `{data, reason}`: `data` null with a `reason` when the study
 * does not have enough data for it yet ("not enough data"), never a broken chart.
 */
import type { PairwiseBlock } from "./pairwise-contract";
import type { JudgesBlock } from "@/lib/judges/types";
import type { RubricDocument } from "@/lib/rubrics/document";

/** A rubric's key, as its document names it. */
type RubricKey = string;

export type SetStatusKey = "AWAITING_GRADES" | "AGREED" | "AWAITING_ADJUDICATION" | "ADJUDICATED";
export const SET_STATUSES: readonly SetStatusKey[] = ["AWAITING_GRADES", "AGREED", "AWAITING_ADJUDICATION", "ADJUDICATED"];

export type Block<T> = { data: T; reason: null } | { data: null; reason: string };

/** A statistic that may be undefined on the data at hand. */
export interface Estimate {
  value: number | null;
  ci: [number, number] | null;
  reason: string | null;
}

export interface StatsFilters {
  /** A specialty name; null = all specialties. */
  specialty: string | null;
  /** The rubrics shown (a subset of the study's). */
  rubrics: RubricKey[];
  /** Model names in scope (all the study's models when no subset was asked for). */
  models: string[];
  /** What models are compared on: "total", "dimensions" or a dimension's key (lib/results/measures.ts). */
  measure: string;
}

/** One thing models are compared on (Cliff's delta, the ranking): a rubric's headline total or one of its ordinal dimensions. */
export interface ComparisonMeasure {
  rubric: RubricKey;
  key: string;
  kind: "total" | "dimension";
  label: string;
  /** The scale's range, from the rubric document. */
  min: number;
  max: number;
}

// ─── radar ───────────────────────────────────────────────────────────────────

export interface RadarAxis {
  dimension: string;
  label: string;
  /** The dimension's scale, lowest and highest level, from the rubric document. */
  min: number;
  max: number;
}

export interface RadarSeries {
  model: string;
  /** Final (agreed or adjudicated) response sets behind this model's means. */
  n: number;
  /** One per axis, in axis order. `value` is what is plotted: the mean itself ("mean") or its place on the axis's scale, 0 at its minimum, 1 at its maximum ("fraction"). */
  points: { dimension: string; mean: number | null; sd: number | null; value: number | null }[];
}

export interface RadarChart {
  rubric: RubricKey;
  specialty: string;
  /** "mean": every axis on one scale, in its points; "fraction": scales differ, each mean as (mean - min) / (max - min). */
  scale: "mean" | "fraction";
  /** The centre of the radial axis: the scale's minimum (0 for fractions). */
  domainMin: number;
  /** The rim of the radial axis: the scale's maximum (1 for fractions). */
  domainMax: number;
  axes: RadarAxis[];
  series: RadarSeries[];
}

// ─── Cronbach's alpha ────────────────────────────────────────────────────────

export interface AlphaBar {
  rubric: RubricKey;
  specialty: string;
  alpha: number | null;
  ci: [number, number] | null;
  /** Response sets (rows) and dimensions (items). */
  n: number;
  k: number;
  reason: string | null;
}

export interface AlphaBlock {
  note: string;
  bars: AlphaBar[];
}

// ─── Cliff's delta ───────────────────────────────────────────────────────────

export interface CliffsCell {
  rubric: RubricKey;
  /** The measure's key (a total's or a dimension's), kind and name. */
  measure: string;
  measureKind: "total" | "dimension";
  label: string;
  specialty: string;
  /** Positive delta = the row model's totals tend to be higher (better). */
  rowModel: string;
  colModel: string;
  delta: number | null;
  magnitude: "negligible" | "small" | "medium" | "large" | null;
  ci: [number, number] | null;
  /** Final sets of the row and the column model. */
  n: number;
  m: number;
  reason: string | null;
}

export interface CliffsBlock {
  convention: string;
  resamples: number;
  seed: number;
  level: number;
  models: string[];
  specialties: string[];
  /** What the models are compared on, one heatmap each. */
  measures: ComparisonMeasure[];
  cells: CliffsCell[];
}

// ─── inter-rater agreement ───────────────────────────────────────────────────

export interface AgreementRow {
  rubric: RubricKey;
  dimension: string;
  label: string;
  /** The dimension's full scale, used as the categories of Gwet's AC2. */
  scale: [number, number];
  /** What one unit of the rating matrix is: a response set, or one answer of a set (a dimension graded on each answer). */
  unit: "set" | "answer";
  /** Units rated by at least two primary graders. */
  units: number;
  /** Most primary ratings on one unit (columns of the matrix). */
  raters: number;
  gwetAC2: Estimate;
  krippendorff: Estimate;
  /** The headline ICC (average of the k primary ratings: ICC(1,k) or ICC(2,k)), see `iccType`. */
  icc: Estimate;
  /** The single-rater ICC of the same model (ICC(1,1) or ICC(2,1)). */
  iccSingle: Estimate;
  iccType: "ICC1k" | "ICC2k";
  /** Share of pairs of primary ratings of the same unit that are equal / differ by at most one point. */
  exact: Estimate;
  withinOne: Estimate;
  /** Pairs of ratings behind `exact` and `withinOne`. */
  pairs: number;
  /** How many primary ratings gave each value of the scale (the matrix's cells), lowest first. */
  distribution: { value: number; count: number }[];
  /** Why AC2 and alpha disagree, when they tell different stories (lib/analytics/agreement.ts agreementParadox). */
  paradox: string | null;
  /** Ordinal: AC2 (quadratic), alpha ordinal, ICC. Nominal: `gwetAC2` holds AC1, alpha is nominal, no ICC. */
  kind: "ordinal" | "nominal";
  /** Fleiss' kappa, for a nominal dimension. */
  fleiss: Estimate | null;
  /** A nominal dimension's categories, by the place `distribution` and the matrix number them. */
  categories: string[] | null;
  /** Share of sets (with at least two primaries) where this dimension's spread reached the study's threshold. */
  triggered: Estimate;
  threshold: number | null;
}

export interface AgreementBlock {
  note: string;
  /** The design read from the assignments: "pool" (sets spread over many graders) or "crossed" (the same k graders on every set). */
  design: "pool" | "crossed";
  /** Sets escalated to a third grader / sets whose primary graders have all submitted. */
  escalation: { rate: number | null; escalated: number; completed: number; reason: string | null };
  rows: AgreementRow[];
}

// ─── ranking ─────────────────────────────────────────────────────────────────

export interface RankingRow {
  rubric: RubricKey;
  /** The measure ranked on (a total's or a dimension's key), its kind and name. */
  measure: string;
  measureKind: "total" | "dimension";
  label: string;
  specialty: string;
  model: string;
  /** 1 = highest mean in the specialty on this measure (ties share a rank). */
  rank: number;
  /** Final sets with a value on this measure (N/A left out). */
  n: number;
  mean: number | null;
  sd: number | null;
  /** The measure's scale, from the rubric document. */
  min: number;
  max: number;
  /** The same as `max` (the name the API had when only totals were ranked). */
  maxTotal: number;
}

// ─── progress ────────────────────────────────────────────────────────────────

export interface GraderProgress {
  id: string;
  name: string;
  /** False when the grader was removed from the study (their submitted work stays). */
  active: boolean;
  /** A rater whose grades were imported (no account). */
  external: boolean;
  done: number;
  assigned: number;
  adjudications: number;
}

export interface ProgressBlock {
  sets: { total: number; byStatus: Record<SetStatusKey, number> };
  assignments: { done: number; assigned: number };
  graders: GraderProgress[];
}

// ─── the whole response ──────────────────────────────────────────────────────

export interface RubricBlock<T> {
  rubric: RubricKey;
  data: T | null;
  reason: string | null;
}

export interface StudyStats {
  study: {
    id: string;
    name: string;
    slug: string;
    status: "DRAFT" | "OPEN" | "CLOSED";
    rubrics: RubricKey[];
    /** The study's rubric documents (names, scales), in the same order. */
    rubricDocuments: RubricDocument[];
    repetitions: number;
    gradersPerSet: number;
    safeLlmScoring: "PER_ANSWER" | "OVERALL";
  };
  filters: StatsFilters;
  /** What the filters can choose from. */
  options: { specialties: string[]; models: string[]; rubrics: RubricKey[] };
  /** The specialty the radar and the ranking headline describe: the filter, else "All specialties". */
  scope: { specialty: string; sets: number; finalSets: number };
  /** What Cliff's delta and the ranking compare models on, in order (lib/results/measures.ts). */
  measures: ComparisonMeasure[];
  radar: RubricBlock<RadarChart>[];
  alpha: Block<AlphaBlock>;
  cliffs: Block<CliffsBlock>;
  agreement: Block<AgreementBlock>;
  ranking: Block<{ rows: RankingRow[] }>;
  progress: Block<ProgressBlock>;
  /** Journal statistics per rubric: pairwise kappa, Kendall's W, ICC, alpha; model comparison. */
  journal: Block<JournalBlock>;
  /** Automated judges against the panel (lib/judges/compare.ts); absent from the pure assembly, added by computeStudyStats. */
  judges?: Block<JudgesBlock>;
  /** Preferences per pair of models, Bradley-Terry strengths, biases, agreement (lib/analytics/pairwise.ts); added by computeStudyStats. */
  pairwise?: Block<PairwiseBlock>;
}

// ─── journal statistics (issue #17) ──────────────────────────────────────────

/** One pair of graders' Cohen's kappa. */
export interface JournalKappaPair {
  a: string;
  b: string;
  value: number | null;
  ci: [number, number] | null;
  /** Units both graders rated. */
  n: number;
  reason: string | null;
}

/** Pairwise kappa under one convention, as a list of pairs and the k x k matrix (1 on the diagonal). */
export interface JournalKappaMatrix {
  convention: string;
  pairs: JournalKappaPair[];
  matrix: (number | null)[][];
}

export interface JournalKendallW {
  convention: string;
  value: number | null;
  chiSquare: number | null;
  df: number;
  p: number | null;
  n: number;
  reason: string | null;
}

export interface JournalAgreement {
  target: "dimension" | "total";
  key: string;
  label: string;
  kind: "ordinal" | "nominal";
  unit: "set" | "answer";
  /** Units with two or more ratings. */
  units: number;
  /** Grader ids, the rows and columns of the kappa matrices. */
  raters: string[];
  weights: "quadratic" | "none";
  kappa: { ranks: JournalKappaMatrix; scale: JournalKappaMatrix } | null;
  kendallW: { uncorrected: JournalKendallW; corrected: JournalKendallW } | null;
  icc: {
    type: "ICC1" | "ICC1k" | "ICC2" | "ICC2k";
    label: string;
    why: string;
    value: number | null;
    ci: [number, number] | null;
    n: number;
    reason: string | null;
    /** One rater's reliability, the single-measure form of the same model. */
    single: { type: "ICC1" | "ICC2"; label: string; value: number | null; ci: [number, number] | null; n: number; reason: string | null };
  } | null;
  krippendorff: { level: "ordinal" | "interval" | "nominal"; convention: string; value: number | null; ci: [number, number] | null; units: number; reason: string | null };
  /** Why a statistic is absent (nominal scale: no order, so no weighted kappa, W or ICC). */
  note: string | null;
}

export interface JournalModelDescriptives {
  model: string;
  n: number;
  mean: number | null;
  sd: number | null;
  median: number | null;
  q1: number | null;
  q3: number | null;
  iqr: number | null;
}

export interface JournalComparison {
  target: "dimension" | "total";
  key: string;
  label: string;
  descriptives: JournalModelDescriptives[];
  /** The same per specialty of the questions (sorted by name). */
  bySpecialty: { specialty: string; descriptives: JournalModelDescriptives[] }[];
  friedman: { convention: string; chiSquare: number | null; df: number; p: number | null; kendallW: number | null; n: number; reason: string | null };
  posthoc: { convention: string; pairs: { a: string; b: string; statistic: number | null; p: number | null; pHolm: number | null; method: "exact" | "normal" | null; n: number; zeros: number; reason: string | null }[] };
  cliffs: {
    convention: string;
    familyLevel: number;
    intervalLevel: number | null;
    resamples: number;
    seed: number;
    pairs: { a: string; b: string; delta: number | null; ci: [number, number] | null; n: number; m: number; reason: string | null }[];
  } | null;
}

export interface JournalRubric {
  rubric: RubricKey;
  agreement: JournalAgreement[];
  models: JournalComparison[];
}

export interface JournalBlock {
  note: string;
  design: "pool" | "crossed";
  rubrics: JournalRubric[];
}
