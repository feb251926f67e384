/**
 * Distribution quantiles. All come from @stdlib (the brief forbids hand-written
 * approximations); this file only adapts argument conventions.
 */
import fQuantile from "@stdlib/stats-base-dists-f-quantile";
import normalQuantile from "@stdlib/stats-base-dists-normal-quantile";
import gammainc from "@stdlib/math-base-special-gammainc";
import erfc from "@stdlib/math-base-special-erfc";

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

/**
 * Upper tail P(X > x) of the chi-square distribution with `df` degrees of freedom, as R
 * `pchisq(x, df, lower.tail = FALSE)`: the upper regularised incomplete gamma Q(df/2, x/2)
 * from @stdlib, which keeps precision for tiny p values (1 - cdf would round them to 0).
 */
export function chiSquareSf(x: number, df: number): number {
  if (!(x > 0)) return 1;
  return gammainc(x / 2, df / 2, true, true);
}

/** Standard normal CDF Phi(z) = erfc(-z / sqrt 2) / 2, exact in both tails (R `pnorm`). */
export function normalCdf(z: number): number {
  return 0.5 * erfc(-z / Math.SQRT2);
}

/** Standard normal quantile (R `qnorm`, scipy `norm.ppf`). */
export function normalPpf(p: number): number {
  return normalQuantile(p, 0, 1);
}
