import { describe, expect, it } from "vitest";
import { DEFAULT_THRESHOLDS, type Thresholds } from "@/lib/rubrics/thresholds";
import {
  canonicalRubrics,
  createStudySchema,
  DEFAULT_SETTINGS,
  mergeThresholds,
  storedThresholds,
  thresholdsInputSchema,
  updateStudySchema,
} from "@/lib/studies/settings";

const issues = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  (r.error?.issues ?? []).map((i) => [i.path.join("."), i.message]);

describe("createStudySchema", () => {
  it("fills in the papers' defaults: N = 3, k = 2, reference answer shown, per-answer SAFE-LLM scoring", () => {
    const r = createStudySchema.parse({ name: "  Ophthalmology  ", rubrics: ["SCORE"] });
    expect(r).toEqual({
      name: "Ophthalmology",
      graderTitle: "",
      description: "",
      rubrics: ["SCORE"],
      repetitions: 3,
      gradersPerSet: 2,
      showReferenceAnswer: true,
      matchSpecialty: false,
      safeLlmScoring: "PER_ANSWER",
    });
    expect(DEFAULT_SETTINGS).toMatchObject({ repetitions: 3, gradersPerSet: 2, thresholds: DEFAULT_THRESHOLDS });
  });

  it("requires one or two distinct rubrics", () => {
    expect(createStudySchema.safeParse({ name: "x", rubrics: ["SCORE", "SAFE_LLM"] }).success).toBe(true);
    expect(issues(createStudySchema.safeParse({ name: "x" }))).toEqual([["rubrics", "rubrics must be a list"]]);
    expect(issues(createStudySchema.safeParse({ name: "x", rubrics: [] }))).toEqual([["rubrics", "choose at least one rubric (SCORE, SAFE_LLM or both)"]]);
    expect(issues(createStudySchema.safeParse({ name: "x", rubrics: ["SCORE", "SCORE"] }))).toEqual([["rubrics", "rubrics must not repeat"]]);
    expect(issues(createStudySchema.safeParse({ name: "x", rubrics: ["SCORE", "SAFE_LLM", "SCORE"] }))[0][0]).toBe("rubrics");
    expect(issues(createStudySchema.safeParse({ name: "x", rubrics: ["score"] }))).toEqual([["rubrics.0", "each rubric must be SCORE or SAFE_LLM"]]);
  });

  it("bounds N to 1..10 and k to 1..5, whole numbers only", () => {
    const ok = (repetitions: unknown, gradersPerSet: unknown) => createStudySchema.safeParse({ name: "x", rubrics: ["SCORE"], repetitions, gradersPerSet }).success;
    expect(ok(1, 1)).toBe(true);
    expect(ok(10, 5)).toBe(true);
    expect(ok(0, 2)).toBe(false);
    expect(ok(11, 2)).toBe(false);
    expect(ok(3, 6)).toBe(false);
    expect(ok(2.5, 2)).toBe(false);
    expect(ok("3", 2)).toBe(false);
  });

  it("refuses unknown settings instead of ignoring a typo", () => {
    expect(issues(createStudySchema.safeParse({ name: "x", rubrics: ["SCORE"], gradersPerset: 3 }))).toEqual([["", "unknown setting gradersPerset"]]);
  });
});

describe("thresholds", () => {
  it("accepts partial thresholds and merges them over the defaults", () => {
    const patch = thresholdsInputSchema.parse({ SCORE: { safety: 1 }, SAFE_LLM: { fluency: 0.25 } });
    const merged = mergeThresholds(DEFAULT_THRESHOLDS as Thresholds, patch);
    expect(merged).toEqual({
      SCORE: { safety: 1, consensus_context: 2, objectivity: 2, reproducibility: 2, explainability: 2 },
      SAFE_LLM: { accuracy: 1, comprehensiveness: 1, supplementation: 0.5, consistency: 0.5, fluency: 0.25 },
    });
    // The defaults themselves are untouched.
    expect(DEFAULT_THRESHOLDS.SCORE.safety).toBe(2);
    expect(mergeThresholds(merged, undefined)).toEqual(merged);
    expect(mergeThresholds(merged, { SCORE: { objectivity: 3 } }).SCORE).toMatchObject({ safety: 1, objectivity: 3 });
  });

  it("refuses non-positive values, values beyond the scale's widest spread, and unknown keys", () => {
    expect(issues(thresholdsInputSchema.safeParse({ SCORE: { safety: 0 } }))).toEqual([["SCORE.safety", "thresholds.SCORE.safety must be greater than 0"]]);
    expect(issues(thresholdsInputSchema.safeParse({ SCORE: { safety: -1 } }))[0][0]).toBe("SCORE.safety");
    expect(thresholdsInputSchema.safeParse({ SCORE: { safety: 4 } }).success).toBe(true);
    expect(issues(thresholdsInputSchema.safeParse({ SCORE: { safety: 4.5 } }))[0][1]).toMatch(/at most 4/);
    expect(thresholdsInputSchema.safeParse({ SAFE_LLM: { accuracy: 2, fluency: 1 } }).success).toBe(true);
    expect(issues(thresholdsInputSchema.safeParse({ SAFE_LLM: { fluency: 1.5 } }))[0][1]).toMatch(/at most 1/);
    expect(issues(thresholdsInputSchema.safeParse({ SAFE_LLM: { accuracy: "1" } }))).toEqual([["SAFE_LLM.accuracy", "thresholds.SAFE_LLM.accuracy must be a number"]]);
    expect(issues(thresholdsInputSchema.safeParse({ SCORE: { safty: 1 } }))[0]).toEqual([
      "SCORE",
      'unknown SCORE dimension "safty"; known: safety, consensus_context, objectivity, reproducibility, explainability',
    ]);
    // A S.C.O.R.E. dimension under SAFE-LLM is unknown there.
    expect(issues(thresholdsInputSchema.safeParse({ SAFE_LLM: { safety: 1 } }))[0][0]).toBe("SAFE_LLM");
    expect(issues(thresholdsInputSchema.safeParse({ OTHER: {} }))[0][1]).toMatch(/unknown rubric "OTHER"/);
  });

  it("reads stored thresholds defensively: missing or invalid values fall back to the defaults", () => {
    expect(storedThresholds(null)).toEqual(DEFAULT_THRESHOLDS);
    expect(storedThresholds({ SCORE: { safety: 1, objectivity: -3, bogus: 9 }, SAFE_LLM: "x" })).toEqual({
      SCORE: { ...DEFAULT_THRESHOLDS.SCORE, safety: 1 },
      SAFE_LLM: DEFAULT_THRESHOLDS.SAFE_LLM,
    });
  });
});

describe("updateStudySchema", () => {
  it("has no defaults: an omitted setting stays as it is", () => {
    expect(updateStudySchema.parse({ name: "New name" })).toEqual({ name: "New name" });
  });

  it("accepts only OPEN and CLOSED as a requested status", () => {
    expect(updateStudySchema.parse({ status: "OPEN" })).toEqual({ status: "OPEN" });
    expect(issues(updateStudySchema.safeParse({ status: "DRAFT" }))).toEqual([["status", "status must be OPEN or CLOSED"]]);
  });

  it("refuses an empty patch", () => {
    expect(issues(updateStudySchema.safeParse({}))).toEqual([["", "nothing to change: send at least one setting or a status"]]);
  });
});

describe("canonicalRubrics", () => {
  it("orders the rubrics as S.C.O.R.E. then SAFE-LLM", () => {
    expect(canonicalRubrics(["SAFE_LLM", "SCORE"])).toEqual(["SCORE", "SAFE_LLM"]);
    expect(canonicalRubrics(["SAFE_LLM"])).toEqual(["SAFE_LLM"]);
  });
});
