import { describe, expect, it } from "vitest";
import { GET as getComparison } from "@/app/api/v1/comparison-assignments/[id]/route";
import { PUT as putDraft } from "@/app/api/v1/comparison-assignments/[id]/preferences/route";
import { POST as postSubmit } from "@/app/api/v1/comparison-assignments/[id]/submit/route";
import { GET as myComparisons } from "@/app/api/v1/me/comparisons/route";
import { POST as createStudyRoute } from "@/app/api/v1/studies/route";
import { GET as getStudy, PATCH as patchStudy } from "@/app/api/v1/studies/[id]/route";
import { POST as assignRoute } from "@/app/api/v1/studies/[id]/assignments/route";
import { POST as dealRoute } from "@/app/api/v1/studies/[id]/comparison-assignments/route";
import { GET as planGet, POST as planPost } from "@/app/api/v1/studies/[id]/comparisons/route";
import { getDb } from "@/lib/db/client";
import { comparisonFinals } from "@/lib/pairwise/finals";
import { listMyComparisons } from "@/lib/pairwise/grading";
import { bearer, call, makeUser } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";
import { makePairwiseStudy } from "./helpers/pairwise-fixture";
import { MODEL_NAMES, MODEL_VERSIONS } from "./helpers/study-fixture";

useIsolatedDatabase();

type Fixture = Awaited<ReturnType<typeof makePairwiseStudy>>;
const json = (token: string, method: string, body: unknown) => bearer(token, { method, body: JSON.stringify(body) });
const plan = (f: Fixture, body: unknown) => call(planPost, "/x", json(f.lead.token, "POST", body), { id: f.study.id });
const deal = (f: Fixture, body: unknown = {}) => call(dealRoute, "/x", json(f.lead.token, "POST", body), { id: f.study.id });
const draft = (token: string, id: string, body: unknown) => call(putDraft, "/x", json(token, "PUT", body), { id });
const submit = (token: string, id: string, body: unknown) => call(postSubmit, "/x", json(token, "POST", body), { id });

const CLEVER_AXES = ["factuality", "clinical_relevance", "conciseness"];
const all = (choice: "a" | "tie" | "b", axes = CLEVER_AXES, rubric = "clever_preference") => ({ preferences: axes.map((axis) => ({ rubric, axis, choice })) });

async function primaries(f: Fixture, comparisonId: string) {
  const rows = await getDb().comparisonAssignment.findMany({ where: { comparisonId, kind: "PRIMARY", status: { not: "CANCELLED" } }, orderBy: { graderId: "asc" } });
  return rows.map((a) => ({ id: a.id, grader: f.graders.find((g) => g.id === a.graderId)! }));
}

async function plannedAndDealt(opts: Parameters<typeof makePairwiseStudy>[0] = {}) {
  const f = await makePairwiseStudy(opts);
  expect((await plan(f, { design: { kind: "all_pairs" }, seed: "s1" })).status).toBe(200);
  expect((await deal(f)).status).toBe(200);
  return f;
}

describe("pairwise study creation", () => {
  it("creates a pairwise study from a preference template; scoring stays the default; design never changes", async () => {
    const lead = await makeUser("LEAD");
    const created = await call(createStudyRoute, "/x", json(lead.token, "POST", { name: "Pairwise A", design: "pairwise", rubrics: ["clever_preference"], repetitions: 1 }));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    const detail = await call(getStudy, "/x", bearer(lead.token), { id });
    expect(detail.body).toMatchObject({ design: "pairwise", tieDisagrees: false, pairDesign: null, pairSeed: null });
    const scoring = await call(createStudyRoute, "/x", json(lead.token, "POST", { name: "Scoring A", rubrics: ["clear"] }));
    expect((await call(getStudy, "/x", bearer(lead.token), { id: scoring.body.id as string })).body.design).toBe("scoring");

    const patched = await call(patchStudy, "/x", json(lead.token, "PATCH", { design: "scoring" }), { id });
    expect(patched.status).toBe(422);
    expect(JSON.stringify(patched.body)).toContain("design is chosen when the study is created");
  });

  it("refuses a pairwise study whose rubric is not preference axes, and a scoring study with preference axes, naming each path", async () => {
    const lead = await makeUser("LEAD");
    const pairwise = await call(createStudyRoute, "/x", json(lead.token, "POST", { name: "P", design: "pairwise", rubrics: ["overall_preference", "clear"] }));
    expect(pairwise.status).toBe(422);
    expect(pairwise.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: "rubrics.1.dimensions.0.scale.kind" })]));
    const scoring = await call(createStudyRoute, "/x", json(lead.token, "POST", { name: "S", rubrics: ["overall_preference"] }));
    expect(scoring.status).toBe(422);
    expect(scoring.body.details).toEqual([expect.objectContaining({ path: "rubrics.0.dimensions.0.scale.kind" })]);
    const bad = await call(createStudyRoute, "/x", json(lead.token, "POST", { name: "D", design: "sideways", rubrics: ["overall_preference"] }));
    expect(bad.status).toBe(422);
  });
});

describe("planning comparisons", () => {
  it("plans every pair per question, replays the same plan from the same seed, and stores design and seed", async () => {
    const f = await makePairwiseStudy({ items: 4, models: 3, n: 3 });
    const first = await plan(f, { design: { kind: "all_pairs" }, seed: "replay" });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ comparisons: 12, questions: 4, seed: "replay", design: { kind: "all_pairs" } });
    const pairs = first.body.pairs as { comparisons: number }[];
    expect(pairs).toHaveLength(3);
    expect(pairs.every((p) => p.comparisons === 4)).toBe(true);
    const snapshot = async () =>
      (await getDb().comparison.findMany({ where: { studyId: f.study.id } }))
        .map((c) => `${c.itemId}/${c.leftSetId}:${c.leftRepetition}/${c.rightSetId}:${c.rightRepetition}`)
        .sort();
    const before = await snapshot();
    for (const c of await getDb().comparison.findMany({ where: { studyId: f.study.id }, include: { leftSet: true, rightSet: true } })) {
      expect(c.leftSet.itemId).toBe(c.itemId);
      expect(c.rightSet.itemId).toBe(c.itemId);
      expect(c.leftSetId).not.toBe(c.rightSetId);
      expect(c.leftRepetition).toBeGreaterThanOrEqual(1);
      expect(c.leftRepetition).toBeLessThanOrEqual(3);
    }
    expect((await plan(f, { design: { kind: "balanced", perQuestion: 1 }, seed: "other" })).body.comparisons).toBe(4);
    expect((await plan(f, { design: { kind: "all_pairs" }, seed: "replay" })).status).toBe(200);
    expect(await snapshot()).toEqual(before);
    const study = await getDb().study.findUniqueOrThrow({ where: { id: f.study.id } });
    expect(study).toMatchObject({ pairSeed: "replay", pairDesign: { kind: "all_pairs" } });
    const audit = await getDb().auditEvent.count({ where: { studyId: f.study.id, action: "comparisons.plan" } });
    expect(audit).toBe(3);
    expect((await call(planGet, "/x", bearer(f.lead.token), { id: f.study.id })).body).toMatchObject({ comparisons: 12, byStatus: { AWAITING_GRADES: 12 } });
  });

  it("plans against a reference model, and refuses bad designs by path", async () => {
    const f = await makePairwiseStudy({ items: 3, models: 3 });
    const ref = await plan(f, { design: { kind: "against_reference", reference: MODEL_NAMES[1] } });
    expect(ref.status).toBe(200);
    expect(ref.body.comparisons).toBe(6);
    // Every comparison holds the reference: it sits in all 6, each other model in 3.
    const sides = ref.body.models as { model: string; left: number; right: number }[];
    expect(sides).toHaveLength(3);
    for (const m of sides) expect(m.left + m.right, m.model).toBe(m.model === MODEL_NAMES[1] ? 6 : 3);
    const unknown = await plan(f, { design: { kind: "against_reference", reference: "Nobody" } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.details).toEqual([expect.objectContaining({ path: "design.reference" })]);
    const tooMany = await plan(f, { design: { kind: "balanced", perQuestion: 4 } });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.details).toEqual([expect.objectContaining({ path: "design.perQuestion" })]);
    expect((await plan(f, { design: { kind: "nonsense" } })).status).toBe(422);
  });

  it("refuses to replan once comparisons are dealt, and a scoring study has no comparisons", async () => {
    const f = await plannedAndDealt({ items: 2 });
    const again = await plan(f, { design: { kind: "all_pairs" }, seed: "s2" });
    expect(again.status).toBe(409);
    expect(String(again.body.error)).toContain("already dealt");
    const lead = await makeUser("LEAD");
    const scoring = await call(createStudyRoute, "/x", json(lead.token, "POST", { name: "Scoring", rubrics: ["clear"] }));
    const res = await call(planPost, "/x", json(lead.token, "POST", { design: { kind: "all_pairs" } }), { id: scoring.body.id as string });
    expect(res.status).toBe(409);
    // The scoring assignment run refuses a pairwise study: its work is its comparisons.
    expect((await call(assignRoute, "/x", json(f.lead.token, "POST", {}), { id: f.study.id })).status).toBe(409);
  });
});

describe("dealing comparisons", () => {
  it("gives every comparison k distinct primary graders, loads within one, incrementally", async () => {
    const f = await makePairwiseStudy({ items: 5, models: 3, graders: 4, k: 2 });
    await plan(f, { design: { kind: "all_pairs" }, seed: "deal" });
    const first = await deal(f);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ comparisons: 15, created: 30, comparisonsShortOfGraders: 0 });
    const rows = await getDb().comparisonAssignment.findMany({ where: { studyId: f.study.id } });
    const per = new Map<string, Set<string>>();
    for (const r of rows) per.set(r.comparisonId, (per.get(r.comparisonId) ?? new Set()).add(r.graderId));
    expect([...per.values()].every((s) => s.size === 2)).toBe(true);
    const load = f.graders.map((g) => rows.filter((r) => r.graderId === g.id).length);
    expect(Math.max(...load) - Math.min(...load)).toBeLessThanOrEqual(1);
    expect((await deal(f)).body.created).toBe(0);
  });
});

describe("the grader's comparison", () => {
  it("shows the question and answers A and B, blinded: no model, version, repetition, study name or other grader", async () => {
    const f = await plannedAndDealt({ items: 2, n: 3 });
    const g = f.graders[0];
    // The queue's listing: the grader-facing title and the question, nothing of the models.
    const queue = await listMyComparisons(g.id);
    expect(queue.length).toBeGreaterThan(0);
    for (const row of queue) {
      expect(row.studyName).toMatch(/^Study [0-9A-F]{4}$/);
      for (const secret of [...MODEL_NAMES, ...MODEL_VERSIONS, f.name]) expect(JSON.stringify(row)).not.toContain(secret);
    }
    const mine = await call(myComparisons, "/x", bearer(g.token));
    expect(mine.status).toBe(200);
    const list = mine.body.comparisons as { id: string }[];
    expect(list.length).toBeGreaterThan(0);
    const other = f.graders.find((x) => x.id !== g.id)!;
    for (const { id } of list) {
      const res = await call(getComparison, "/x", bearer(g.token), { id });
      expect(res.status).toBe(200);
      const text = JSON.stringify(res.body);
      for (const secret of [...MODEL_NAMES, ...MODEL_VERSIONS, f.name, f.study.slug, other.name, other.email, "repetition", "SetId"]) {
        expect(text, secret).not.toContain(secret);
      }
      const keys: string[] = [];
      const walk = (v: unknown): void => {
        if (Array.isArray(v)) v.forEach(walk);
        else if (v && typeof v === "object") {
          for (const [k, x] of Object.entries(v)) {
            keys.push(k);
            walk(x);
          }
        }
      };
      walk(res.body);
      expect(keys.filter((k) => /model|grader|repetition|left|right/i.test(k))).toEqual([]);
      expect(res.body).toMatchObject({ answers: { a: { text: expect.stringMatching(/^Answer \d by writer \d/) }, b: { text: expect.stringMatching(/^Answer/) } } });
      expect((res.body.study as { name: string }).name).toMatch(/^Study [0-9A-F]{4}$/);
    }
    // Someone else's comparison is not there; a lead is not a grader.
    const othersOnly = await getDb().comparisonAssignment.findFirstOrThrow({ where: { studyId: f.study.id, graderId: { not: g.id }, comparison: { assignments: { none: { graderId: g.id } } } } });
    expect((await call(getComparison, "/x", bearer(g.token), { id: othersOnly.id })).status).toBe(404);
    expect((await draft(g.token, othersOnly.id, all("a"))).status).toBe(404);
    expect((await call(getComparison, "/x", bearer(f.lead.token), { id: othersOnly.id })).status).toBe(403);
  });

  it("saves drafts, refuses an incomplete or inconsistent submit with each problem's path, keeps sides as planned", async () => {
    const strict = {
      key: "strict_pref",
      name: "Strict preference",
      version: 1,
      dimensions: [
        { key: "overall", name: "Overall", scope: "set", scale: { kind: "preference", allowTie: false } },
        { key: "safety", name: "Safety", scope: "set", scale: { kind: "preference", strength: true } },
      ],
      totals: [],
    };
    const f = await plannedAndDealt({ items: 1, models: 2, rubrics: [strict as never] });
    const [p1] = await primaries(f, (await getDb().comparison.findFirstOrThrow({ where: { studyId: f.study.id } })).id);
    const ok = await draft(p1.grader.token, p1.id, { preferences: [{ rubric: "strict_pref", axis: "overall", choice: "a" }] });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ status: "IN_PROGRESS", complete: false });
    const expectProblem = async (body: unknown, path: string) => {
      const r = await submit(p1.grader.token, p1.id, body);
      expect(r.status, JSON.stringify(r.body)).toBe(422);
      expect((r.body.details as { problems: { path: string }[] }).problems.map((p) => p.path)).toContain(path);
    };
    await expectProblem({ preferences: [{ rubric: "strict_pref", axis: "overall", choice: "a" }] }, "preferences");
    await expectProblem({ preferences: [{ rubric: "strict_pref", axis: "overall", choice: "tie" }, { rubric: "strict_pref", axis: "safety", choice: "b" }] }, "preferences.0.choice");
    await expectProblem({ preferences: [{ rubric: "strict_pref", axis: "overall", choice: "a", strength: "clearly" }, { rubric: "strict_pref", axis: "safety", choice: "b" }] }, "preferences.0.strength");
    await expectProblem({ preferences: [{ rubric: "strict_pref", axis: "overall", choice: "a" }, { rubric: "strict_pref", axis: "safety", choice: "tie", strength: "slightly" }] }, "preferences.1.strength");
    await expectProblem({ preferences: [{ rubric: "strict_pref", axis: "nope", choice: "a" }] }, "preferences.0.axis");
    await expectProblem(
      { preferences: [{ rubric: "strict_pref", axis: "overall", choice: "a" }, { rubric: "strict_pref", axis: "safety", choice: "b" }], harm: { b: { flag: true } } },
      "harm.b.comment",
    );
    const bad = await submit(p1.grader.token, p1.id, { preferences: [{ rubric: "strict_pref", axis: "overall", choice: "left" }] });
    expect(bad.status).toBe(422);
    // Nothing of a refused submit was written.
    expect(await getDb().preference.count({ where: { assignmentId: p1.id } })).toBe(1);

    const done = await submit(p1.grader.token, p1.id, {
      preferences: [{ rubric: "strict_pref", axis: "overall", choice: "a", comment: "clearer" }, { rubric: "strict_pref", axis: "safety", choice: "b", strength: "clearly" }],
      harm: { b: { flag: true, comment: "wrong dose" } },
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ status: "SUBMITTED", complete: true });
    const stored = await getDb().preference.findMany({ where: { assignmentId: p1.id }, orderBy: { axis: "asc" } });
    expect(stored.map((p) => [p.axis, p.choice, p.strength, p.comment])).toEqual([
      ["overall", "LEFT", null, "clearer"],
      ["safety", "RIGHT", "CLEARLY", null],
    ]);
    expect(await getDb().comparisonAssignment.findUniqueOrThrow({ where: { id: p1.id } })).toMatchObject({ harmRight: true, harmRightComment: "wrong dose", harmLeft: false });
    const view = await call(getComparison, "/x", bearer(p1.grader.token), { id: p1.id });
    expect(view.body).toMatchObject({ status: "SUBMITTED", harm: { b: { flag: true, comment: "wrong dose" } } });
    expect(view.body.preferences).toEqual(expect.arrayContaining([expect.objectContaining({ axis: "safety", choice: "b", strength: "clearly" })]));
    expect((await draft(p1.grader.token, p1.id, all("a", ["overall"], "strict_pref"))).status).toBe(409);
  });
});

describe("escalation and the final preference", () => {
  it("opposite preferences get one adjudicator; a tie against a preference is agreement unless the study says otherwise", async () => {
    const f = await plannedAndDealt({ items: 2, models: 2, graders: 3 });
    const [c1, c2] = await getDb().comparison.findMany({ where: { studyId: f.study.id }, orderBy: { id: "asc" } });
    const [a1, a2] = await primaries(f, c1.id);
    expect((await submit(a1.grader.token, a1.id, all("a"))).status).toBe(200);
    expect((await getDb().comparison.findUniqueOrThrow({ where: { id: c1.id } })).status).toBe("AWAITING_GRADES");
    expect((await submit(a2.grader.token, a2.id, { preferences: [...all("a").preferences.slice(0, 2), { rubric: "clever_preference", axis: "conciseness", choice: "b" }] })).status).toBe(200);
    expect((await getDb().comparison.findUniqueOrThrow({ where: { id: c1.id } })).status).toBe("AWAITING_ADJUDICATION");
    const esc = await getDb().comparisonEscalation.findUniqueOrThrow({ where: { comparisonId: c1.id } });
    expect(esc.status).toBe("ASSIGNED");
    expect((esc.axes as { axis: string }[]).map((x) => x.axis)).toEqual(["conciseness"]);
    const adj = await getDb().comparisonAssignment.findFirstOrThrow({ where: { comparisonId: c1.id, kind: "ADJUDICATOR" } });
    expect([a1.grader.id, a2.grader.id]).not.toContain(adj.graderId);
    const adjudicator = f.graders.find((g) => g.id === adj.graderId)!;
    // The adjudicator's page is blinded as well, and the other graders' choices are not in it.
    const seen = await call(getComparison, "/x", bearer(adjudicator.token), { id: adj.id });
    expect(seen.body.preferences).toEqual([]);
    expect((await submit(adjudicator.token, adj.id, { preferences: [...all("tie").preferences.slice(0, 2), { rubric: "clever_preference", axis: "conciseness", choice: "tie" }] })).status).toBe(200);
    expect((await getDb().comparison.findUniqueOrThrow({ where: { id: c1.id } })).status).toBe("ADJUDICATED");
    expect((await getDb().comparisonEscalation.findUniqueOrThrow({ where: { comparisonId: c1.id } })).status).toBe("RESOLVED");

    // Majority: a, a, tie on two axes -> a; a, b, tie on conciseness -> a tie of votes, a tie.
    const finals = (await comparisonFinals(getDb(), f.study.id)).filter((x) => x.comparisonId === c1.id);
    expect(Object.fromEntries(finals.map((x) => [x.axis, [x.choice, x.votes]]))).toEqual({
      factuality: ["LEFT", 3],
      clinical_relevance: ["LEFT", 3],
      conciseness: ["TIE", 3],
    });

    // A tie against a preference: agreed, no adjudicator.
    const [b1, b2] = await primaries(f, c2.id);
    await submit(b1.grader.token, b1.id, all("tie"));
    await submit(b2.grader.token, b2.id, all("b"));
    expect((await getDb().comparison.findUniqueOrThrow({ where: { id: c2.id } })).status).toBe("AGREED");
    expect(await getDb().comparisonEscalation.count({ where: { comparisonId: c2.id } })).toBe(0);
    const agreed = (await comparisonFinals(getDb(), f.study.id)).filter((x) => x.comparisonId === c2.id);
    expect(agreed).toHaveLength(3);
    expect(agreed.every((x) => x.choice === "TIE")).toBe(true);

    // A revision that removes the disagreement withdraws the open adjudication.
    const g = await plannedAndDealt({ items: 1, models: 2, graders: 3 });
    const [c] = await getDb().comparison.findMany({ where: { studyId: g.study.id } });
    const [d1, d2] = await primaries(g, c.id);
    await submit(d1.grader.token, d1.id, all("a"));
    await submit(d2.grader.token, d2.id, all("b"));
    expect((await getDb().comparisonEscalation.findUniqueOrThrow({ where: { comparisonId: c.id } })).status).toBe("ASSIGNED");
    await submit(d2.grader.token, d2.id, all("a"));
    expect((await getDb().comparisonEscalation.findUniqueOrThrow({ where: { comparisonId: c.id } })).status).toBe("CANCELLED");
    expect((await getDb().comparisonAssignment.findFirstOrThrow({ where: { comparisonId: c.id, kind: "ADJUDICATOR" } })).status).toBe("CANCELLED");
    expect((await getDb().comparison.findUniqueOrThrow({ where: { id: c.id } })).status).toBe("AGREED");
  });

  it("with tieDisagrees, a tie against a preference calls an adjudicator", async () => {
    const f = await plannedAndDealt({ items: 1, models: 2, graders: 3, tieDisagrees: true });
    const [c] = await getDb().comparison.findMany({ where: { studyId: f.study.id } });
    const [a1, a2] = await primaries(f, c.id);
    await submit(a1.grader.token, a1.id, all("tie"));
    await submit(a2.grader.token, a2.id, all("b"));
    expect((await getDb().comparison.findUniqueOrThrow({ where: { id: c.id } })).status).toBe("AWAITING_ADJUDICATION");
    expect(await getDb().comparisonAssignment.count({ where: { comparisonId: c.id, kind: "ADJUDICATOR" } })).toBe(1);
  });
});
