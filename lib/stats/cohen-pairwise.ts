/**
 * Cohen's kappa for every pair of k raters (psych::cohen.kappa on k columns, the cardiology
 * study's `combinations(reviewers, 2)` loop): one kappa per pair on the units both rated.
 */
import type { NominalMatrix } from "./categories";
import { type CohenOptions, type CohenResult, cohenKappa } from "./cohen";
import { columnCount } from "./internal";

export interface PairwiseKappa extends CohenResult {
  /** Column indices of the two raters, a < b. */
  a: number;
  b: number;
}

export interface PairwiseKappaResult {
  raters: number;
  /** Pairs in the order (0,1), (0,2), ..., (1,2), ... */
  pairs: PairwiseKappa[];
  /** Symmetric k x k matrix of kappas; 1 on the diagonal; null where a pair's kappa is undefined. */
  matrix: (number | null)[][];
  /** Mean of the defined pairwise kappas (Light's kappa when unweighted), or null. */
  mean: number | null;
  reason?: string;
}

export function pairwiseCohenKappa(rows: NominalMatrix, options: CohenOptions = {}): PairwiseKappaResult {
  const k = columnCount(rows);
  const matrix: (number | null)[][] = Array.from({ length: k }, (_, i) =>
    Array.from({ length: k }, (_, j) => (i === j ? 1 : null)),
  );
  const pairs: PairwiseKappa[] = [];
  if (k < 2) return { raters: k, pairs, matrix, mean: null, reason: `pairwise kappa needs at least two raters (got ${k})` };
  // Each pair is computed on the rows both raters rated: with graders drawn from a pool most
  // cells are empty, so list each column's rated rows once instead of scanning every row per pair.
  const present = (v: unknown) => v !== null && v !== undefined && (typeof v === "string" ? v.trim() !== "" : Number.isFinite(v));
  const rated: number[][] = Array.from({ length: k }, () => []);
  rows.forEach((row, i) => {
    for (let j = 0; j < row.length; j++) if (present(row[j])) rated[j].push(i);
  });
  for (let a = 0; a < k; a++) {
    for (let b = a + 1; b < k; b++) {
      const both = rated[a].filter((i) => present(rows[i][b]));
      const r = cohenKappa(
        both.length > 0 ? both.map((i) => [rows[i][a], rows[i][b]]) : [[null, null]],
        options,
      );
      pairs.push({ a, b, ...r });
      matrix[a][b] = matrix[b][a] = r.kappa;
    }
  }
  const defined = pairs.map((p) => p.kappa).filter((x): x is number => x !== null);
  if (defined.length === 0) return { raters: k, pairs, matrix, mean: null, reason: "no pair of raters has a defined kappa" };
  return { raters: k, pairs, matrix, mean: defined.reduce((s, x) => s + x, 0) / defined.length };
}
