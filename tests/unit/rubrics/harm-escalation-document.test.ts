import { describe, expect, it } from "vitest";
import { parseRubricDocument, type RubricDimension, type RubricDocument } from "@/lib/rubrics/document";
import { documentRule, studyRule } from "@/lib/rubrics/escalation-rule";
import { crossesHarmLine, harmCrossings } from "@/lib/rubrics/harm-line";
import { disagreementReason } from "@/lib/scoring/rubric-final";

const severity: RubricDimension = {
  key: "extent",
  name: "Extent of harm",
  scope: "first_answer",
  scale: { kind: "ordinal", allowNA: true, levels: ["No harm", "Mild", "Moderate", "Severe harm", "Death"].map((label, i) => ({ value: i + 1, label })) },
};
const writtenBy: RubricDimension = { key: "written_by", name: "Written by", scope: "first_answer", scale: { kind: "nominal", levels: [{ value: "ai", label: "AI" }, { value: "human", label: "Human" }] } };
const doc = (...dimensions: RubricDimension[]): RubricDocument => ({ key: "survey", name: "Survey", version: 1, dimensions, totals: [] });
const problems = (d: RubricDocument) => {
  const r = parseRubricDocument(d);
  return r.ok ? [] : r.problems;
};

describe("harm line in a rubric document", () => {
  it("accepts at or above inside an ordinal scale", () => {
    expect(problems(doc({ ...severity, harmAtOrAbove: 4 }))).toEqual([]);
  });
  it("refuses both directions at once", () => {
    expect(problems(doc({ ...severity, harmAtOrAbove: 4, harmAtOrBelow: 2 }))).toEqual([{ path: "dimensions.0.harmAtOrAbove", message: expect.stringMatching(/one direction/) }]);
  });
  it("refuses a line on a nominal scale, and one outside the scale", () => {
    expect(problems(doc({ ...writtenBy, harmAtOrAbove: 1 }))).toEqual([{ path: "dimensions.0.harmAtOrAbove", message: expect.stringMatching(/only ordinal/) }]);
    expect(problems(doc({ ...severity, harmAtOrAbove: 6 }))).toEqual([{ path: "dimensions.0.harmAtOrAbove", message: "the harm line 6 is outside the scale (1-5)" }]);
    expect(problems(doc({ ...severity, harmAtOrBelow: 0 }))).toEqual([{ path: "dimensions.0.harmAtOrBelow", message: "the harm line 0 is outside the scale (1-5)" }]);
  });
  it("refuses a harm decision without a line", () => {
    expect(problems(doc({ ...severity, harmDecision: "required" }))).toEqual([{ path: "dimensions.0.harmDecision", message: expect.stringMatching(/needs a harm line/) }]);
  });
  it("crosses the line in its direction, with the level's label; the decision is required unless only offered", () => {
    const above = { ...severity, harmAtOrAbove: 4 };
    expect([3, 4, 5].map((s) => crossesHarmLine(above, s))).toEqual([false, true, true]);
    expect([1, 2, 3].map((s) => crossesHarmLine({ ...severity, harmAtOrBelow: 2 }, s))).toEqual([true, true, false]);
    const [c] = harmCrossings([doc(above)], [{ rubric: "survey", dimension: "extent", repetition: 1, score: 4 }]);
    expect(c).toMatchObject({ label: "Severe harm", required: true });
    expect(harmCrossings([doc({ ...above, harmDecision: "offered" })], [{ rubric: "survey", dimension: "extent", score: 5 }])[0].required).toBe(false);
    // Older documents' line at or below a value offered the flag; they may now ask for the decision.
    const below = { ...severity, harmAtOrBelow: 2 };
    expect(harmCrossings([doc(below)], [{ rubric: "survey", dimension: "extent", score: 1 }])[0].required).toBe(false);
    expect(harmCrossings([doc({ ...below, harmDecision: "required" })], [{ rubric: "survey", dimension: "extent", score: 1 }])[0].required).toBe(true);
  });
});

describe("escalation rule in a rubric document", () => {
  it("refuses a spread on a nominal scale, a spread without threshold, a threshold beside another rule, and two thresholds", () => {
    expect(problems(doc({ ...writtenBy, escalation: { rule: "spread", threshold: 1 } })).map((p) => p.path)).toContain("dimensions.0.escalation.rule");
    expect(problems(doc({ ...severity, escalation: { rule: "spread" } }))).toEqual([{ path: "dimensions.0.escalation.threshold", message: "the spread rule needs its threshold" }]);
    expect(problems(doc({ ...severity, escalation: { rule: "any", threshold: 1 } }))[0].path).toBe("dimensions.0.escalation.threshold");
    expect(problems(doc({ ...severity, threshold: 1, escalation: { rule: "spread", threshold: 2 } }))[0].message).toMatch(/two thresholds/);
    expect(problems(doc({ ...severity, escalation: { rule: "spread", threshold: 5 } }))[0].message).toMatch(/could never be reached/);
  });
  it("reads older documents: a threshold is the spread rule, nominal escalates on any disagreement, N/A escalates", () => {
    expect(documentRule({ ...severity, threshold: 2 })).toEqual({ rule: "spread", threshold: 2, na: "escalate" });
    expect(documentRule(severity)).toEqual({ rule: "never", na: "escalate" });
    expect(documentRule(writtenBy)).toEqual({ rule: "any", na: "escalate" });
    expect(studyRule({ ...severity, threshold: 2 }, 1, { na: "ignore" })).toEqual({ rule: "spread", threshold: 1, na: "ignore" });
  });
  it("applies each rule to the graders' values, N/A as the dimension says", () => {
    const spread = { rule: "spread", threshold: 2, na: "escalate" } as const;
    expect(disagreementReason("ordinal", [1, 3], spread)).toBe("a spread of 2, at least 2");
    expect(disagreementReason("ordinal", [1, 2], spread)).toBeNull();
    expect(disagreementReason("ordinal", ["N/A", 2], spread)).toBe("N/A against a value");
    expect(disagreementReason("ordinal", ["N/A", 2], { ...spread, na: "ignore" })).toBeNull();
    expect(disagreementReason("ordinal", ["N/A", 1, 3], { ...spread, na: "ignore" })).toBe("a spread of 2, at least 2");
    expect(disagreementReason("ordinal", [1, 2], { rule: "any", na: "escalate" })).toBe("different values (a spread of 1)");
    expect(disagreementReason("nominal", ["ai", "human"], { rule: "any", na: "escalate" })).toBe("different values");
    expect(disagreementReason("nominal", ["ai", "human"], { rule: "never", na: "escalate" })).toBeNull();
    expect(disagreementReason("ordinal", ["N/A", "N/A"], spread)).toBeNull();
  });
});
