/**
 * Intraclass correlation (Shrout & Fleiss 1979; McGraw & Wong 1996) as
 * `pingouin.intraclass_corr` computes it, from the two-way ANOVA mean squares of a complete
 * targets x raters table (targets with any missing rating are dropped, pingouin's
 * nan_policy="omit"):
 *   BMS between targets, JMS between raters, EMS residual, WMS within targets
 *   ICC1  = (BMS - WMS) / (BMS + (k-1) WMS)              pingouin ICC(1,1)
 *   ICC2  = (BMS - EMS) / (BMS + (k-1) EMS + k (JMS - EMS) / n)   ICC(A,1)
 *   ICC3  = (BMS - EMS) / (BMS + (k-1) EMS)              ICC(C,1)
 *   ICC1k = (BMS - WMS) / BMS                            ICC(1,k)
 *   ICC2k = (BMS - EMS) / (BMS + (JMS - EMS) / n)        ICC(A,k)
 *   ICC3k = (BMS - EMS) / BMS                            ICC(C,k)
 * Confidence intervals use pingouin's F-quantile formulas (ICC2 with the Satterthwaite-type
 * df v of McGraw & Wong); quantiles from @stdlib.
 */
import type { Degenerate, Interval, RatingMatrix } from "./types";
import { allFinite, levelReason, normalise, type UnitCounts } from "./internal";
import { fPpf } from "./quantiles";

export type IccType = "ICC1" | "ICC2" | "ICC3" | "ICC1k" | "ICC2k" | "ICC3k";

export interface IccOptions extends UnitCounts {
  type: IccType;
  /** Confidence level (default 0.95, pingouin's fixed level). */
  level?: number;
}

export interface IccResult extends Degenerate {
  type: IccType;
  icc: number | null;
  ci: Interval | null;
  /** F statistic of the targets effect (BMS/WMS for ICC1*, BMS/EMS otherwise) and its df. */
  F: number | null;
  df1: number;
  df2: number;
  /** Complete targets used, and raters. */
  n: number;
  k: number;
}

/** Relative size below which a sum of squares or a denominator is taken for rounding residue. */
const ROUNDING = 1e-12;

const TYPES: ReadonlyArray<IccType> = ["ICC1", "ICC2", "ICC3", "ICC1k", "ICC2k", "ICC3k"];

export function icc(rows: RatingMatrix, options: IccOptions): IccResult {
  const type = options?.type;
  const level = options?.level ?? 0.95;
  const { data: all } = normalise(rows);
  const base = { type, icc: null, ci: null, F: null, df1: 0, df2: 0 };
  if (!TYPES.includes(type)) return { ...base, n: 0, k: 0, reason: `unknown ICC type "${String(type)}"` };
  const badLevel = levelReason(level);
  if (badLevel) return { ...base, n: 0, k: 0, reason: badLevel };

  // A rater column with no rating at all would not exist in pingouin's long-format input, so it
  // is dropped rather than emptying every target.
  const kAll = all.length > 0 ? all[0].length : 0;
  const keep: number[] = [];
  for (let j = 0; j < kAll; j++) if (all.some((row) => row[j] !== null)) keep.push(j);
  const k = keep.length;
  const data: number[][] = [];
  const units: number[] = [];
  all.forEach((row, u) => {
    const kept = keep.map((j) => row[j]);
    if (kept.every((x) => x !== null)) {
      data.push(kept as number[]);
      units.push(options.counts ? options.counts[u] : 1);
    }
  });
  let n = 0;
  for (const c of units) n += c;

  if (k < 2) return { ...base, n, k, reason: "at least two raters are required" };
  if (n < 2) return { ...base, n, k, reason: "fewer than two targets rated by every rater" };

  let grand = 0;
  data.forEach((row, i) => {
    for (const x of row) grand += units[i] * x;
  });
  grand /= n * k;
  const rowMeans = data.map((row) => row.reduce((s, x) => s + x, 0) / k);
  const colMeans = keep.map((_, j) => data.reduce((s, row, i) => s + units[i] * row[j], 0) / n);
  let ssTotal = 0;
  data.forEach((row, i) => {
    for (const x of row) ssTotal += units[i] * (x - grand) ** 2;
  });
  // A sum of squares that is zero in exact arithmetic comes out as rounding residue (means such as
  // 7/3 are inexact); left as is, it turns an undefined ICC into a huge number that depends on the
  // order of the sums.
  const snap = (ss: number) => (ss <= ROUNDING * ssTotal ? 0 : ss);
  const ssRows = snap(k * rowMeans.reduce((s, m, i) => s + units[i] * (m - grand) ** 2, 0));
  const ssCols = snap(n * colMeans.reduce((s, m) => s + (m - grand) ** 2, 0));
  const ssErr = snap(Math.max(0, ssTotal - ssRows - ssCols));

  const first = data[0][0];
  if (data.every((row) => row.every((x) => x === first))) {
    return { ...base, n, k, df1: n - 1, df2: 0, reason: "zero variance: every rating is identical" };
  }

  const BMS = ssRows / (n - 1);
  const JMS = ssCols / (k - 1);
  const EMS = ssErr / ((n - 1) * (k - 1));
  const WMS = (ssCols + ssErr) / (n * (k - 1));

  const df1 = n - 1;
  const df1kd = n * (k - 1);
  const df2kd = (n - 1) * (k - 1);
  const oneWay = type === "ICC1" || type === "ICC1k";
  const F = oneWay ? BMS / WMS : BMS / EMS;
  const df2 = oneWay ? df1kd : df2kd;

  let numerator: number;
  let denominator: number;
  switch (type) {
    case "ICC1":
      [numerator, denominator] = [BMS - WMS, BMS + (k - 1) * WMS];
      break;
    case "ICC2":
      [numerator, denominator] = [BMS - EMS, BMS + (k - 1) * EMS + (k * (JMS - EMS)) / n];
      break;
    case "ICC3":
      [numerator, denominator] = [BMS - EMS, BMS + (k - 1) * EMS];
      break;
    case "ICC1k":
      [numerator, denominator] = [BMS - WMS, BMS];
      break;
    case "ICC2k":
      [numerator, denominator] = [BMS - EMS, BMS + (JMS - EMS) / n];
      break;
    case "ICC3k":
      [numerator, denominator] = [BMS - EMS, BMS];
      break;
  }
  const Fout = Number.isFinite(F) ? F : null;
  const undefinedIcc = (reason: string): IccResult => ({ ...base, F: Fout, df1, df2, n, k, reason });
  // The average-measure forms divide by BMS; ICC(2,k) also when the raters' differences exactly
  // offset the targets' (JMS - EMS = -n BMS).
  if (Math.abs(denominator) <= ROUNDING * (BMS + JMS + EMS + WMS)) {
    return undefinedIcc(
      BMS === 0
        ? "the targets do not vary (between-target mean square is zero), so the ICC is undefined"
        : `the ICC is undefined: its denominator is zero (BMS ${BMS.toPrecision(4)}, JMS ${JMS.toPrecision(4)}, EMS ${EMS.toPrecision(4)})`,
    );
  }
  const value = numerator / denominator;

  const a = 1 - level;
  let ci: Interval | null = null;
  if (type === "ICC2" || type === "ICC2k") {
    // McGraw & Wong (1996) case 2A, exactly as pingouin writes it.
    const icc2 = (BMS - EMS) / (BMS + (k - 1) * EMS + (k * (JMS - EMS)) / n);
    const fj = JMS / EMS;
    const vn = df2kd * (k * icc2 * fj + n * (1 + (k - 1) * icc2) - k * icc2) ** 2;
    const vd = df1 * k ** 2 * icc2 ** 2 * fj ** 2 + (n * (1 + (k - 1) * icc2) - k * icc2) ** 2;
    const v = vn / vd;
    if (allFinite(v) && v > 0) {
      const f2u = fPpf(1 - a / 2, n - 1, v);
      const f2l = fPpf(1 - a / 2, v, n - 1);
      const l2 = (n * (BMS - f2u * EMS)) / (f2u * (k * JMS + (k * n - k - n) * EMS) + n * BMS);
      const u2 = (n * (f2l * BMS - EMS)) / (k * JMS + (k * n - k - n) * EMS + n * f2l * BMS);
      ci = type === "ICC2" ? [l2, u2] : [(l2 * k) / (1 + l2 * (k - 1)), (u2 * k) / (1 + u2 * (k - 1))];
    }
  } else {
    // Cases 1 and 3: F bounds, then the single- or average-measure transform.
    const dfd = oneWay ? df1kd : df2kd;
    const fl = F / fPpf(1 - a / 2, df1, dfd);
    const fu = F * fPpf(1 - a / 2, dfd, df1);
    ci =
      type === "ICC1" || type === "ICC3"
        ? [(fl - 1) / (fl + (k - 1)), (fu - 1) / (fu + (k - 1))]
        : [1 - 1 / fl, 1 - 1 / fu];
  }
  if (ci !== null && !allFinite(ci[0], ci[1])) ci = null;

  const result: IccResult = { type, icc: value, ci, F: Fout, df1, df2, n, k };
  if (ci === null) result.reason = "confidence interval undefined (no residual variance)";
  return result;
}
