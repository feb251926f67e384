import type { RubricDocument } from "@/lib/rubrics/document";
import { graderTotal, graderValues, type DimensionValue, type RubricCell, type TotalContext } from "./rubric-values";

/**
 * A set's escalation and final scores for any rubric document, from its
 * graders' values (lib/scoring/rubric-values.ts): ordinal dimensions by their
 * spread against the threshold and the mean; nominal ones by agreement and
 * the majority.
 */

export interface RubricDisagreement {
  dimension: string;
  /** Each grader's value, keyed by an id the caller chooses (a pseudonym on lead pages). */
  values: Record<string, Exclude<DimensionValue, undefined>>;
  /** Ordinal: max - min of the numeric values; nominal: null. */
  spread: number | null;
  threshold: number | null;
}

// Means over N answers are fractions like 1/3: a spread equal to the threshold on paper must count.
const EPS = 1e-9;

/**
 * The escalation rule: an ordinal dimension disagrees when its graders' spread
 * reaches its threshold (one grader's N/A against another's score counts as
 * reaching it); a nominal one when its graders give different values. A
 * dimension without a threshold, a criteria dimension, or one fewer than two
 * graders have scored never escalates.
 */
export function rubricDisagreements(
  doc: RubricDocument,
  graders: Record<string, Record<string, DimensionValue>>,
  thresholds: Record<string, number> = {},
): RubricDisagreement[] {
  const ids = Object.keys(graders);
  const out: RubricDisagreement[] = [];
  for (const d of doc.dimensions) {
    if (d.scale.kind === "criteria") continue;
    const values: RubricDisagreement["values"] = {};
    for (const id of ids) {
      const v = graders[id][d.key];
      if (v !== undefined) values[id] = v;
    }
    const xs = Object.values(values);
    const threshold = thresholds[d.key] ?? d.threshold;
    if (!dimensionDisagrees(d.scale.kind, xs, threshold)) continue;
    out.push(d.scale.kind === "nominal" ? { dimension: d.key, values, spread: null, threshold: null } : { dimension: d.key, values, spread: numericSpread(xs), threshold: threshold! });
  }
  return out;
}

/** max - min of the numeric values (0 without any). */
function numericSpread(xs: readonly DimensionValue[]): number {
  let min = Infinity;
  let max = -Infinity;
  for (const x of xs) {
    if (typeof x !== "number") continue;
    if (x < min) min = x;
    if (x > max) max = x;
  }
  return max >= min ? max - min : 0;
}

/**
 * The rule of rubricDisagreements for one dimension, on the values its graders
 * gave (missing ones left out): for callers that apply it to many sets at once
 * (the dashboard's trigger rates) without building the per-grader records.
 */
export function dimensionDisagrees(kind: "ordinal" | "nominal", xs: readonly DimensionValue[], threshold: number | undefined): boolean {
  if (xs.length < 2) return false;
  if (kind === "nominal") return xs.some((x) => x !== xs[0]);
  if (threshold === undefined) return false;
  let numbers = 0;
  for (const x of xs) if (typeof x === "number") numbers++;
  const mixed = numbers > 0 && numbers < xs.length;
  return mixed || numericSpread(xs) + EPS >= threshold;
}

/** The value most graders gave, or undefined when the most-given values tie. */
export function majority<T>(xs: readonly T[]): T | undefined {
  const counts = new Map<T, number>();
  for (const x of xs) counts.set(x, (counts.get(x) ?? 0) + 1);
  let best: T | undefined;
  let top = 0;
  let tied = false;
  for (const [x, c] of counts) {
    if (c > top) [best, top, tied] = [x, c, false];
    else if (c === top) tied = true;
  }
  return tied ? undefined : best;
}

/**
 * One dimension's final value over all the set's graders (the primaries, and
 * the adjudicator once submitted): ordinal, the mean of the scores (N/A left
 * out; every grader N/A: N/A); nominal, the majority (a tie: undefined).
 * Undefined while a grader has no value.
 */
export function finalDimensionValue(kind: "ordinal" | "nominal", xs: readonly DimensionValue[]): DimensionValue {
  if (xs.length === 0 || xs.some((x) => x === undefined)) return undefined;
  if (kind === "nominal") return majority(xs);
  const numbers = xs.filter((x): x is number => typeof x === "number");
  return numbers.length ? numbers.reduce((a, b) => a + b, 0) / numbers.length : "N/A";
}

export interface RubricFinal {
  dimensions: Record<string, DimensionValue>;
  /** Each total: the mean over graders of each grader's total; null while one is missing. */
  totals: Record<string, number | null>;
}

/** A set's final scores from each grader's cells. */
export function rubricFinal(doc: RubricDocument, graders: readonly (readonly RubricCell[])[], n: number, ctx: TotalContext = {}): RubricFinal {
  const values = graders.map((cells) => graderValues(doc, cells, n));
  const dimensions: Record<string, DimensionValue> = {};
  for (const d of doc.dimensions) {
    if (d.scale.kind === "criteria") continue;
    dimensions[d.key] = finalDimensionValue(d.scale.kind, values.map((v) => v[d.key]));
  }
  const totals: Record<string, number | null> = {};
  for (const t of doc.totals) {
    const xs = graders.map((cells) => graderTotal(doc, t, cells, n, ctx));
    totals[t.key] = xs.length && xs.every((x) => x !== null) ? (xs as number[]).reduce((a, b) => a + b, 0) / xs.length : null;
  }
  return { dimensions, totals };
}
