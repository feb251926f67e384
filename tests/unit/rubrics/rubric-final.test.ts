import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RUBRICS, type RubricKey } from "@/lib/rubrics/templates/published-definitions";
import type { RubricDocument } from "@/lib/rubrics/document";
import { safeLlmTemplate, scoreTemplate } from "@/lib/rubrics/templates/published";
import { DEFAULT_THRESHOLDS } from "@/lib/rubrics/thresholds";
import { findDisagreements } from "./oracle/escalation";
import { finalScoresOf } from "./oracle/final-scores";
import { finalScoresOf as studyFinalScores } from "@/lib/scoring/final-scores";
import { graderRubricTotals, graderRubricValues } from "@/lib/scoring/study-values";
import { graderDimensionValues, rubricTotal, safeLlmOverallValues, type ScoreCell } from "./oracle/grader-values";
import { majority, rubricDisagreements, rubricFinal } from "@/lib/scoring/rubric-final";
import { graderValues, type RubricCell } from "@/lib/scoring/rubric-values";

/** A grader's complete cells of one of today's rubrics, random scores. */
const graderCells = (rubric: RubricKey, n: number) => {
  const slots = RUBRICS[rubric].dimensions
    .filter((d) => !d.derived)
    .flatMap((d) => (d.scope === "set" ? [0] : d.scope === "first_answer" ? [1] : Array.from({ length: n }, (_, r) => r + 1)).map((repetition) => ({ d, repetition })));
  return fc.tuple(...slots.map(({ d }) => fc.integer({ min: d.min, max: d.max }))).map((scores) =>
    slots.map(({ d, repetition }, i): ScoreCell => ({ rubric, dimension: d.key, repetition, score: scores[i] })),
  );
};
const panel = (rubric: RubricKey) =>
  fc.integer({ min: 1, max: 3 }).chain((n) => fc.tuple(fc.constant(n), fc.array(graderCells(rubric, n), { minLength: 2, maxLength: 3 })));

describe("final scores and escalation of the published rubrics as documents match today's", () => {
  const cases: [RubricKey, () => RubricDocument][] = [
    ["SCORE", scoreTemplate],
    ["SAFE_LLM", safeLlmTemplate],
  ];
  for (const [rubric, template] of cases) {
    it(`${rubric}: the escalation's disagreements, the final value of every dimension and every total`, () => {
      const doc = template();
      fc.assert(
        fc.property(panel(rubric), ([n, graders]) => {
          const today = findDisagreements(
            Object.fromEntries(graders.map((cells, i) => [`g${i}`, { [rubric]: graderDimensionValues(rubric, cells, n) }])),
            [rubric],
            DEFAULT_THRESHOLDS,
          );
          const mine = rubricDisagreements(doc, Object.fromEntries(graders.map((cells, i) => [`g${i}`, graderValues(doc, cells, n)])));
          expect(mine.map((d) => [d.dimension, d.spread, d.threshold])).toEqual(today.map((d) => [d.dimension, d.spread, d.threshold]));

          const { finalScores, totals } = finalScoresOf({ rubrics: [rubric], safeLlmScoring: "PER_ANSWER" }, "AGREED", graders, {
            values: (cells) => ({ [rubric]: graderDimensionValues(rubric, cells, n) }),
            safeLlmOverall: (cells) => rubricTotal("SAFE_LLM", safeLlmOverallValues(cells, n))!,
          });
          const final = rubricFinal(doc, graders, n);
          for (const [k, v] of Object.entries(finalScores![rubric]!)) expect(final.dimensions[k]).toBeCloseTo(v, 12);
          expect(Object.keys(final.dimensions).sort()).toEqual(Object.keys(finalScores![rubric]!).sort());
          // The study's own path (the sets API, exports, dashboard) gives the same.
          const study = studyFinalScores({ rubrics: [doc], repetitions: n, safeLlmScoring: "PER_ANSWER" }, "AGREED", graders, {
            values: (cells) => graderRubricValues([doc], cells, n),
            totals: (cells) => graderRubricTotals([doc], cells, n),
          });
          for (const [k, v] of Object.entries(finalScores![rubric]!)) expect(study.finalScores![rubric][k]).toBeCloseTo(v, 12);
          if (rubric === "SCORE") expect(study.totals!.SCORE.total).toBeCloseTo(totals!.SCORE!.total, 12);
          else expect([study.totals!.SAFE_LLM.perAnswer, study.totals!.SAFE_LLM.overall]).toEqual([totals!.SAFE_LLM!.perAnswer, totals!.SAFE_LLM!.overall].map((x) => expect.closeTo(x, 12)));
          if (rubric === "SCORE") expect(final.totals.total).toBeCloseTo(totals!.SCORE!.total, 12);
          else {
            expect(final.totals.per_answer).toBeCloseTo(totals!.SAFE_LLM!.perAnswer, 12);
            expect(final.totals.overall).toBeCloseTo(totals!.SAFE_LLM!.overall, 12);
          }
        }),
        { numRuns: 300 },
      );
    });
  }
});

describe("nominal dimensions and N/A", () => {
  const doc: RubricDocument = {
    key: "axes",
    name: "Axes",
    version: 1,
    dimensions: [
      {
        key: "consensus",
        name: "Consensus",
        scope: "first_answer",
        scale: { kind: "nominal", levels: [{ value: "aligned", label: "Aligned" }, { value: "opposed", label: "Opposed" }, { value: "none", label: "No consensus" }] },
      },
      { key: "clarity", name: "Clarity", scope: "first_answer", threshold: 2, scale: { kind: "ordinal", allowNA: true, levels: [1, 2, 3, 4, 5].map((value) => ({ value, label: `${value}` })) } },
    ],
    totals: [],
  };
  const grader = (consensus: string, clarity: number | null): RubricCell[] => [
    { dimension: "consensus", repetition: 1, score: consensus },
    { dimension: "clarity", repetition: 1, score: clarity, na: clarity === null },
  ];
  const values = (...gs: RubricCell[][]) => Object.fromEntries(gs.map((g, i) => [`g${i}`, graderValues(doc, g, 1)]));

  it("a nominal dimension escalates on any disagreement; its final value is the majority, a tie none", () => {
    expect(rubricDisagreements(doc, values(grader("aligned", 3), grader("aligned", 4)))).toEqual([]);
    expect(rubricDisagreements(doc, values(grader("aligned", 3), grader("opposed", 4)))).toEqual([
      { dimension: "consensus", values: { g0: "aligned", g1: "opposed" }, spread: null, threshold: null, rule: "any", reason: "different values" },
    ]);
    expect(rubricFinal(doc, [grader("aligned", 3), grader("opposed", 4), grader("aligned", 5)], 1).dimensions).toEqual({ consensus: "aligned", clarity: 4 });
    expect(rubricFinal(doc, [grader("aligned", 3), grader("opposed", 4), grader("none", 5)], 1).dimensions.consensus).toBeUndefined();
    expect(majority([1, 1, 2, 2])).toBeUndefined();
    expect(majority(["a"])).toBe("a");
  });

  it("an ordinal N/A against a score escalates; the final value leaves N/A out; all N/A is N/A", () => {
    expect(rubricDisagreements(doc, values(grader("aligned", null), grader("aligned", 4)))).toEqual([
      { dimension: "clarity", values: { g0: "N/A", g1: 4 }, spread: 0, threshold: 2, rule: "spread", reason: "N/A against a value" },
    ]);
    expect(rubricDisagreements(doc, values(grader("aligned", null), grader("aligned", null)))).toEqual([]);
    expect(rubricFinal(doc, [grader("aligned", null), grader("aligned", 4), grader("aligned", 5)], 1).dimensions.clarity).toBe(4.5);
    expect(rubricFinal(doc, [grader("aligned", null), grader("aligned", null)], 1).dimensions.clarity).toBe("N/A");
    // A study's own threshold overrides the rubric's.
    expect(rubricDisagreements(doc, values(grader("aligned", 2), grader("aligned", 3)), { clarity: 1 })).toHaveLength(1);
  });
});
