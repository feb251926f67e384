/**
 * Inter-rater agreement between the PRIMARY graders of a study, per rubric
 * dimension (adjudicators are left out: they grade only the sets that were
 * escalated, so including them would bias every coefficient).
 *
 * The rating matrix of a dimension has one row per unit and one column per
 * primary grader of that unit:
 * - a dimension graded once (on the first answer or on the whole set, or
 *   derived per grader from their own scores): the unit is the response set;
 * - a dimension graded on each answer: the unit is each answer (set x
 *   repetition) and the values are the per-answer scores.
 *   The graders' means over the N answers (what escalation and final scores
 *   use) are not points of the scale, so they cannot be the categories of AC2;
 *   the per-answer scores are what the graders actually chose.
 *
 * Coefficients (lib/stats): Gwet's AC2 with quadratic weights and the whole
 * scale declared as categories (1-5, 0-2 or 0-1), with irrCAC's analytic 95% CI;
 * Krippendorff's alpha, ordinal; the ICC from the design (see `iccTypeFor`);
 * percent exact and within-one-point agreement over all pairs of ratings of the
 * same unit.
 */
import type { RubricDocument } from "@/lib/rubrics/document";
import { ordinalRange } from "@/lib/rubrics/document";
import type { GraderRubricValues, Thresholds } from "@/lib/scoring/escalation";
import { dimensionDisagrees } from "@/lib/scoring/rubric-final";
import { studyRule, type EscalationOverrides } from "@/lib/rubrics/escalation-rule";
import type { DimensionValue } from "@/lib/scoring/rubric-values";
import { fleissKappa, gwetAC1, gwetAC2, icc, krippendorffAlpha, ratingPatterns, type IccType, type Rating } from "@/lib/stats";
import { rowCategory, scoreAtSlot, slotIndex, type GraderRow } from "./grader-cells";
import type { AgreementBlock, AgreementRow, Estimate } from "./types";

/** The submitted primary graders of one response set, sorted by grader id. */
export interface PrimarySet {
  setId: string;
  graderIds: string[];
  /** Each grader's cells (grader-cells.ts decodeRow), aligned with graderIds. */
  tables: GraderRow[];
  /** Each grader's value per dimension (lib/scoring/study-values.ts), aligned with graderIds. */
  values: GraderRubricValues[];
  /** Each grader's totals (rubric -> total -> value), aligned with graderIds, when known. */
  totals?: Record<string, Record<string, number | null>>[];
}

export const AGREEMENT_NOTE =
  "Agreement between the primary graders (adjudicators excluded). A dimension graded once per response set (on its first answer or the whole set) is compared set by set; " +
  "a dimension graded on each answer is compared answer by answer (per-answer scores, not the graders' means over the N answers). " +
  "Gwet's AC2 uses quadratic weights over the dimension's full scale; Krippendorff's alpha is ordinal. " +
  "A nominal dimension (categories with no order) has Gwet's AC1, Fleiss' kappa and Krippendorff's alpha for nominal data instead.";

export const ICC_NOTE: Record<"pool" | "crossed", string> = {
  pool:
    "ICC(1,k): one-way random effects, average of the k primary ratings. Each response set is graded by its own draw of graders from the study's pool, so there is no rater effect common to all sets to separate (a two-way ICC would assume one); the average-measures form matches the final score, which is the mean of the graders. ICC(1,1) is the reliability of a single grader.",
  crossed:
    "ICC(2,k): two-way random effects, absolute agreement, average of the k primary ratings, because the same k graders graded every set (a crossed design); the average-measures form matches the final score, the graders' mean. ICC(2,1) is the reliability of a single grader.",
};

const est = (value: number | null | undefined, ci: [number, number] | null | undefined, reason: string | null | undefined): Estimate => ({
  value: value ?? null,
  ci: value === null || value === undefined ? null : (ci ?? null),
  reason: value === null || value === undefined ? (reason ?? "not computable") : null,
});

/** Crossed when every set has the same two or more primary graders; else a pool. */
export function designOf(sets: PrimarySet[]): "pool" | "crossed" {
  if (sets.length === 0) return "pool";
  const first = sets[0].graderIds.join(",");
  return sets[0].graderIds.length >= 2 && sets.every((s) => s.graderIds.join(",") === first) ? "crossed" : "pool";
}

export function iccTypesFor(design: "pool" | "crossed"): { average: IccType & ("ICC1k" | "ICC2k"); single: IccType } {
  return design === "crossed" ? { average: "ICC2k", single: "ICC2" } : { average: "ICC1k", single: "ICC1" };
}

export interface MatrixAgreement {
  units: number;
  raters: number;
  pairs: number;
  gwetAC2: Estimate;
  krippendorff: Estimate;
  icc: Estimate;
  iccSingle: Estimate;
  exact: Estimate;
  withinOne: Estimate;
  /** How many ratings gave each value of the scale, lowest first. */
  distribution: { value: number; count: number }[];
}

/**
 * Why high agreement can sit beside a low chance-corrected coefficient: when
 * most ratings are one value, the agreement expected by chance is itself high,
 * so Krippendorff's alpha (like kappa) is low although the graders nearly
 * always agree (the "kappa paradox"); Gwet's AC2 does not collapse that way.
 * Null when the two coefficients do not tell different stories.
 */
export function agreementParadox(a: Pick<MatrixAgreement, "gwetAC2" | "krippendorff" | "exact" | "distribution">): string | null {
  const ac2 = a.gwetAC2.value;
  const alpha = a.krippendorff.value;
  if (ac2 === null || alpha === null || ac2 < 0.6 || ac2 - alpha < 0.3) return null;
  const total = a.distribution.reduce((n, d) => n + d.count, 0);
  if (total === 0) return null;
  const mode = a.distribution.reduce((m, d) => (d.count > m.count ? d : m));
  const share = Math.round((100 * mode.count) / total);
  const exact = a.exact.value === null ? "" : `, graders gave the same score ${Math.round(100 * a.exact.value)}% of the time`;
  return (
    `${share}% of the ratings are ${mode.value}${exact}. On a scale used this unevenly, the agreement expected by chance is high, ` +
    `so Krippendorff's alpha (like kappa) stays low although the graders agree: the kappa paradox. Gwet's AC2 is robust to it; report both, with the distribution.`
  );
}

/** Every agreement statistic of one rating matrix (rows = units, columns = raters), on the scale [min, max]. */
export function matrixAgreement(matrix: ReadonlyArray<ReadonlyArray<Rating>>, scale: [number, number], design: "pool" | "crossed"): MatrixAgreement {
  const categories: number[] = [];
  for (let v = scale[0]; v <= scale[1]; v++) categories.push(v);
  // Every statistic here depends on the multiset of rows only, and a study's matrix repeats a few
  // patterns of scores: each distinct row is read once, weighted by how often it occurs.
  const { rows, counts } = ratingPatterns(matrix.map((row) => row.map((v) => (typeof v === "number" && Number.isFinite(v) ? v : null))));
  let units = 0;
  let raters = 0;
  let pairs = 0;
  let equal = 0;
  let near = 0;
  for (let u = 0; u < rows.length; u++) {
    const row = rows[u];
    const times = counts[u];
    let present = 0;
    for (let i = 0; i < row.length; i++) {
      const a = row[i];
      if (typeof a !== "number" || !Number.isFinite(a)) continue;
      present++;
      for (let j = i + 1; j < row.length; j++) {
        const b = row[j];
        if (typeof b !== "number" || !Number.isFinite(b)) continue;
        pairs += times;
        const d = Math.abs(a - b);
        if (d === 0) equal += times;
        if (d <= 1) near += times;
      }
    }
    if (present >= 2) units += times;
    if (present > raters) raters = present;
  }
  const { average } = iccTypesFor(design);
  const g = gwetAC2(rows, { categories, weights: "quadratic", counts });
  const k = krippendorffAlpha(rows, { level: "ordinal", counts });
  const iA = icc(rows, { type: average, counts });
  // The single-rater ICC of the same model by Spearman-Brown, r1 = rk / (k - (k - 1) rk): algebraically
  // pingouin's ICC1 / ICC2 from the same mean squares (and their interval bounds map the same way), so
  // the matrix is not analysed twice.
  const sb = (v: number) => v / (iA.k - (iA.k - 1) * v);
  const iS = { icc: iA.icc === null ? null : sb(iA.icc), ci: iA.ci ? ([sb(iA.ci[0]), sb(iA.ci[1])] as [number, number]) : null, reason: iA.reason };
  const noPairs = "no unit was rated by two primary graders";
  const tally = new Map<number, number>(categories.map((c) => [c, 0]));
  rows.forEach((row, u) => {
    for (const v of row) if (v !== null && tally.has(v)) tally.set(v, tally.get(v)! + counts[u]);
  });
  return {
    distribution: categories.map((value) => ({ value, count: tally.get(value)! })),
    units,
    raters,
    pairs,
    gwetAC2: est(g.coefficient, g.ci, g.reason),
    krippendorff: est(k.alpha, null, k.reason),
    icc: est(iA.icc, iA.ci, iA.reason),
    iccSingle: est(iS.icc, iS.ci, iS.reason),
    exact: pairs > 0 ? est(equal / pairs, null, null) : est(null, null, noPairs),
    withinOne: pairs > 0 ? est(near / pairs, null, null) : est(null, null, noPairs),
  };
}

/**
 * The rating matrix of one ordinal dimension: rows = units, columns = the set's
 * primaries. A dimension scored on each answer is compared answer by answer
 * (the scores the graders chose, not their means); a derived one on the
 * graders' derived values; N/A is a missing rating.
 */
export function dimensionMatrix(sets: PrimarySet[], rubric: RubricDocument, dimension: string, n: number): { rows: (number | null)[][]; unit: "set" | "answer" } {
  const def = rubric.dimensions.find((d) => d.key === dimension)!;
  const rows: (number | null)[][] = [];
  if (def.derived) {
    for (const s of sets) rows.push(s.values.map((v) => {
      const x = v[rubric.key]?.[dimension];
      return typeof x === "number" ? x : null;
    }));
    return { rows, unit: "set" };
  }
  const slot = sets.length ? slotIndex(sets[0].tables[0].layout, rubric.key, dimension) : -1;
  const scoreOf = (row: GraderRow, r: number) => scoreAtSlot(row, slot, r);
  if (def.scope === "each_answer") {
    for (const s of sets) for (let r = 1; r <= n; r++) rows.push(s.tables.map((t) => scoreOf(t, r)));
    return { rows, unit: "answer" };
  }
  const rep = def.scope === "set" ? 0 : 1;
  for (const s of sets) rows.push(s.tables.map((t) => scoreOf(t, rep)));
  return { rows, unit: "set" };
}

const ordinalDims = (r: RubricDocument) => r.dimensions.filter((d) => d.scale.kind === "ordinal");

/** A nominal dimension's rating matrix, each category as its place among the levels (0, 1, ...); N/A is missing. */
export function nominalMatrix(sets: PrimarySet[], rubric: RubricDocument, dimension: string, n: number): { rows: (number | null)[][]; unit: "set" | "answer" } {
  const def = rubric.dimensions.find((d) => d.key === dimension)!;
  const levels = (def.scale.levels ?? []).map((l) => String(l.value));
  const at = (row: GraderRow, r: number) => {
    const category = rowCategory(row, rubric.key, dimension, r);
    return category === null ? null : levels.indexOf(category);
  };
  const rows: (number | null)[][] = [];
  if (def.scope === "each_answer") {
    for (const s of sets) for (let r = 1; r <= n; r++) rows.push(s.tables.map((t) => at(t, r)));
    return { rows, unit: "answer" };
  }
  const rep = def.scope === "set" ? 0 : 1;
  for (const s of sets) rows.push(s.tables.map((t) => at(t, rep)));
  return { rows, unit: "set" };
}

/** Agreement on categories: Gwet's AC1, Fleiss' kappa, Krippendorff's alpha (nominal), exact agreement. */
export function nominalAgreement(rows: ReadonlyArray<ReadonlyArray<Rating>>, k: number): Omit<MatrixAgreement, "icc" | "iccSingle" | "withinOne"> & { fleiss: Estimate } {
  const categories = Array.from({ length: k }, (_, i) => i);
  const base = matrixAgreement(rows, [0, k - 1], "pool");
  const g = gwetAC1(rows, { categories });
  const f = fleissKappa(rows, { categories });
  const a = krippendorffAlpha(rows, { level: "nominal" });
  return { ...base, gwetAC2: est(g.coefficient, g.ci, g.reason), krippendorff: est(a.alpha, null, a.reason), fleiss: est(f.kappa, null, f.reason) };
}

/**
 * How often each dimension triggered escalation: per set, the study's rule
 * (`dimensionDisagrees`, as `findDisagreements` applies it) on the primaries'
 * values. Counted over the sets where the dimension has at least two values.
 */
export function triggerRates(sets: PrimarySet[], rubrics: readonly RubricDocument[], thresholds: Thresholds, overrides: EscalationOverrides = {}): Map<string, { triggered: number; sets: number }> {
  const out = new Map<string, { triggered: number; sets: number }>();
  // Dimension by dimension over the sets, with escalation's own rule (dimensionDisagrees): one reused list, no record per set.
  const xs: DimensionValue[] = [];
  for (const r of rubrics) {
    for (const d of r.dimensions) {
      const rate = { triggered: 0, sets: 0 };
      out.set(`${r.key}.${d.key}`, rate);
      const kind = d.scale.kind;
      // A preference axis has no grade to agree on (pairwise studies keep Preference rows).
      if (kind === "preference") continue;
      const rule = studyRule(d, thresholds[r.key]?.[d.key], overrides[r.key]?.[d.key]);
      for (const s of sets) {
        xs.length = 0;
        for (const v of s.values) {
          const x = v[r.key]?.[d.key];
          if (x !== undefined) xs.push(x);
        }
        if (xs.length < 2) continue;
        rate.sets++;
        if (kind !== "criteria" && dimensionDisagrees(kind, xs, rule)) rate.triggered++;
      }
    }
  }
  return out;
}

/** The agreement table: one row per ordinal dimension of each rubric shown. */
export function agreementRows(sets: PrimarySet[], rubrics: readonly RubricDocument[], n: number, thresholds: Thresholds, overrides: EscalationOverrides = {}): { design: "pool" | "crossed"; rows: AgreementRow[] } {
  const design = designOf(sets);
  const triggers = triggerRates(sets, rubrics, thresholds, overrides);
  const rows: AgreementRow[] = [];
  for (const r of rubrics) {
    for (const d of ordinalDims(r)) {
      const { min, max } = ordinalRange(d);
      const { rows: matrix, unit } = dimensionMatrix(sets, r, d.key, n);
      const a = matrixAgreement(matrix, [min, max], design);
      const t = triggers.get(`${r.key}.${d.key}`)!;
      const threshold = thresholds[r.key]?.[d.key] ?? null;
      rows.push({
        rubric: r.key,
        dimension: d.key,
        label: d.name,
        scale: [min, max],
        unit,
        units: a.units,
        raters: a.raters,
        gwetAC2: a.gwetAC2,
        krippendorff: a.krippendorff,
        icc: a.icc,
        iccSingle: a.iccSingle,
        iccType: iccTypesFor(design).average,
        exact: a.exact,
        withinOne: a.withinOne,
        pairs: a.pairs,
        distribution: a.distribution,
        paradox: agreementParadox(a),
        triggered: t.sets > 0 ? est(t.triggered / t.sets, null, null) : est(null, null, "no set has two primary values for this dimension"),
        threshold,
        kind: "ordinal",
        fleiss: null,
        categories: null,
      });
    }
    for (const d of r.dimensions.filter((x) => x.scale.kind === "nominal")) {
      const labels = (d.scale.levels ?? []).map((l) => l.label);
      const { rows: matrix, unit } = nominalMatrix(sets, r, d.key, n);
      const a = nominalAgreement(matrix, labels.length);
      const t = triggers.get(`${r.key}.${d.key}`)!;
      const unordered = est(null, null, "the categories have no order");
      rows.push({
        rubric: r.key,
        dimension: d.key,
        label: d.name,
        scale: [0, labels.length - 1],
        unit,
        units: a.units,
        raters: a.raters,
        gwetAC2: a.gwetAC2,
        krippendorff: a.krippendorff,
        icc: unordered,
        iccSingle: unordered,
        iccType: iccTypesFor(design).average,
        exact: a.exact,
        withinOne: unordered,
        pairs: a.pairs,
        distribution: a.distribution,
        paradox: agreementParadox(a),
        triggered: t.sets > 0 ? est(t.triggered / t.sets, null, null) : est(null, null, "no set has two primary values for this dimension"),
        threshold: null,
        kind: "nominal",
        fleiss: a.fleiss,
        categories: labels,
      });
    }
  }
  return { design, rows };
}

/** Escalation rate from set statuses: escalated (awaiting adjudication or adjudicated) / sets whose primaries all submitted. */
export function escalationRate(statuses: Iterable<string>): AgreementBlock["escalation"] {
  let escalated = 0;
  let completed = 0;
  for (const s of statuses) {
    if (s === "AGREED") completed++;
    else if (s === "AWAITING_ADJUDICATION" || s === "ADJUDICATED") {
      completed++;
      escalated++;
    }
  }
  return completed > 0
    ? { rate: escalated / completed, escalated, completed, reason: null }
    : { rate: null, escalated, completed, reason: "no response set has all its primary grades yet" };
}
