/**
 * BLEU as sacreBLEU computes it by default, scaled to 0-1 (sacreBLEU reports 0-100).
 *
 * Why not an npm package: the registry's `bleu-score` and the ROUGE packages neither use the 13a
 * tokeniser nor sacreBLEU's smoothing and effective-order rules, so their numbers would not
 * compare with published sacreBLEU figures. Written from sacreBLEU's metrics/bleu.py:
 *
 * - tokens: `tokenize13a` (case kept), one reference per hypothesis;
 * - n-grams 1..4, hypothesis counts clipped by the reference's counts;
 * - brevity penalty exp(1 - r/c) when c < r (0 when c = 0), else 1;
 * - no unigram match at all: 0;
 * - smoothing 'exp' (mteval-v13a's NIST geometric smoothing): the k-th order with no match
 *   counts as 1 / (2^k * total_n);
 * - `sentenceBleu` = sacrebleu.sentence_bleu: smoothing 'exp', use_effective_order=True, so the
 *   mean of log precisions runs over orders 1..min(4, hypothesis length);
 * - `corpusBleu` = sacrebleu.corpus_bleu: statistics summed over segments, smoothing 'exp',
 *   effective order off: an order with no hypothesis n-gram in the whole corpus makes BLEU 0.
 *
 * Checked against NLTK's sentence_bleu / corpus_bleu with SmoothingFunction().method3 (see
 * scripts/golden/text_metric_vectors.py).
 */
import { tokenize13a } from "./text-tokenize";

export const BLEU_MAX_ORDER = 4;

/** Sufficient statistics of one segment (or a sum of segments). */
export interface BleuStats {
  hypLen: number;
  refLen: number;
  /** Clipped matches per order 1..4. */
  correct: number[];
  /** Hypothesis n-grams per order 1..4. */
  total: number[];
}

function ngramCounts(tokens: readonly string[], n: number): Map<string, number> {
  const counts = new Map<string, number>();
  // Joined by a space: 13a tokens never contain whitespace, so keys cannot collide.
  for (let i = 0; i + n <= tokens.length; i++) {
    const key = n === 1 ? tokens[i] : tokens.slice(i, i + n).join(" ");
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** Statistics of a hypothesis against one reference, both already tokenised. */
export function bleuStatsFromTokens(hyp: readonly string[], ref: readonly string[]): BleuStats {
  const correct: number[] = [];
  const total: number[] = [];
  for (let n = 1; n <= BLEU_MAX_ORDER; n++) {
    const h = ngramCounts(hyp, n);
    const r = ngramCounts(ref, n);
    let c = 0;
    let t = 0;
    for (const [g, count] of h) {
      t += count;
      const rc = r.get(g);
      if (rc !== undefined) c += Math.min(count, rc);
    }
    correct.push(c);
    total.push(t);
  }
  return { hypLen: hyp.length, refLen: ref.length, correct, total };
}

export function bleuStats(hypothesis: string, reference: string): BleuStats {
  return bleuStatsFromTokens(tokenize13a(hypothesis), tokenize13a(reference));
}

/** sacreBLEU's compute_bleu with smooth_method 'exp', on the 0-1 scale. */
export function bleuFromStats(s: BleuStats, effectiveOrder: boolean): number {
  const bp = s.hypLen < s.refLen ? (s.hypLen > 0 ? Math.exp(1 - s.refLen / s.hypLen) : 0) : 1;
  if (!s.correct.some((c) => c > 0)) return 0;
  let smooth = 1;
  let logSum = 0;
  let order = 0;
  for (let n = 0; n < BLEU_MAX_ORDER; n++) {
    if (s.total[n] === 0) {
      // sacreBLEU stops here; without effective order the missing orders count as log(0).
      if (!effectiveOrder) return 0;
      break;
    }
    order = n + 1;
    let p: number;
    if (s.correct[n] === 0) {
      smooth *= 2;
      p = 1 / (smooth * s.total[n]);
    } else p = s.correct[n] / s.total[n];
    logSum += Math.log(p);
  }
  return bp * Math.exp(logSum / (effectiveOrder ? order : BLEU_MAX_ORDER));
}

/** sacrebleu.sentence_bleu(hypothesis, [reference]).score / 100. */
export function sentenceBleu(hypothesis: string, reference: string): number {
  return bleuFromStats(bleuStats(hypothesis, reference), true);
}

export function sumBleuStats(all: Iterable<BleuStats>): BleuStats {
  const sum: BleuStats = { hypLen: 0, refLen: 0, correct: [0, 0, 0, 0], total: [0, 0, 0, 0] };
  for (const s of all) {
    sum.hypLen += s.hypLen;
    sum.refLen += s.refLen;
    for (let n = 0; n < BLEU_MAX_ORDER; n++) {
      sum.correct[n] += s.correct[n];
      sum.total[n] += s.total[n];
    }
  }
  return sum;
}

/** sacrebleu.corpus_bleu(hypotheses, [references]).score / 100; one reference per hypothesis. */
export function corpusBleu(pairs: Iterable<{ hypothesis: string; reference: string }>): number {
  const stats: BleuStats[] = [];
  for (const p of pairs) stats.push(bleuStats(p.hypothesis, p.reference));
  return bleuFromStats(sumBleuStats(stats), false);
}
