import type { DimensionScope, RubricDimension, RubricDocument } from "@/lib/rubrics/document";

/**
 * Where the grading page puts each dimension, and in what order: one function
 * for the grader's form and the rubric builder's preview of it, so the two
 * cannot disagree. The page is laid out around the answers: answer 1's fields
 * beside answer 1 (its first-answer and each-answer dimensions), then each
 * further answer's, then what is graded across them all. Within a part the
 * rubrics come in the study's order and each rubric's dimensions in its
 * document's order: changing a dimension's scope from "each answer" to "the
 * first answer" leaves it where it was among its neighbours.
 */

/** A part of the page: an answer's repetition (1..N), or 0 for the whole set after the answers. */
export type FormPart = number;

/** The part a dimension's field sits in, for the field graded at `repetition` (0 for a whole-set dimension). */
export function partOf(scope: DimensionScope, repetition: number): FormPart {
  if (scope === "each_answer") return repetition;
  if (scope === "first_answer") return 1;
  return 0;
}

/** The parts of the page in order: the answers, then the whole set. */
export function formParts(repetitions: number): FormPart[] {
  return [...Array.from({ length: Math.max(1, repetitions) }, (_, i) => i + 1), 0];
}

export interface PlacedDimension {
  rubric: RubricDocument;
  dimension: RubricDimension;
  /** 1..N, or 0 for a dimension graded once for the whole set. */
  repetition: number;
  part: FormPart;
}

/**
 * Every dimension the grader types, each at every repetition it is graded at,
 * in the page's order (derived dimensions are computed, never typed).
 */
export function formOrder(rubrics: readonly RubricDocument[], repetitions: number): PlacedDimension[] {
  const out: PlacedDimension[] = [];
  for (const part of formParts(repetitions)) {
    for (const rubric of rubrics) {
      for (const dimension of rubric.dimensions) {
        if (dimension.derived) continue;
        const repetition = dimension.scope === "set" ? 0 : dimension.scope === "first_answer" ? 1 : part;
        if (part === partOf(dimension.scope, repetition) && (dimension.scope !== "each_answer" || part > 0)) out.push({ rubric, dimension, repetition, part });
      }
    }
  }
  return out;
}
