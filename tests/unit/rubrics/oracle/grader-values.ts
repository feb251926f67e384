/**
 * Reference implementation: how S.C.O.R.E. and SAFE-LLM were scored before rubrics became data
 * (lib/scoring until 2026-12). Kept only as the oracle the property tests compare the
 * rubric-document path against; nothing in lib imports it.
 */
import { RUBRICS, type DimensionKey, type RubricKey } from "@/lib/rubrics/templates/published-definitions";

/** One stored score (repetition 0 = the whole set). */
export interface ScoreCell {
  rubric: RubricKey;
  dimension: DimensionKey;
  repetition: number;
  score: number;
}

export type DimensionValues = Partial<Record<DimensionKey, number>>;

/**
 * SAFE-LLM consistency, derived as Table 1 defines it: 1 when the grader's
 * accuracy scores are the same for every repetition, else 0. Null until every
 * answer has an accuracy score.
 */
export function deriveConsistency(accuracyByRepetition: (number | undefined)[]): 0 | 1 | null {
  if (accuracyByRepetition.length === 0 || accuracyByRepetition.some((v) => v === undefined)) return null;
  return accuracyByRepetition.every((v) => v === accuracyByRepetition[0]) ? 1 : 0;
}

function cell(cells: ScoreCell[], rubric: RubricKey, dimension: DimensionKey, repetition: number) {
  return cells.find((c) => c.rubric === rubric && c.dimension === dimension && c.repetition === repetition)?.score;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/**
 * One grader's value per dimension of a rubric for one response set:
 * S.C.O.R.E. takes the score itself (answer 1, or the set for reproducibility);
 * SAFE-LLM takes the grader's mean over the N answers for per-answer domains
 * ("the average score of the 3 will count as the domain scores") and the derived
 * set-level consistency. A dimension with a missing score is left out.
 */
export function graderDimensionValues(rubric: RubricKey, cells: ScoreCell[], n: number): DimensionValues {
  const out: DimensionValues = {};
  for (const d of RUBRICS[rubric].dimensions) {
    if (rubric === "SAFE_LLM" && d.key === "consistency") {
      const c = deriveConsistency(Array.from({ length: n }, (_, i) => cell(cells, rubric, "accuracy", i + 1)));
      if (c !== null) out.consistency = c;
      continue;
    }
    if (d.scope === "each_answer") {
      const xs = Array.from({ length: n }, (_, i) => cell(cells, rubric, d.key, i + 1));
      if (xs.every((x) => x !== undefined)) out[d.key] = mean(xs as number[]);
    } else {
      const v = cell(cells, rubric, d.key, d.scope === "set" ? 0 : 1);
      if (v !== undefined) out[d.key] = v;
    }
  }
  return out;
}

/** Sum of a rubric's dimension values: S.C.O.R.E. out of 25; SAFE-LLM per-answer mean out of 7. Null if any is missing. */
export function rubricTotal(rubric: RubricKey, values: DimensionValues): number | null {
  let total = 0;
  for (const d of RUBRICS[rubric].dimensions) {
    const v = values[d.key];
    if (v === undefined) return null;
    total += v;
  }
  return total;
}

/**
 * Each answer's SAFE-LLM score (its four points + the set's consistency, out of
 * 7), and their mean, which equals the sum of the per-domain means.
 */
export function safeLlmPerAnswerScores(cells: ScoreCell[], n: number): { answers: (number | null)[]; mean: number | null } {
  const values = graderDimensionValues("SAFE_LLM", cells, n);
  const consistency = values.consistency;
  const answers = Array.from({ length: n }, (_, i) => {
    const pts = (["accuracy", "comprehensiveness", "supplementation", "fluency"] as const).map((k) => cell(cells, "SAFE_LLM", k, i + 1));
    if (consistency === undefined || pts.some((p) => p === undefined)) return null;
    return (pts as number[]).reduce((a, b) => a + b, 0) + consistency;
  });
  return { answers, mean: answers.some((a) => a === null) ? null : mean(answers as number[]) };
}

/**
 * SAFE-LLM's second way of scoring a prompt (paper 001, Main Text): one overall
 * score taking accuracy from the most accurate answer, comprehensiveness from the
 * most comprehensive, supplementation from any answer that supplements, while
 * consistency and fluency are assessed across all the answers. We read "assessed
 * across all of the answers" as: consistency = the derived set-level value,
 * fluency = the mean over the N answers.
 */
export function safeLlmOverallValues(cells: ScoreCell[], n: number): DimensionValues {
  const per = (k: DimensionKey) => Array.from({ length: n }, (_, i) => cell(cells, "SAFE_LLM", k, i + 1));
  const complete = (xs: (number | undefined)[]): xs is number[] => xs.every((x) => x !== undefined);
  const out: DimensionValues = {};
  const acc = per("accuracy");
  const comp = per("comprehensiveness");
  const supp = per("supplementation");
  const flu = per("fluency");
  if (complete(acc)) out.accuracy = Math.max(...acc);
  if (complete(comp)) out.comprehensiveness = Math.max(...comp);
  if (complete(supp)) out.supplementation = supp.some((s) => s >= 1) ? 1 : 0;
  const c = deriveConsistency(acc);
  if (c !== null) out.consistency = c;
  if (complete(flu)) out.fluency = mean(flu);
  return out;
}
