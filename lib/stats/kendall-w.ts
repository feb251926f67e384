/**
 * Kendall's coefficient of concordance W for m raters ranking n objects (Kendall & Babington
 * Smith 1939; Siegel & Castellan 1988), as R irr::kendall(ratings, correct) computes it.
 * Rows = objects, columns = raters; objects missing any rating are dropped (listwise, as the
 * cardiology study's `pivot_df.dropna()`). Each rater's ratings become average ranks over the
 * objects; R_i = sum of object i's ranks, S = sum_i (R_i - mean R)^2.
 *   uncorrected  W = 12 S / (m^2 (n^3 - n))                     the published-study convention
 *   corrected    W = 12 S / (m^2 (n^3 - n) - m sum_j T_j),  T_j = sum over rater j's ties (t^3 - t)
 * Chi-square test: X^2 = m (n - 1) W on n - 1 df (the corrected X^2 equals R friedman.test on
 * the transposed table: raters as blocks, objects as groups).
 */
import type { Degenerate, RatingMatrix } from "./types";
import { normalise } from "./internal";
import { averageRanks } from "./spearman";
import { chiSquareSf } from "./quantiles";

export interface KendallWOptions {
  /** Correct the denominator for tied ranks (default true). */
  tieCorrection?: boolean;
}

export interface KendallWResult extends Degenerate {
  w: number | null;
  tieCorrection: boolean;
  chiSquare: number | null;
  df: number;
  p: number | null;
  /** Objects rated by every rater, and raters. */
  n: number;
  raters: number;
}

export function kendallW(rows: RatingMatrix, options: KendallWOptions = {}): KendallWResult {
  const tieCorrection = options.tieCorrection ?? true;
  const { data: all, k } = normalise(rows);
  const keep: number[] = [];
  for (let j = 0; j < k; j++) if (all.some((row) => row[j] !== null)) keep.push(j);
  const m = keep.length;
  const data = all.map((row) => keep.map((j) => row[j])).filter((row): row is number[] => row.every((x) => x !== null));
  const n = data.length;
  const base = { w: null, tieCorrection, chiSquare: null, df: Math.max(0, n - 1), p: null, n, raters: m };
  if (m < 2) return { ...base, reason: `Kendall's W needs at least two raters (got ${m})` };
  if (n < 2) return { ...base, reason: "fewer than two objects were rated by every rater" };

  const R = new Array<number>(n).fill(0);
  let ties = 0;
  for (let j = 0; j < m; j++) {
    const ranks = averageRanks(data.map((row) => row[j]));
    ranks.forEach((r, i) => (R[i] += r));
    const counts = new Map<number, number>();
    for (const row of data) counts.set(row[j], (counts.get(row[j]) ?? 0) + 1);
    for (const t of counts.values()) ties += t ** 3 - t;
  }
  const meanR = (m * (n + 1)) / 2;
  let S = 0;
  for (const r of R) S += (r - meanR) ** 2;
  const denominator = m * m * (n ** 3 - n) - (tieCorrection ? m * ties : 0);
  if (!(denominator > 1e-12)) {
    return { ...base, reason: "every rater tied every object, so W is undefined" };
  }
  const w = (12 * S) / denominator;
  const chiSquare = m * (n - 1) * w;
  return { ...base, w, chiSquare, p: chiSquareSf(chiSquare, n - 1) };
}
