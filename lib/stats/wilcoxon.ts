/**
 * Wilcoxon signed-rank test for paired samples, two-sided, as R `wilcox.test(x, y, paired = TRUE)`
 * with its defaults:
 * - differences d = x - y; pairs with a missing value are dropped; zero differences are dropped
 *   (zero.method "wilcox") and n counts the non-zero ones;
 * - V = sum of the ranks of |d| (average ranks for ties) where d > 0;
 * - exact p (the signed-rank null distribution, counted exactly) when n < 50 and there are
 *   neither ties nor zeros; otherwise the normal approximation with tie-corrected variance
 *   n(n+1)(2n+1)/24 - sum(t^3 - t)/48 and continuity correction 0.5 (R `correct = TRUE`).
 * `statistic` is R's V; `minStatistic` = min(W+, W-) is what scipy.stats.wilcoxon reports.
 */
import type { Degenerate, Rating } from "./types";
import { isPresent } from "./internal";
import { averageRanks } from "./spearman";
import { normalCdf } from "./quantiles";

export interface WilcoxonOptions {
  /** Continuity correction in the normal approximation (default true, as R). */
  correct?: boolean;
  /** Force the exact (true) or normal (false) p; default: exact when n < 50 without ties or zeros. */
  exact?: boolean;
}

export interface WilcoxonResult extends Degenerate {
  /** R's V = W+. */
  statistic: number | null;
  /** min(W+, W-), scipy's statistic. */
  minStatistic: number | null;
  p: number | null;
  method: "exact" | "normal" | null;
  /** Standardised statistic of the normal approximation (null when exact). */
  z: number | null;
  /** Non-zero differences used, and zero differences dropped. */
  n: number;
  zeros: number;
}

/** P(V <= q) under the null for n untied ranks: subset-sum counts over 1..n, divided by 2^n. */
function signRankCdf(q: number, n: number): number {
  const max = (n * (n + 1)) / 2;
  const counts = new Float64Array(max + 1);
  counts[0] = 1;
  for (let r = 1; r <= n; r++) for (let s = max; s >= r; s--) counts[s] += counts[s - r];
  let below = 0;
  for (let s = 0; s <= Math.min(q, max); s++) below += counts[s];
  return q < 0 ? 0 : below / 2 ** n;
}

export function wilcoxonSignedRank(
  x: ReadonlyArray<Rating>,
  y: ReadonlyArray<Rating>,
  options: WilcoxonOptions = {},
): WilcoxonResult {
  const correct = options.correct ?? true;
  const none = { statistic: null, minStatistic: null, p: null, method: null, z: null };
  if (x.length !== y.length) return { ...none, n: 0, zeros: 0, reason: `x and y must be paired (lengths ${x.length} and ${y.length})` };
  const d: number[] = [];
  let zeros = 0;
  for (let i = 0; i < x.length; i++) {
    const a = x[i];
    const b = y[i];
    if (!isPresent(a) || !isPresent(b)) continue;
    if (a - b === 0) zeros++;
    else d.push(a - b);
  }
  const n = d.length;
  if (n === 0) return { ...none, n, zeros, reason: zeros > 0 ? "every paired difference is zero" : "no complete pair" };
  const ranks = averageRanks(d.map(Math.abs));
  let wPlus = 0;
  ranks.forEach((r, i) => {
    if (d[i] > 0) wPlus += r;
  });
  const total = (n * (n + 1)) / 2;
  const minStatistic = Math.min(wPlus, total - wPlus);
  const tieCounts = new Map<number, number>();
  for (const r of ranks) tieCounts.set(r, (tieCounts.get(r) ?? 0) + 1);
  const hasTies = tieCounts.size !== n;
  const exact = options.exact ?? n < 50;

  if (exact && !hasTies && zeros === 0) {
    // Upper tail by symmetry, P(V >= w) = P(V <= total - w): no 1 - cdf cancellation.
    const p = signRankCdf(wPlus > total / 2 ? total - wPlus : wPlus, n);
    return { statistic: wPlus, minStatistic, p: Math.min(1, 2 * p), method: "exact", z: null, n, zeros };
  }
  let tieTerm = 0;
  for (const t of tieCounts.values()) tieTerm += t ** 3 - t;
  const sigma = Math.sqrt((n * (n + 1) * (2 * n + 1)) / 24 - tieTerm / 48);
  if (!(sigma > 0)) return { ...none, statistic: wPlus, minStatistic, n, zeros, reason: "the differences have no spread" };
  let z = wPlus - total / 2;
  z = (z - (correct ? Math.sign(z) * 0.5 : 0)) / sigma;
  const p = 2 * Math.min(normalCdf(z), normalCdf(-z));
  return { statistic: wPlus, minStatistic, p: Math.min(1, p), method: "normal", z, n, zeros };
}
