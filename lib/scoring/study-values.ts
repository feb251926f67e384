import type { RubricDocument } from "@/lib/rubrics/document";
import type { GraderRubricValues } from "./escalation";
import { graderTotal, graderTotalFrom, graderValues, graderValuesFrom, indexCells, type CellSource, type RubricCell, type TotalContext } from "./rubric-values";

/** A grade as stored (Grade rows), whichever rubric it belongs to. */
export interface StoredCell {
  rubric: string;
  dimension: string;
  repetition: number;
  /** "" or absent: not a criterion's mark. */
  criterion?: string;
  score: number | null;
  category?: string | null;
  na?: boolean;
}

/** One rubric's cells of a grader, as lib/scoring/rubric-values reads them (a draft's comment-only cells left out). */
export function rubricCells(cells: readonly StoredCell[], rubric: string): RubricCell[] {
  const out: RubricCell[] = [];
  for (const c of cells) {
    if (c.rubric !== rubric) continue;
    const score = c.score ?? c.category ?? null;
    if (score === null && !c.na) continue;
    out.push({ dimension: c.dimension, repetition: c.repetition, score: c.na ? null : score, ...(c.na ? { na: true } : {}), ...(c.criterion ? { criterion: c.criterion } : {}) });
  }
  return out;
}

/** A grader's value of every dimension of every rubric of the study. */
export function graderRubricValues(rubrics: readonly RubricDocument[], cells: readonly StoredCell[], n: number): GraderRubricValues {
  return Object.fromEntries(rubrics.map((doc) => [doc.key, graderValues(doc, rubricCells(cells, doc.key), n)]));
}

/** A grader's value of every total of every rubric: rubric key -> total key -> value (null while incomplete). */
export function graderRubricTotals(rubrics: readonly RubricDocument[], cells: readonly StoredCell[], n: number, ctx: TotalContext = {}): Record<string, Record<string, number | null>> {
  return Object.fromEntries(
    rubrics.map((doc) => {
      const own = rubricCells(cells, doc.key);
      return [doc.key, Object.fromEntries(doc.totals.map((t) => [t.key, graderTotal(doc, t, own, n, ctx)]))];
    }),
  );
}

/** A grader's dimension values and totals of every rubric, from one pass over their cells (the dashboard reads thousands). */
export function graderRubricScores(
  rubrics: readonly RubricDocument[],
  cells: readonly StoredCell[],
  n: number,
  ctx: TotalContext = {},
): { values: GraderRubricValues; totals: Record<string, Record<string, number | null>> } {
  return graderRubricScoresFrom(rubrics, (rubric) => {
    const own = rubricCells(cells, rubric);
    return { source: indexCells(own), cells: own };
  }, n, ctx);
}

/** graderRubricScores from each rubric's cell source (criteria marks, if any, as cells). */
export function graderRubricScoresFrom(
  rubrics: readonly RubricDocument[],
  sourceOf: (rubric: string) => { source: CellSource; cells: readonly RubricCell[] },
  n: number,
  ctx: TotalContext = {},
): { values: GraderRubricValues; totals: Record<string, Record<string, number | null>> } {
  const values: GraderRubricValues = {};
  const totals: Record<string, Record<string, number | null>> = {};
  for (const doc of rubrics) {
    const { source, cells } = sourceOf(doc.key);
    values[doc.key] = graderValuesFrom(doc, source, n);
    const own: Record<string, number | null> = {};
    for (const t of doc.totals) own[t.key] = graderTotalFrom(doc, t, source, cells, n, ctx, values[doc.key]);
    totals[doc.key] = own;
  }
  return { values, totals };
}
