import type { RubricDocument } from "@/lib/rubrics/document";

/** One expected score of a calibration or gold set: an ordinal dimension, on one answer (1..N) or the whole set (0). */
export interface ExpectedCell {
  rubric: string;
  dimension: string;
  repetition: number;
  score: number;
}

export interface ExpectedInput {
  rubric: string;
  dimension: string;
  /** null: the whole set (a set-scoped dimension). */
  repetition: number | null;
  score: number;
}

/** The lead's expected scores, checked against the study's rubrics: the cells to store, or each problem with its path. */
export function checkExpected(
  input: readonly ExpectedInput[],
  rubrics: readonly RubricDocument[],
  repetitions: number,
): { cells: ExpectedCell[]; problems: { path: string; message: string }[] } {
  const problems: { path: string; message: string }[] = [];
  const cells: ExpectedCell[] = [];
  const seen = new Set<string>();
  input.forEach((e, i) => {
    const at = `expected[${i}]`;
    const d = rubrics.find((r) => r.key === e.rubric)?.dimensions.find((x) => x.key === e.dimension);
    if (!d) return void problems.push({ path: `${at}.dimension`, message: `this study has no dimension ${e.rubric}/${e.dimension}` });
    if (d.scale.kind !== "ordinal") return void problems.push({ path: `${at}.dimension`, message: `${d.name} is not on an ordinal scale: only ordinal dimensions have an expected score` });
    const repetition = d.scope === "set" ? (e.repetition === null || e.repetition === 0 ? 0 : -1) : d.scope === "first_answer" ? (e.repetition === 1 ? 1 : -1) : e.repetition ?? -1;
    if (repetition < 0 || repetition > repetitions) {
      const want = d.scope === "set" ? "null (graded once for the whole set)" : d.scope === "first_answer" ? "1 (graded on answer 1 only)" : `1..${repetitions}`;
      return void problems.push({ path: `${at}.repetition`, message: `${d.name}: repetition must be ${want}` });
    }
    if (!(d.scale.levels ?? []).some((l) => l.value === e.score)) return void problems.push({ path: `${at}.score`, message: `${e.score} is not a level of ${d.name}` });
    const key = `${e.rubric}/${e.dimension}/${repetition}`;
    if (seen.has(key)) return void problems.push({ path: at, message: `${d.name} is given twice for the same answer` });
    seen.add(key);
    cells.push({ rubric: e.rubric, dimension: e.dimension, repetition, score: e.score });
  });
  if (!input.length) problems.push({ path: "expected", message: "give at least one expected score" });
  return { cells, problems };
}

/** The stored expected scores (written by checkExpected only). */
export const storedExpected = (v: unknown): ExpectedCell[] => (Array.isArray(v) ? (v as ExpectedCell[]) : []);

/** A grader's ordinal score of one cell. */
export interface ScoredCell {
  rubric: string;
  dimension: string;
  repetition: number;
  score: number | null;
}

/**
 * Each expected cell against the grader's score: a cell the grader left without a score (N/A)
 * counts as outside the tolerance and has no signed error.
 */
export function compareToExpected(expected: readonly ExpectedCell[], scored: readonly ScoredCell[], tolerance: number) {
  const byKey = new Map(scored.map((s) => [`${s.rubric}/${s.dimension}/${s.repetition}`, s.score]));
  return expected.map((e) => {
    const score = byKey.get(`${e.rubric}/${e.dimension}/${e.repetition}`) ?? null;
    return { ...e, expected: e.score, score, within: score !== null && Math.abs(score - e.score) <= tolerance };
  });
}
