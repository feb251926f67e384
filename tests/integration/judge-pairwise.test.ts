import { afterEach, describe, expect, it } from "vitest";
import { GET as judgePrefsRoute } from "@/app/api/v1/studies/[id]/judges/preferences/route";
import { POST as gradeImport } from "@/app/api/v1/studies/[id]/grade-imports/route";
import { getDb } from "@/lib/db/client";
import { startRun } from "@/lib/judges/runner/runs";
import { startJudgeWorker, type JudgeWorker } from "@/lib/judges/runner/worker";
import { planStudyComparisons } from "@/lib/pairwise/plan-service";
import { bearer, call, makeUser } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";
import { startJudgeStub, type ChatBody, type JudgeStub } from "./helpers/judge-stub";
import { makePairwiseStudy } from "./helpers/pairwise-fixture";
import { MODEL_NAMES, MODEL_VERSIONS } from "./helpers/study-fixture";

useIsolatedDatabase();

const stubs: JudgeStub[] = [];
const workers: JudgeWorker[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop(1000)));
  await Promise.all(stubs.splice(0).map((s) => s.close()));
});

type Side = "LEFT" | "RIGHT" | "TIE";
type W = "w1" | "w2" | "tie";
const AXES = ["factuality", "clinical_relevance", "conciseness"] as const;

/** Which writer wrote answer A, and the question, read from the prompt the runner built. */
function shown(body: ChatBody) {
  const user = body.messages.find((m) => m.role === "user")!.content;
  const a = /Answer A:\nAnswer \d+ by writer (\d) to question (\d)/.exec(user)!;
  const b = /Answer B:\nAnswer \d+ by writer (\d) to question (\d)/.exec(user)!;
  return { a: `w${a[1]}`, b: `w${b[1]}`, q: Number(a[2]) };
}

/**
 * The stub judge: factuality always prefers writer 1 (consistent); clinical relevance always says
 * A (pure position bias); conciseness says tie on question 1, writer 2 on questions 2 and 4, A on 3.
 */
function judgeReply(body: ChatBody): string {
  const { a, q } = shown(body);
  const pick = (w: string) => (w === a ? "A" : "B");
  const reply = { factuality: pick("w1"), clinical_relevance: "A", conciseness: q === 1 ? "tie" : q === 3 ? "A" : pick("w2") };
  return `Here is my verdict: ${JSON.stringify(reply)}`;
}

// The panel's two primary graders per question and axis, in writer terms (q1..q4).
const PANEL: Record<(typeof AXES)[number], [W, W][]> = {
  factuality: [["w1", "w1"], ["w1", "w1"], ["w2", "w2"], ["tie", "tie"]],
  clinical_relevance: [["w1", "w1"], ["tie", "tie"], ["w2", "w2"], ["w1", "w1"]],
  conciseness: [["tie", "tie"], ["w2", "w2"], ["w1", "w1"], ["w2", "tie"]],
};
// The judge's preference (both orders' common answer, else a tie), in writer terms.
const JUDGE: Record<(typeof AXES)[number], W[]> = {
  factuality: ["w1", "w1", "w1", "w1"],
  clinical_relevance: ["tie", "tie", "tie", "tie"],
  conciseness: ["tie", "w2", "tie", "w2"],
};

/** An independent Cohen's kappa and Gwet's AC1 on two raters and three categories (textbook formulas). */
function reference(x: Side[], y: Side[]) {
  const cats: Side[] = ["LEFT", "TIE", "RIGHT"];
  const n = x.length;
  const po = x.filter((v, i) => v === y[i]).length / n;
  const px = cats.map((c) => x.filter((v) => v === c).length / n);
  const py = cats.map((c) => y.filter((v) => v === c).length / n);
  const peK = cats.reduce((s, _, k) => s + px[k] * py[k], 0);
  const pi = cats.map((_, k) => (px[k] + py[k]) / 2);
  const peG = pi.reduce((s, p) => s + p * (1 - p), 0) / (cats.length - 1);
  return { accuracy: po, kappa: (po - peK) / (1 - peK), ac1: (po - peG) / (1 - peG) };
}

async function pairwiseWithPanel() {
  const f = await makePairwiseStudy({ rubrics: ["clever_preference"], items: 4, models: 2, n: 1, graders: 2 });
  await planStudyComparisons(f.study.id, { design: { kind: "all_pairs" }, seed: "judge" }, f.lead.id);
  const db = getDb();
  const comparisons = await db.comparison.findMany({ where: { studyId: f.study.id }, include: { item: true, leftSet: true } });
  expect(comparisons).toHaveLength(4);
  const q = (c: (typeof comparisons)[number]) => Number(c.item.externalId.slice(1));
  // Writer 1 is models[0]: a writer choice in side terms for this comparison.
  const side = (c: (typeof comparisons)[number], w: W): Side => (w === "tie" ? "TIE" : (w === "w1") === (c.leftSet.modelId === f.models[0].id) ? "LEFT" : "RIGHT");
  for (const c of comparisons) {
    for (const [gi, g] of f.graders.entries()) {
      const a = await db.comparisonAssignment.create({ data: { comparisonId: c.id, studyId: f.study.id, graderId: g.id, kind: "PRIMARY", position: q(c), status: "SUBMITTED", submittedAt: new Date() } });
      await db.preference.createMany({ data: AXES.map((axis) => ({ assignmentId: a.id, rubric: "clever_preference", axis, choice: side(c, PANEL[axis][q(c) - 1][gi]) })) });
    }
    await db.comparison.update({ where: { id: c.id }, data: { status: "AGREED" } });
  }
  const admin = await makeUser("ADMIN", "admin");
  return { f, comparisons, q, side, admin };
}

describe("automated judges in a pairwise study", () => {
  it("asks every comparison in both orders, blind; stores both replies; order effects and agreement match hand-worked values", async () => {
    const stub = await startJudgeStub({ logprobs: false, content: (_n, _d, body) => judgeReply(body) });
    stubs.push(stub);
    const { f, comparisons, q, side, admin } = await pairwiseWithPanel();
    const db = getDb();
    const endpoint = await db.judgeEndpoint.create({ data: { name: "stub", baseUrl: stub.url, model: "stub-judge-1", logprobs: false, createdById: admin.id } });
    const judge = await db.automatedJudge.create({ data: { studyId: f.study.id, name: "Stub judge", model: "stub-judge-1" } });
    // A comparison imported without its answers' text is not given to the judge.
    const imported = await call(gradeImport, "/x", bearer(f.lead.token, { method: "POST", body: `item_id,model_a,model_b,rater,axis,choice\nQ9,${MODEL_NAMES[0]},${MODEL_NAMES[1]},R1,factuality,a`, headers: { "content-type": "text/csv" } }), { id: f.study.id });
    expect(imported.body).toMatchObject({ new: { comparisons: 1 } });
    const run = await startRun(judge.id, { endpointId: endpoint.id, mode: "sampling", samples: 2, temperature: 0.5 }, f.lead.id);
    expect(run.tasks).toBe(4);
    const w = startJudgeWorker({ runId: run.id, pollMs: 50, leaseMs: 3000 });
    workers.push(w);
    await w.idle();

    // Both orders, each `samples` times: 4 comparisons x 2 orders x 2 samples; A is the left answer, then the right one.
    expect(stub.bodies).toHaveLength(16);
    const texts = await db.response.findMany({ where: { responseSet: { studyId: f.study.id } }, select: { responseSetId: true, text: true } });
    const textOf = (setId: string) => texts.find((t) => t.responseSetId === setId)!.text;
    for (const c of comparisons) {
      const asked = stub.bodies.filter((b) => shown(b).q === q(c)).map((b) => b.messages[1].content);
      expect(asked).toHaveLength(4);
      expect(asked.filter((u) => u.includes(`Answer A:\n${textOf(c.leftSetId)}`) && u.includes(`Answer B:\n${textOf(c.rightSetId)}`))).toHaveLength(2);
      expect(asked.filter((u) => u.includes(`Answer A:\n${textOf(c.rightSetId)}`) && u.includes(`Answer B:\n${textOf(c.leftSetId)}`))).toHaveLength(2);
    }
    // Blind: no model name or version, no study name, in anything sent.
    const sent = JSON.stringify(stub.bodies.map((b) => b.messages));
    for (const secret of [...MODEL_NAMES, ...MODEL_VERSIONS, f.name, ...f.models.map((m) => m.id)]) expect(sent).not.toContain(secret);
    expect(sent).toContain("Which answer is more factually correct");

    const stored = await db.judgePreference.findMany({ where: { judgeId: judge.id } });
    expect(stored).toHaveLength(12);
    for (const c of comparisons) {
      const of = (axis: string) => stored.find((p) => p.comparisonId === c.id && p.axis === axis)!;
      expect(of("clinical_relevance")).toMatchObject({ leftFirst: "LEFT", rightFirst: "RIGHT", choice: "TIE" });
      expect(of("factuality")).toMatchObject({ leftFirst: side(c, "w1"), rightFirst: side(c, "w1"), choice: side(c, "w1") });
      for (const axis of AXES) expect(of(axis).choice).toBe(side(c, JUDGE[axis][q(c) - 1]));
    }

    const res = await call(judgePrefsRoute, "/x", bearer(f.lead.token), { id: f.study.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const rows = (res.body.judges as { judge: { id: string }; preferences: number; axes: Record<string, never>[] }[]).find((j) => j.judge.id === judge.id)!;
    expect(rows.preferences).toBe(12);
    type Row = { axis: string | null; orders: { n: number; consistency: { value: number }; positionBias: { value: number; n: number } }; vsPanel: { n: number; accuracy: { value: number }; kappa: { value: number | null }; ac1: { value: number } }; ceiling: { comparisons: number; percent: { value: number } } };
    const row = (axis: string | null) => (rows.axes as unknown as Row[]).find((a) => a.axis === axis)!;
    // Hand-worked: factuality consistent on 4/4, one of each comparison's two replies picks the first shown (4/8);
    // clinical relevance never consistent, always the first shown (8/8); conciseness 3/4 consistent, first shown 4 of 6 decisive.
    expect(row("factuality").orders).toMatchObject({ n: 4, consistency: { value: 1 }, positionBias: { value: 0.5, n: 8 } });
    expect(row("clinical_relevance").orders).toMatchObject({ n: 4, consistency: { value: 0 }, positionBias: { value: 1, n: 8 } });
    expect(row("conciseness").orders.consistency.value).toBeCloseTo(0.75, 12);
    expect(row("conciseness").orders.positionBias).toMatchObject({ n: 6 });
    expect(row("conciseness").orders.positionBias.value).toBeCloseTo(4 / 6, 12);
    expect(row(null).orders.consistency.value).toBeCloseTo(7 / 12, 12);
    expect(row(null).orders.positionBias.value).toBeCloseTo(16 / 22, 12);

    // Against the panel's majority, side by side with an independent computation.
    const ordered = [...comparisons].sort((a, b) => q(a) - q(b));
    const majority = (pair: [W, W]): W => (pair[0] === pair[1] ? pair[0] : "tie");
    const vectors = (axes: readonly (typeof AXES)[number][]) => {
      const j: Side[] = [];
      const p: Side[] = [];
      for (const axis of axes) for (const c of ordered) {
        j.push(side(c, JUDGE[axis][q(c) - 1]));
        p.push(side(c, majority(PANEL[axis][q(c) - 1])));
      }
      return { j, p };
    };
    for (const axis of [...AXES, null]) {
      const { j, p } = vectors(axis ? [axis] : AXES);
      const ref = reference(j, p);
      const got = row(axis).vsPanel;
      expect(got.n).toBe(j.length);
      expect(got.accuracy.value).toBeCloseTo(ref.accuracy, 12);
      if (Number.isFinite(ref.kappa)) expect(got.kappa.value).toBeCloseTo(ref.kappa, 10);
      else expect(got.kappa.value).toBeNull();
      expect(got.ac1.value).toBeCloseTo(ref.ac1, 10);
    }
    // The clinicians' ceiling: they disagree only on conciseness of question 4.
    expect(row("factuality").ceiling).toMatchObject({ comparisons: 4, percent: { value: 1 } });
    expect(row("conciseness").ceiling.percent.value).toBeCloseTo(3 / 4, 12);
  });

  it("a preferences CSV whose rater is a judge's name lands as that judge's preferences, not a grader's", async () => {
    const { f, comparisons, side } = await pairwiseWithPanel();
    const db = getDb();
    const judge = await db.automatedJudge.create({ data: { studyId: f.study.id, name: "Outside judge", model: "other-llm" } });
    const c1 = comparisons.find((c) => c.item.externalId === "Q1")!;
    const [m1, m2] = [MODEL_NAMES[0], MODEL_NAMES[1]];
    const csv = ["item_id,model_a,model_b,rater,axis,choice", `Q1,${m1},${m2},Outside judge,factuality,a`, `Q1,${m2},${m1},Outside judge,conciseness,a`, `Q1,${m1},${m2},Outside judge,clinical_relevance,tie`].join("\n");
    const post = (body: string) => call(gradeImport, "/x", bearer(f.lead.token, { method: "POST", body, headers: { "content-type": "text/csv" } }), { id: f.study.id });
    const usersBefore = await db.user.count();
    const ok = await post(csv);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ created: 3, new: { raters: 0, comparisons: 0 } });
    expect(await db.user.count()).toBe(usersBefore);
    const prefs = await db.judgePreference.findMany({ where: { judgeId: judge.id } });
    const of = (axis: string) => prefs.find((p) => p.axis === axis)!;
    expect(of("factuality")).toMatchObject({ comparisonId: c1.id, choice: side(c1, "w1"), leftFirst: null, rightFirst: null });
    expect(of("conciseness")).toMatchObject({ choice: side(c1, "w2") });
    expect(of("clinical_relevance")).toMatchObject({ choice: "TIE" });
    // Again: unchanged; another value: refused, nothing overwritten.
    expect((await post(csv)).body).toMatchObject({ created: 0, unchanged: 3 });
    const refused = await post(csv.replace("factuality,a", "factuality,b"));
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.body)).toContain("the judge's preference is already stored");
    expect(of("factuality").choice).toBe((await db.judgePreference.findFirstOrThrow({ where: { judgeId: judge.id, axis: "factuality" } })).choice);
    const res = await call(judgePrefsRoute, "/x", bearer(f.lead.token), { id: f.study.id });
    const j = (res.body.judges as { judge: { id: string }; axes: { axis: string | null; orders: { n: number }; vsPanel: { n: number } }[] }[]).find((x) => x.judge.id === judge.id)!;
    expect(j.axes.find((a) => a.axis === "factuality")).toMatchObject({ orders: { n: 0 }, vsPanel: { n: 1 } });
  });

  it("the agreement route is for leads of a pairwise study", async () => {
    const { f } = await pairwiseWithPanel();
    expect((await call(judgePrefsRoute, "/x", bearer(f.graders[0].token), { id: f.study.id })).status).toBe(403);
    const other = await makeUser("LEAD", "other");
    expect((await call(judgePrefsRoute, "/x", bearer(other.token), { id: f.study.id })).status).toBe(404);
  });
});
