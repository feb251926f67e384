import type { Criterion } from "@/lib/rubrics/criteria";
import type { AcrossAnswers, RubricDimension, RubricDocument, RubricTotal } from "@/lib/rubrics/document";

/**
 * One grader's values for a set, for any rubric document: what the grader
 * scored, turned into one value per dimension and one per total. The final
 * scores of a set are built from these (lib/scoring/final-scores.ts).
 */

/** One stored answer to a dimension (repetition 0 = the whole set). */
export interface RubricCell {
  dimension: string;
  repetition: number;
  /** Ordinal: the level's value; nominal: its string value; criteria: 1 met, 0 not met; null with `na`. */
  score: number | string | null;
  na?: boolean;
  /** Criteria dimensions: which of the question's criteria this cell marks. */
  criterion?: string;
}


export type { Criterion };

/** What a grader's value of one dimension is: a number, a nominal value, "not applicable", or missing. */
export type DimensionValue = number | string | "N/A" | undefined;

const NA = "N/A" as const;

/** The repetitions a dimension is stored at: [1] for first-answer, 1..N for each-answer, [0] for set-level. */
export function repetitionsOf(d: Pick<RubricDimension, "scope">, n: number): number[] {
  if (d.scope === "set") return [0];
  if (d.scope === "first_answer") return [1];
  return Array.from({ length: n }, (_, i) => i + 1);
}

/** repetitionsOf, shared (not to be changed): the dashboard asks for them hundreds of thousands of times. */
const SET_REPS: readonly number[] = [0];
const FIRST_REPS: readonly number[] = [1];
const EACH_REPS: (readonly number[])[] = [];
function reps(d: Pick<RubricDimension, "scope">, n: number): readonly number[] {
  if (d.scope === "set") return SET_REPS;
  if (d.scope === "first_answer") return FIRST_REPS;
  return (EACH_REPS[n] ??= repetitionsOf(d, n));
}

/**
 * A grader's stored value of a dimension at a repetition, or undefined. The
 * dashboard reads its graders from packed integer rows (lib/analytics/grader-cells.ts
 * rowSource) through this instead of building cell objects and maps.
 */
export type CellSource = (dimension: string, repetition: number) => DimensionValue;

const at = (dimension: string, repetition: number) => `${dimension}/${repetition}`;

export function indexCells(cells: readonly RubricCell[]): CellSource {
  const index = new Map<string, RubricCell>();
  for (const c of cells) if (c.criterion === undefined) index.set(at(c.dimension, c.repetition), c);
  return (dimension, repetition) => valueOf(index.get(at(dimension, repetition)));
}

function valueOf(c: RubricCell | undefined): DimensionValue {
  if (!c) return undefined;
  if (c.na) return NA;
  return c.score ?? undefined;
}

/** The grader's values of one dimension at each repetition it is stored at (derived ones computed). */
export function perAnswerValues(doc: RubricDocument, d: RubricDimension, cells: CellSource, n: number): DimensionValue[] {
  if (d.derived) {
    const source = doc.dimensions.find((x) => x.key === d.derived!.of)!;
    const xs = reps(source, n).map((r) => cells(source.key, r));
    if (xs.length === 0 || xs.some((x) => x === undefined)) return [undefined];
    return [xs.every((x) => x === xs[0]) ? 1 : 0];
  }
  return reps(d, n).map((r) => cells(d.key, r));
}

function aggregate(xs: number[], how: AcrossAnswers): number {
  if (how === "max") return Math.max(...xs);
  if (how === "min") return Math.min(...xs);
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}

/**
 * The grader's value of a dimension for the set: an ordinal dimension scored
 * on each answer counts by `how` over its answers (the mean unless a total says
 * otherwise), N/A answers left out (all N/A: N/A); a nominal one on each answer
 * has a value only when it is the same for every answer. Missing if any answer
 * is unscored.
 */
export function dimensionValue(doc: RubricDocument, d: RubricDimension, cells: CellSource, n: number, how: AcrossAnswers = "mean"): DimensionValue {
  const xs = perAnswerValues(doc, d, cells, n);
  if (xs.some((x) => x === undefined)) return undefined;
  if (xs.length === 1) return xs[0];
  if (d.scale.kind === "nominal") return xs.every((x) => x === xs[0]) ? xs[0] : undefined;
  const applicable = xs.filter((x): x is number => typeof x === "number");
  return applicable.length ? aggregate(applicable, how) : NA;
}

/** Every dimension's value for the grader (criteria dimensions have their own score, see criteriaScore). */
export function graderValues(doc: RubricDocument, cells: readonly RubricCell[], n: number): Record<string, DimensionValue> {
  return graderValuesFrom(doc, indexCells(cells), n);
}

/** graderValues from a cell source. */
export function graderValuesFrom(doc: RubricDocument, source: CellSource, n: number): Record<string, DimensionValue> {
  const out: Record<string, DimensionValue> = {};
  for (const d of doc.dimensions) if (d.scale.kind !== "criteria") out[d.key] = dimensionValue(doc, d, source, n);
  return out;
}

/**
 * HealthBench's score of one answer: the points of the criteria met over the
 * positive points available, clipped to 0-1. Null until every criterion is marked.
 */
export function criteriaScore(criteria: readonly Criterion[], met: ReadonlyMap<string, boolean>): number | null {
  const possible = criteria.reduce((s, c) => s + Math.max(0, c.points), 0);
  if (possible <= 0 || criteria.some((c) => !met.has(c.id))) return null;
  const earned = criteria.reduce((s, c) => s + (met.get(c.id) ? c.points : 0), 0);
  return Math.min(1, Math.max(0, earned / possible));
}

export interface TotalContext {
  /** The set's question's criteria, for criteria dimensions. */
  criteria?: readonly Criterion[];
}

/** The grader's value of a total; null while something it counts is missing. */
export function graderTotal(doc: RubricDocument, t: RubricTotal, cells: readonly RubricCell[], n: number, ctx: TotalContext = {}): number | null {
  return graderTotalFrom(doc, t, indexCells(cells), cells, n, ctx);
}

/** A document's dimensions by key, made once per list of dimensions (totals look them up for every grader). */
const dimensionsByKey = new WeakMap<readonly RubricDimension[], Map<string, RubricDimension>>();
function dimensionOf(doc: RubricDocument, key: string): RubricDimension {
  let byKey = dimensionsByKey.get(doc.dimensions);
  if (!byKey) dimensionsByKey.set(doc.dimensions, (byKey = new Map(doc.dimensions.map((d) => [d.key, d]))));
  return byKey.get(key)!;
}

/**
 * graderTotal from a cell source; `cells` only for criteria marks (which a source does not hold).
 * `values`, when given, are the grader's values of the document's dimensions (graderValuesFrom's,
 * the mean over answers), so a total counting a dimension by its mean does not compute it again.
 */
export function graderTotalFrom(doc: RubricDocument, t: RubricTotal, index: CellSource, cells: readonly RubricCell[], n: number, ctx: TotalContext = {}, values?: Readonly<Record<string, DimensionValue>>): number | null {
  const dim = (k: string) => dimensionOf(doc, k);
  if (t.method === "criteria_score") {
    const d = dim(t.dimension);
    const scores = repetitionsOf(d, n).map((r) => {
      const met = new Map<string, boolean>();
      for (const c of cells) if (c.dimension === d.key && c.repetition === r && c.criterion !== undefined) met.set(c.criterion, c.score === 1);
      return criteriaScore(ctx.criteria ?? [], met);
    });
    return scores.some((s) => s === null) ? null : aggregate(scores as number[], "mean");
  }
  if (t.method === "sum") {
    let total = 0;
    for (const k of t.dimensions) {
      const how = t.across?.[k] ?? "mean";
      const v = values && how === "mean" ? values[k] : dimensionValue(doc, dim(k), index, n, how);
      if (typeof v !== "number") return null;
      total += v;
    }
    return total;
  }
  // percent_applicable: each applicable item's share of its scale, over the items that apply.
  let earned = 0;
  let possible = 0;
  for (const k of t.dimensions) {
    const d = dim(k);
    const v = values ? values[k] : dimensionValue(doc, d, index, n);
    if (v === undefined) return null;
    if (v === NA) continue;
    const levels = (d.scale.levels ?? []).map((l) => Number(l.value));
    const min = Math.min(...levels);
    earned += (Number(v) - min) / (Math.max(...levels) - min);
    possible += 1;
  }
  return possible === 0 ? null : (100 * earned) / possible;
}

/** A total's range (its lowest and highest possible values), for axes, percentages and bands. */
export function totalRange(doc: RubricDocument, t: RubricTotal): { min: number; max: number } {
  let known = ranges.get(t);
  if (!known || known.of !== doc.dimensions) ranges.set(t, (known = { of: doc.dimensions, range: rangeOf(doc, t) }));
  return { ...known.range };
}

/** Each total's range, once per total and list of dimensions (final scores ask for it on every set). */
const ranges = new WeakMap<RubricTotal, { of: readonly RubricDimension[]; range: { min: number; max: number } }>();

function rangeOf(doc: RubricDocument, t: RubricTotal): { min: number; max: number } {
  if (t.method === "criteria_score") return { min: 0, max: 1 };
  if (t.method === "percent_applicable") return { min: 0, max: 100 };
  let min = 0;
  let max = 0;
  for (const k of t.dimensions) {
    const values = (doc.dimensions.find((d) => d.key === k)!.scale.levels ?? []).map((l) => Number(l.value));
    min += Math.min(...values);
    max += Math.max(...values);
  }
  return { min, max };
}

/**
 * The band a total falls in (DISCERN's "good"), if the total has bands: the
 * highest band whose min it reaches, so a mean over graders between two bands'
 * integer limits (38.5) belongs to the lower one.
 */
export function bandOf(t: RubricTotal, value: number): string | null {
  if (t.method !== "sum" || !t.bands || value > t.bands[t.bands.length - 1].max) return null;
  return [...t.bands].reverse().find((b) => value >= b.min)?.label ?? null;
}
