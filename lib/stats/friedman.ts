/**
 * Model comparison on the same items: Friedman's test across k models, then Wilcoxon
 * signed-rank post-hoc tests for every pair of models with a multiplicity adjustment.
 *
 * Friedman, as R `friedman.test(y)` (rows = blocks/items, columns = groups/models): items
 * missing any model's score are dropped; ranks within each item (average ranks for ties);
 *   X^2 = 12 sum_j (R_j - n(k+1)/2)^2 / (n k (k+1) - sum(t^3 - t) / (k - 1))
 * on k - 1 df. Kendall's W = X^2 / (n (k - 1)) is reported as its effect size (the
 * "Friedman-based W" of pingouin.friedman).
 */
import type { Degenerate, RatingMatrix } from "./types";
import { normalise } from "./internal";
import { averageRanks } from "./spearman";
import { chiSquareSf } from "./quantiles";
import { type PAdjustMethod, pAdjust } from "./p-adjust";
import { type WilcoxonOptions, type WilcoxonResult, wilcoxonSignedRank } from "./wilcoxon";

export interface FriedmanResult extends Degenerate {
  chiSquare: number | null;
  df: number;
  p: number | null;
  /** Kendall's W as the effect size, X^2 / (n (k - 1)). */
  kendallW: number | null;
  /** Mean rank of each group (column). */
  meanRanks: (number | null)[];
  /** Complete blocks used, and groups. */
  n: number;
  k: number;
}

export function friedmanTest(rows: RatingMatrix): FriedmanResult {
  const { data: all, k } = normalise(rows);
  const data = all.filter((row): row is number[] => row.every((x) => x !== null));
  const n = data.length;
  const base = { chiSquare: null, df: Math.max(0, k - 1), p: null, kendallW: null, meanRanks: new Array<number | null>(k).fill(null), n, k };
  if (k < 2) return { ...base, reason: `Friedman's test needs at least two groups (got ${k})` };
  if (n < 1) return { ...base, reason: "no block has a value for every group" };
  const R = new Array<number>(k).fill(0);
  let ties = 0;
  for (const row of data) {
    averageRanks(row).forEach((r, j) => (R[j] += r));
    const counts = new Map<number, number>();
    for (const v of row) counts.set(v, (counts.get(v) ?? 0) + 1);
    for (const t of counts.values()) ties += t ** 3 - t;
  }
  const meanRanks = R.map((r) => r / n);
  let ss = 0;
  for (const r of R) ss += (r - (n * (k + 1)) / 2) ** 2;
  const denominator = n * k * (k + 1) - ties / (k - 1);
  if (!(denominator > 1e-12)) return { ...base, meanRanks, reason: "every block ties all groups, so the test is undefined" };
  const chiSquare = (12 * ss) / denominator;
  return {
    ...base,
    chiSquare,
    p: chiSquareSf(chiSquare, k - 1),
    kendallW: n > 0 ? chiSquare / (n * (k - 1)) : null,
    meanRanks,
  };
}

export interface PosthocPair extends WilcoxonResult {
  /** Column indices a < b; the statistic is for column a minus column b. */
  a: number;
  b: number;
  /** p adjusted over the family of all pairs (null when p is null). */
  pAdjusted: number | null;
}

export interface PosthocOptions extends WilcoxonOptions {
  /** Default "holm", as the issue asks. */
  adjust?: PAdjustMethod;
}

/**
 * Wilcoxon signed-rank test for every pair of columns (R `pairwise.wilcox.test(paired = TRUE)`:
 * each pair uses the items both columns have), p adjusted over the k(k-1)/2 pairs.
 */
export function wilcoxonPosthoc(rows: RatingMatrix, options: PosthocOptions = {}): { adjust: PAdjustMethod; pairs: PosthocPair[] } {
  const adjust = options.adjust ?? "holm";
  const { data, k } = normalise(rows);
  const raw: Omit<PosthocPair, "pAdjusted">[] = [];
  for (let a = 0; a < k; a++) {
    for (let b = a + 1; b < k; b++) {
      const r = wilcoxonSignedRank(
        data.map((row) => row[a]),
        data.map((row) => row[b]),
        options,
      );
      raw.push({ a, b, ...r });
    }
  }
  const adjusted = pAdjust(raw.map((r) => r.p), adjust);
  return { adjust, pairs: raw.map((r, i) => ({ ...r, pAdjusted: adjusted[i] })) };
}
