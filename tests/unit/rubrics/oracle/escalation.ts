/**
 * Reference implementation: how S.C.O.R.E. and SAFE-LLM were scored before rubrics became data
 * (lib/scoring until 2026-12). Kept only as the oracle the property tests compare the
 * rubric-document path against; nothing in lib imports it.
 */
import { RUBRICS, type DimensionKey, type RubricKey } from "@/lib/rubrics/templates/published-definitions";
import type { Thresholds } from "@/lib/rubrics/thresholds";
import type { DimensionValues } from "./grader-values";

/** A grader's values for each rubric of the study. */
export type GraderRubricValues = Partial<Record<RubricKey, DimensionValues>>;

export interface Disagreement {
  rubric: RubricKey;
  dimension: DimensionKey;
  /** Each grader's value, keyed by an id the caller chooses (a pseudonym on lead pages). */
  values: Record<string, number>;
  spread: number;
  threshold: number;
}

// Means over N answers are fractions like 1/3: compare with a tolerance so that
// a spread that equals the threshold on paper also does in floating point.
const EPS = 1e-9;

/**
 * The escalation rule: per rubric dimension, the spread (max - min) of the
 * primary graders' values; a spread at or above the study's threshold for that
 * dimension is a disagreement, and any disagreement escalates the set.
 */
export function findDisagreements(
  graders: Record<string, GraderRubricValues>,
  rubrics: RubricKey[],
  thresholds: Thresholds,
): Disagreement[] {
  const ids = Object.keys(graders);
  if (ids.length < 2) return [];
  const out: Disagreement[] = [];
  for (const rubric of rubrics) {
    for (const d of RUBRICS[rubric].dimensions) {
      const values: Record<string, number> = {};
      for (const id of ids) {
        const v = graders[id][rubric]?.[d.key];
        if (v !== undefined) values[id] = v;
      }
      const xs = Object.values(values);
      if (xs.length < 2) continue;
      const spread = Math.max(...xs) - Math.min(...xs);
      const threshold = (thresholds[rubric] as Record<string, number>)[d.key];
      if (threshold !== undefined && spread + EPS >= threshold) out.push({ rubric, dimension: d.key, values, spread, threshold });
    }
  }
  return out;
}

/** Final score per dimension: the mean over all the set's graders (two, or three after adjudication). */
export function finalDimensionValues(graders: GraderRubricValues[], rubric: RubricKey): DimensionValues {
  const out: DimensionValues = {};
  for (const d of RUBRICS[rubric].dimensions) {
    const xs = graders.map((g) => g[rubric]?.[d.key]).filter((v): v is number => v !== undefined);
    if (xs.length === graders.length && xs.length > 0) out[d.key] = xs.reduce((a, b) => a + b, 0) / xs.length;
  }
  return out;
}
