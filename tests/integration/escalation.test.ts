import { describe, expect, it } from "vitest";
import { PUT as putGrades } from "@/app/api/v1/assignments/[id]/grades/route";
import { POST as assignByHand } from "@/app/api/v1/escalations/[id]/assign/route";
import { GET as escalations } from "@/app/api/v1/studies/[id]/escalations/route";
import { GET as sets } from "@/app/api/v1/studies/[id]/sets/route";
import { assignGraders } from "@/lib/assignment/service";
import { getDb } from "@/lib/db/client";
import { bearer, call } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";
import { form, GOOD_SAFE, makeGradableStudy } from "./helpers/study-fixture";

useIsolatedDatabase();

const put = (token: string, id: string, body: unknown) =>
  call(putGrades, "/x", bearer(token, { method: "PUT", body: JSON.stringify(body) }), { id });

type Fixture = Awaited<ReturnType<typeof makeGradableStudy>>;

/** The primary assignments of one set, with each grader's token. */
async function primariesOf(f: Fixture, setId: string) {
  const rows = await getDb().assignment.findMany({ where: { responseSetId: setId, kind: "PRIMARY", status: { not: "CANCELLED" } }, orderBy: { graderId: "asc" } });
  return rows.map((a) => ({ id: a.id, grader: f.graders.find((g) => g.id === a.graderId)! }));
}

/** Gives a grader one more open (pending) assignment in the study, on a set of its own. */
async function giveOpenWork(f: Fixture, graderId: string) {
  const item = await getDb().qaItem.findFirstOrThrow({ where: { studyId: f.study.id } });
  const model = await getDb().llmModel.create({ data: { studyId: f.study.id, name: `Extra ${graderId.slice(0, 8)}` } });
  const set = await getDb().responseSet.create({ data: { studyId: f.study.id, itemId: item.id, modelId: model.id } });
  await getDb().assignment.create({ data: { responseSetId: set.id, studyId: f.study.id, graderId, kind: "PRIMARY", position: 99 } });
}

/** The two primaries of the set submit, disagreeing on safety (5 against 1). */
async function disagreeOnSafety(p1: { id: string; grader: { token: string } }, p2: { id: string; grader: { token: string } }) {
  await put(p1.grader.token, p1.id, { scores: form({ score: [5, 5, 5, 5, 5] }), submit: true });
  await put(p2.grader.token, p2.id, { scores: form({ score: [1, 5, 5, 5, 5] }), submit: true });
}

async function setRow(f: Fixture, setId: string) {
  const r = await call(sets, "/x", bearer(f.lead.token), { id: f.study.id });
  return (r.body.sets as { id: string; status: string; finalScores: Record<string, Record<string, number>> | null; totals: Record<string, Record<string, number>> | null }[]).find(
    (s) => s.id === setId,
  )!;
}

describe("third-grader escalation", () => {
  it("two graders disagree on safety -> one adjudicator from outside the set -> final score is the mean of all three", async () => {
    const f = await makeGradableStudy({ items: 1, models: 1, graders: 3, rubrics: ["SCORE"] });
    await assignGraders(f.study.id, { seed: "e1" }, f.lead.id);
    const setId = f.sets[0].id;
    const [p1, p2] = await primariesOf(f, setId);
    expect((await put(p1.grader.token, p1.id, { scores: form({ score: [5, 4, 4, 4, 4] }), submit: true })).status).toBe(200);
    expect((await setRow(f, setId)).status).toBe("awaiting_grades");
    expect((await put(p2.grader.token, p2.id, { scores: form({ score: [2, 4, 4, 3, 4] }), submit: true })).status).toBe(200);

    const waiting = await setRow(f, setId);
    expect(waiting).toMatchObject({ status: "awaiting_adjudication", finalScores: null, totals: null });
    const esc = await call(escalations, "/x", bearer(f.lead.token), { id: f.study.id });
    const [e] = esc.body.escalations as { id: string; status: string; dimensions: { dimension: string; spread: number; values: { grader: string; value: number }[] }[]; adjudicator: { id: string } }[];
    expect(e.status).toBe("ASSIGNED");
    expect(e.dimensions).toEqual([
      expect.objectContaining({ rubric: "SCORE", dimension: "safety", spread: 3, threshold: 2, values: expect.arrayContaining([expect.objectContaining({ value: 5 }), expect.objectContaining({ value: 2 })]) }),
    ]);
    expect(JSON.stringify(e.dimensions)).not.toContain(p1.grader.id); // graders are pseudonymous here
    const third = f.graders.find((g) => g.id !== p1.grader.id && g.id !== p2.grader.id)!;
    expect(e.adjudicator.id).toBe(third.id);

    const adj = await getDb().assignment.findFirstOrThrow({ where: { responseSetId: setId, kind: "ADJUDICATOR" } });
    expect(adj.graderId).toBe(third.id);
    expect((await put(third.token, adj.id, { scores: form({ score: [3, 4, 4, 5, 4] }), submit: true })).status).toBe(200);

    const done = await setRow(f, setId);
    expect(done.status).toBe("adjudicated");
    expect(done.finalScores!.SCORE).toEqual({ safety: (5 + 2 + 3) / 3, consensus_context: 4, objectivity: 4, reproducibility: 4, explainability: 4 });
    expect(done.totals!.SCORE.total).toBeCloseTo(10 / 3 + 16, 12);
    expect(done.totals!.SCORE.percent).toBeCloseTo(((10 / 3 + 16) / 25) * 100, 12);
    const resolved = await getDb().escalation.findUniqueOrThrow({ where: { responseSetId: setId } });
    expect(resolved.status).toBe("RESOLVED");
  });

  it("agreeing graders give an agreed set with the mean of the two, SAFE-LLM totals out of 7 both ways", async () => {
    const f = await makeGradableStudy({ items: 1, models: 1, graders: 2 });
    await assignGraders(f.study.id, {}, f.lead.id);
    const [p1, p2] = await primariesOf(f, f.sets[0].id);
    await put(p1.grader.token, p1.id, { scores: form({ score: [4, 4, 4, 4, 4], safe: GOOD_SAFE }), submit: true });
    const other: [number, number, number, number][] = [
      [2, 1, 1, 1],
      [2, 2, 1, 1],
      [2, 1, 0, 1],
    ];
    await put(p2.grader.token, p2.id, { scores: form({ score: [5, 4, 3, 4, 5], safe: other }), submit: true });
    const row = await setRow(f, f.sets[0].id);
    expect(row.status).toBe("agreed");
    expect(row.finalScores!.SAFE_LLM.accuracy).toBe(2);
    expect(row.finalScores!.SAFE_LLM.comprehensiveness).toBeCloseTo((2 + 4 / 3) / 2, 12);
    expect(row.finalScores!.SAFE_LLM.supplementation).toBeCloseTo((1 + 2 / 3) / 2, 12);
    // grader 1: 7 both ways; grader 2 per-answer 2 + 4/3 + 2/3 + 1 + 1 = 6, overall 2 + 2 + 1 + 1 + 1 = 7
    expect(row.totals!.SAFE_LLM.perAnswer).toBeCloseTo((7 + 6) / 2, 12);
    expect(row.totals!.SAFE_LLM.overall).toBeCloseTo(7, 12);
    expect(row.totals!.SCORE.total).toBe((20 + 21) / 2);
  });

  it("with no eligible third grader the escalation waits for the lead, who assigns one by hand", async () => {
    const f = await makeGradableStudy({ items: 1, models: 1, graders: 2, rubrics: ["SCORE"] });
    await assignGraders(f.study.id, {}, f.lead.id);
    const [p1, p2] = await primariesOf(f, f.sets[0].id);
    await put(p1.grader.token, p1.id, { scores: form({ score: [5, 5, 5, 5, 5] }), submit: true });
    await put(p2.grader.token, p2.id, { scores: form({ score: [5, 5, 5, 5, 1] }), submit: true });
    const [e] = (await call(escalations, "/x?status=NEEDS_GRADER", bearer(f.lead.token), { id: f.study.id })).body.escalations as { id: string; adjudicator: null }[];
    expect(e.adjudicator).toBeNull();

    // a grader already on the set is refused; a non-member too; another lead gets 404; a grader 403
    const tryAssign = (token: string, graderId: string) => call(assignByHand, "/x", bearer(token, { method: "POST", body: JSON.stringify({ graderId }) }), { id: e.id });
    expect((await tryAssign(f.lead.token, p1.grader.id)).status).toBe(409);
    expect((await tryAssign(f.lead.token, f.lead.id)).status).toBe(422);
    const other = await makeGradableStudy({ items: 1, models: 1, graders: 1 });
    expect((await tryAssign(other.lead.token, p1.grader.id)).status).toBe(404);
    expect((await tryAssign(p1.grader.token, p1.grader.id)).status).toBe(403);

    // the lead adds a third grader to the study and assigns them
    const newcomer = other.graders[0];
    await getDb().studyMember.create({ data: { studyId: f.study.id, userId: newcomer.id, role: "GRADER" } });
    const ok = await tryAssign(f.lead.token, newcomer.id);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ status: "ASSIGNED" });
    const adj = await getDb().assignment.findUniqueOrThrow({ where: { id: ok.body.assignmentId as string } });
    expect(adj).toMatchObject({ graderId: newcomer.id, kind: "ADJUDICATOR", status: "PENDING" });
    expect(await getDb().auditEvent.count({ where: { action: "escalation.assign", entityId: e.id } })).toBe(1);
  });

  it("a revision that removes the disagreement cancels the open adjudication (audited); a submitted one stays", async () => {
    const f = await makeGradableStudy({ items: 2, models: 1, graders: 3, rubrics: ["SCORE"] });
    await assignGraders(f.study.id, {}, f.lead.id);
    // set A: revision before the adjudicator submits -> cancelled
    const [a1, a2] = await primariesOf(f, f.sets[0].id);
    await put(a1.grader.token, a1.id, { scores: form({ score: [5, 4, 4, 4, 4] }), submit: true });
    await put(a2.grader.token, a2.id, { scores: form({ score: [3, 4, 4, 4, 4] }), submit: true });
    expect((await setRow(f, f.sets[0].id)).status).toBe("awaiting_adjudication");
    await put(a2.grader.token, a2.id, { scores: form({ score: [4, 4, 4, 4, 4] }), submit: true });
    expect((await setRow(f, f.sets[0].id)).status).toBe("agreed");
    const cancelled = await getDb().escalation.findUniqueOrThrow({ where: { responseSetId: f.sets[0].id }, include: { adjudicatorAssignment: true } });
    expect(cancelled.status).toBe("CANCELLED");
    expect(cancelled.adjudicatorAssignment!.status).toBe("CANCELLED");
    expect(await getDb().auditEvent.count({ where: { action: "escalation.cancel", entityId: cancelled.id } })).toBe(1);
    // disagreeing again reopens it, with one escalation row still
    await put(a2.grader.token, a2.id, { scores: form({ score: [2, 4, 4, 4, 4] }), submit: true });
    expect(await getDb().escalation.count({ where: { responseSetId: f.sets[0].id } })).toBe(1);
    const reopened = await getDb().escalation.findUniqueOrThrow({ where: { responseSetId: f.sets[0].id } });
    expect(reopened.status).toBe("ASSIGNED");
    // the only eligible third grader is the one whose adjudication was cancelled: their row is revived, not duplicated
    expect(reopened.adjudicatorAssignmentId).toBe(cancelled.adjudicatorAssignmentId);
    const revived = await getDb().assignment.findMany({ where: { responseSetId: f.sets[0].id, graderId: cancelled.adjudicatorAssignment!.graderId } });
    expect(revived).toHaveLength(1);
    expect(revived[0]).toMatchObject({ kind: "ADJUDICATOR", status: "PENDING" });
    expect(revived[0].position).toBeGreaterThan(cancelled.adjudicatorAssignment!.position);

    // set B: adjudicator submits, then a revision removes the disagreement -> stays adjudicated
    const [b1, b2] = await primariesOf(f, f.sets[1].id);
    await put(b1.grader.token, b1.id, { scores: form({ score: [5, 4, 4, 4, 4] }), submit: true });
    await put(b2.grader.token, b2.id, { scores: form({ score: [1, 4, 4, 4, 4] }), submit: true });
    const adj = await getDb().assignment.findFirstOrThrow({ where: { responseSetId: f.sets[1].id, kind: "ADJUDICATOR" } });
    const third = f.graders.find((g) => g.id === adj.graderId)!;
    await put(third.token, adj.id, { scores: form({ score: [4, 4, 4, 4, 4] }), submit: true });
    await put(b2.grader.token, b2.id, { scores: form({ score: [5, 4, 4, 4, 4] }), submit: true });
    const b = await setRow(f, f.sets[1].id);
    expect(b.status).toBe("adjudicated");
    expect(b.finalScores!.SCORE.safety).toBeCloseTo((5 + 5 + 4) / 3, 12);
  });

  it("the adjudicator has the item's specialty when the study matches specialties, even when someone without it has less open work", async () => {
    // graders 1-2 cover every specialty; grader 3 only Medication; grader 4 only Ophthalmology (the item's)
    const f = await makeGradableStudy({
      items: 1,
      models: 1,
      graders: 4,
      rubrics: ["SCORE"],
      graderSpecialties: (i) => (i < 2 ? ["Ophthalmology", "Medication", "Anesthesia"] : i === 2 ? ["Medication"] : ["Ophthalmology"]),
    });
    expect(f.sets[0].specialty).toBe("Ophthalmology");
    await assignGraders(f.study.id, { matchSpecialty: true }, f.lead.id);
    const [p1, p2] = await primariesOf(f, f.sets[0].id);
    const medicationOnly = f.graders[2];
    const eligible = f.graders.find((g) => g !== medicationOnly && g.id !== p1.grader.id && g.id !== p2.grader.id)!;
    // Load the eligible grader with open work elsewhere: by load alone the Medication-only grader would be picked.
    await giveOpenWork(f, eligible.id);
    await disagreeOnSafety(p1, p2);
    const adj = await getDb().assignment.findFirstOrThrow({ where: { responseSetId: f.sets[0].id, kind: "ADJUDICATOR" } });
    expect(adj.graderId).toBe(eligible.id);
    expect(adj.studyId).toBe(f.study.id);
  });

  it("among eligible graders the adjudicator is the one with the least open work", async () => {
    const f = await makeGradableStudy({ items: 1, models: 1, graders: 4, rubrics: ["SCORE"] });
    await assignGraders(f.study.id, {}, f.lead.id);
    const [p1, p2] = await primariesOf(f, f.sets[0].id);
    const others = f.graders.filter((g) => g.id !== p1.grader.id && g.id !== p2.grader.id);
    expect(others).toHaveLength(2);
    // Give one of the two candidates open work elsewhere in the study: the other must be chosen.
    await giveOpenWork(f, others[0].id);
    await disagreeOnSafety(p1, p2);
    const adj = await getDb().assignment.findFirstOrThrow({ where: { responseSetId: f.sets[0].id, kind: "ADJUDICATOR" } });
    expect(adj.graderId).toBe(others[1].id);
  });

  it("k = 3: the spread runs over all three primaries, and the adjudicator is a fourth grader", async () => {
    const f = await makeGradableStudy({ items: 1, models: 1, graders: 4, k: 3, rubrics: ["SCORE"] });
    await assignGraders(f.study.id, {}, f.lead.id);
    const ps = await primariesOf(f, f.sets[0].id);
    expect(ps).toHaveLength(3);
    const safety = [4, 3, 5];
    for (const [i, p] of ps.entries()) await put(p.grader.token, p.id, { scores: form({ score: [safety[i], 4, 4, 4, 4] }), submit: true });
    const esc = await getDb().escalation.findUniqueOrThrow({ where: { responseSetId: f.sets[0].id }, include: { adjudicatorAssignment: true } });
    expect((esc.dimensions as { spread: number }[])[0].spread).toBe(2);
    expect(ps.map((p) => p.grader.id)).not.toContain(esc.adjudicatorAssignment!.graderId);
  });
});

describe("correctness under concurrency", () => {
  it("the last two primary grades submitted at the same moment give exactly one escalation and one adjudicator, every time", async () => {
    const rounds = 12;
    const f = await makeGradableStudy({ items: rounds, models: 1, graders: 5, rubrics: ["SCORE"] });
    await assignGraders(f.study.id, {}, f.lead.id);
    for (const set of f.sets) {
      const [p1, p2] = await primariesOf(f, set.id);
      // both submit at once, and one of them twice (a double click)
      await Promise.all([
        put(p1.grader.token, p1.id, { scores: form({ score: [5, 4, 4, 4, 4] }), submit: true }),
        put(p2.grader.token, p2.id, { scores: form({ score: [1, 4, 4, 4, 4] }), submit: true }),
        put(p2.grader.token, p2.id, { scores: form({ score: [1, 4, 4, 4, 4] }), submit: true }),
      ]).then((rs) => rs.forEach((r) => expect(r.status, JSON.stringify(r.body)).toBe(200)));
    }
    const escalationsPerSet = await getDb().escalation.groupBy({ by: ["responseSetId"], where: { responseSet: { studyId: f.study.id } }, _count: { _all: true } });
    expect(escalationsPerSet).toHaveLength(rounds);
    expect(escalationsPerSet.every((e) => e._count._all === 1)).toBe(true);
    const adjudicators = await getDb().assignment.groupBy({
      by: ["responseSetId"],
      where: { responseSet: { studyId: f.study.id }, kind: "ADJUDICATOR", status: { not: "CANCELLED" } },
      _count: { _all: true },
    });
    expect(adjudicators).toHaveLength(rounds);
    expect(adjudicators.every((a) => a._count._all === 1)).toBe(true);
    expect(await getDb().auditEvent.count({ where: { action: "escalation.create", studyId: f.study.id } })).toBe(rounds);
  });
});
