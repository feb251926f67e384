import { tPpf } from "./quantiles";
import type { Degenerate, Interval, Rating } from "./types";

/**
 * Bland-Altman agreement of two methods on the same units: the mean
 * difference (bias, a - b) and the 95% limits of agreement, bias +- 1.96 SD
 * of the differences (SD with n - 1). Pairs with a missing value are left out.
 */
export interface BlandAltmanResult extends Degenerate {
  /** Mean of a - b. */
  bias: number | null;
  /** SD of the differences (n - 1). */
  sd: number | null;
  /** bias - 1.96 SD, bias + 1.96 SD. */
  limits: Interval | null;
  /** t interval of the bias. */
  biasCi: Interval | null;
  n: number;
}

const ok = (v: Rating): v is number => typeof v === "number" && Number.isFinite(v);

export function blandAltman(a: ReadonlyArray<Rating>, b: ReadonlyArray<Rating>, level = 0.95): BlandAltmanResult {
  if (a.length !== b.length) return { bias: null, sd: null, limits: null, biasCi: null, n: 0, reason: `a and b must be paired (lengths ${a.length} and ${b.length})` };
  const d: number[] = [];
  for (let i = 0; i < a.length; i++) if (ok(a[i]) && ok(b[i])) d.push((a[i] as number) - (b[i] as number));
  const n = d.length;
  if (n === 0) return { bias: null, sd: null, limits: null, biasCi: null, n, reason: "no unit has both values" };
  const bias = d.reduce((s, x) => s + x, 0) / n;
  if (n < 2) return { bias, sd: null, limits: null, biasCi: null, n, reason: "fewer than two pairs: no spread" };
  const sd = Math.sqrt(d.reduce((s, x) => s + (x - bias) ** 2, 0) / (n - 1));
  const t = tPpf(1 - (1 - level) / 2, n - 1);
  const se = sd / Math.sqrt(n);
  return { bias, sd, limits: [bias - 1.96 * sd, bias + 1.96 * sd], biasCi: [bias - t * se, bias + t * se], n };
}
