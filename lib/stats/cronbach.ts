/**
 * Cronbach's alpha with Feldt's F-distribution confidence interval, matching
 * `pingouin.cronbach_alpha` (raphaelvallat/pingouin, src/pingouin/reliability.py).
 *
 *   alpha = k/(k-1) * (1 - trace(C) / sum(C))
 *
 * with C the item covariance matrix (ddof 1). With `nanPolicy: "pairwise"` (pingouin's
 * default) each entry of C uses the rows where both items are present, as
 * `pandas.DataFrame.cov` does; with `"listwise"` rows with any missing item are dropped first.
 *
 * Feldt, Woodruff & Salih (1987): with df1 = n-1, df2 = (n-1)(k-1) and a = 1 - level,
 *   lower = 1 - (1 - alpha) * F.isf(a/2, df1, df2)
 *   upper = 1 - (1 - alpha) * F.isf(1 - a/2, df1, df2)
 * pingouin rounds the bounds to 3 decimals for display; we return them unrounded.
 */
import type { Degenerate, Interval, RatingMatrix } from "./types";
import { allFinite, levelReason, normalise } from "./internal";
import { fPpf } from "./quantiles";

export type NanPolicy = "pairwise" | "listwise";

export interface CronbachOptions {
  /** "pairwise" (pingouin default) or "listwise" deletion of missing item scores. */
  nanPolicy?: NanPolicy;
  /** Confidence level of the Feldt interval (default 0.95). */
  ci?: number;
}

export interface CronbachResult extends Degenerate {
  /** Cronbach's alpha, or null when it cannot be computed (see `reason`). */
  alpha: number | null;
  /** Feldt interval at the requested level, or null. */
  ci: Interval | null;
  /** Number of subjects (rows) the interval uses: see `cronbachAlpha` for which rows count. */
  n: number;
  /** Number of items (columns). */
  k: number;
}

/**
 * Feldt's interval for coefficient alpha from `n` subjects and `k` items
 * (pingouin's formula; paper 000's per-specialty intervals use it with n = 15, k = 5).
 * Returns null when the inputs cannot define an interval (n < 2, k < 2, non-finite alpha, bad level).
 */
export function feldtInterval(alpha: number, n: number, k: number, level = 0.95): Interval | null {
  if (!Number.isFinite(alpha) || levelReason(level) !== undefined) return null;
  if (!(Number.isInteger(n) && Number.isInteger(k) && n >= 2 && k >= 2)) return null;
  const a = 1 - level;
  const df1 = n - 1;
  const df2 = df1 * (k - 1);
  // scipy f.isf(a/2) is the upper a/2 quantile = f.ppf(1 - a/2).
  const lower = 1 - (1 - alpha) * fPpf(1 - a / 2, df1, df2);
  const upper = 1 - (1 - alpha) * fPpf(a / 2, df1, df2);
  return allFinite(lower, upper) ? [lower, upper] : null;
}

/**
 * Cronbach's alpha of a subjects x items matrix.
 *
 * `n` (which sets the Feldt degrees of freedom) follows current pingouin: under "listwise" it
 * is the number of complete rows (pingouin >= the commit that documents "The sample size of the
 * confidence interval is the one after listwise deletion"; older pingouin, and psych::alpha,
 * used the row count before deletion). Under "pairwise" it is the number of rows with at least
 * one score: pingouin counts the rows of the wide frame, and a subject with no score at all
 * would not be a row of the wide frame pivoted from long-format scores.
 */
export function cronbachAlpha(rows: RatingMatrix, options: CronbachOptions = {}): CronbachResult {
  const nanPolicy: NanPolicy = options.nanPolicy ?? "pairwise";
  const level = options.ci ?? 0.95;
  const { data: all, k } = normalise(rows);

  const badLevel = levelReason(level);
  if (badLevel) return { alpha: null, ci: null, n: 0, k, reason: badLevel };
  if (nanPolicy !== "pairwise" && nanPolicy !== "listwise") {
    return { alpha: null, ci: null, n: 0, k, reason: `unknown nanPolicy "${String(nanPolicy)}"` };
  }

  const data =
    nanPolicy === "listwise"
      ? all.filter((row) => row.every((v) => v !== null))
      : all.filter((row) => row.some((v) => v !== null));
  const n = data.length;

  if (k < 2) return { alpha: null, ci: null, n, k, reason: "at least two items (columns) are required" };
  if (n < 2) {
    return {
      alpha: null,
      ci: null,
      n,
      k,
      reason:
        nanPolicy === "listwise"
          ? "fewer than two subjects with every item scored"
          : "at least two subjects (rows) are required",
    };
  }

  // Covariance matrix, pairwise-complete (pandas DataFrame.cov semantics): each pair uses its
  // own complete rows and its own means; ddof = 1.
  let trace = 0;
  let total = 0;
  for (let i = 0; i < k; i++) {
    for (let j = i; j < k; j++) {
      let nobs = 0;
      let si = 0;
      let sj = 0;
      for (const row of data) {
        const x = row[i];
        const y = row[j];
        if (x !== null && y !== null) {
          nobs++;
          si += x;
          sj += y;
        }
      }
      if (nobs < 2) {
        return {
          alpha: null,
          ci: null,
          n,
          k,
          reason:
            i === j
              ? `item ${i + 1} has fewer than two scores`
              : `items ${i + 1} and ${j + 1} are scored together for fewer than two subjects`,
        };
      }
      const mi = si / nobs;
      const mj = sj / nobs;
      let sp = 0;
      for (const row of data) {
        const x = row[i];
        const y = row[j];
        if (x !== null && y !== null) sp += (x - mi) * (y - mj);
      }
      const c = sp / (nobs - 1);
      if (i === j) {
        trace += c;
        total += c;
      } else {
        total += 2 * c; // C is symmetric: c_ij and c_ji
      }
    }
  }

  // Exact check for "no variance at all" (means of equal floats can be off by an ulp, which
  // would leave a spurious ~1e-33 covariance and a meaningless alpha).
  const first = Array.from({ length: k }, (_, j) => firstPresent(data, j));
  const constant = data.every((row) => row.every((v, j) => v === null || v === first[j]));
  if (constant) {
    return { alpha: null, ci: null, n, k, reason: "zero variance: every subject has the same score on each item" };
  }
  if (!Number.isFinite(total) || Math.abs(total) <= 1e-12 * Math.abs(trace)) {
    return { alpha: null, ci: null, n, k, reason: "the item covariances sum to zero, so alpha is undefined" };
  }
  const alpha = (k / (k - 1)) * (1 - trace / total);
  if (!Number.isFinite(alpha)) return { alpha: null, ci: null, n, k, reason: "alpha is not finite" };
  return { alpha, ci: feldtInterval(alpha, n, k, level), n, k };
}

function firstPresent(data: ReadonlyArray<ReadonlyArray<number | null>>, j: number): number | null {
  for (const row of data) if (row[j] !== null) return row[j];
  return null;
}
