import { ordinalRange, type RubricDocument } from "@/lib/rubrics/document";
import { totalRange } from "@/lib/scoring/rubric-values";
import type { SetResult } from "./sets";

/**
 * What models are compared on (Cliff's delta, the ranking): a rubric's headline
 * total, or one of its ordinal dimensions. A sum of some instruments' items
 * means nothing (the rubric then has no total), so those are compared
 * dimension by dimension. Nominal dimensions have no order to compare on.
 */
export interface Measure {
  rubric: string;
  /** The total's key, or the dimension's. */
  key: string;
  kind: "total" | "dimension";
  /** The total's or dimension's name, from the rubric document. */
  label: string;
  /** The scale's range, from the document: a dimension's lowest and highest level, a total's range. */
  min: number;
  max: number;
}

/**
 * The choice of what to compare models on: "total" (each rubric's headline;
 * a rubric without one falls back to its dimensions), "dimensions" (every
 * ordinal dimension) or one dimension's key (rubrics without it: their default).
 */
export type MeasureChoice = string;

const ordinal = (r: RubricDocument) => r.dimensions.filter((d) => d.scale.kind === "ordinal" && (d.scale.levels?.length ?? 0) > 0);

const dimensionMeasure = (r: RubricDocument, d: RubricDocument["dimensions"][number]): Measure => ({ rubric: r.key, key: d.key, kind: "dimension", label: d.name, ...ordinalRange(d) });

/** The measures of `rubrics` for a choice (undefined: "total"), in the rubrics' order, a rubric's in its dimensions' order. */
export function comparisonMeasures(rubrics: readonly RubricDocument[], choice: MeasureChoice = "total"): Measure[] {
  return rubrics.flatMap((r): Measure[] => {
    const dims = ordinal(r);
    const one = dims.find((d) => d.key === choice);
    if (one) return [dimensionMeasure(r, one)];
    const headline = r.totals.find((t) => t.key === r.headline);
    if (choice !== "dimensions" && headline) return [{ rubric: r.key, key: headline.key, kind: "total", label: headline.name, ...totalRange(r, headline) }];
    return dims.map((d) => dimensionMeasure(r, d));
  });
}

/** A set's final value on a measure: its headline total, or its dimension's final value (N/A and nominal: none). */
export function measureValue(s: SetResult, m: Measure): number | null {
  if (m.kind === "total") return s.totals?.[m.rubric]?.headline ?? null;
  const v = s.finalScores?.[m.rubric]?.[m.key];
  return typeof v === "number" ? v : null;
}

/** The choices of what to compare models on, for the dashboard's filter: the default ("total") first, then every dimension, then each one. */
export function measureChoices(rubrics: readonly RubricDocument[]): { value: MeasureChoice; label: string }[] {
  const withTotal = rubrics.filter((r) => r.totals.some((t) => t.key === r.headline));
  const dims = rubrics.flatMap(ordinal);
  const seen = new Set<string>();
  const one = dims.filter((d) => !seen.has(d.key) && seen.add(d.key)).map((d) => ({ value: d.key, label: d.name }));
  if (withTotal.length === 0) return [{ value: "total", label: "Every dimension" }, ...one];
  const total = withTotal.map((r) => r.totals.find((t) => t.key === r.headline)!.name).join(", ");
  return [{ value: "total", label: `Total (${total})` }, { value: "dimensions", label: "Every dimension" }, ...one];
}
