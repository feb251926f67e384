/** The judge-vs-panel figures of GET /api/v1/studies/{id}/stats (`judges`) and the dashboard. Each figure carries its n. */

export interface Figure {
  value: number | null;
  ci: [number, number] | null;
  n: number;
  reason: string | null;
}

/** "most_probable": the level the judge gave (or its most probable); "expected": sum of level x probability (rounded half-up for AC2, kappa and exact agreement). */
export type Reading = "most_probable" | "expected";

export interface VsClinician {
  /** A grader's display name (the lead sees who graded). */
  grader: { id: string; name: string };
  ac2: Figure;
  kappa: Figure;
  /** Judge's AC2 minus this clinician's, both against the other graders of the same sets; paired bootstrap over the sets. */
  difference: Figure;
}

export interface JudgeDimensionRow {
  rubric: string;
  dimension: string;
  label: string;
  kind: "ordinal" | "nominal";
  reading: Reading;
  /** Sets with the judge's value and a final panel value. */
  n: number;
  /** Gwet's AC2 (quadratic; AC1 for nominal) against the panel's final score (rounded half-up). */
  ac2: Figure;
  /** Cohen's kappa, quadratic weights (unweighted for nominal). */
  kappa: Figure;
  exact: Figure;
  /** ICC(3,k) and ICC(2,1) of judge and panel (unrounded); ordinal only. */
  icc3k: Figure;
  icc21: Figure;
  spearman: Figure;
  /** Judge minus panel. */
  blandAltman: { bias: number | null; limits: [number, number] | null; n: number; reason: string | null };
  confusion: { labels: (string | number)[]; counts: number[][] } | null;
  /** Nominal and two-level dimensions. */
  macroF1: Figure | null;
  clinicians: VsClinician[];
  /** The ceiling: each clinician against the mean of the set's other graders (rounded half-up), pooled. */
  ceiling: { ac2: Figure; kappa: Figure };
}

export interface JudgeTotalRow {
  rubric: string;
  total: string;
  label: string;
  reading: Reading;
  n: number;
  icc3k: Figure;
  icc21: Figure;
  spearman: Figure;
  blandAltman: { bias: number | null; limits: [number, number] | null; n: number; reason: string | null };
}

export interface JudgeRanking {
  rubric: string;
  total: string;
  reading: Reading;
  models: { model: string; judge: number | null; panel: number | null; n: number }[];
  /** Kendall's tau-b between the models' mean totals by the judge and by the panel (n = models). */
  tau: Figure;
}

export interface LengthBias {
  rubric: string;
  total: string;
  reading: Reading;
  /** Spearman of the answer's length (characters) with the judge's total, and with the panel's. */
  judge: Figure;
  panel: Figure;
}

export interface DeferralRow {
  rubric: string;
  dimension: string;
  /** Per cutoff 0-0.9: sets kept (every judgment at or above the cutoff), the share deferred, and AC2 with the panel on the kept and on the deferred sets. */
  points: { cutoff: number; kept: number; deferred: number; deferredShare: number | null; agreementKept: number | null; agreementDeferred: number | null }[];
}

export interface JudgeComparison {
  judge: { id: string; name: string; model: string; version: string };
  hybrid: { cutoff: number; finalSets: number } | null;
  judgments: number;
  withProbabilities: number;
  dimensions: JudgeDimensionRow[];
  totals: JudgeTotalRow[];
  ranking: JudgeRanking[];
  lengthBias: LengthBias[];
  deferral: DeferralRow[];
}

export interface JudgesBlock {
  note: string;
  judges: JudgeComparison[];
}
