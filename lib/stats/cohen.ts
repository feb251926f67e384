/**
 * Cohen's kappa for two raters, unweighted or weighted:
 *   kappa = 1 - sum(D o O) / sum(D o E),  E = outer(row margins, column margins) / N
 * with disagreement weights D: unweighted 1 off the diagonal; linear |a - b|, quadratic
 * (a - b)^2, where a, b are category positions under one of two conventions:
 *
 * - "ranks" (default): a category's RANK among the categories, 0..q-1, as scikit-learn's
 *   `cohen_kappa_score` and R irr::kappa2 compute it. The categories are the declared
 *   `categories` (sklearn's `labels=`) or else the sorted union of both raters' values, so
 *   with observed levels [1, 2, 3, 4, 6] the gap 4 -> 6 counts as one step (golden case
 *   cohen_kappa/quadratic/31). Published scripts call sklearn without `labels`: to reproduce
 *   them, do not declare categories.
 * - "scale": the category's VALUE on the declared scale (the rubric's levels), as statsmodels
 *   `cohens_kappa(table, weights=levels, wt=...)` does; without declared categories, the values
 *   observed. An unused level between two used ones keeps its distance.
 * Unweighted kappa is the same under both, and accepts text labels.
 *
 * Standard error: the large-sample (non-null) variance of Fleiss, Cohen & Everitt (1969), as
 * statsmodels `cohens_kappa(...).std_kappa` and SAS PROC FREQ report it, with agreement weights
 * w = 1 - D / max(D):
 *   var = [sum_ij p_ij (w_ij - (wr_i + wc_j)(1 - kappa))^2 - (kappa - pe (1 - kappa))^2] / (N (1 - pe)^2)
 * wr_i = sum_j p_.j w_ij, wc_j = sum_i p_i. w_ij; interval kappa -/+ z se, clipped to [-1, 1]: the
 * normal approximation knows nothing of kappa's range, so near perfect agreement it runs past 1
 * ([0.80, 1.06] for 11 of 12 quadratic agreements), a value kappa cannot take (statsmodels does
 * not clip; its bounds are equal wherever they are inside [-1, 1]).
 * R psych::cohen.kappa gives the same unweighted variance; its weighted variance uses a different
 * row term (rowSums(w * rs)), so it is not the reference here.
 *
 * Units missing either rating are dropped (irr::kappa2 drops incomplete cases).
 */
import type { Degenerate, Interval } from "./types";
import { levelReason, normalise, resolveCategories } from "./internal";
import { type Category, type NominalMatrix, encodeNominal, holdsLabels } from "./categories";
import { normalPpf } from "./quantiles";

export type KappaWeights = "none" | "linear" | "quadratic";
/** Where weighted kappa takes category distances from (see the module comment). */
export type KappaConvention = "ranks" | "scale";

export interface CohenOptions {
  weights?: KappaWeights;
  /** The categories (numbers or, unweighted only, labels). */
  categories?: ReadonlyArray<Category>;
  convention?: KappaConvention;
  /** Confidence level of the interval (default 0.95). */
  level?: number;
}

export interface CohenResult extends Degenerate {
  kappa: number | null;
  /** Units rated by both raters. */
  n: number;
  /** Fleiss-Cohen-Everitt large-sample standard error, or null. */
  se?: number | null;
  /** Normal interval kappa -/+ z se at `level`, clipped to [-1, 1], or null. */
  ci?: Interval | null;
  weights?: KappaWeights;
  convention?: KappaConvention;
}

export function cohenKappa(rows: NominalMatrix, options: CohenOptions = {}): CohenResult {
  const weights: KappaWeights = options.weights ?? "none";
  const convention: KappaConvention = options.convention ?? "ranks";
  const level = options.level ?? 0.95;
  const labelled = holdsLabels(rows, options.categories);
  const fail = (n: number, reason: string): CohenResult => ({ kappa: null, n, se: null, ci: null, weights, convention, reason });
  if (weights !== "none" && weights !== "linear" && weights !== "quadratic") {
    return fail(0, `unknown weights "${String(weights)}"`);
  }
  if (convention !== "ranks" && convention !== "scale") return fail(0, `unknown convention "${String(convention)}"`);
  if (labelled && weights !== "none") return fail(0, "weighted kappa needs numeric categories; text labels have no distances");
  const badLevel = levelReason(level);
  if (badLevel) return fail(0, badLevel);

  const encoded = encodeNominal(rows, options.categories);
  const { data, k } = normalise(encoded.rows);
  if (k !== 2) return fail(0, `Cohen's kappa needs exactly two rater columns (got ${k})`);
  const pairs = data.filter((row) => row[0] !== null && row[1] !== null) as [number, number][];
  const n = pairs.length;
  if (encoded.reason) return fail(n, encoded.reason);
  const { categories, reason } = resolveCategories(pairs, encoded.categories);
  if (reason) return fail(n, reason);
  if (n === 0) return fail(n, "no unit was rated by both raters");

  const q = categories.length;
  const index = new Map<number, number>();
  categories.forEach((c, i) => index.set(c, i));
  const p: number[][] = Array.from({ length: q }, () => new Array<number>(q).fill(0));
  const rowMargin = new Array<number>(q).fill(0);
  const colMargin = new Array<number>(q).fill(0);
  for (const [a, b] of pairs) {
    const i = index.get(a)!;
    const j = index.get(b)!;
    p[i][j] += 1 / n;
    rowMargin[i] += 1 / n;
    colMargin[j] += 1 / n;
  }

  const position = (i: number): number => (convention === "scale" && !labelled ? categories[i] : i);
  const disagreement = (i: number, j: number): number => {
    if (i === j) return 0;
    if (weights === "none") return 1;
    const d = Math.abs(position(i) - position(j));
    return weights === "linear" ? d : d * d;
  };
  let dMax = 0;
  const D: number[][] = [];
  for (let i = 0; i < q; i++) {
    D.push([]);
    for (let j = 0; j < q; j++) {
      D[i].push(disagreement(i, j));
      dMax = Math.max(dMax, D[i][j]);
    }
  }

  let num = 0;
  let den = 0;
  for (let i = 0; i < q; i++) {
    for (let j = 0; j < q; j++) {
      num += D[i][j] * p[i][j];
      den += D[i][j] * rowMargin[i] * colMargin[j];
    }
  }
  if (!(den > 1e-15)) {
    return fail(n, "expected disagreement is zero (one category only), so kappa is undefined");
  }
  const kappa = 1 - num / den;

  // FCE variance on agreement weights w = 1 - D / max(D) (kappa is unchanged by the scaling).
  const w = D.map((row) => row.map((d) => 1 - d / dMax));
  const wr = w.map((row) => row.reduce((s, x, j) => s + x * colMargin[j], 0));
  const wc = w[0].map((_, j) => w.reduce((s, row, i) => s + row[j] * rowMargin[i], 0));
  let pe = 0;
  let term = 0;
  for (let i = 0; i < q; i++) {
    for (let j = 0; j < q; j++) {
      pe += w[i][j] * rowMargin[i] * colMargin[j];
      if (p[i][j] > 0) term += p[i][j] * (w[i][j] - (wr[i] + wc[j]) * (1 - kappa)) ** 2;
    }
  }
  const variance = (term - (kappa - pe * (1 - kappa)) ** 2) / (n * (1 - pe) ** 2);
  const result: CohenResult = { kappa, n, se: null, ci: null, weights, convention };
  if (Number.isFinite(variance) && variance >= -1e-15 && n >= 2) {
    const se = Math.sqrt(Math.max(0, variance));
    const z = normalPpf(1 - (1 - level) / 2);
    result.se = se;
    // Clipped: a bound past kappa's own range is an artefact of the normal approximation, not a possible value.
    result.ci = [Math.max(-1, kappa - z * se), Math.min(1, kappa + z * se)];
  } else {
    result.reason = "standard error needs at least two units";
  }
  return result;
}
