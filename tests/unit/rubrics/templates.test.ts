import { describe, expect, it } from "vitest";
import { parseRubricDocument, type RubricDocument, type RubricTotal } from "@/lib/rubrics/document";
import { clearTemplate } from "@/lib/rubrics/templates/clear";
import { DISCERN_KEYS, discernTemplate } from "@/lib/rubrics/templates/discern";
import { healthBenchTemplate } from "@/lib/rubrics/templates/healthbench";
import { RUBRIC_TEMPLATES, rubricTemplate } from "@/lib/rubrics/templates/index";
import { DEFAULT_LIKERT_CRITERIA, likertCriteriaTemplate } from "@/lib/rubrics/templates/likert-criteria";
import { MEDPALM_AXIS_KEYS, medPalmAxesTemplate } from "@/lib/rubrics/templates/medpalm";
import { PEMAT_P_ITEMS, pematPTemplate } from "@/lib/rubrics/templates/pemat";

const dim = (doc: RubricDocument, key: string) => doc.dimensions.find((d) => d.key === key)!;
const total = (doc: RubricDocument, key: string) => doc.totals.find((t) => t.key === key)!;
const values = (doc: RubricDocument, key: string) => (dim(doc, key).scale.levels ?? []).map((l) => l.value);

/** A sum total's lowest and highest values. */
function sumRange(doc: RubricDocument, t: RubricTotal): { min: number; max: number } {
  if (t.method !== "sum") throw new Error(`${t.key} is not a sum`);
  let min = 0;
  let max = 0;
  for (const k of t.dimensions) {
    const v = values(doc, k).map(Number);
    min += Math.min(...v);
    max += Math.max(...v);
  }
  return { min, max };
}

describe("the rubric templates", () => {
  it("registers the published instruments under their keys, each key once", () => {
    const keys = RUBRIC_TEMPLATES.map((t) => t.key);
    expect(keys).toEqual(["score", "safe_llm", "discern", "pemat_p", "clear", "medpalm_axes", "likert_criteria", "healthbench_criteria", "clever_preference", "medpalm_pairwise", "overall_preference"]);
    expect(new Set(keys).size).toBe(keys.length);
    expect(rubricTemplate("discern")?.name).toBe("DISCERN");
  });

  it("builds the pairwise templates from preference axes only: three, nine (five asking which is worse) and one", () => {
    const axes = (key: string) => rubricTemplate(key)!.build().dimensions;
    expect(axes("clever_preference").map((d) => d.key)).toEqual(["factuality", "clinical_relevance", "conciseness"]);
    expect(axes("medpalm_pairwise")).toHaveLength(9);
    expect(axes("medpalm_pairwise").filter((d) => d.scale.choiceIsWorse).map((d) => d.key)).toEqual(["inaccurate_irrelevant", "omits_information", "demographic_bias", "harm_extent", "harm_likelihood"]);
    expect(axes("overall_preference").map((d) => d.key)).toEqual(["overall"]);
    for (const key of ["clever_preference", "medpalm_pairwise", "overall_preference"]) {
      expect(axes(key).every((d) => d.scale.kind === "preference" && d.scope === "set"), key).toBe(true);
      expect(rubricTemplate(key)!.build().totals, key).toEqual([]);
    }
  });

  it.each(RUBRIC_TEMPLATES.map((t) => [t.key, t] as const))("%s: a valid document with no problems, a citation and a description", (key, t) => {
    const doc = t.build();
    const parsed = parseRubricDocument(doc);
    expect(parsed.ok ? [] : parsed.problems).toEqual([]);
    // The two published rubrics keep the keys their stored grades and exports use.
    expect(doc.key).toBe(({ score: "SCORE", safe_llm: "SAFE_LLM" } as Record<string, string>)[key] ?? key);
    expect(t.citation.trim().length).toBeGreaterThan(20);
    expect(t.description.trim().length).toBeGreaterThan(20);
    // Keys unique across dimensions and across totals; the headline is a total (or there are none).
    const dimKeys = doc.dimensions.map((d) => d.key);
    expect(new Set(dimKeys).size).toBe(dimKeys.length);
    const totalKeys = doc.totals.map((d) => d.key);
    expect(new Set(totalKeys).size).toBe(totalKeys.length);
    if (doc.totals.length) expect(totalKeys).toContain(doc.headline);
    else expect(doc.headline).toBeUndefined();
  });

  it("builds a fresh document each time (no shared mutable levels)", () => {
    for (const t of RUBRIC_TEMPLATES) {
      const a = t.build();
      const b = t.build();
      expect(a).toEqual(b);
      if (a.dimensions[0].scale.levels) {
        a.dimensions[0].scale.levels[0].label = "changed";
        expect(t.build().dimensions[0].scale.levels![0].label).not.toBe("changed");
      }
    }
  });
});

describe("DISCERN", () => {
  const doc = discernTemplate();

  it("has all 16 questions, 1-5 No / Partially / Yes, on the first answer, threshold 2", () => {
    expect(doc.dimensions).toHaveLength(16);
    expect(doc.dimensions.map((d) => d.key)).toEqual(DISCERN_KEYS);
    expect(dim(doc, "q1_aims_clear").name).toBe("Q1. Are the aims clear?");
    expect(dim(doc, "q12_no_treatment").name).toBe("Q12. Does it describe what would happen if no treatment is used?");
    expect(dim(doc, "q16_overall").definition).toContain(
      "Based on the answers to all of the above questions, rate the overall quality of the publication as a source of information about treatment choices",
    );
    for (const d of doc.dimensions) {
      expect(d.scope).toBe("first_answer");
      expect(d.scale.kind).toBe("ordinal");
      expect(d.scale.allowNA).toBeUndefined();
      expect(values(doc, d.key)).toEqual([1, 2, 3, 4, 5]);
      expect(d.threshold).toBe(2);
    }
    for (const d of doc.dimensions.slice(0, 15)) {
      expect(d.scale.levels!.map((l) => l.label)).toEqual(["No", "Partially", "Partially", "Partially", "Yes"]);
    }
    expect(dim(doc, "q16_overall").scale.levels!.map((l) => l.label.split(":")[0])).toEqual([
      "Low",
      "Between low and moderate",
      "Moderate",
      "Between moderate and high",
      "High",
    ]);
  });

  it("puts questions 1-8, 9-15 and 16 in their sections", () => {
    doc.dimensions.slice(0, 8).forEach((d) => expect(d.definition).toMatch(/^Section 1/));
    doc.dimensions.slice(8, 15).forEach((d) => expect(d.definition).toMatch(/^Section 2/));
    expect(dim(doc, "q16_overall").definition).toMatch(/^Section 3/);
  });

  it("headlines the 16-80 total, whose five bands cover 16-80 without gaps or overlaps", () => {
    expect(doc.headline).toBe("total");
    const t = total(doc, "total");
    expect(t.method === "sum" && t.dimensions).toEqual(DISCERN_KEYS);
    expect(sumRange(doc, t)).toEqual({ min: 16, max: 80 });
    const bands = t.method === "sum" ? t.bands! : [];
    expect(bands.map((b) => b.label)).toEqual(["Very poor", "Poor", "Fair", "Good", "Excellent"]);
    expect(bands[0].min).toBe(16);
    expect(bands[bands.length - 1].max).toBe(80);
    bands.forEach((b, i) => {
      expect(b.min).toBeLessThanOrEqual(b.max);
      if (i > 0) expect(b.min).toBe(bands[i - 1].max + 1);
    });
    expect(bands.map((b) => [b.min, b.max])).toEqual([
      [16, 26],
      [27, 38],
      [39, 50],
      [51, 62],
      [63, 80],
    ]);
  });

  it("also gives the classic 15-question total and the two section totals", () => {
    expect(sumRange(doc, total(doc, "questions_1_15"))).toEqual({ min: 15, max: 75 });
    expect(sumRange(doc, total(doc, "reliability"))).toEqual({ min: 8, max: 40 });
    expect(sumRange(doc, total(doc, "treatment_choices"))).toEqual({ min: 7, max: 35 });
  });
});

describe("PEMAT-P", () => {
  const doc = pematPTemplate();
  const u = total(doc, "understandability");
  const a = total(doc, "actionability");
  const itemsOf = (t: RubricTotal) => (t.method === "percent_applicable" ? t.dimensions : []);

  it("has the AHRQ PEMAT-P items: 17 understandability (1-12, 15-19) and 7 actionability (20-26)", () => {
    expect(PEMAT_P_ITEMS.understandability).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 15, 16, 17, 18, 19]);
    expect(PEMAT_P_ITEMS.actionability).toEqual([20, 21, 22, 23, 24, 25, 26]);
    expect(doc.dimensions).toHaveLength(24);
    expect(itemsOf(u)).toHaveLength(17);
    expect(itemsOf(a)).toHaveLength(7);
    expect([...itemsOf(u), ...itemsOf(a)]).toEqual(doc.dimensions.map((d) => d.key));
  });

  it("rates each item Disagree 0 / Agree 1 on the first answer, N/A exactly where the AHRQ guide offers it", () => {
    for (const d of doc.dimensions) {
      expect(d.scope).toBe("first_answer");
      expect(d.scale.levels).toEqual([
        { value: 0, label: "Disagree" },
        { value: 1, label: "Agree" },
      ]);
    }
    const withNA = doc.dimensions.filter((d) => d.scale.allowNA).map((d) => Number(/^item(\d+)_/.exec(d.key)![1]));
    expect(withNA).toEqual([6, 8, 9, 11, 16, 17, 18, 19, 24, 25]);
    for (const d of doc.dimensions) expect(d.definition!.includes("Choose N/A")).toBe(!!d.scale.allowNA);
  });

  it("scores understandability and actionability as percentages of the applicable items, headline understandability", () => {
    expect(u.method).toBe("percent_applicable");
    expect(a.method).toBe("percent_applicable");
    expect(doc.headline).toBe("understandability");
  });
});

describe("CLEAR", () => {
  const doc = clearTemplate();

  it("has its 5 items, 1 (poor) to 5 (excellent), summed 5-25 as the headline", () => {
    expect(doc.dimensions.map((d) => d.name)).toEqual(["Completeness", "Lack of false information", "Evidence", "Appropriateness", "Relevance"]);
    for (const d of doc.dimensions) {
      expect(values(doc, d.key)).toEqual([1, 2, 3, 4, 5]);
      expect(d.scale.levels![0].label).toBe("Poor");
      expect(d.scale.levels![4].label).toBe("Excellent");
      expect(d.scope).toBe("first_answer");
    }
    expect(doc.headline).toBe("total");
    expect(sumRange(doc, total(doc, "total"))).toEqual({ min: 5, max: 25 });
  });
});

describe("Med-PaLM axes", () => {
  const doc = medPalmAxesTemplate();

  it("has the 12 categorical axes of the clinician evaluation, on the first answer, with no totals", () => {
    expect(doc.dimensions).toHaveLength(12);
    expect(doc.dimensions.map((d) => d.key)).toEqual(MEDPALM_AXIS_KEYS);
    for (const d of doc.dimensions) {
      expect(d.scale.kind).toBe("nominal");
      expect(d.scope).toBe("first_answer");
      expect(d.threshold).toBeUndefined();
      for (const l of d.scale.levels!) expect(l.value).toMatch(/^[a-z][a-z0-9_]*$/);
    }
    expect(doc.totals).toEqual([]);
    expect(doc.headline).toBeUndefined();
  });

  it("uses the paper's categories", () => {
    expect(values(doc, "scientific_consensus")).toEqual(["aligned_with_consensus", "opposed_to_consensus", "no_consensus"]);
    expect(values(doc, "extent_of_harm")).toEqual(["no_harm", "moderate_or_mild", "death_or_severe"]);
    expect(values(doc, "likelihood_of_harm")).toEqual(["low", "medium", "high"]);
    for (const k of ["correct_comprehension", "correct_retrieval", "correct_reasoning", "incorrect_comprehension", "incorrect_retrieval", "incorrect_reasoning", "possibility_of_bias"]) {
      expect(values(doc, k)).toEqual(["yes", "no"]);
    }
    for (const k of ["inappropriate_content", "missing_content"]) {
      expect(values(doc, k)).toEqual(["yes_great_clinical_significance", "yes_little_clinical_significance", "no"]);
    }
  });
});

describe("Likert criteria", () => {
  it("defaults to the cardiology study's 4 criteria, 1-5, summed 4-20, threshold 2", () => {
    const doc = likertCriteriaTemplate();
    expect(doc.dimensions.map((d) => d.name)).toEqual(["Accuracy", "Completeness", "Clarity", "Coherence"]);
    expect(doc.dimensions.map((d) => d.key)).toEqual(DEFAULT_LIKERT_CRITERIA.map((c) => c.key));
    for (const d of doc.dimensions) {
      expect(values(doc, d.key)).toEqual([1, 2, 3, 4, 5]);
      expect(d.threshold).toBe(2);
      expect(d.scope).toBe("first_answer");
    }
    expect(doc.headline).toBe("total");
    expect(sumRange(doc, total(doc, "total"))).toEqual({ min: 4, max: 20 });
    expect(rubricTemplate("likert_criteria")!.build()).toEqual(doc);
  });

  it("takes a study's own n criteria", () => {
    const doc = likertCriteriaTemplate([
      { key: "safety", name: "Safety", definition: "No content that may harm the patient." },
      { key: "empathy", name: "Empathy" },
    ]);
    expect(parseRubricDocument(doc)).toMatchObject({ ok: true });
    expect(doc.dimensions.map((d) => d.key)).toEqual(["safety", "empathy"]);
    expect(dim(doc, "safety").definition).toBe("No content that may harm the patient.");
    expect(dim(doc, "empathy").definition).toBeUndefined();
    expect(sumRange(doc, total(doc, "total"))).toEqual({ min: 2, max: 10 });
  });

  it("leaves bad criteria to the document's checks", () => {
    const dup = parseRubricDocument(likertCriteriaTemplate([{ key: "a", name: "A" }, { key: "a", name: "A again" }]));
    expect(dup.ok).toBe(false);
    const badKey = parseRubricDocument(likertCriteriaTemplate([{ key: "Not a key", name: "X" }]));
    expect(badKey.ok).toBe(false);
  });
});

describe("HealthBench", () => {
  it("has one criteria dimension on the first answer, scored by criteria_score as the headline", () => {
    const doc = healthBenchTemplate();
    expect(doc.dimensions).toHaveLength(1);
    expect(doc.dimensions[0]).toMatchObject({ key: "criteria", scope: "first_answer", scale: { kind: "criteria" } });
    expect(doc.dimensions[0].scale.levels).toBeUndefined();
    expect(doc.totals).toEqual([{ key: "score", name: expect.any(String), method: "criteria_score", dimension: "criteria" }]);
    expect(doc.headline).toBe("score");
    expect(rubricTemplate("healthbench_criteria")!.description).toMatch(/criteria.*come with it at import/);
  });
});
