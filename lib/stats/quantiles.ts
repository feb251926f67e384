/**
 * Distribution quantiles. All come from @stdlib (the brief forbids hand-written
 * approximations); this file only adapts argument conventions.
 */
import fQuantile from "@stdlib/stats-base-dists-f-quantile";

/**
 * Quantile of the F(d1, d2) distribution: `fPpf(p, d1, d2)` = scipy `f.ppf(p, d1, d2)`,
 * and scipy `f.isf(a, d1, d2)` = `fPpf(1 - a, d1, d2)`.
 */
export function fPpf(p: number, d1: number, d2: number): number {
  return fQuantile(p, d1, d2);
}

/**
 * Quantile of Student's t with `df` degrees of freedom, for p in (0, 1).
 *
 * Uses the identity T^2 ~ F(1, df): for p > 1/2, t_p = sqrt(F_{2p-1}(1, df)), and the t
 * distribution is symmetric. This keeps the quantile on @stdlib's exact F quantile rather
 * than a hand-written approximation (irrCAC's intervals use scipy `stats.t.interval`).
 */
export function tPpf(p: number, df: number): number {
  if (p === 0.5) return 0;
  const upper = p > 0.5;
  const q = upper ? p : 1 - p;
  const t = Math.sqrt(fQuantile(2 * q - 1, 1, df));
  return upper ? t : -t;
}
