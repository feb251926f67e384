import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PUT as putGrades } from "@/app/api/v1/assignments/[id]/grades/route";
import { GET as progressRoute, POST as assign } from "@/app/api/v1/studies/[id]/assignments/route";
import { GET as exportRoute } from "@/app/api/v1/studies/[id]/export/route";
import { assignGraders } from "@/lib/assignment/service";
import { getDb } from "@/lib/db/client";
import { listMyAssignments } from "@/lib/grading/service";
import { studyDetail } from "@/lib/studies/service";
import { bearer, call, makeUser } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";
import { form, makeGradableStudy } from "./helpers/study-fixture";

useIsolatedDatabase();

type Fixture = Awaited<ReturnType<typeof makeGradableStudy>>;

const post = (token: string, studyId: string, body: unknown) =>
  call(assign, `/api/v1/studies/${studyId}/assignments`, bearer(token, { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } }), { id: studyId });

/** Live assignments of the study with their question and model. */
async function live(studyId: string) {
  return getDb().assignment.findMany({
    where: { studyId, status: { not: "CANCELLED" } },
    select: { graderId: true, kind: true, responseSetId: true, responseSet: { select: { itemId: true, modelId: true } } },
  });
}

/** The design's invariant: no grader holds two live assignments on one question. Returns the worst pair count. */
async function worstPerQuestion(studyId: string) {
  const held = new Map<string, number>();
  for (const a of await live(studyId)) held.set(`${a.graderId}|${a.responseSet.itemId}`, (held.get(`${a.graderId}|${a.responseSet.itemId}`) ?? 0) + 1);
  return Math.max(0, ...held.values());
}

/** Every complete set has exactly k live primaries. */
async function primariesPerSet(studyId: string) {
  const rows = await getDb().assignment.groupBy({ by: ["responseSetId"], where: { studyId, kind: "PRIMARY", status: { not: "CANCELLED" } }, _count: { _all: true } });
  return new Map(rows.map((r) => [r.responseSetId, r._count._all]));
}

async function addGrader(f: Fixture, name: string) {
  const g = await makeUser("GRADER", name);
  await getDb().studyMember.create({ data: { studyId: f.study.id, userId: g.id, role: "GRADER" } });
  return g;
}

/** One more question with a complete set per model. */
async function addQuestion(f: Fixture, i: number) {
  const db = getDb();
  const sp = await db.qaItem.findFirstOrThrow({ where: { studyId: f.study.id }, select: { specialtyId: true } });
  const item = await db.qaItem.create({ data: { studyId: f.study.id, externalId: `extra-${i}`, question: `Extra ${i}?`, specialtyId: sp.specialtyId } });
  for (const m of f.models) {
    const set = await db.responseSet.create({ data: { studyId: f.study.id, itemId: item.id, modelId: m.id } });
    await db.response.createMany({ data: Array.from({ length: f.n }, (_, r) => ({ responseSetId: set.id, repetition: r + 1, text: `x ${r}` })) });
  }
}

describe("assignment designs", () => {
  it("one model per question: chosen when assigning, stored on the study, stated in progress, the study detail and the study export", async () => {
    const f = await makeGradableStudy({ items: 6, models: 2, k: 2, graders: 4, rubrics: ["SCORE"] });
    const r = await post(f.lead.token, f.study.id, { seed: "d1", design: "ONE_MODEL_PER_QUESTION" });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ design: "ONE_MODEL_PER_QUESTION", created: 6 * 2 * 2, setsShortOfGraders: 0 });
    expect(await worstPerQuestion(f.study.id)).toBe(1);
    // Each of the 4 graders sees each of the 2 models on 3 of the 6 questions: a Latin square.
    const seen = new Map<string, number>();
    for (const a of await live(f.study.id)) seen.set(`${a.graderId}|${a.responseSet.modelId}`, (seen.get(`${a.graderId}|${a.responseSet.modelId}`) ?? 0) + 1);
    for (const g of f.graders) for (const m of f.models) expect(seen.get(`${g.id}|${m.id}`)).toBe(3);

    expect((await getDb().study.findUniqueOrThrow({ where: { id: f.study.id } })).assignmentDesign).toBe("ONE_MODEL_PER_QUESTION");
    expect((await studyDetail(f.study.id))!.assignmentDesign).toBe("ONE_MODEL_PER_QUESTION");
    const progress = await call(progressRoute, "/x", bearer(f.lead.token), { id: f.study.id });
    expect(progress.body.design).toBe("ONE_MODEL_PER_QUESTION");
    const res = await exportRoute(new Request(`http://localhost/api/v1/studies/${f.study.id}/export?dataset=study`, bearer(f.lead.token)), { params: Promise.resolve({ id: f.study.id }) });
    expect(res.status).toBe(200);
    expect(JSON.parse(await res.text()).study.assignmentDesign).toBe("ONE_MODEL_PER_QUESTION");

    // A later run without a design keeps the stored one.
    await addQuestion(f, 1);
    const again = await post(f.lead.token, f.study.id, { seed: "d2" });
    expect(again.body).toMatchObject({ design: "ONE_MODEL_PER_QUESTION", created: 4 });
    expect(await worstPerQuestion(f.study.id)).toBe(1);
  });

  it("too few graders for one model per question: a 422 naming k x models, and nothing written", async () => {
    const f = await makeGradableStudy({ items: 3, models: 2, k: 2, graders: 3, rubrics: ["SCORE"] });
    const r = await post(f.lead.token, f.study.id, { seed: "few", design: "ONE_MODEL_PER_QUESTION" });
    expect(r.status).toBe(422);
    expect(r.body.error).toMatch(/at least k x models = 2 x 2 = 4 active graders.*has 3/);
    expect(await getDb().assignment.count({ where: { studyId: f.study.id } })).toBe(0);
    expect((await getDb().study.findUniqueOrThrow({ where: { id: f.study.id } })).assignmentDesign).toBe("LOAD_BALANCED");
  });

  it("switching to one model per question after today's design gave graders two models of a question is refused (409)", async () => {
    const f = await makeGradableStudy({ items: 3, models: 2, k: 2, graders: 2, rubrics: ["SCORE"] });
    await assignGraders(f.study.id, { seed: "lb" }, f.lead.id);
    for (let i = 0; i < 2; i++) await addGrader(f, `late${i}`);
    const r = await post(f.lead.token, f.study.id, { design: "ONE_MODEL_PER_QUESTION" });
    expect(r.status).toBe(409);
    expect(r.body.error).toMatch(/two models' answers to the same question/);
  });

  it("property (many seeds): re-running, adding graders and questions, and graders leaving keep one model per question and k per set", async () => {
    let study = 0;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 2, max: 5 }), fc.integer({ min: 2, max: 3 }), fc.integer({ min: 1, max: 2 }), fc.integer({ min: 0, max: 2 }), fc.string({ minLength: 1 }), async (items, models, k, extra, seed) => {
        const f = await makeGradableStudy({ items, models, k, graders: k * models + extra, n: 1, rubrics: ["SCORE"] });
        study++;
        await assignGraders(f.study.id, { seed, design: "ONE_MODEL_PER_QUESTION" }, f.lead.id);
        expect(await worstPerQuestion(f.study.id)).toBe(1);
        // Someone grades a little, a grader leaves, one joins, a question arrives: the run again.
        const first = (await listMyAssignments(f.graders[0].id))[0];
        if (first) await getDb().assignment.update({ where: { id: first.id }, data: { status: "SUBMITTED", submittedAt: new Date() } });
        await getDb().studyMember.update({ where: { studyId_userId: { studyId: f.study.id, userId: f.graders[1].id } }, data: { active: false } });
        await addGrader(f, `new${study}`);
        await addQuestion(f, study);
        const r = await assignGraders(f.study.id, { seed: `${seed}+` }, f.lead.id);
        expect(r.design).toBe("ONE_MODEL_PER_QUESTION");
        expect(await worstPerQuestion(f.study.id)).toBe(1);
        const per = await primariesPerSet(f.study.id);
        const sets = await getDb().responseSet.findMany({ where: { studyId: f.study.id }, select: { id: true } });
        // Enough graders remain (k x models + extra, one left, one joined): every set has its k.
        for (const s of sets) expect(per.get(s.id)).toBe(k);
        expect(r.setsShortOfGraders).toBe(0);
      }),
      { numRuns: 12 },
    );
  }, 120_000);

  it("a third grader is taken from graders who have not seen another model of the question, even with more open work", async () => {
    const f = await makeGradableStudy({ items: 1, models: 2, k: 2, graders: 5, rubrics: ["SCORE"] });
    await assignGraders(f.study.id, { seed: "third", design: "ONE_MODEL_PER_QUESTION" }, f.lead.id);
    const db = getDb();
    const rows = await db.assignment.findMany({ where: { studyId: f.study.id }, include: { responseSet: true } });
    const [setA, setB] = f.sets;
    const onA = rows.filter((a) => a.responseSetId === setA.id);
    const onB = rows.filter((a) => a.responseSetId === setB.id);
    const free = f.graders.find((g) => !rows.some((a) => a.graderId === g.id))!;
    // The free grader is busier than the sibling set's graders (open work elsewhere in the study).
    const other = await db.qaItem.create({ data: { studyId: f.study.id, externalId: "busy", question: "Busy?", specialtyId: (await db.qaItem.findFirstOrThrow({ where: { studyId: f.study.id } })).specialtyId } });
    for (const m of f.models) {
      const s = await db.responseSet.create({ data: { studyId: f.study.id, itemId: other.id, modelId: m.id } });
      await db.assignment.create({ data: { responseSetId: s.id, studyId: f.study.id, graderId: free.id, kind: "PRIMARY", position: 50 } });
    }
    const tokenOf = (id: string) => f.graders.find((g) => g.id === id)!.token;
    const put = (a: { id: string; graderId: string }, score: [number, number, number, number, number]) =>
      call(putGrades, "/x", bearer(tokenOf(a.graderId), { method: "PUT", body: JSON.stringify({ scores: form({ score }), submit: true }) }), { id: a.id });
    expect((await put(onA[0], [5, 5, 5, 5, 5])).status).toBe(200);
    expect((await put(onA[1], [1, 5, 5, 5, 5])).status).toBe(200);
    const adj = await db.assignment.findFirstOrThrow({ where: { responseSetId: setA.id, kind: "ADJUDICATOR" } });
    expect(onB.map((a) => a.graderId)).not.toContain(adj.graderId);
    expect(adj.graderId).toBe(free.id);
  });

  it("today's design: a grader's queue never puts two sets of one question next to each other", async () => {
    const f = await makeGradableStudy({ items: 12, models: 2, k: 2, graders: 2, n: 1, rubrics: ["SCORE"] });
    for (const seed of ["q1", "q2", "q3"]) {
      await getDb().assignment.deleteMany({ where: { studyId: f.study.id } });
      await assignGraders(f.study.id, { seed }, f.lead.id);
      for (const g of f.graders) {
        const q = await listMyAssignments(g.id);
        expect(q).toHaveLength(24);
        const itemOf = new Map(f.sets.map((s) => [s.id, s.itemId]));
        for (let i = 1; i < q.length; i++) expect(itemOf.get(q[i].responseSetId)).not.toBe(itemOf.get(q[i - 1].responseSetId));
      }
    }
    // New work is appended (two new questions: their sets can alternate), not next to the question of the grader's last queued set.
    await addQuestion(f, 98);
    await addQuestion(f, 99);
    await assignGraders(f.study.id, { seed: "more" }, f.lead.id);
    const itemOf = new Map((await getDb().responseSet.findMany({ where: { studyId: f.study.id } })).map((s) => [s.id, s.itemId]));
    for (const g of f.graders) {
      const q = await listMyAssignments(g.id);
      for (let i = 1; i < q.length; i++) expect(itemOf.get(q[i].responseSetId)).not.toBe(itemOf.get(q[i - 1].responseSetId));
    }
  });
});
