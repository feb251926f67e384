/**
 * Cliff's delta intervals for a family of comparisons (e.g. every pair of models), with the
 * confidence level adjusted for multiplicity:
 * - "none": every interval at `level`;
 * - "holm": Holm adjusts p values, not intervals; the intervals that go with it are the
 *   Bonferroni ones, each at 1 - alpha / m (as R emmeans does when asked for Holm intervals);
 * - "BH": Benjamini & Yekutieli's (2005) false-coverage-rate intervals: with R comparisons
 *   selected by BH at alpha, each interval is at 1 - R alpha / m (1 - alpha / m when none is
 *   selected). Selection needs each comparison's p value (e.g. the Wilcoxon post-hoc test).
 * Each interval is the percentile bootstrap of `cliffsDeltaCI` at the adjusted level, same seed.
 */
import type { Degenerate, Rating } from "./types";
import { levelReason } from "./internal";
import type { BootstrapOptions } from "./bootstrap";
import { type CliffsDeltaCIResult, cliffsDeltaCIs } from "./cliffs";
import { type PAdjustMethod, pAdjust } from "./p-adjust";

export interface CliffsComparison {
  x: ReadonlyArray<Rating>;
  y: ReadonlyArray<Rating>;
  /** The comparison's unadjusted p value (needed for "BH"). */
  p?: number | null;
}

export interface CliffsFamilyOptions extends BootstrapOptions {
  adjust?: PAdjustMethod;
}

export interface CliffsFamilyMember extends CliffsDeltaCIResult {
  /** p adjusted by `adjust` over the family (null when no p was given). */
  pAdjusted: number | null;
  /** BH only: selected (BH-adjusted p <= alpha). */
  selected?: boolean;
}

export interface CliffsFamilyResult extends Degenerate {
  adjust: PAdjustMethod;
  /** The family-wise (or FCR) level asked for. */
  familyLevel: number;
  /** The level each interval was computed at. */
  intervalLevel: number | null;
  m: number;
  comparisons: CliffsFamilyMember[];
}

export function cliffsDeltaFamily(
  comparisons: ReadonlyArray<CliffsComparison>,
  options: CliffsFamilyOptions = {},
): CliffsFamilyResult {
  const adjust = options.adjust ?? "holm";
  const familyLevel = options.level ?? 0.95;
  const m = comparisons.length;
  const base = { adjust, familyLevel, intervalLevel: null, m, comparisons: [] };
  const bad = levelReason(familyLevel);
  if (bad) return { ...base, reason: bad };
  if (adjust !== "none" && adjust !== "holm" && adjust !== "BH") return { ...base, reason: `unknown adjustment "${String(adjust)}"` };
  if (m === 0) return { ...base, reason: "no comparison" };
  const alpha = 1 - familyLevel;
  const p = comparisons.map((c) => c.p ?? null);
  const pAdjusted = pAdjust(p, adjust);

  let intervalLevel = familyLevel;
  let selected: boolean[] | undefined;
  if (adjust === "holm") intervalLevel = 1 - alpha / m;
  if (adjust === "BH") {
    if (p.some((x) => x === null)) return { ...base, reason: "BH intervals need every comparison's p value" };
    selected = pAdjusted.map((x) => x !== null && x <= alpha);
    const R = selected.filter(Boolean).length;
    intervalLevel = 1 - (Math.max(R, 1) * alpha) / m;
  }
  const intervals = cliffsDeltaCIs(comparisons, { ...options, level: intervalLevel });
  const members = comparisons.map((_c, i) => {
    const member: CliffsFamilyMember = { ...intervals[i], pAdjusted: pAdjusted[i] };
    if (selected) member.selected = selected[i];
    return member;
  });
  return { ...base, intervalLevel, comparisons: members };
}
