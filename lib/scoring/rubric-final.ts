import type { RubricDocument } from "@/lib/rubrics/document";
import { studyRule, type EscalationOverride, type EscalationRule } from "@/lib/rubrics/escalation-rule";
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
  /** The rule that triggered, and why in words ("N/A against a value", "different values", "a spread of 2, at least 2"). */
  rule: EscalationRule["rule"];
  reason: string;
}

// Means over N answers are fractions like 1/3: a spread equal to the threshold on paper must count.
const EPS = 1e-9;

/**
 * The escalation rule, per dimension (lib/rubrics/escalation-rule.ts): never;
 * on any disagreement; or when the graders' spread reaches the threshold
 * (ordinal). One grader's N/A against another's value escalates or is left
 * out, as the dimension says. A criteria dimension, or one fewer than two
 * graders have scored, never escalates.
 */
export function rubricDisagreements(
  doc: RubricDocument,
  graders: Record<string, Record<string, DimensionValue>>,
  thresholds: Record<string, number> = {},
  overrides: Record<string, EscalationOverride> = {},
): RubricDisagreement[] {
  const ids = Object.keys(graders);
  const out: RubricDisagreement[] = [];
  for (const d of doc.dimensions) {
    if (d.scale.kind === "criteria" || d.scale.kind === "preference") continue;
    const values: RubricDisagreement["values"] = {};
    for (const id of ids) {
      const v = graders[id][d.key];
      if (v !== undefined) values[id] = v;
    }
    const xs = Object.values(values);
    const rule = studyRule(d, thresholds[d.key], overrides[d.key]);
    const reason = disagreementReason(d.scale.kind, xs, rule);
    if (reason === null) continue;
    const numeric = d.scale.kind === "ordinal";
    out.push({ dimension: d.key, values, spread: numeric ? numericSpread(xs) : null, threshold: rule.rule === "spread" ? (rule.threshold ?? null) : null, rule: rule.rule, reason });
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
export function dimensionDisagrees(kind: "ordinal" | "nominal", xs: readonly DimensionValue[], rule: EscalationRule): boolean {
  return disagreementReason(kind, xs, rule) !== null;
}

const NA = "N/A";

/** Why the values escalate under the rule, in words; null when they do not. */
export function disagreementReason(kind: "ordinal" | "nominal", xs: readonly DimensionValue[], rule: EscalationRule): string | null {
  if (xs.length < 2 || rule.rule === "never") return null;
  let nas = 0;
  for (const x of xs) if (x === NA) nas++;
  if (nas > 0 && nas < xs.length) {
    if (rule.na === "escalate") return "N/A against a value";
    xs = xs.filter((x) => x !== NA);
    if (xs.length < 2) return null;
  }
  if (kind === "nominal" || rule.rule === "any") {
    if (kind === "ordinal") return numericSpread(xs) > EPS ? `different values (a spread of ${round(numericSpread(xs))})` : null;
    return xs.some((x) => x !== xs[0]) ? "different values" : null;
  }
  if (rule.threshold === undefined) return null;
  const spread = numericSpread(xs);
  return spread + EPS >= rule.threshold ? `a spread of ${round(spread)}, at least ${rule.threshold}` : null;
}

const round = (x: number) => Math.round(x * 100) / 100;

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
    if (d.scale.kind === "criteria" || d.scale.kind === "preference") continue;
    dimensions[d.key] = finalDimensionValue(d.scale.kind, values.map((v) => v[d.key]));
  }
  const totals: Record<string, number | null> = {};
  for (const t of doc.totals) {
    const xs = graders.map((cells) => graderTotal(doc, t, cells, n, ctx));
    totals[t.key] = xs.length && xs.every((x) => x !== null) ? (xs as number[]).reduce((a, b) => a + b, 0) / xs.length : null;
  }
  return { dimensions, totals };
}
