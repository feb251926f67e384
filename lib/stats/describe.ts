/**
 * Per-model summaries (paper 000 in shared/papers reports mean and SD of total scores): count, mean and
 * sample standard deviation (ddof = 1, as pandas `Series.std`). Missing values are skipped.
 */
import type { Degenerate, Rating } from "./types";
import { isPresent } from "./internal";

export interface DescribeResult extends Degenerate {
  n: number;
  /** null when there is no value. */
  mean: number | null;
  /** Sample SD (ddof 1); null when n < 2. */
  sd: number | null;
}

export function describe(values: ReadonlyArray<Rating>): DescribeResult {
  const xs: number[] = [];
  for (const v of values) if (isPresent(v)) xs.push(v);
  const n = xs.length;
  if (n === 0) return { n, mean: null, sd: null, reason: "no values" };
  // Two-pass mean and sum of squares: numerically stable for the small samples we summarise.
  let sum = 0;
  for (const x of xs) sum += x;
  const mean = sum / n;
  if (n < 2) return { n, mean, sd: null, reason: "the standard deviation needs at least two values" };
  let ss = 0;
  for (const x of xs) ss += (x - mean) ** 2;
  return { n, mean, sd: Math.sqrt(ss / (n - 1)) };
}
