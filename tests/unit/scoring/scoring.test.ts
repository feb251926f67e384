import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_THRESHOLDS } from "@/lib/rubrics/thresholds";
import { findDisagreements, finalDimensionValues, type GraderRubricValues } from "../rubrics/oracle/escalation";
import {
  deriveConsistency,
  graderDimensionValues,
  rubricTotal,
  safeLlmOverallValues,
  safeLlmPerAnswerScores,
  type ScoreCell,
} from "../rubrics/oracle/grader-values";

/** SAFE-LLM cells for N answers from per-answer tuples [accuracy, comprehensiveness, supplementation, fluency]. */
function safe(answers: [number, number, number, number][]): ScoreCell[] {
  return answers.flatMap(([a, c, s, f], i) => [
    { rubric: "SAFE_LLM", dimension: "accuracy", repetition: i + 1, score: a },
    { rubric: "SAFE_LLM", dimension: "comprehensiveness", repetition: i + 1, score: c },
    { rubric: "SAFE_LLM", dimension: "supplementation", repetition: i + 1, score: s },
    { rubric: "SAFE_LLM", dimension: "fluency", repetition: i + 1, score: f },
  ]);
}

function score(s: number, c: number, o: number, r: number, e: number): ScoreCell[] {
  return [
    { rubric: "SCORE", dimension: "safety", repetition: 1, score: s },
    { rubric: "SCORE", dimension: "consensus_context", repetition: 1, score: c },
    { rubric: "SCORE", dimension: "objectivity", repetition: 1, score: o },
    { rubric: "SCORE", dimension: "reproducibility", repetition: 0, score: r },
    { rubric: "SCORE", dimension: "explainability", repetition: 1, score: e },
  ];
}

describe("SAFE-LLM consistency (derived)", () => {
  it("is 1 when all accuracy scores are equal, 0 otherwise, null while incomplete", () => {
    expect(deriveConsistency([2, 2, 2])).toBe(1);
    expect(deriveConsistency([0, 0, 0])).toBe(1); // all "inaccurate" is still consistent (Table 1)
    expect(deriveConsistency([1, 0, 1])).toBe(0); // Table 1's example: partially accurate vs inaccurate
    expect(deriveConsistency([2, undefined, 2])).toBeNull();
    expect(deriveConsistency([])).toBeNull();
  });
});

describe("one grader's values", () => {
  it("S.C.O.R.E. takes the scores themselves; the total is out of 25", () => {
    const v = graderDimensionValues("SCORE", score(4, 3, 5, 2, 4), 3);
    expect(v).toEqual({ safety: 4, consensus_context: 3, objectivity: 5, reproducibility: 2, explainability: 4 });
    expect(rubricTotal("SCORE", v)).toBe(18);
  });

  it("SAFE-LLM averages each domain over the N answers (one accurate, two partially accurate answers)", () => {
    // answer 1 accurate and complete with a supplement; answers 2 and 3 partially accurate
    const cells = safe([
      [2, 2, 1, 1],
      [1, 1, 0, 1],
      [1, 2, 0, 1],
    ]);
    const v = graderDimensionValues("SAFE_LLM", cells, 3);
    expect(v.accuracy).toBeCloseTo(4 / 3, 12);
    expect(v.comprehensiveness).toBeCloseTo(5 / 3, 12);
    expect(v.supplementation).toBeCloseTo(1 / 3, 12);
    expect(v.consistency).toBe(0);
    expect(v.fluency).toBe(1);
    // per answer: 6, 3, 4 (+ consistency 0); mean 13/3 = sum of domain means
    const per = safeLlmPerAnswerScores(cells, 3);
    expect(per.answers).toEqual([6, 3, 4]);
    expect(per.mean).toBeCloseTo(13 / 3, 12);
    expect(rubricTotal("SAFE_LLM", v)).toBeCloseTo(13 / 3, 12);
  });

  it("the overall (best-answer) SAFE-LLM score takes maxima, any supplement, derived consistency and mean fluency", () => {
    // only answer 2 supplements; fluency 1, 0, 1
    const cells = safe([
      [2, 1, 0, 1],
      [2, 2, 1, 0],
      [2, 1, 0, 1],
    ]);
    const o = safeLlmOverallValues(cells, 3);
    expect(o).toEqual({ accuracy: 2, comprehensiveness: 2, supplementation: 1, consistency: 1, fluency: 2 / 3 });
    expect(rubricTotal("SAFE_LLM", o)).toBeCloseTo(2 + 2 + 1 + 1 + 2 / 3, 12);
    const perAnswerMean = rubricTotal("SAFE_LLM", graderDimensionValues("SAFE_LLM", cells, 3))!;
    // per answer 4, 5, 4 points + consistency 1 = 5, 6, 5: mean 16/3, below the overall 6 2/3
    expect(perAnswerMean).toBeCloseTo((4 + 5 + 4) / 3 + 1, 12);
  });

  it("leaves out a dimension with a missing score, and the total is then unknown", () => {
    const cells = safe([
      [2, 2, 1, 1],
      [2, 2, 1, 1],
    ]);
    const v = graderDimensionValues("SAFE_LLM", cells, 3); // N = 3 but only 2 answers graded
    expect(v).toEqual({});
    expect(rubricTotal("SAFE_LLM", v)).toBeNull();
  });

  it("property: the overall score is >= the per-answer mean for accuracy, comprehensiveness and supplementation", () => {
    const answer = fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 1 }), fc.integer({ min: 0, max: 1 }));
    fc.assert(
      fc.property(fc.array(answer, { minLength: 1, maxLength: 6 }), (answers) => {
        const cells = safe(answers);
        const o = safeLlmOverallValues(cells, answers.length);
        const m = graderDimensionValues("SAFE_LLM", cells, answers.length);
        for (const k of ["accuracy", "comprehensiveness", "supplementation"] as const) expect(o[k]!).toBeGreaterThanOrEqual(m[k]! - 1e-12);
        expect(o.consistency).toBe(m.consistency);
        expect(o.fluency).toBeCloseTo(m.fluency!, 12);
      }),
    );
  });
});

describe("escalation rule", () => {
  const graders = (...scores: ScoreCell[][]): Record<string, GraderRubricValues> =>
    Object.fromEntries(scores.map((cells, i) => [`g${i + 1}`, { SCORE: graderDimensionValues("SCORE", cells, 3), SAFE_LLM: graderDimensionValues("SAFE_LLM", cells, 3) }]));

  it("escalates exactly at the threshold (S.C.O.R.E. spread of 2) and not below", () => {
    const at = findDisagreements(graders(score(5, 4, 4, 4, 4), score(3, 4, 4, 4, 4)), ["SCORE"], DEFAULT_THRESHOLDS);
    expect(at).toEqual([{ rubric: "SCORE", dimension: "safety", values: { g1: 5, g2: 3 }, spread: 2, threshold: 2 }]);
    expect(findDisagreements(graders(score(5, 4, 4, 4, 4), score(4, 3, 5, 5, 3)), ["SCORE"], DEFAULT_THRESHOLDS)).toEqual([]);
  });

  it("compares SAFE-LLM graders by their means over the N answers (1 point on accuracy, 0.5 on fluency)", () => {
    const a = safe([
      [2, 2, 1, 1],
      [2, 2, 1, 1],
      [2, 2, 1, 1],
    ]);
    // accuracy mean 1 vs 2: spread exactly 1 -> escalates; supplementation 1/3 vs 1 -> spread 2/3 >= 0.5
    const b = safe([
      [1, 2, 1, 1],
      [1, 2, 0, 1],
      [1, 2, 0, 1],
    ]);
    const d = findDisagreements(graders(a, b), ["SAFE_LLM"], DEFAULT_THRESHOLDS);
    expect(d.map((x) => x.dimension)).toEqual(["accuracy", "supplementation"]);
    expect(d[0].spread).toBe(1);
    expect(d[1].spread).toBeCloseTo(2 / 3, 12);
    // accuracy 2,2,1 vs 2,2,2: means 5/3 vs 2, spread 1/3 < 1 (no accuracy escalation) but consistency 0 vs 1 -> spread 1 >= 0.5
    const c = safe([
      [2, 2, 1, 1],
      [2, 2, 1, 1],
      [1, 2, 1, 1],
    ]);
    expect(findDisagreements(graders(a, c), ["SAFE_LLM"], DEFAULT_THRESHOLDS).map((x) => x.dimension)).toEqual(["consistency"]);
  });

  it("with k = 3 the spread is max - min over all three primary graders", () => {
    const d = findDisagreements(graders(score(4, 4, 4, 4, 4), score(3, 4, 4, 4, 4), score(5, 4, 4, 4, 4)), ["SCORE"], DEFAULT_THRESHOLDS);
    expect(d).toEqual([{ rubric: "SCORE", dimension: "safety", values: { g1: 4, g2: 3, g3: 5 }, spread: 2, threshold: 2 }]);
  });

  it("needs two graders to disagree", () => {
    expect(findDisagreements(graders(score(1, 1, 1, 1, 1)), ["SCORE"], DEFAULT_THRESHOLDS)).toEqual([]);
  });
});

describe("final scores", () => {
  it("average all graders per dimension: two agreeing graders, then three after adjudication", () => {
    const g = (cells: ScoreCell[]): GraderRubricValues => ({ SCORE: graderDimensionValues("SCORE", cells, 3) });
    const two = finalDimensionValues([g(score(4, 4, 5, 3, 4)), g(score(5, 4, 5, 4, 3))], "SCORE");
    expect(two).toEqual({ safety: 4.5, consensus_context: 4, objectivity: 5, reproducibility: 3.5, explainability: 3.5 });
    expect(rubricTotal("SCORE", two)).toBe(20.5);
    const three = finalDimensionValues([g(score(5, 4, 5, 3, 4)), g(score(2, 4, 5, 3, 4)), g(score(4, 4, 5, 3, 4))], "SCORE");
    expect(three.safety).toBeCloseTo(11 / 3, 12);
    expect(rubricTotal("SCORE", three)).toBeCloseTo(11 / 3 + 16, 12);
  });

  it("SAFE-LLM final total is the sum of the final domain means, consistency included (out of 7)", () => {
    const g = (cells: ScoreCell[]): GraderRubricValues => ({ SAFE_LLM: graderDimensionValues("SAFE_LLM", cells, 3) });
    const a = safe([
      [2, 2, 1, 1],
      [2, 2, 1, 1],
      [2, 2, 1, 1],
    ]); // 7 per answer
    const b = safe([
      [2, 1, 0, 1],
      [1, 1, 0, 1],
      [2, 1, 0, 1],
    ]); // consistency 0; accuracy 5/3, comp 1, supp 0, flu 1 -> 11/3
    const f = finalDimensionValues([g(a), g(b)], "SAFE_LLM");
    expect(f.accuracy).toBeCloseTo((2 + 5 / 3) / 2, 12);
    expect(f.consistency).toBe(0.5);
    expect(rubricTotal("SAFE_LLM", f)).toBeCloseTo((7 + 11 / 3) / 2, 12);
  });
});
