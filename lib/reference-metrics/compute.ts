import { prepareReference, scoreAnswer, type AnswerMetrics, type PreparedReference } from "@/lib/stats/text-metrics";

/**
 * Reference-based metrics of answers (issue #33): sentence BLEU (sacreBLEU's defaults), ROUGE-1
 * and ROUGE-L F1 (rouge-score's defaults), each 0-1, stored per answer with BLEU's sufficient
 * statistics so corpus BLEU per model and specialty is a sum. Conventions: lib/stats/bleu.ts,
 * rouge.ts, text-tokenize.ts. They are results for the lead: graders never see them.
 */

/** A question "has a reference answer" when its reference holds more than whitespace. */
export function hasReference(reference: string | null | undefined): reference is string {
  return typeof reference === "string" && reference.trim().length > 0;
}

/** The metrics of one answer, or null when the question has no reference answer. */
export function metricsOf(reference: string | null | undefined, answer: string): AnswerMetrics | null {
  return hasReference(reference) ? scoreAnswer(prepareReference(reference), answer) : null;
}

/**
 * Prepared references by key (an item), so an item's answers (N per model) share one. Bounded:
 * a file that interleaves many items only prepares some twice.
 */
export class ReferenceCache {
  private readonly map = new Map<string | number, PreparedReference | null>();
  constructor(private readonly max = 256) {}

  score(key: string | number, reference: string | null | undefined, answer: string): AnswerMetrics | null {
    let prepared = this.map.get(key);
    if (prepared === undefined) {
      if (this.map.size >= this.max) this.map.clear();
      prepared = hasReference(reference) ? prepareReference(reference) : null;
      this.map.set(key, prepared);
    }
    return prepared ? scoreAnswer(prepared, answer) : null;
  }

  forget(key: string | number): void {
    this.map.delete(key);
  }
}

/** The four columns as COPY csv fields: bleu, rouge1, rougeL, bleuStats (NULLs and {} without a reference). */
export function copyFields(m: AnswerMetrics | null): string {
  if (!m) return ",,,{}";
  const s = m.stats;
  return `${m.bleu},${m.rouge1},${m.rougeL},"{${s.hypLen},${s.refLen},${s.correct.join(",")},${s.total.join(",")}}"`;
}

/** BLEU's statistics as stored: [hyp length, ref length, matches 1-4, n-grams 1-4]. */
export function statsArray(m: AnswerMetrics | null): number[] {
  if (!m) return [];
  return [m.stats.hypLen, m.stats.refLen, ...m.stats.correct, ...m.stats.total];
}
