import type { RubricDocument } from "@/lib/rubrics/document";
import type { EscalationOverrides, EscalationRule } from "@/lib/rubrics/escalation-rule";
import { rubricDisagreements } from "./rubric-final";
import type { DimensionValue } from "./rubric-values";

/** A grader's values for each rubric of the study: rubric key -> dimension key -> value. */
export type GraderRubricValues = Record<string, Record<string, DimensionValue>>;

/** Escalation thresholds as the study sets them: rubric key -> dimension key -> spread. */
export type Thresholds = Record<string, Record<string, number>>;

export interface Disagreement {
  rubric: string;
  dimension: string;
  /** Each grader's value, keyed by an id the caller chooses (a pseudonym on lead pages). */
  values: Record<string, number | string>;
  /** Ordinal: max - min of the numeric values; nominal: null. */
  spread: number | null;
  /** The spread rule's threshold; null under the other rules. */
  threshold: number | null;
  rule: EscalationRule["rule"];
  /** Why it escalates, in words. */
  reason: string;
}

/**
 * The escalation rule over a study's rubrics (lib/scoring/rubric-final.ts per
 * rubric): each dimension by its rule (never, any disagreement, or a spread at
 * the study's threshold), with the study's overrides. Any disagreement
 * escalates the set.
 */
export function findDisagreements(graders: Record<string, GraderRubricValues>, rubrics: readonly RubricDocument[], thresholds: Thresholds, overrides: EscalationOverrides = {}): Disagreement[] {
  if (Object.keys(graders).length < 2) return [];
  const out: Disagreement[] = [];
  for (const doc of rubrics) {
    const values = Object.fromEntries(Object.entries(graders).map(([id, v]) => [id, v[doc.key] ?? {}]));
    for (const d of rubricDisagreements(doc, values, thresholds[doc.key] ?? {}, overrides[doc.key] ?? {})) out.push({ rubric: doc.key, ...d } as Disagreement);
  }
  return out;
}

const round = (x: number) => Math.round(x * 100) / 100;

/**
 * Why a stored disagreement escalated, in words: its reason, or for one stored
 * before reasons were, what the rule then was (any nominal difference, N/A
 * against a score, or the spread reaching the threshold).
 */
export function disagreementInWords(d: Pick<Disagreement, "values" | "spread" | "threshold"> & { reason?: string }): string {
  if (d.reason) return d.reason;
  const xs = Object.values(d.values ?? {});
  if (xs.includes("N/A") && xs.some((x) => x !== "N/A")) return "N/A against a value";
  if (d.spread === null || d.threshold === null) return "different values";
  return `a spread of ${round(d.spread)}, at least ${d.threshold}`;
}
