import { describe, expect, it } from "vitest";
import { PUT as putGrades } from "@/app/api/v1/assignments/[id]/grades/route";
import { POST as assign } from "@/app/api/v1/studies/[id]/assignments/route";
import { GET as exportStudy } from "@/app/api/v1/studies/[id]/export/route";
import { GET as listSets } from "@/app/api/v1/studies/[id]/sets/route";
import { getDb } from "@/lib/db/client";
import { bearer, call as callRoute } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";
import { makeGradableStudy } from "./helpers/study-fixture";

useIsolatedDatabase();

// Response bodies are read field by field below, each against a literal expectation.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = any;
const call = async <P,>(handler: (req: Request, ctx: { params: Promise<P> }) => Promise<Response>, url: string, init?: RequestInit, params?: P) =>
  (await callRoute(handler, url, init, params)) as { status: number; body: Body };
const json = (token: string, method: string, body: unknown) => bearer(token, { method, body: JSON.stringify(body), headers: { "content-type": "application/json" } });

type Value = number | string | null;

/**
 * One answer (N = 1) of one model graded by two clinicians with the given values per dimension
 * (null: N/A), both submitted; returns the set as the lead's results list and score-long export give it.
 */
async function gradeTemplate(template: string, a: Record<string, Value>, b: Record<string, Value>) {
  const f = await makeGradableStudy({ rubrics: [template], items: 1, models: 1, n: 1, graders: 2 });
  const r = await call(assign, `/api/v1/studies/${f.study.id}/assignments`, json(f.lead.token, "POST", { seed: template }), { id: f.study.id });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const assignments = await getDb().assignment.findMany({ where: { studyId: f.study.id }, orderBy: { graderId: "asc" } });
  expect(assignments).toHaveLength(2);
  for (const [i, values] of [a, b].entries()) {
    const x = assignments[i];
    const token = f.graders.find((g) => g.id === x.graderId)!.token;
    const scores = Object.entries(values).map(([dimension, score]) => ({ rubric: template, dimension, repetition: 1, score, ...(score === null ? { na: true } : {}) }));
    const put = await call(putGrades, `/api/v1/assignments/${x.id}/grades`, json(token, "PUT", { scores, submit: true }), { id: x.id });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
  }
  const sets = await call(listSets, `/api/v1/studies/${f.study.id}/sets`, bearer(f.lead.token), { id: f.study.id });
  const csv = await call(exportStudy, `/api/v1/studies/${f.study.id}/export?dataset=score-long`, bearer(f.lead.token), { id: f.study.id });
  const [header, ...rows] = String(csv.body).trim().split(/\r?\n/);
  const columns = header.split(",");
  const exported = rows.map((line) => Object.fromEntries(line.split(",").map((v, i) => [columns[i], v])));
  const setsCsv = await call(exportStudy, `/api/v1/studies/${f.study.id}/export?dataset=sets`, bearer(f.lead.token), { id: f.study.id });
  const [setsHeader, setsRow] = String(setsCsv.body).trim().split(/\r?\n/);
  const setColumns = setsHeader.split(",");
  const setsExported = Object.fromEntries(setsRow.split(",").map((v, i) => [setColumns[i], v]));
  return { set: sets.body.sets[0], exported, setsExported };
}

const zip = (ks: string[], vs: Value[]) => Object.fromEntries(ks.map((k, i) => [k, vs[i]]));

describe("each template through a study: grade, final scores, totals and export, against hand-worked figures", () => {
  it("DISCERN: 16 items 1-5; the 16-80 total, the 15-item total and the two sections", async () => {
    const dims = [
      "q1_aims_clear", "q2_achieves_aims", "q3_relevant", "q4_sources_clear", "q5_date_clear", "q6_balanced", "q7_additional_sources", "q8_uncertainty",
      "q9_how_treatment_works", "q10_benefits", "q11_risks", "q12_no_treatment", "q13_quality_of_life", "q14_more_than_one_choice", "q15_shared_decision", "q16_overall",
    ];
    // Sums: A 48, B 50 (16 items); A 45, B 46 (1-15); section 1: A 27, B 28; section 2: A 18, B 18. No item differs by 2 (the threshold).
    const A = [5, 4, 3, 2, 1, 5, 4, 3, 2, 1, 5, 4, 3, 2, 1, 3];
    const B = [4, 4, 3, 3, 2, 5, 4, 3, 2, 2, 4, 4, 3, 2, 1, 4];
    const { set, exported, setsExported } = await gradeTemplate("discern", zip(dims, A), zip(dims, B));
    expect(set.status).toBe("agreed");
    expect(set.finalScores.discern.q1_aims_clear).toBe(4.5);
    expect(set.finalScores.discern.q16_overall).toBe(3.5);
    // 49 of 80 is 61.25 %.
    expect(set.totals.discern).toEqual({ total: 49, questions_1_15: 45.5, reliability: 27.5, treatment_choices: 18, headline: 49, percent: 61.25 });
    // 49 is in the "fair" band (39-50); the sets export carries it beside the total.
    expect(set.bands).toEqual({ discern: { total: "Fair" } });
    expect(setsExported).toMatchObject({ discern_total_total: "49", discern_band_total: "Fair" });
    expect(exported).toHaveLength(1);
    expect(exported[0].q1_aims_clear).toBe("4.5");
    expect(exported[0].q10_benefits).toBe("1.5");
  });

  it("PEMAT-P: understandability and actionability as % of each grader's applicable items, N/A left out", async () => {
    const understand = ["item1_purpose_evident", "item2_no_distracting_content", "item3_everyday_language", "item4_medical_terms_defined", "item5_active_voice", "item6_numbers_clear", "item7_no_calculations", "item8_chunked", "item9_informative_headers", "item10_logical_sequence", "item11_summary", "item12_visual_cues", "item15_visual_aids_used", "item16_visual_aids_reinforce", "item17_visual_aids_captions", "item18_illustrations_clear", "item19_simple_tables"];
    const act = ["item20_action_identified", "item21_addresses_user", "item22_explicit_steps", "item23_tangible_tool", "item24_calculation_instructions", "item25_explains_charts", "item26_visual_aids_for_action"];
    // A: N/A on the 8 understandability items that allow it; 6 of the 9 others agreed -> 66.67 %. Actionability: 3 of 5 applicable -> 60 %.
    const A = { ...zip(understand, [1, 1, 1, 0, 1, null, 1, null, null, 1, null, 0, 0, null, null, null, null]), ...zip(act, [1, 1, 0, 0, null, null, 1]) };
    // B: everything applicable; 15 of 17 -> 88.24 %; 4 of 7 -> 57.14 %.
    const B = { ...zip(understand, [1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1]), ...zip(act, [1, 1, 1, 0, 0, 1, 0]) };
    const { set, exported } = await gradeTemplate("pemat_p", A, B);
    expect(set.status).toBe("agreed");
    const t = set.totals.pemat_p;
    expect(t.understandability).toBeCloseTo((100 * 6) / 9 / 2 + (100 * 15) / 17 / 2, 10);
    expect(t.actionability).toBeCloseTo((60 + (100 * 4) / 7) / 2, 10);
    expect(t.headline).toBe(t.understandability);
    // Item 6: A N/A, B agrees: the mean of the applicable ratings is 1.
    expect(set.finalScores.pemat_p.item6_numbers_clear).toBe(1);
    expect(set.finalScores.pemat_p.item4_medical_terms_defined).toBe(0);
    expect(exported[0].item6_numbers_clear).toBe("1");
    expect(exported[0].item22_explicit_steps).toBe("0.5");
  });

  it("CLEAR: 5 items 1-5 summed 5-25", async () => {
    const dims = ["completeness", "lack_of_false_information", "evidence", "appropriateness", "relevance"];
    // A 21, B 19.
    const { set, exported } = await gradeTemplate("clear", zip(dims, [5, 4, 4, 3, 5]), zip(dims, [4, 4, 3, 3, 5]));
    expect(set.totals.clear).toEqual({ total: 20, headline: 20, percent: 80 });
    expect(set.bands).toEqual({});
    expect(set.finalScores.clear).toEqual({ completeness: 4.5, lack_of_false_information: 4, evidence: 3.5, appropriateness: 3, relevance: 5 });
    expect(exported[0].evidence).toBe("3.5");
  });

  it("Med-PaLM axes: categorical; agreeing graders give the category; one disagreement waits for a third grader", async () => {
    const dims = ["scientific_consensus", "extent_of_harm", "likelihood_of_harm", "correct_comprehension", "correct_retrieval", "correct_reasoning", "incorrect_comprehension", "incorrect_retrieval", "incorrect_reasoning", "inappropriate_content", "missing_content", "possibility_of_bias"];
    const A = zip(dims, ["aligned_with_consensus", "no_harm", "low", "yes", "yes", "yes", "no", "no", "no", "no", "yes_little_clinical_significance", "no"]);
    const agreed = await gradeTemplate("medpalm_axes", A, A);
    expect(agreed.set.status).toBe("agreed");
    expect(agreed.set.finalScores.medpalm_axes).toEqual(A);
    expect(agreed.exported[0].missing_content).toBe("yes_little_clinical_significance");

    const split = await gradeTemplate("medpalm_axes", A, { ...A, extent_of_harm: "moderate_or_mild" });
    expect(split.set.status).toBe("awaiting_adjudication");
    expect(split.set.finalScores).toBeNull();
  });

  it("Likert criteria: the cardiology study's 4 criteria 1-5, summed 4-20", async () => {
    const dims = ["accuracy", "completeness", "clarity", "coherence"];
    // A 14, B 13.
    const { set, exported } = await gradeTemplate("likert_criteria", zip(dims, [5, 4, 3, 2]), zip(dims, [4, 3, 4, 2]));
    expect(set.finalScores.likert_criteria).toEqual({ accuracy: 4.5, completeness: 3.5, clarity: 3.5, coherence: 2 });
    expect(set.totals.likert_criteria).toEqual({ total: 13.5, headline: 13.5, percent: 67.5 });
    expect(Object.keys(exported[0]).slice(-4)).toEqual(dims);
  });
});

