/**
 * Reference implementation: how S.C.O.R.E. and SAFE-LLM were scored before rubrics became data
 * (lib/scoring until 2026-12). Kept only as the oracle the property tests compare the
 * rubric-document path against; nothing in lib imports it.
 */
import type { SafeLlmScoring } from "@/lib/generated/prisma/enums";
import { RUBRICS, type RubricKey } from "@/lib/rubrics/templates/published-definitions";
import { finalDimensionValues, type GraderRubricValues } from "./escalation";
import { rubricTotal, type DimensionValues } from "./grader-values";

/** Per dimension, the mean over all the set's graders of each grader's value. */
export type FinalScores = Partial<Record<RubricKey, DimensionValues>>;

export interface FinalTotals {
  /** Out of 25, and as a percentage. */
  SCORE?: { total: number; percent: number };
  /** Out of 7: per answer (mean over the N answers) and overall (best answer); headline as the study chose. */
  SAFE_LLM?: { perAnswer: number; overall: number; headline: number };
}

/**
 * How a reader of grades gives its graders to `finalScoresOf`, whatever it
 * holds for each (plain cells, the dashboard's packed table): accessors made
 * once per read, so a study of 10,000 sets allocates nothing per grader here.
 */
export interface FinalGraders<G> {
  /** The grader's value per dimension (graderDimensionValues). */
  values: (grader: G) => GraderRubricValues;
  /** The grader's SAFE-LLM overall (best-answer) total out of 7; asked only for a final set of a SAFE-LLM study. */
  safeLlmOverall: (grader: G) => number;
}

/**
 * A set's final scores, exactly as the papers define them: they exist only
 * once the set is agreed or adjudicated; per dimension, the mean over all its
 * graders (the k primaries, plus the adjudicator once they have submitted);
 * S.C.O.R.E. total out of 25, SAFE-LLM out of 7 both per answer and overall
 * (the mean over graders of each grader's best-answer total). Every reader of
 * final scores (the sets API, the Results tab, the exports, the dashboard)
 * comes here, whichever way it read the grades.
 */
export function finalScoresOf<G>(
  study: { rubrics: readonly RubricKey[]; safeLlmScoring: SafeLlmScoring },
  status: string,
  graders: readonly G[],
  read: FinalGraders<G>,
): { finalScores: FinalScores | null; totals: FinalTotals | null } {
  if ((status !== "AGREED" && status !== "ADJUDICATED") || graders.length === 0) return { finalScores: null, totals: null };
  const values = graders.map(read.values);
  const finalScores: FinalScores = Object.fromEntries(study.rubrics.map((r) => [r, finalDimensionValues(values, r)]));
  const totals: FinalTotals = {};
  if (study.rubrics.includes("SCORE")) {
    const total = rubricTotal("SCORE", finalScores.SCORE!)!;
    totals.SCORE = { total, percent: (100 * total) / RUBRICS.SCORE.maxTotal };
  }
  if (study.rubrics.includes("SAFE_LLM")) {
    const perAnswer = rubricTotal("SAFE_LLM", finalScores.SAFE_LLM!)!;
    let sum = 0;
    for (const g of graders) sum += read.safeLlmOverall(g);
    const overall = sum / graders.length;
    totals.SAFE_LLM = { perAnswer, overall, headline: study.safeLlmScoring === "OVERALL" ? overall : perAnswer };
  }
  return { finalScores, totals };
}
