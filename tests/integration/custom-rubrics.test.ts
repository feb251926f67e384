import { describe, expect, it } from "vitest";
import { PUT as putGrades } from "@/app/api/v1/assignments/[id]/grades/route";
import { GET as getAssignment } from "@/app/api/v1/assignments/[id]/route";
import { POST as assign } from "@/app/api/v1/studies/[id]/assignments/route";
import { GET as exportStudy } from "@/app/api/v1/studies/[id]/export/route";
import { GET as studyDetail, PATCH as patchStudy } from "@/app/api/v1/studies/[id]/route";
import { GET as listSets } from "@/app/api/v1/studies/[id]/sets/route";
import { GET as stats } from "@/app/api/v1/studies/[id]/stats/route";
import { POST as createStudy } from "@/app/api/v1/studies/route";
import { getDb } from "@/lib/db/client";
import type { RubricDocument } from "@/lib/rubrics/document";
import { fleissKappa, gwetAC1, krippendorffAlpha } from "@/lib/stats";
import { bearer, call as callRoute, makeUser } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";
import { makeGradableStudy } from "./helpers/study-fixture";
import { CARDIOLOGY_LIKERT, CARDIOLOGY_RUBRIC } from "../fixtures/realdata/rubrics";

useIsolatedDatabase();

// Response bodies are read field by field below, each against a literal expectation.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = any;
const call = async <P,>(handler: (req: Request, ctx: { params: Promise<P> }) => Promise<Response>, url: string, init?: RequestInit, params?: P) =>
  (await callRoute(handler, url, init, params)) as { status: number; body: Body };

const json = (token: string, method: string, body: unknown) => bearer(token, { method, body: JSON.stringify(body), headers: { "content-type": "application/json" } });
const put = (token: string, id: string, body: unknown) => call(putGrades, `/api/v1/assignments/${id}/grades`, json(token, "PUT", body), { id });

/** The cardiology study's instrument (tests/fixtures/realdata), each criterion with an explicit disagreement threshold of 2. */
const CARDIOLOGY: RubricDocument = { ...CARDIOLOGY_RUBRIC, dimensions: CARDIOLOGY_RUBRIC.dimensions.map((d) => ({ ...d, threshold: 2 })) };

/** A nominal axis, an ordinal item that may not apply, and PEMAT-style percent of the applicable items. */
const MIXED: RubricDocument = {
  key: "mixed",
  name: "Mixed scales",
  version: 1,
  dimensions: [
    { key: "harm", name: "Extent of harm", scope: "first_answer", scale: { kind: "nominal", levels: [{ value: "none", label: "No harm" }, { value: "moderate", label: "Moderate" }, { value: "severe", label: "Severe" }] } },
    { key: "plain", name: "Plain language", scope: "first_answer", scale: { kind: "ordinal", levels: [{ value: 0, label: "Disagree" }, { value: 1, label: "Agree" }] } },
    { key: "visuals", name: "Helpful visuals", scope: "first_answer", scale: { kind: "ordinal", levels: [{ value: 0, label: "Disagree" }, { value: 1, label: "Agree" }], allowNA: true } },
  ],
  totals: [{ key: "understandability", name: "Understandability (%)", method: "percent_applicable", dimensions: ["plain", "visuals"] }],
  headline: "understandability",
};

async function assignAll(lead: { token: string }, studyId: string) {
  const r = await call(assign, `/api/v1/studies/${studyId}/assignments`, json(lead.token, "POST", { seed: "rubrics" }), { id: studyId });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

async function assignmentsOf(studyId: string) {
  return getDb().assignment.findMany({ where: { studyId }, orderBy: [{ responseSetId: "asc" }, { graderId: "asc" }] });
}

describe("a study's own rubric, through the API", () => {
  it("creates a study from rubric documents and template keys, any number, stored as documents", async () => {
    const lead = await makeUser("LEAD");
    const r = await call(createStudy, "/api/v1/studies", json(lead.token, "POST", { name: "Cardiology", rubrics: [CARDIOLOGY, "discern", MIXED], repetitions: 1 }));
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const d = await call(studyDetail, `/api/v1/studies/${r.body.id}`, bearer(lead.token), { id: r.body.id });
    expect(d.body.rubrics).toEqual(["cardiology", "discern", "mixed"]);
    expect(d.body.rubricDocuments[0]).toEqual(CARDIOLOGY);
    expect(d.body.rubricDocuments[1].dimensions).toHaveLength(16);
    // Thresholds: each rubric's own, for its ordinal dimensions.
    expect(d.body.thresholds.cardiology).toEqual({ accuracy: 2, completeness: 2, clarity: 2, coherence: 2 });
  });

  it("refuses an invalid rubric with 422 naming each problem by its JSON path, and creates nothing", async () => {
    const lead = await makeUser("LEAD");
    const bad = {
      ...CARDIOLOGY,
      dimensions: [
        { ...CARDIOLOGY.dimensions[0], threshold: 9 },
        { ...CARDIOLOGY.dimensions[0] },
        { ...CARDIOLOGY.dimensions[2], scale: { kind: "ordinal", levels: [CARDIOLOGY_LIKERT[1], CARDIOLOGY_LIKERT[0]] } },
        { key: "same", name: "Same", scope: "set", scale: { kind: "ordinal", levels: [{ value: 0, label: "no" }, { value: 1, label: "yes" }] }, derived: { rule: "equal_across_answers", of: "missing" } },
        { ...MIXED.dimensions[0], scope: "each_answer" },
      ],
      totals: [],
      headline: undefined,
    };
    const before = await getDb().study.count();
    const r = await call(createStudy, "/api/v1/studies", json(lead.token, "POST", { name: "Bad", rubrics: ["SCORE", bad] }));
    expect(r.status).toBe(422);
    expect(r.body.details).toEqual(
      expect.arrayContaining([
        { path: "rubrics.1.dimensions.0.threshold", message: expect.stringMatching(/larger than the scale's spread \(4\)/) },
        { path: "rubrics.1.dimensions.1.key", message: 'the dimension key "accuracy" is used twice' },
        { path: "rubrics.1.dimensions.2.scale.levels.1.value", message: expect.stringMatching(/lowest value to the highest/) },
        { path: "rubrics.1.dimensions.3.derived.of", message: 'no dimension "missing" to derive from' },
        { path: "rubrics.1.dimensions.4.scope", message: expect.stringMatching(/^a nominal dimension is graded once per set/) },
      ]),
    );
    // One answer per prompt: a lead's own set-level dimension is refused, a template's is left out.
    const n1 = await call(createStudy, "/api/v1/studies", json(lead.token, "POST", { name: "N1", rubrics: [{ ...MIXED, dimensions: [{ ...MIXED.dimensions[0], scope: "set" }] , totals: [], headline: undefined }], repetitions: 1 }));
    expect(n1.status).toBe(422);
    expect(n1.body.details).toEqual([{ path: "rubrics.0.dimensions.0.scope", message: '"Extent of harm" is graded across the answers: it needs more than one answer per prompt' }]);
    expect(await getDb().study.count()).toBe(before);
  });

  it("grades nominal values and N/A, refuses what the rubric does not allow (nothing saved), and scores by the document", async () => {
    const f = await makeGradableStudy({ rubrics: [MIXED], items: 2, models: 1, n: 1, graders: 2 });
    await assignAll(f.lead, f.study.id);
    const [a, b] = (await assignmentsOf(f.study.id)).filter((x) => x.responseSetId === f.sets[0].id);
    const tokenOf = (graderId: string) => f.graders.find((g) => g.id === graderId)!.token;

    // The form is built from the document the grader receives.
    const view = await call(getAssignment, `/api/v1/assignments/${a.id}`, bearer(tokenOf(a.graderId)), { id: a.id });
    expect(view.body.study.rubricDocuments).toEqual([MIXED]);

    const cell = (dimension: string, score: number | string | null, extra: object = {}) => ({ rubric: "mixed", dimension, repetition: 1, score, ...extra });
    const refused = await put(tokenOf(a.graderId), a.id, {
      scores: [cell("harm", "fatal"), cell("plain", null, { na: true }), cell("speed", 1), cell("visuals", 2)],
      submit: true,
    });
    expect(refused.status).toBe(422);
    expect(refused.body.details.problems).toEqual([
      { path: "scores[0].score", message: 'Extent of harm must be one of none, moderate, severe, got "fatal"' },
      { path: "scores[1].na", message: 'Plain language has no "not applicable": choose a level' },
      { path: "scores[2].dimension", message: "speed is not a Mixed scales dimension" },
      { path: "scores[3].score", message: "Helpful visuals must be between 0 and 1, got 2" },
      { path: "scores", message: expect.stringMatching(/^missing before submitting/) },
    ]);
    expect(await getDb().grade.count({ where: { assignmentId: a.id } })).toBe(0);

    // Grader A: severe harm, plain 1, visuals N/A (100% of the applicable item). Grader B: moderate harm, plain 1, visuals 0 (50%).
    expect((await put(tokenOf(a.graderId), a.id, { scores: [cell("harm", "severe"), cell("plain", 1), cell("visuals", null, { na: true })], submit: true })).status).toBe(200);
    const stored = await getDb().grade.findMany({ where: { assignmentId: a.id }, orderBy: { dimension: "asc" } });
    expect(stored.map((g) => [g.dimension, g.score, g.category, g.na])).toEqual([
      ["harm", null, "severe", false],
      ["plain", 1, null, false],
      ["visuals", null, null, true],
    ]);
    expect((await put(tokenOf(b.graderId), b.id, { scores: [cell("harm", "moderate"), cell("plain", 1), cell("visuals", 0)], submit: true })).status).toBe(200);

    // Nominal: any disagreement escalates; ordinal without a threshold never does.
    const esc = await getDb().escalation.findUniqueOrThrow({ where: { responseSetId: f.sets[0].id } });
    expect(esc.dimensions).toEqual([{ rubric: "mixed", dimension: "harm", values: { [a.graderId]: "severe", [b.graderId]: "moderate" }, spread: null, threshold: null, rule: "any", reason: "different values" }]);
    expect((await getDb().responseSet.findUniqueOrThrow({ where: { id: f.sets[0].id } })).status).toBe("AWAITING_ADJUDICATION");

    // The other set: the graders agree on harm, so the set is final.
    const [c, d] = (await assignmentsOf(f.study.id)).filter((x) => x.responseSetId === f.sets[1].id);
    await put(tokenOf(c.graderId), c.id, { scores: [cell("harm", "none"), cell("plain", 1), cell("visuals", null, { na: true })], submit: true });
    await put(tokenOf(d.graderId), d.id, { scores: [cell("harm", "none"), cell("plain", 0), cell("visuals", 1)], submit: true });
    const sets = await call(listSets, `/api/v1/studies/${f.study.id}/sets`, bearer(f.lead.token), { id: f.study.id });
    const agreed = sets.body.sets.find((s: { id: string }) => s.id === f.sets[1].id);
    // harm: the majority; plain: the mean; visuals: N/A left out of the mean; understandability: mean of 100% and 50%.
    expect(agreed.finalScores.mixed).toEqual({ harm: "none", plain: 0.5, visuals: 1 });
    expect(agreed.totals.mixed).toEqual({ understandability: 75, headline: 75, percent: 75 });

    // The dashboard's agreement: the nominal axis with the statistics for categories, the 0-1 items as ordinal.
    const st = await call(stats, `/api/v1/studies/${f.study.id}/stats`, bearer(f.lead.token), { id: f.study.id });
    const harm = st.body.agreement.data.rows.find((r: { dimension: string }) => r.dimension === "harm");
    // Places of the categories: none 0, moderate 1, severe 2. Set 1: severe vs moderate; set 2: none vs none.
    const matrix = [[2, 1], [0, 0]];
    expect(harm).toMatchObject({ kind: "nominal", categories: ["No harm", "Moderate", "Severe"], units: 2, pairs: 2, exact: { value: 0.5 } });
    expect(harm.fleiss.value).toBeCloseTo(fleissKappa(matrix, { categories: [0, 1, 2] }).kappa!, 12);
    expect(harm.gwetAC2.value).toBeCloseTo(gwetAC1(matrix, { categories: [0, 1, 2] }).coefficient!, 12);
    expect(harm.krippendorff.value).toBeCloseTo(krippendorffAlpha(matrix, { level: "nominal" }).alpha!, 12);
    expect(harm.distribution).toEqual([{ value: 0, count: 2 }, { value: 1, count: 1 }, { value: 2, count: 1 }]);
    expect(st.body.agreement.data.rows.find((r: { dimension: string }) => r.dimension === "plain")).toMatchObject({ kind: "ordinal", fleiss: null });

    // score-long: one column per dimension of a study's own rubric; N/A as "NA".
    const csv = await call(exportStudy, `/api/v1/studies/${f.study.id}/export?dataset=score-long`, bearer(f.lead.token), { id: f.study.id });
    const lines = String(csv.body).trim().split(/\r?\n/);
    expect(lines[0]).toBe("domain,model,response_id,harm,plain,visuals");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/,none,0.5,1$/);
  });

  it("freezes the rubrics once grading starts: 409 naming the study; the same rubrics sent back are fine", async () => {
    const f = await makeGradableStudy({ rubrics: [CARDIOLOGY], items: 1, models: 1, n: 1, graders: 2 });
    const patch = (body: object) => call(patchStudy, `/api/v1/studies/${f.study.id}`, json(f.lead.token, "PATCH", body), { id: f.study.id });
    const v2 = { ...CARDIOLOGY, version: 2, dimensions: CARDIOLOGY.dimensions.slice(0, 3), totals: [{ ...CARDIOLOGY.totals[0], dimensions: ["accuracy", "completeness", "clarity"] }] };
    // Before any grade: the lead may change the rubric (a new version).
    expect((await patch({ rubrics: [v2] })).status).toBe(200);
    expect((await patch({ rubrics: [CARDIOLOGY] })).status).toBe(200);
    await assignAll(f.lead, f.study.id);
    const [a] = await assignmentsOf(f.study.id);
    const token = f.graders.find((g) => g.id === a.graderId)!.token;
    expect((await put(token, a.id, { scores: [{ rubric: "cardiology", dimension: "accuracy", repetition: 1, score: 4 }], submit: false })).status).toBe(200);

    const locked = await patch({ rubrics: [v2] });
    expect(locked.status).toBe(409);
    expect(locked.body.error).toContain(`grading has started in "${f.study.name}"`);
    expect(locked.body.error).toContain("clone the study or the rubric");
    expect((await getDb().study.findUniqueOrThrow({ where: { id: f.study.id } })).rubrics).toEqual([CARDIOLOGY]);
    expect((await patch({ rubrics: [CARDIOLOGY], name: "Renamed" })).status).toBe(200);
  });

  it("a comment typed before its score is kept in the draft (and a submission still needs the score)", async () => {
    const f = await makeGradableStudy({ rubrics: [CARDIOLOGY], items: 1, models: 1, n: 1, graders: 2 });
    await assignAll(f.lead, f.study.id);
    const [a] = await assignmentsOf(f.study.id);
    const token = f.graders.find((g) => g.id === a.graderId)!.token;
    const note = { rubric: "cardiology", dimension: "clarity", repetition: 1, score: null, comment: "jargon in the second paragraph" };
    expect((await put(token, a.id, { scores: [note], submit: false })).status).toBe(200);
    const view = await call(getAssignment, `/api/v1/assignments/${a.id}`, bearer(token), { id: a.id });
    expect(view.body.scores).toEqual([{ rubric: "cardiology", dimension: "clarity", repetition: 1, score: null, comment: "jargon in the second paragraph" }]);
    const submit = await put(token, a.id, { scores: [note], submit: true });
    expect(submit.status).toBe(422);
    expect(submit.body.details.problems[0].message).toContain("Cardiology criteria Clarity (answer 1)");
    // A cell with neither a score nor a comment is refused.
    expect((await put(token, a.id, { scores: [{ ...note, comment: "  " }], submit: false })).status).toBe(422);
  });

  it("HealthBench: each question's criteria marked met or not; the score is met points over positive points, clipped to 0-1", async () => {
    const criteria = [
      { id: "c1", text: "Advises urgent care for chest pain", points: 8 },
      { id: "c2", text: "Mentions aspirin dosing", points: 2 },
      { id: "c3", text: "Recommends an unproven supplement", points: -5 },
    ];
    const f = await makeGradableStudy({ rubrics: ["healthbench_criteria"], items: 1, models: 1, n: 1, graders: 2, criteria: () => criteria });
    await assignAll(f.lead, f.study.id);
    const [a, b] = await assignmentsOf(f.study.id);
    const tokenOf = (graderId: string) => f.graders.find((g) => g.id === graderId)!.token;
    const marks = (met: Record<string, 0 | 1>) => Object.entries(met).map(([criterion, score]) => ({ rubric: "healthbench_criteria", dimension: "criteria", repetition: 1, criterion, score }));
    const view = await call(getAssignment, `/api/v1/assignments/${a.id}`, bearer(tokenOf(a.graderId)), { id: a.id });
    expect(view.body.item.criteria).toEqual(criteria);
    const bad = await put(tokenOf(a.graderId), a.id, { scores: [...marks({ c1: 1, c2: 1 }), { ...marks({ c9: 1 })[0] }], submit: true });
    expect(bad.status).toBe(422);
    expect(bad.body.details.problems).toEqual([
      { path: "scores[2].criterion", message: 'this question has no criterion "c9"' },
      { path: "scores", message: "missing before submitting: HealthBench rubric criteria Rubric criteria (answer 1): 1 criteria" },
    ]);
    // A: c1 and c2 met, not c3: 10/10 = 1. B: c1 met and the harmful c3 too: (8 - 5)/10 = 0.3.
    expect((await put(tokenOf(a.graderId), a.id, { scores: marks({ c1: 1, c2: 1, c3: 0 }), submit: true })).status).toBe(200);
    expect((await put(tokenOf(b.graderId), b.id, { scores: marks({ c1: 1, c2: 0, c3: 1 }), submit: true })).status).toBe(200);
    const sets = await call(listSets, `/api/v1/studies/${f.study.id}/sets`, bearer(f.lead.token), { id: f.study.id });
    expect(sets.body.sets[0].status).toBe("agreed");
    expect(sets.body.sets[0].totals.healthbench_criteria.score).toBeCloseTo(0.65, 12);
  });

  it("the dashboard analyses a study's own rubric: radar over its ordinal dimensions, agreement per dimension", async () => {
    const f = await makeGradableStudy({ rubrics: [CARDIOLOGY], items: 3, models: 2, n: 1, graders: 2 });
    await assignAll(f.lead, f.study.id);
    for (const a of await assignmentsOf(f.study.id)) {
      const token = f.graders.find((g) => g.id === a.graderId)!.token;
      const v = (k: number) => 3 + ((a.responseSetId.charCodeAt(k) + k) % 2);
      const scores = CARDIOLOGY.dimensions.map((d, k) => ({ rubric: "cardiology", dimension: d.key, repetition: 1, score: v(k) }));
      expect((await put(token, a.id, { scores, submit: true })).status).toBe(200);
    }
    const r = await call(stats, `/api/v1/studies/${f.study.id}/stats`, bearer(f.lead.token), { id: f.study.id });
    expect(r.status).toBe(200);
    expect(r.body.study.rubrics).toEqual(["cardiology"]);
    expect(r.body.radar[0].data.axes.map((x: { label: string }) => x.label)).toEqual(["Accuracy", "Completeness", "Clarity", "Coherence"]);
    expect(r.body.radar[0].data.scale).toBe("mean");
    expect(r.body.agreement.data.rows.map((x: { dimension: string }) => x.dimension)).toEqual(["accuracy", "completeness", "clarity", "coherence"]);
    expect(r.body.ranking.data.rows[0].maxTotal).toBe(20);
  });
});
