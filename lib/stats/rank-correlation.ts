/**
 * Spearman's rho with a confidence interval, and where two paired measures disagree most by rank.
 *
 * The interval: Fisher's z = atanh(rho), z ± q * se, back through tanh, with the standard error
 * Bonett & Wright (2000, Psychometrika 65:23-28) give for Spearman's rho,
 * se = sqrt((1 + rho^2 / 2) / (n - 3)): the plain 1 / sqrt(n - 3) is Pearson's and too narrow for
 * rho. It needs n >= 4. |rho| = 1 gives [rho, rho] (atanh is infinite there).
 */
import type { Degenerate, Interval, Rating } from "./types";
import { normalPpf } from "./quantiles";
import { averageRanks, rhoOfRanks, spearman, type SpearmanResult } from "./spearman";
import { isPresent } from "./internal";

export const SPEARMAN_CI_METHOD = "Fisher z interval with the Bonett-Wright standard error sqrt((1 + rho^2/2) / (n - 3))";

export interface SpearmanCIResult extends Degenerate {
  rho: number | null;
  n: number;
  /** null when rho is, or n < 4. */
  ci: Interval | null;
}

/** The Fisher-z interval of a Spearman rho from n pairs (Bonett-Wright standard error); null when n < 4. */
export function spearmanInterval(rho: number, n: number, level = 0.95): Interval | null {
  if (!(n >= 4) || !Number.isFinite(rho) || !(level > 0 && level < 1)) return null;
  const z = Math.atanh(Math.max(-1, Math.min(1, rho)));
  const se = Math.sqrt((1 + (rho * rho) / 2) / (n - 3));
  const q = normalPpf(1 - (1 - level) / 2);
  return [Math.tanh(z - q * se), Math.tanh(z + q * se)];
}

/** Spearman's rho of the complete pairs and its interval (spearmanInterval). */
export function spearmanCI(x: ReadonlyArray<Rating>, y: ReadonlyArray<Rating>, level = 0.95): SpearmanCIResult {
  return withInterval(spearman(x, y), level);
}

/**
 * The same from average ranks of n complete pairs (averageRanks of each side over the same units):
 * for a caller that ranks each variable once and pairs it with many others.
 */
export function spearmanCIOfRanks(rx: ArrayLike<number>, ry: ArrayLike<number>, level = 0.95): SpearmanCIResult {
  return withInterval(rhoOfRanks(rx, ry), level);
}

function withInterval(r: SpearmanResult, level: number): SpearmanCIResult {
  if (r.rho === null) return { rho: null, n: r.n, ci: null, reason: r.reason };
  const ci = spearmanInterval(r.rho, r.n, level);
  return ci ? { rho: r.rho, n: r.n, ci } : { rho: r.rho, n: r.n, ci: null, reason: "the interval needs at least four complete pairs" };
}

/**
 * Percentile ranks in [0, 1]: (average rank - 1) / (n - 1), ties sharing theirs; 0.5 for a lone
 * value. Missing values stay null and do not count in n.
 */
export function percentileRanks(values: ReadonlyArray<Rating>): (number | null)[] {
  const at: number[] = [];
  const present: number[] = [];
  values.forEach((v, i) => {
    if (isPresent(v)) {
      at.push(i);
      present.push(v);
    }
  });
  const out: (number | null)[] = values.map(() => null);
  const n = present.length;
  const ranks = averageRanks(present);
  at.forEach((i, j) => (out[i] = n === 1 ? 0.5 : (ranks[j] - 1) / (n - 1)));
  return out;
}

export interface RankGap {
  /** Index of the unit in the input. */
  index: number;
  /** Percentile rank of x and of y (percentileRanks over the complete pairs). */
  xRank: number;
  yRank: number;
  /** xRank - yRank: positive when x ranks the unit higher than y does. */
  gap: number;
}

/**
 * Where x and y disagree most by rank, over the complete pairs: the `k` units with the largest
 * positive gap (x high, y low) and the `k` with the most negative (x low, y high), largest first;
 * ties keep input order. A unit with no gap (0) is in neither list.
 */
export function rankDisagreements(x: ReadonlyArray<Rating>, y: ReadonlyArray<Rating>, k: number): { xHigh: RankGap[]; yHigh: RankGap[] } {
  const idx: number[] = [];
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (isPresent(x[i]) && isPresent(y[i])) idx.push(i);
  const px = percentileRanks(idx.map((i) => x[i]));
  const py = percentileRanks(idx.map((i) => y[i]));
  const gaps: RankGap[] = idx.map((index, j) => ({ index, xRank: px[j]!, yRank: py[j]!, gap: px[j]! - py[j]! }));
  const xHigh = gaps.filter((g) => g.gap > 0).sort((a, b) => b.gap - a.gap || a.index - b.index).slice(0, k);
  const yHigh = gaps.filter((g) => g.gap < 0).sort((a, b) => a.gap - b.gap || a.index - b.index).slice(0, k);
  return { xHigh, yHigh };
}
