/**
 * ROUGE-1 and ROUGE-L F1 as Google's rouge-score package computes them by default
 * (RougeScorer(["rouge1", "rougeL"], use_stemmer=False)), written from its rouge_scorer.py:
 *
 * - tokens: `tokenizeRouge` (lower-case, [^a-z0-9]+ -> space, no stemming; non-ASCII letters
 *   are dropped, see text-tokenize.ts);
 * - ROUGE-1: clipped unigram overlap; P = overlap / max(|hyp|, 1), R = overlap / max(|ref|, 1);
 * - ROUGE-L: longest common subsequence of the token lists; 0 when either list is empty;
 *   P = LCS / |hyp|, R = LCS / |ref|;
 * - F1 = 2PR / (P + R), 0 when P + R = 0.
 *
 * No npm package computes exactly this (the registry's `rouge`/`js-rouge` tokenise differently).
 */
import { tokenizeRouge } from "./text-tokenize";

export interface RougeScore {
  precision: number;
  recall: number;
  f1: number;
}

function fmeasure(precision: number, recall: number): number {
  return precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
}

export function rouge1FromTokens(ref: readonly string[], hyp: readonly string[]): RougeScore {
  const refCounts = new Map<string, number>();
  for (const t of ref) refCounts.set(t, (refCounts.get(t) ?? 0) + 1);
  const hypCounts = new Map<string, number>();
  for (const t of hyp) hypCounts.set(t, (hypCounts.get(t) ?? 0) + 1);
  let overlap = 0;
  for (const [t, c] of refCounts) overlap += Math.min(c, hypCounts.get(t) ?? 0);
  const precision = overlap / Math.max(hyp.length, 1);
  const recall = overlap / Math.max(ref.length, 1);
  return { precision, recall, f1: fmeasure(precision, recall) };
}

/** LCS length with one rolling row (O(|hyp|) memory: long answers stay cheap in memory). */
export function lcsLength(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  // Tokens become small integers so the inner loop compares numbers, not strings.
  const ids = new Map<string, number>();
  const idOf = (t: string) => {
    let id = ids.get(t);
    if (id === undefined) ids.set(t, (id = ids.size));
    return id;
  };
  const x = Int32Array.from(a, idOf);
  const y = Int32Array.from(b, idOf);
  const row = new Int32Array(y.length + 1);
  for (let i = 0; i < x.length; i++) {
    let diag = 0; // row[j] of the previous i, before it was overwritten
    const xi = x[i];
    for (let j = 1; j <= y.length; j++) {
      const up = row[j];
      row[j] = xi === y[j - 1] ? diag + 1 : up > row[j - 1] ? up : row[j - 1];
      diag = up;
    }
  }
  return row[y.length];
}

export function rougeLFromTokens(ref: readonly string[], hyp: readonly string[]): RougeScore {
  if (ref.length === 0 || hyp.length === 0) return { precision: 0, recall: 0, f1: 0 };
  const lcs = lcsLength(ref, hyp);
  const precision = lcs / hyp.length;
  const recall = lcs / ref.length;
  return { precision, recall, f1: fmeasure(precision, recall) };
}

/** rouge-score's scorer.score(target=reference, prediction=hypothesis)[...].fmeasure. */
export function rougeF1(reference: string, hypothesis: string): { rouge1: number; rougeL: number } {
  const ref = tokenizeRouge(reference);
  const hyp = tokenizeRouge(hypothesis);
  return { rouge1: rouge1FromTokens(ref, hyp).f1, rougeL: rougeLFromTokens(ref, hyp).f1 };
}
