/**
 * Cohen's kappa for two raters, unweighted or weighted, as scikit-learn's `cohen_kappa_score`
 * and R irr::kappa2 compute it:
 *   kappa = 1 - sum(W o O) / sum(W o E),  E = outer(row margins, column margins) / N
 * with disagreement weights on each category's RANK among the categories (0, 1, ..., q-1):
 * linear |i - j|, quadratic (i - j)^2; unweighted = 1 off the diagonal. Ranks, not numeric
 * values: with observed levels [1, 2, 3, 4, 6] the gap 4 -> 6 counts as one step (golden case
 * cohen_kappa/quadratic/31).
 *
 * Categories are the declared `categories` (their ranks set the weights) or else the sorted
 * union of both raters' values. Units missing either rating are dropped (irr::kappa2 drops
 * incomplete cases; sklearn accepts no missing values).
 */
import type { Degenerate, RatingMatrix } from "./types";
import { normalise, resolveCategories } from "./internal";

export type KappaWeights = "none" | "linear" | "quadratic";

export interface CohenOptions {
  weights?: KappaWeights;
  categories?: ReadonlyArray<number>;
}

export interface CohenResult extends Degenerate {
  kappa: number | null;
  /** Units rated by both raters. */
  n: number;
}

export function cohenKappa(rows: RatingMatrix, options: CohenOptions = {}): CohenResult {
  const weights: KappaWeights = options.weights ?? "none";
  const { data, k } = normalise(rows);
  if (k !== 2) return { kappa: null, n: 0, reason: `Cohen's kappa needs exactly two rater columns (got ${k})` };
  if (weights !== "none" && weights !== "linear" && weights !== "quadratic") {
    return { kappa: null, n: 0, reason: `unknown weights "${String(weights)}"` };
  }
  const pairs = data.filter((row) => row[0] !== null && row[1] !== null) as [number, number][];
  const n = pairs.length;
  const { categories, reason } = resolveCategories(pairs, options.categories);
  if (reason) return { kappa: null, n, reason };
  if (n === 0) return { kappa: null, n, reason: "no unit was rated by both raters" };

  const q = categories.length;
  const rank = new Map<number, number>();
  categories.forEach((c, i) => rank.set(c, i));
  const observed: number[][] = Array.from({ length: q }, () => new Array<number>(q).fill(0));
  const rowMargin = new Array<number>(q).fill(0);
  const colMargin = new Array<number>(q).fill(0);
  for (const [a, b] of pairs) {
    const i = rank.get(a)!;
    const j = rank.get(b)!;
    observed[i][j]++;
    rowMargin[i]++;
    colMargin[j]++;
  }

  const disagreement = (i: number, j: number): number =>
    weights === "none" ? (i === j ? 0 : 1) : weights === "linear" ? Math.abs(i - j) : (i - j) ** 2;

  let num = 0;
  let den = 0;
  for (let i = 0; i < q; i++) {
    for (let j = 0; j < q; j++) {
      const d = disagreement(i, j);
      if (d === 0) continue;
      num += d * observed[i][j];
      den += (d * rowMargin[i] * colMargin[j]) / n;
    }
  }
  if (!(den > 0)) {
    return { kappa: null, n, reason: "expected disagreement is zero (one category only), so kappa is undefined" };
  }
  return { kappa: 1 - num / den, n };
}
