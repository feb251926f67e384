/**
 * Gwet's AC1 (unweighted) and AC2 (weighted) agreement coefficients for any number of raters
 * with missing ratings, as irrCAC computes them (kgwet/irrCAC `gwet.ac1.raw`, Python port
 * afergadis/irrCAC `raw.CAC.gwet`); Gwet (2008), Handbook of Inter-Rater Reliability (2014).
 *
 * With r_ik = raters putting unit i in category k, r_i = sum_k r_ik, r*_ik = sum_l w_kl r_il:
 *   pa   = mean over units with r_i >= 2 of  sum_k r_ik (r*_ik - 1) / (r_i (r_i - 1))
 *   pi_k = mean over units with r_i >= 1 of  r_ik / r_i
 *   pe   = sum(W) / (q (q - 1)) * sum_k pi_k (1 - pi_k)
 *   AC   = (pa - pe) / (1 - pe)
 * q is the number of declared `categories` (declare the whole scale, e.g. 1..5, so unused
 * levels still count), else the number of distinct values observed.
 */
import type { Degenerate, Interval, RatingMatrix } from "./types";
import {
  type UnitCounts,
  type WeightScheme,
  classificationCounts,
  levelReason,
  normalise,
  resolveCategories,
  weightMatrix,
} from "./internal";
import { tPpf } from "./quantiles";
import { type Category, type NominalMatrix, encodeNominal } from "./categories";
import { type BootstrapOptions, type BootstrapResult, bootstrapCI } from "./bootstrap";

export interface GwetOptions extends UnitCounts {
  /** The full rating scale (recommended); defaults to the values observed. */
  categories?: ReadonlyArray<number>;
  /** Confidence level of the analytic interval (default 0.95). */
  level?: number;
}

export interface GwetAC2Options extends GwetOptions {
  /** Agreement weights on category values (default "quadratic", as in paper 002). */
  weights?: WeightScheme;
}

export interface GwetResult extends Degenerate {
  /** AC1 (identity weights) or AC2 (weighted), or null (see `reason`). */
  coefficient: number | null;
  /** Weighted percent agreement. */
  pa: number | null;
  /** Chance agreement. */
  pe: number | null;
  /** Standard error (irrCAC linearisation; see `gwetAC2`). */
  se: number | null;
  /** t interval with n - 1 df, upper bound capped at 1 (irrCAC convention). */
  ci: Interval | null;
  /** Units with at least one rating. */
  n: number;
  /** Number of categories q. */
  q: number;
}

const empty = (n: number, q: number, reason: string): GwetResult => ({
  coefficient: null,
  pa: null,
  pe: null,
  se: null,
  ci: null,
  n,
  q,
  reason,
});

export interface GwetAC1Options {
  /** The full set of categories, numbers or labels (recommended); defaults to those observed. */
  categories?: ReadonlyArray<Category>;
  level?: number;
}

/**
 * Gwet's AC1: AC2 with identity weights. Categories may be labels ("a", "b") as well as
 * numbers: only equality matters, so labels are encoded as codes first (see categories.ts).
 */
export function gwetAC1(rows: NominalMatrix, options: GwetAC1Options = {}): GwetResult {
  const encoded = encodeNominal(rows, options.categories);
  if (encoded.reason) {
    const q = encoded.categories?.length ?? encoded.labels.length;
    const n = encoded.rows.filter((row) => row.some((v) => v !== null)).length;
    return empty(n, q, encoded.reason);
  }
  return gwetAC2(encoded.rows, { level: options.level, categories: encoded.categories, weights: "identity" });
}

/**
 * Gwet's AC2 (weights default to quadratic).
 *
 * Standard error: irrCAC offers two variance formulas. For two raters who both rated every unit
 * the data are a 2 x 2 contingency table, and we use the contingency-table variance
 * (`gwet.ac1.table`; Gwet 2008), which is what Gwet's published two-rater example reports
 * (AC2 0.9402, CI 0.90468-0.97579). Otherwise we use the multi-rater linearisation of
 * `gwet.ac1.raw`, which handles missing ratings. The point estimate is the same either way.
 */
export function gwetAC2(rows: RatingMatrix, options: GwetAC2Options = {}): GwetResult {
  const scheme: WeightScheme = options.weights ?? "quadratic";
  const level = options.level ?? 0.95;
  const { data, k: columns } = normalise(rows);
  const resolved = resolveCategories(data, options.categories);
  const categories = resolved.categories;
  const q = categories.length;
  if (scheme !== "identity" && scheme !== "linear" && scheme !== "quadratic") {
    return empty(0, q, `unknown weights "${String(scheme)}"`);
  }
  const { r, ri, w: units } = classificationCounts(data, categories, options.counts);
  let n = 0;
  for (const c of units) n += c;
  if (resolved.reason) return empty(n, q, resolved.reason);
  const badLevel = levelReason(level);
  if (badLevel) return empty(n, q, badLevel);
  if (n === 0) return empty(n, q, "no ratings");
  if (q < 2) return empty(n, q, "fewer than two categories: declare the rating scale with `categories`");

  const w = weightMatrix(categories, scheme);
  let tw = 0;
  for (const row of w) for (const v of row) tw += v;

  // pa over units rated at least twice; pi_k over units rated at least once.
  const paUnit = new Array<number>(r.length).fill(0);
  const pi = new Array<number>(q).fill(0);
  let n2more = 0;
  let paSum = 0;
  for (let i = 0; i < r.length; i++) {
    const rik = r[i];
    const m = ri[i];
    const times = units[i];
    for (let c = 0; c < q; c++) pi[c] += (times * rik[c]) / m / n;
    if (m < 2) continue;
    let s = 0;
    for (let c = 0; c < q; c++) {
      if (rik[c] === 0) continue;
      let star = 0;
      for (let l = 0; l < q; l++) star += w[c][l] * rik[l];
      s += rik[c] * (star - 1);
    }
    paUnit[i] = s / (m * (m - 1));
    paSum += times * paUnit[i];
    n2more += times;
  }
  if (n2more === 0) return empty(n, q, "no unit was rated by two or more raters");

  const pa = paSum / n2more;
  let spread = 0;
  for (const p of pi) spread += p * (1 - p);
  const pe = (tw / (q * (q - 1))) * spread;
  if (!(1 - pe > 1e-12)) return empty(n, q, "chance agreement is 1, so the coefficient is undefined");
  const coefficient = (pa - pe) / (1 - pe);

  // Raters = columns holding at least one rating (an empty column is not a rater).
  let raters = 0;
  for (let j = 0; j < columns; j++) if (data.some((row) => row[j] !== null)) raters++;
  const twoRaterTable = raters === 2 && ri.every((m) => m === 2);
  const variance = twoRaterTable
    ? tableVariance(r, units, n, w, pi, tw, pa, pe, coefficient)
    : rawVariance(r, ri, units, n, pi, tw, pe, coefficient, paUnit, n2more);
  const se = Number.isFinite(variance) ? Math.sqrt(Math.max(0, variance)) : null;

  let ci: Interval | null = null;
  if (se !== null && n >= 2) {
    const t = tPpf(1 - (1 - level) / 2, n - 1);
    ci = [coefficient - t * se, Math.min(1, coefficient + t * se)];
  }
  const result: GwetResult = { coefficient, pa, pe, se, ci, n, q };
  if (ci === null) result.reason = "interval needs at least two rated units";
  return result;
}

/**
 * irrCAC `gwet.ac1.raw` variance (finite-population correction f = 0):
 *   ac_i   = (n / n2more) (pa_i - pe [r_i >= 2]) / (1 - pe)
 *   pe_i   = sum(W) / (q (q-1)) * sum_k r_ik (1 - pi_k) / r_i
 *   ac*_i  = ac_i - 2 (1 - AC) (pe_i - pe) / (1 - pe)
 *   var    = sum_i (ac*_i - AC)^2 / (n (n - 1))
 */
function rawVariance(
  r: number[][],
  ri: number[],
  units: number[],
  n: number,
  pi: number[],
  tw: number,
  pe: number,
  ac: number,
  paUnit: number[],
  n2more: number,
): number {
  const q = pi.length;
  if (n < 2) return Number.NaN;
  let ss = 0;
  for (let i = 0; i < r.length; i++) {
    const acI = ((n / n2more) * (paUnit[i] - (ri[i] >= 2 ? pe : 0))) / (1 - pe);
    let dot = 0;
    for (let c = 0; c < q; c++) dot += r[i][c] * (1 - pi[c]);
    const peI = ((tw / (q * (q - 1))) * dot) / ri[i];
    const x = acI - (2 * (1 - ac) * (peI - pe)) / (1 - pe);
    ss += units[i] * (x - ac) ** 2;
  }
  return ss / (n * (n - 1));
}

/**
 * irrCAC `gwet.ac1.table` variance for two raters (f = 0), with p_kl the share of units rated
 * (k, l) and pi_k = (p_k. + p_.k) / 2:
 *   var = [ sum_kl p_kl (w_kl - 2 (1-AC) sum(W) (1 - (pi_k + pi_l)/2) / (q(q-1)))^2
 *           - (pa - 2 (1-AC) pe)^2 ] / (n (1 - pe)^2)
 * Summing over units is the same as summing p_kl over the table.
 */
function tableVariance(
  r: number[][],
  units: number[],
  n: number,
  w: number[][],
  pi: number[],
  tw: number,
  pa: number,
  pe: number,
  ac: number,
): number {
  const q = pi.length;
  let sum1 = 0;
  for (let i = 0; i < r.length; i++) {
    const rik = r[i];
    // The unit's two ratings, as category indices k and l (k = l when both raters agree).
    let k = -1;
    let l = -1;
    for (let c = 0; c < q; c++) {
      if (rik[c] === 2) k = l = c;
      else if (rik[c] === 1) {
        if (k < 0) k = c;
        else l = c;
      }
    }
    const term = w[k][l] - (2 * (1 - ac) * tw * (1 - (pi[k] + pi[l]) / 2)) / (q * (q - 1));
    sum1 += units[i] * term * term;
  }
  sum1 /= n;
  return (sum1 - (pa - 2 * (1 - ac) * pe) ** 2) / (n * (1 - pe) ** 2);
}

/**
 * Percentile bootstrap interval of AC2 over units (rows are resampled with replacement),
 * as the judge-comparison study (paper 002) reports its agreement intervals. Replicates where
 * AC2 is undefined are left out and counted in `invalid`. Declare `categories`: otherwise q
 * (and so pe) could change between resamples that happen to miss a level.
 */
export function gwetAC2BootstrapCI(
  rows: RatingMatrix,
  options: GwetAC2Options = {},
  bootstrap: BootstrapOptions = {},
): BootstrapResult {
  return bootstrapCI((sample) => gwetAC2(sample, options).coefficient, rows, bootstrap);
}
