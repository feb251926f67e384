import { describe, expect, it } from "vitest";
import { templateRubrics } from "@/lib/rubrics/study-rubrics";
import { finalScoresOf, type FinalGraders, type GraderTotals } from "@/lib/scoring/final-scores";
import type { GraderRubricValues } from "@/lib/scoring/escalation";
import { graderRubricTotals, graderRubricValues, type StoredCell } from "@/lib/scoring/study-values";
import { form, type SafeLlmPoints, type ScoreScores } from "../../fixtures/grade-form";

interface Grader {
  values: GraderRubricValues;
  totals: () => GraderTotals;
}
const read: FinalGraders<Grader> = { values: (g) => g.values, totals: (g) => g.totals() };

const both = { rubrics: templateRubrics(["SCORE", "SAFE_LLM"]), repetitions: 3, safeLlmScoring: "PER_ANSWER" as const };

/** A grader as the sets API reads one: plain cells of a complete form over N = 3 answers. */
function grader(score: ScoreScores, safe: SafeLlmPoints[]): Grader {
  const cells = form({ score, safe }).map((c) => ({ ...c, repetition: c.repetition ?? 0 })) as StoredCell[];
  return { values: graderRubricValues(both.rubrics, cells, 3), totals: () => graderRubricTotals(both.rubrics, cells, 3) };
}
// Grader 1: S.C.O.R.E. 5,4,4,4,4 (21); SAFE-LLM accuracy 2,2,1 (so consistency 0), answers of 2+2+1+1=6, 6 and 1+1+0+1=3 points.
const g1 = grader([5, 4, 4, 4, 4], [[2, 2, 1, 1], [2, 2, 1, 1], [1, 1, 0, 1]]);
// Grader 2: S.C.O.R.E. 3,4,4,2,4 (17); SAFE-LLM the same 2+1+1+1 on every answer (consistency 1).
const g2 = grader([3, 4, 4, 2, 4], [[2, 1, 1, 1], [2, 1, 1, 1], [2, 1, 1, 1]]);

describe("final scores of a set (finalScoresOf)", () => {
  it("exist only for an agreed or adjudicated set with a submitted grader", () => {
    for (const status of ["AWAITING_GRADES", "AWAITING_ADJUDICATION"]) expect(finalScoresOf(both, status, [g1, g2], read)).toEqual({ finalScores: null, totals: null, bands: null });
    expect(finalScoresOf(both, "AGREED", [], read)).toEqual({ finalScores: null, totals: null, bands: null });
    expect(finalScoresOf(both, "ADJUDICATED", [g1, g2], read).finalScores).not.toBeNull();
  });

  it("per dimension, the mean over graders; S.C.O.R.E. out of 25 and as a percentage", () => {
    const { finalScores, totals } = finalScoresOf(both, "AGREED", [g1, g2], read);
    expect(finalScores!.SCORE).toEqual({ safety: 4, consensus_context: 4, objectivity: 4, reproducibility: 3, explainability: 4 });
    expect(totals!.SCORE).toEqual({ total: 19, headline: 19, percent: 76 });
    // SAFE-LLM per-answer domains: each grader's mean over the 3 answers, then the mean over graders.
    expect(finalScores!.SAFE_LLM!.accuracy).toBeCloseTo((5 / 3 + 2) / 2, 12);
    expect(finalScores!.SAFE_LLM!.consistency).toBe(0.5);
  });

  it("SAFE-LLM per answer and overall (the mean of each grader's best-answer total); the study's setting picks the headline", () => {
    const perAnswer = finalScoresOf(both, "AGREED", [g1, g2], read).totals!.SAFE_LLM!;
    // Grader 1: answers of 6, 6, 3 points + consistency 0 -> 5; grader 2: 5 points each + consistency 1 -> 6. Mean 5.5.
    expect(perAnswer.perAnswer).toBeCloseTo(5.5, 12);
    // Overall: grader 1 best accuracy 2, comprehensiveness 2, supplementation 1, consistency 0, fluency mean 1 -> 6; grader 2: 2+1+1+1+1 = 6.
    expect(perAnswer.overall).toBeCloseTo(6, 12);
    expect(perAnswer.headline).toBe(perAnswer.perAnswer);
    expect(finalScoresOf({ ...both, safeLlmScoring: "OVERALL" }, "AGREED", [g1, g2], read).totals!.SAFE_LLM!.headline).toBe(perAnswer.overall);
  });

  it("a study with one rubric has only that rubric's scores", () => {
    const scoreOnly: Grader = { values: { SCORE: g1.values.SCORE }, totals: () => ({ SCORE: g1.totals().SCORE }) };
    const r = finalScoresOf({ rubrics: templateRubrics(["SCORE"]), repetitions: 3, safeLlmScoring: "PER_ANSWER" }, "AGREED", [scoreOnly], read);
    expect(Object.keys(r.finalScores!)).toEqual(["SCORE"]);
    expect(Object.keys(r.totals!)).toEqual(["SCORE"]);
  });
});
