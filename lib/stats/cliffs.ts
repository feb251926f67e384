/**
 * Cliff's delta (Cliff 1993): delta = (#{x_i > y_j} - #{x_i < y_j}) / (n m), ties counting 0;
 * positive when x tends to be larger (the sign convention of R effsize::cliff.delta and the
 * Python cliffs_delta package).
 *
 * Magnitude labels follow Romano et al. (2006) as used by effsize and paper 000 (shared/papers):
 * |delta| < 0.147 negligible, < 0.33 small, < 0.474 medium, otherwise large; a value exactly
 * on a threshold takes the higher class (effsize uses findInterval on the thresholds).
 */
import type { Degenerate, Interval, Rating } from "./types";
import { isPresent } from "./internal";
import { type BootstrapOptions, mulberry32, percentileInterval, resolveBootstrapOptions } from "./bootstrap";

export type CliffMagnitude = "negligible" | "small" | "medium" | "large";

export interface CliffsDeltaResult extends Degenerate {
  delta: number | null;
  magnitude: CliffMagnitude | null;
  /** Present values in x and y. */
  n: number;
  m: number;
}

/** Romano et al. (2006) thresholds, exact threshold -> higher class. */
export function cliffsMagnitude(delta: number): CliffMagnitude {
  const d = Math.abs(delta);
  if (d < 0.147) return "negligible";
  if (d < 0.33) return "small";
  if (d < 0.474) return "medium";
  return "large";
}

function present(values: ReadonlyArray<Rating>): number[] {
  const out: number[] = [];
  for (const v of values) if (isPresent(v)) out.push(v);
  return out;
}

/**
 * Dominance count sum_i sum_j sign(x_i - y_j) from two ascending-sorted arrays, by a single
 * merge-like sweep: for each x (ascending) `lo` = #{y < x} and `hi` = #{y <= x} only move
 * forward. O(n + m) after the O(n log n + m log m) sorts.
 */
function dominanceSorted(xs: Float64Array, ys: Float64Array): number {
  const m = ys.length;
  let lo = 0;
  let hi = 0;
  let dominance = 0;
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i];
    while (lo < m && ys[lo] < x) lo++;
    if (hi < lo) hi = lo;
    while (hi < m && ys[hi] <= x) hi++;
    dominance += lo - (m - hi); // #{y < x} - #{y > x}
  }
  return dominance;
}

function fromSorted(xs: Float64Array, ys: Float64Array): number {
  // The dominance count is an integer below 2^53 for any realistic n*m, so this is exact
  // up to the final division.
  return dominanceSorted(xs, ys) / (xs.length * ys.length);
}

/** Cliff's delta in O((n + m) log(n + m)): sort both samples, then count by a merge sweep. */
export function cliffsDelta(x: ReadonlyArray<Rating>, y: ReadonlyArray<Rating>): CliffsDeltaResult {
  const xv = present(x);
  const yv = present(y);
  const n = xv.length;
  const m = yv.length;
  if (n === 0 || m === 0) {
    return { delta: null, magnitude: null, n, m, reason: "each group needs at least one value" };
  }
  // Float64Array#sort is numeric (not lexicographic) and fast.
  const delta = fromSorted(Float64Array.from(xv).sort(), Float64Array.from(yv).sort());
  return { delta, magnitude: cliffsMagnitude(delta), n, m };
}

/**
 * The textbook O(n m) double loop. Kept as the reference the fast version is tested and
 * benchmarked against; do not use it on large samples.
 */
export function cliffsDeltaNaive(x: ReadonlyArray<Rating>, y: ReadonlyArray<Rating>): number | null {
  const xv = present(x);
  const yv = present(y);
  if (xv.length === 0 || yv.length === 0) return null;
  let dominance = 0;
  for (const a of xv) {
    for (const b of yv) {
      if (a > b) dominance++;
      else if (a < b) dominance--;
    }
  }
  return dominance / (xv.length * yv.length);
}

/**
 * A bootstrap replicate of delta by counting how often each value is drawn instead of sorting
 * the draws: given the replicate's drawn positions in x and in y (`resample`'s draws), the same
 * integer dominance count as on the resampled arrays, so the same replicate. The distinct values
 * are sorted once; each replicate then costs O(n + m + distinct values) <= O(2 (n + m)), against
 * O((n + m) log(n + m)) for sorting the draws, so it pays for continuous scores too (a mean over
 * graders: thousands of distinct values).
 */
function levelTallies(xv: readonly number[], yv: readonly number[]): (xs: Int32Array, ys: Int32Array) => number {
  const values = Float64Array.from(new Set([...xv, ...yv])).sort();
  const index = new Map<number, number>();
  values.forEach((v, i) => index.set(v, i));
  const xi = Int32Array.from(xv, (v) => index.get(v)!);
  const yi = Int32Array.from(yv, (v) => index.get(v)!);
  const L = values.length;
  const cx = new Float64Array(L);
  const cy = new Float64Array(L);
  return (xs, ys) => {
    cx.fill(0);
    cy.fill(0);
    for (let i = 0; i < xs.length; i++) cx[xi[xs[i]]]++;
    for (let i = 0; i < ys.length; i++) cy[yi[ys[i]]]++;
    // sum over x of #{y < x} - #{y > x}, level by level.
    let below = 0;
    let dominance = 0;
    for (let l = 0; l < L; l++) {
      const above = yi.length - below - cy[l];
      dominance += cx[l] * (below - above);
      below += cy[l];
    }
    return dominance / (xi.length * yi.length);
  };
}

export interface CliffsDeltaCIResult extends CliffsDeltaResult {
  /** Percentile bootstrap interval of delta, or null (see `reason`). */
  ci: Interval | null;
  level: number;
  resamples: number;
}

/**
 * Cliff's delta with a percentile bootstrap interval. The two groups are independent samples,
 * so each is resampled independently (with replacement, at its own size) in every replicate.
 */
export function cliffsDeltaCI(
  x: ReadonlyArray<Rating>,
  y: ReadonlyArray<Rating>,
  options: BootstrapOptions = {},
): CliffsDeltaCIResult {
  return cliffsDeltaCIs([{ x, y }], options)[0];
}

/**
 * cliffsDeltaCI of several comparisons with the same options (a family of model pairs). Each
 * replicate draws its positions from mulberry32(seed), n in x then m in y, so comparisons whose
 * samples have the same sizes draw the same positions: those are drawn once per replicate for
 * all of them, and only the tallies are per comparison. Each result is cliffsDeltaCI's own
 * (tested); a journal table of six model pairs draws a sixth of the random numbers.
 */
export function cliffsDeltaCIs(comparisons: ReadonlyArray<{ x: ReadonlyArray<Rating>; y: ReadonlyArray<Rating> }>, options: BootstrapOptions = {}): CliffsDeltaCIResult[] {
  const { resamples, level, seed, reason } = resolveBootstrapOptions(options);
  const out = new Array<CliffsDeltaCIResult>(comparisons.length);
  const bySize = new Map<string, { n: number; m: number; members: number[] }>();
  comparisons.forEach(({ x, y }, k) => {
    const point = cliffsDelta(x, y);
    out[k] = { ...point, ci: null, level, resamples };
    if (point.delta === null) return;
    if (reason) {
      out[k].reason = reason;
      return;
    }
    const key = `${point.n}:${point.m}`;
    const group = bySize.get(key);
    if (group) group.members.push(k);
    else bySize.set(key, { n: point.n, m: point.m, members: [k] });
  });
  for (const { n, m, members } of bySize.values()) {
    const tallies = members.map((k) => levelTallies(present(comparisons[k].x), present(comparisons[k].y)));
    const replicates = members.map(() => new Array<number>(resamples));
    const rng = mulberry32(seed);
    const xs = new Int32Array(n);
    const ys = new Int32Array(m);
    for (let b = 0; b < resamples; b++) {
      for (let i = 0; i < n; i++) xs[i] = Math.floor(rng() * n);
      for (let i = 0; i < m; i++) ys[i] = Math.floor(rng() * m);
      for (let t = 0; t < members.length; t++) replicates[t][b] = tallies[t](xs, ys);
    }
    members.forEach((k, t) => {
      const ci = percentileInterval(replicates[t], level);
      out[k] = ci === null ? { ...out[k], ci, reason: "bootstrap interval undefined" } : { ...out[k], ci };
    });
  }
  return out;
}
