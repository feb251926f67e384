/**
 * Spearman's rank correlation: Pearson's r on ranks, ties given their average rank (the
 * convention of scipy.stats.spearmanr and R cor(method = "spearman")). Pairs with a missing
 * value on either side are dropped.
 */
import type { Degenerate, Rating } from "./types";
import { isPresent } from "./internal";

export interface SpearmanResult extends Degenerate {
  rho: number | null;
  /** Complete pairs used. */
  n: number;
}

/** Average ("fractional") ranks, 1-based: tied values share the mean of their positions. */
export function averageRanks(values: ReadonlyArray<number>): number[] {
  const order = values.map((_, i) => i).sort((a, b) => values[a] - values[b]);
  const ranks = new Array<number>(values.length);
  let i = 0;
  while (i < order.length) {
    let j = i;
    while (j + 1 < order.length && values[order[j + 1]] === values[order[i]]) j++;
    const rank = (i + j) / 2 + 1;
    for (let t = i; t <= j; t++) ranks[order[t]] = rank;
    i = j + 1;
  }
  return ranks;
}

export function spearman(x: ReadonlyArray<Rating>, y: ReadonlyArray<Rating>): SpearmanResult {
  if (x.length !== y.length) {
    return { rho: null, n: 0, reason: `x and y must be paired (lengths ${x.length} and ${y.length})` };
  }
  const xs: number[] = [];
  const ys: number[] = [];
  for (let i = 0; i < x.length; i++) {
    const a = x[i];
    const b = y[i];
    if (isPresent(a) && isPresent(b)) {
      xs.push(a);
      ys.push(b);
    }
  }
  return rhoOfRanks(averageRanks(xs), averageRanks(ys));
}

/**
 * Spearman's rho from the average ranks of n complete pairs (averageRanks of each side over the
 * same units): Pearson's r on them. For callers that rank a side once and pair it many times.
 */
export function rhoOfRanks(rx: ArrayLike<number>, ry: ArrayLike<number>): SpearmanResult {
  const n = rx.length;
  if (n < 2) return { rho: null, n, reason: "at least two complete pairs are required" };
  const mean = (n + 1) / 2; // average ranks always average to (n + 1) / 2
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = rx[i] - mean;
    const dy = ry[i] - mean;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx === 0 || syy === 0) {
    return { rho: null, n, reason: "one of the variables is constant, so the correlation is undefined" };
  }
  // Clamp: rounding can push |rho| a hair past 1 for perfectly monotone data.
  const rho = Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)));
  return { rho, n };
}
