import type { Degenerate } from "./types";

/**
 * Confidence-based deferral (paper 002, "Deferral and hybrid"): at each
 * cutoff the judgments whose confidence meets it are kept (the judge's score
 * stands) and the others are deferred to a clinician. The curve gives, per
 * cutoff, the share deferred and the agreement with the panel on the kept
 * judgments (and on the deferred ones, for comparison).
 */
export interface DeferralJudgment<V> {
  confidence: number | null;
  judge: V;
  panel: V;
}

export interface DeferralPoint extends Degenerate {
  cutoff: number;
  kept: number;
  deferred: number;
  /** deferred / all judgments with a confidence. */
  deferredShare: number | null;
  /** The agreement on the kept judgments (null with none, or when undefined). */
  agreementKept: number | null;
  agreementDeferred: number | null;
}

/** 0, 0.1, ..., 0.9: the paper's grid. */
export const DEFERRAL_CUTOFFS: readonly number[] = Array.from({ length: 10 }, (_, i) => i / 10);

/**
 * `agreement` is any statistic of judge-panel pairs (exact agreement, AC2, macro
 * F1...). Judgments with no confidence cannot be ranked and are left out.
 * A judgment is kept when its confidence is at or above the cutoff (with a
 * 1e-12 allowance, so 0.3 from 0.1 + 0.2 counts as 0.3).
 */
export function deferralCurve<V>(
  judgments: ReadonlyArray<DeferralJudgment<V>>,
  agreement: (pairs: ReadonlyArray<{ judge: V; panel: V }>) => number | null,
  cutoffs: ReadonlyArray<number> = DEFERRAL_CUTOFFS,
): DeferralPoint[] {
  const rated = judgments.filter((j) => typeof j.confidence === "number" && Number.isFinite(j.confidence));
  return cutoffs.map((cutoff) => {
    const kept = rated.filter((j) => (j.confidence as number) >= cutoff - 1e-12);
    const deferred = rated.filter((j) => (j.confidence as number) < cutoff - 1e-12);
    const point: DeferralPoint = {
      cutoff,
      kept: kept.length,
      deferred: deferred.length,
      deferredShare: rated.length ? deferred.length / rated.length : null,
      agreementKept: kept.length ? agreement(kept) : null,
      agreementDeferred: deferred.length ? agreement(deferred) : null,
    };
    if (rated.length === 0) point.reason = "no judgment has a confidence";
    return point;
  });
}

/** Share of pairs with the same value: the simplest agreement, for any scale. */
export function exactAgreement<V>(pairs: ReadonlyArray<{ judge: V; panel: V }>): number | null {
  return pairs.length ? pairs.filter((p) => p.judge === p.panel).length / pairs.length : null;
}
