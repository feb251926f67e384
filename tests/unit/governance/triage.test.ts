import { describe, expect, it } from "vitest";
import { DEFAULT_TRIAGE_RULE, flagVerdictOf, mutualRougeL, setStability, triageRuleProblems, verdictOf } from "@/lib/governance/triage";
import type { RubricDocument } from "@/lib/rubrics/document";

const likert = { kind: "ordinal" as const, levels: [1, 2, 3, 4, 5].map((value) => ({ value, label: String(value) })) };
const RUBRIC = {
  key: "panel",
  name: "Panel",
  version: "1",
  dimensions: [
    { key: "accuracy", name: "Accuracy", scope: "each_answer", scale: likert },
    { key: "clarity", name: "Clarity", scope: "each_answer", scale: { kind: "ordinal", levels: [0, 1, 2].map((value) => ({ value, label: String(value) })) } },
    { key: "stable", name: "Same advice across answers", scope: "set", scale: likert },
    { key: "first", name: "Tone", scope: "first_answer", scale: likert },
    { key: "kind", name: "Kind of answer", scope: "set", scale: { kind: "nominal", levels: [{ value: "a", label: "A" }, { value: "b", label: "B" }] } },
  ],
  totals: [],
} as unknown as RubricDocument;

const stability = (accuracy: (number | string | null)[], clarity: (number | null)[], stable: number | string | undefined, flags = 0, rule = DEFAULT_TRIAGE_RULE) =>
  setStability([RUBRIC], { panel: { accuracy, clarity } }, { panel: { stable, first: 1, kind: "a" } }, rule, flags);

describe("stability triage (hand-worked, default rule: accept <= 0.25, review <= 0.5, reject above)", () => {
  it("accepts answers within one point of each other and a top consistency judgment", () => {
    const s = stability([4, 4, 5], [2, 2, 2], 5);
    expect(s.drift).toBeCloseTo(0.25);
    expect(s.verdict).toBe("accept");
    expect(s.sources[0]).toMatchObject({ dimension: "accuracy", kind: "spread", values: [4, 4, 5] });
  });

  it("reviews a two-point spread (minor drift) and rejects three points (major drift)", () => {
    expect(stability([3, 5, 4], [2, 2, 2], 5)).toMatchObject({ drift: 0.5, verdict: "review" });
    expect(stability([2, 5, 4], [2, 2, 2], 5)).toMatchObject({ drift: 0.75, verdict: "reject" });
  });

  it("reads each dimension on its own scale: one point on a 0-2 scale is half of it", () => {
    const s = stability([4, 4, 4], [1, 2, 2], 5);
    expect(s).toMatchObject({ drift: 0.5, verdict: "review" });
    expect(s.sources[0].dimension).toBe("clarity");
  });

  it("reads a judgment across the answers by how far it sits below the top: 3 of 5 reviews, 2 of 5 rejects, a mean of 4.5 accepts", () => {
    expect(stability([4, 4, 4], [2, 2, 2], 3)).toMatchObject({ drift: 0.5, verdict: "review" });
    expect(stability([4, 4, 4], [2, 2, 2], 2)).toMatchObject({ drift: 0.75, verdict: "reject" });
    expect(stability([4, 4, 4], [2, 2, 2], 4.5)).toMatchObject({ drift: 0.125, verdict: "accept" });
    expect(stability([4, 4, 4], [2, 2, 2], 2).sources[0]).toMatchObject({ dimension: "stable", kind: "judged", values: [2] });
  });

  it("skips N/A and missing values, first-answer and nominal dimensions; nothing to read is no verdict", () => {
    expect(stability(["N/A", 5, null], [null, null, null], "N/A")).toEqual({ drift: null, contradictions: 0, verdict: null, sources: [] });
    expect(stability(["N/A", 5, 1], [null, null, null], undefined)).toMatchObject({ drift: 1, verdict: "reject" });
  });

  it("applies a lead's own rule, and refuses one whose bands cross", () => {
    expect(verdictOf(0.5, { acceptAtMost: 0.5, reviewAtMost: 0.75 })).toBe("accept");
    expect(verdictOf(0.5, { acceptAtMost: 0, reviewAtMost: 0.25 })).toBe("reject");
    const flags = { reviewAtFlags: 1, rejectAtFlags: 2 };
    expect(triageRuleProblems({ acceptAtMost: 0.5, reviewAtMost: 0.25, ...flags })).toEqual([{ path: "reviewAtMost", message: expect.stringMatching(/cannot be below acceptAtMost/) }]);
    expect(triageRuleProblems({ acceptAtMost: -0.1, reviewAtMost: 2, ...flags }).map((p) => p.path)).toEqual(["acceptAtMost", "reviewAtMost"]);
    expect(triageRuleProblems({ acceptAtMost: 0.25, reviewAtMost: 0.5, reviewAtFlags: 3, rejectAtFlags: 2 })).toEqual([
      { path: "rejectAtFlags", message: expect.stringMatching(/cannot be below reviewAtFlags/) },
    ]);
    expect(triageRuleProblems({ acceptAtMost: 0.25, reviewAtMost: 0.5, reviewAtFlags: 0, rejectAtFlags: 1.5 }).map((p) => p.path)).toEqual(["reviewAtFlags", "rejectAtFlags"]);
    expect(triageRuleProblems({ acceptAtMost: 0.25, reviewAtMost: 0.5, reviewAtFlags: null, rejectAtFlags: 1 })).toEqual([]);
    expect(triageRuleProblems(DEFAULT_TRIAGE_RULE)).toEqual([]);
  });

  it("states the defaults: one grader flagging a contradiction reviews, two reject", () => {
    expect(DEFAULT_TRIAGE_RULE).toEqual({ acceptAtMost: 0.25, reviewAtMost: 0.5, reviewAtFlags: 1, rejectAtFlags: 2 });
    expect([0, 1, 2, 3].map((n) => flagVerdictOf(n, DEFAULT_TRIAGE_RULE))).toEqual([null, "review", "reject", "reject"]);
    expect([0, 1, 2].map((n) => flagVerdictOf(n, { reviewAtFlags: null, rejectAtFlags: null }))).toEqual([null, null, null]);
    expect([1, 2].map((n) => flagVerdictOf(n, { reviewAtFlags: null, rejectAtFlags: 1 }))).toEqual(["reject", "reject"]);
  });

  it("lets contradiction flags escalate a consistent set, never soften a drifting one", () => {
    // Same scores on every answer (drift 0): one flag reviews, two reject.
    expect(stability([4, 4, 4], [2, 2, 2], 5, 1)).toMatchObject({ drift: 0, contradictions: 1, verdict: "review" });
    expect(stability([4, 4, 4], [2, 2, 2], 5, 2)).toMatchObject({ drift: 0, contradictions: 2, verdict: "reject" });
    // Major drift stays a rejection with one flag; minor drift with two flags is a rejection.
    expect(stability([2, 5, 4], [2, 2, 2], 5, 1)).toMatchObject({ drift: 0.75, verdict: "reject" });
    expect(stability([3, 5, 4], [2, 2, 2], 5, 2)).toMatchObject({ drift: 0.5, verdict: "reject" });
    // Nothing to read but a flag: the flag decides.
    expect(stability(["N/A", null, null], [null, null, null], undefined, 1)).toMatchObject({ drift: null, verdict: "review", sources: [] });
    // The lead may let flags only inform: the drift decides alone.
    const quiet = { ...DEFAULT_TRIAGE_RULE, reviewAtFlags: null, rejectAtFlags: null };
    expect(stability([4, 4, 4], [2, 2, 2], 5, 3, quiet)).toMatchObject({ contradictions: 3, verdict: "accept" });
  });

  it("reads how alike the answers are as the mean ROUGE-L F1 over their pairs", () => {
    // (1,2) identical: 1; (1,3) and (2,3) share no token: 0.
    expect(mutualRougeL(["The cat sat.", "the CAT sat", "A dog ran!"])).toBeCloseTo(1 / 3, 12);
    // LCS "the sat" (2 of 3 tokens each way): 2/3.
    expect(mutualRougeL(["the cat sat", "the dog sat"])).toBeCloseTo(2 / 3, 12);
    expect(mutualRougeL(["only one", "  "])).toBeNull();
  });
});
