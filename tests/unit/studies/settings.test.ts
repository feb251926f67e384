import { describe, expect, it } from "vitest";
import { DEFAULT_THRESHOLDS } from "@/lib/rubrics/thresholds";
import { resolveRubrics, templateRubrics } from "@/lib/rubrics/study-rubrics";
import { createStudySchema, DEFAULT_SETTINGS, updateStudySchema } from "@/lib/studies/settings";
import { defaultThresholds, mergeThresholds, storedThresholds, thresholdProblems, thresholdsInputSchema } from "@/lib/studies/thresholds";

const both = templateRubrics(["SCORE", "SAFE_LLM"]);

const issues = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  (r.error?.issues ?? []).map((i) => [i.path.join("."), i.message]);

describe("createStudySchema", () => {
  it("fills in the papers' defaults: N = 3, k = 2, reference answer shown, graders asked about contradictions, per-answer headline scoring", () => {
    const r = createStudySchema.parse({ name: "  Ophthalmology  ", rubrics: ["SCORE"] });
    expect(r).toEqual({
      name: "Ophthalmology",
      design: "scoring",
      graderTitle: "",
      description: "",
      rubrics: ["SCORE"],
      repetitions: 3,
      gradersPerSet: 2,
      showReferenceAnswer: true,
      askContradictions: true,
      matchSpecialty: false,
      safeLlmScoring: "PER_ANSWER",
      tieDisagrees: false,
    });
    expect(DEFAULT_SETTINGS).toMatchObject({ repetitions: 3, gradersPerSet: 2, rubrics: ["score", "safe_llm"] });
    expect(defaultThresholds(both)).toEqual(DEFAULT_THRESHOLDS);
  });

  it("takes any number of rubrics: template keys or documents, checked when resolved", () => {
    expect(createStudySchema.safeParse({ name: "x", rubrics: ["SCORE", "SAFE_LLM"] }).success).toBe(true);
    expect(createStudySchema.safeParse({ name: "x", rubrics: ["discern", { key: "own" }] }).success).toBe(true);
    expect(issues(createStudySchema.safeParse({ name: "x" }))).toEqual([["rubrics", "rubrics must be a list"]]);
    expect(issues(createStudySchema.safeParse({ name: "x", rubrics: [] }))[0][0]).toBe("rubrics");
    expect(issues(createStudySchema.safeParse({ name: "x", rubrics: [42] }))[0]).toEqual(["rubrics.0", "each rubric is a template key or a rubric document"]);

    const twice = resolveRubrics(["SCORE", "score"], 3);
    expect(twice.ok ? [] : twice.problems).toEqual([{ path: "rubrics.1.key", message: 'two rubrics have the key "SCORE": each rubric of a study needs its own key' }]);
    const unknown = resolveRubrics(["scor"], 3);
    expect(unknown.ok ? [] : unknown.problems).toEqual([{ path: "rubrics.0", message: 'no rubric template "scor"; see GET /api/v1/rubric-templates' }]);
    const bad = resolveRubrics([{ key: "own", name: "Own", version: 1, dimensions: [], totals: [] }], 3);
    expect(bad.ok ? [] : bad.problems.map((p) => p.path)).toEqual(["rubrics.0.dimensions"]);
  });

  it("drops what compares the answers from a template for one answer per prompt, and says so in the total", () => {
    const [score, safe] = templateRubrics(["SCORE", "SAFE_LLM"], 1);
    expect(score.dimensions.map((d) => d.key)).toEqual(["safety", "consensus_context", "objectivity", "explainability"]);
    expect(score.totals).toEqual([
      { key: "total", name: "S.C.O.R.E. total (/20, without reproducibility: one answer per prompt)", method: "sum", dimensions: ["safety", "consensus_context", "objectivity", "explainability"] },
    ]);
    expect(safe.dimensions.map((d) => d.key)).toEqual(["accuracy", "comprehensiveness", "supplementation", "fluency"]);
    expect(safe.totals.map((t) => t.name)).toEqual([
      "SAFE-LLM per answer (/6, without consistency: one answer per prompt)",
      "SAFE-LLM overall (/6, without consistency: one answer per prompt)",
    ]);
    // A document of the lead's own is refused instead: the builder must not offer the impossible.
    const own = resolveRubrics([{ ...score, key: "own", dimensions: templateRubrics(["SCORE"])[0].dimensions }], 1);
    expect(own.ok ? [] : own.problems).toEqual([{ path: "rubrics.0.dimensions.3.scope", message: '"Reproducibility" is graded across the answers: it needs more than one answer per prompt' }]);
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
  it("accepts partial thresholds and merges them over the rubrics' own", () => {
    const patch = thresholdsInputSchema.parse({ SCORE: { safety: 1 }, SAFE_LLM: { fluency: 0.25 } });
    expect(thresholdProblems(patch, both)).toEqual([]);
    const merged = mergeThresholds(defaultThresholds(both), patch);
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
    const problems = (patch: unknown) => thresholdProblems(thresholdsInputSchema.parse(patch), both);
    expect(issues(thresholdsInputSchema.safeParse({ SCORE: { safety: 0 } }))).toEqual([["SCORE.safety", "a threshold must be greater than 0"]]);
    expect(issues(thresholdsInputSchema.safeParse({ SCORE: { safety: -1 } }))[0][0]).toBe("SCORE.safety");
    expect(problems({ SCORE: { safety: 4 } })).toEqual([]);
    expect(problems({ SCORE: { safety: 4.5 } })[0].message).toMatch(/at most 4/);
    expect(problems({ SAFE_LLM: { accuracy: 2, fluency: 1 } })).toEqual([]);
    expect(problems({ SAFE_LLM: { fluency: 1.5 } })[0].message).toMatch(/at most 1/);
    expect(issues(thresholdsInputSchema.safeParse({ SAFE_LLM: { accuracy: "1" } }))).toEqual([["SAFE_LLM.accuracy", "a threshold must be a number"]]);
    expect(problems({ SCORE: { safty: 1 } })[0]).toEqual({
      path: "thresholds.SCORE.safty",
      message: 'unknown SCORE dimension "safty" (or not ordinal: a nominal dimension has no spread; set its rule in escalationRules); known: safety, consensus_context, objectivity, reproducibility, explainability',
    });
    // A S.C.O.R.E. dimension under SAFE-LLM is unknown there.
    expect(problems({ SAFE_LLM: { safety: 1 } })[0].path).toBe("thresholds.SAFE_LLM.safety");
    expect(problems({ OTHER: {} })[0].message).toMatch(/unknown rubric "OTHER"/);
  });

  it("reads stored thresholds defensively: missing or invalid values fall back to the rubrics' own", () => {
    expect(storedThresholds(null, both)).toEqual(DEFAULT_THRESHOLDS);
    expect(storedThresholds({ SCORE: { safety: 1, objectivity: -3, bogus: 9 }, SAFE_LLM: "x" }, both)).toEqual({
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
