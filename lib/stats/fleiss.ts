/**
 * Fleiss' kappa for any number of raters, with Gwet's generalisation to missing ratings as
 * irrCAC computes it (kgwet/irrCAC `fleiss.kappa.raw`, afergadis/irrCAC `raw.CAC.fleiss`).
 * On complete data it equals Fleiss (1971) / statsmodels `fleiss_kappa` / R irr `kappam.fleiss`.
 *
 *   pa   = mean over units with r_i >= 2 of sum_k r_ik (r_ik - 1) / (r_i (r_i - 1))
 *   pi_k = mean over units with r_i >= 1 of r_ik / r_i
 *   pe   = sum_k pi_k^2
 *   kappa = (pa - pe) / (1 - pe)
 */
import type { Degenerate } from "./types";
import { type Category, type NominalMatrix, encodeNominal } from "./categories";
import { classificationCounts, normalise, resolveCategories } from "./internal";

export interface FleissOptions {
  /**
   * The full rating scale, numbers or labels; defaults to the values observed (unused levels do
   * not change kappa).
   */
  categories?: ReadonlyArray<Category>;
}

export interface FleissResult extends Degenerate {
  kappa: number | null;
  pa: number | null;
  pe: number | null;
  /** Units with at least one rating. */
  n: number;
  q: number;
}

export function fleissKappa(rows: NominalMatrix, options: FleissOptions = {}): FleissResult {
  const encoded = encodeNominal(rows, options.categories);
  const { data } = normalise(encoded.rows);
  const resolved = resolveCategories(data, encoded.categories);
  const categories = resolved.categories;
  const reason = encoded.reason ?? resolved.reason;
  const q = categories.length;
  const { r, ri } = classificationCounts(data, categories);
  const n = r.length;
  const none = (why: string): FleissResult => ({ kappa: null, pa: null, pe: null, n, q, reason: why });
  if (reason) return none(reason);
  if (n === 0) return none("no ratings");

  const pi = new Array<number>(q).fill(0);
  let paSum = 0;
  let n2more = 0;
  for (let i = 0; i < n; i++) {
    const m = ri[i];
    let s = 0;
    for (let c = 0; c < q; c++) {
      pi[c] += r[i][c] / m / n;
      s += r[i][c] * (r[i][c] - 1);
    }
    if (m >= 2) {
      paSum += s / (m * (m - 1));
      n2more++;
    }
  }
  if (n2more === 0) return none("no unit was rated by two or more raters");
  const pa = paSum / n2more;
  let pe = 0;
  for (const p of pi) pe += p * p;
  if (!(1 - pe > 1e-12)) return none("every rating is in one category: chance agreement is 1, kappa is undefined");
  return { kappa: (pa - pe) / (1 - pe), pa, pe, n, q };
}
