import type { RubricDocument } from "@/lib/rubrics/document";
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
  /** Ordinal: max - min of the numeric values; nominal: null (any difference escalates). */
  spread: number | null;
  threshold: number | null;
}

/**
 * The escalation rule over a study's rubrics (lib/scoring/rubric-final.ts per
 * rubric): an ordinal dimension disagrees when its primary graders' spread
 * reaches the study's threshold for it (the rubric's own when the study sets
 * none); a nominal one when they give different values. Any disagreement
 * escalates the set.
 */
export function findDisagreements(graders: Record<string, GraderRubricValues>, rubrics: readonly RubricDocument[], thresholds: Thresholds): Disagreement[] {
  if (Object.keys(graders).length < 2) return [];
  const out: Disagreement[] = [];
  for (const doc of rubrics) {
    const values = Object.fromEntries(Object.entries(graders).map(([id, v]) => [id, v[doc.key] ?? {}]));
    for (const d of rubricDisagreements(doc, values, thresholds[doc.key] ?? {})) out.push({ rubric: doc.key, ...d } as Disagreement);
  }
  return out;
}
