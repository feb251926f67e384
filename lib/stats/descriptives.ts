/**
 * Per-model descriptives of scores: n, mean, SD (ddof 1), median, quartiles and IQR. Quantiles
 * are R's default type 7 (= numpy's default "linear"): h = (n - 1) p, linear interpolation
 * between the order statistics around h. Missing values are skipped.
 */
import type { Degenerate, Rating } from "./types";
import { isPresent } from "./internal";
import { describe } from "./describe";

export interface DescriptivesResult extends Degenerate {
  n: number;
  mean: number | null;
  /** Sample SD (ddof 1); null when n < 2. */
  sd: number | null;
  median: number | null;
  q1: number | null;
  q3: number | null;
  /** q3 - q1 (type 7). */
  iqr: number | null;
  min: number | null;
  max: number | null;
  quantileType: 7;
}

/** Type-7 quantile of an ascending-sorted array. */
export function quantileType7(sorted: ArrayLike<number>, p: number): number {
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

export function descriptives(values: ReadonlyArray<Rating>): DescriptivesResult {
  const xs = Float64Array.from(values.filter(isPresent)).sort();
  const basic = describe(values);
  const n = xs.length;
  if (n === 0) {
    return { n, mean: null, sd: null, median: null, q1: null, q3: null, iqr: null, min: null, max: null, quantileType: 7, reason: "no values" };
  }
  if (!Number.isFinite(xs[0]) || !Number.isFinite(xs[n - 1]) || (basic.sd !== null && !Number.isFinite(basic.sd))) {
    return { n, mean: null, sd: null, median: null, q1: null, q3: null, iqr: null, min: null, max: null, quantileType: 7, reason: "values too large to summarise in double precision" };
  }
  const q1 = quantileType7(xs, 0.25);
  const q3 = quantileType7(xs, 0.75);
  const result: DescriptivesResult = {
    n,
    mean: basic.mean,
    sd: basic.sd,
    median: quantileType7(xs, 0.5),
    q1,
    q3,
    iqr: q3 - q1,
    min: xs[0],
    max: xs[n - 1],
    quantileType: 7,
  };
  if (basic.reason) result.reason = basic.reason;
  return result;
}
