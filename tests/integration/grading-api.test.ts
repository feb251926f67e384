import { describe, expect, it } from "vitest";
import { GET as getAssignment } from "@/app/api/v1/assignments/[id]/route";
import { PUT as putGrades } from "@/app/api/v1/assignments/[id]/grades/route";
import { GET as myAssignments } from "@/app/api/v1/me/assignments/route";
import { PATCH as patchStudy } from "@/app/api/v1/studies/[id]/route";
import { GET as progress, POST as assign } from "@/app/api/v1/studies/[id]/assignments/route";
import { getDb } from "@/lib/db/client";
import { graderFacingTitle } from "@/lib/studies/grader-title";
import { bearer, call } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";
import { form, GOOD_SAFE, makeGradableStudy, MODEL_NAMES, MODEL_VERSIONS } from "./helpers/study-fixture";

useIsolatedDatabase();

/** Moves the assignment's last write `seconds` into the past, as if the grader had been working that long. */
const backdate = (id: string, seconds: number) =>
  getDb().$executeRaw`UPDATE "Assignment" SET "updatedAt" = now() - make_interval(secs => ${seconds}) WHERE id = ${id}::uuid`;

const put = (token: string, id: string, body: unknown) =>
  call(putGrades, `/api/v1/assignments/${id}/grades`, bearer(token, { method: "PUT", body: JSON.stringify(body), headers: { "content-type": "application/json" } }), { id });

async function assignAll(lead: { token: string }, studyId: string, body: object = {}) {
  const r = await call(assign, `/api/v1/studies/${studyId}/assignments`, bearer(lead.token, { method: "POST", body: JSON.stringify(body) }), { id: studyId });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as { seed: string; created: number; completeSets: number; reassigned: number; setsShortOfGraders: number };
}

async function queueOf(token: string) {
  const r = await call(myAssignments, "/api/v1/me/assignments", bearer(token));
  expect(r.status).toBe(200);
  return r.body.assignments as { id: string; responseSetId: string; kind: string; status: string; position: number }[];
}

describe("assignment through the API", () => {
  it("gives every complete set k distinct primary graders, balanced, skipping incomplete sets", async () => {
    const f = await makeGradableStudy({ items: 7, graders: 4, incompleteSets: 2 });
    const run = await assignAll(f.lead, f.study.id, { seed: "fixed-seed" });
    expect(run).toMatchObject({ seed: "fixed-seed", completeSets: 19, created: 38, setsShortOfGraders: 0 });
    const rows = await getDb().assignment.findMany({ where: { responseSet: { studyId: f.study.id } } });
    const perSet = new Map<string, Set<string>>();
    for (const a of rows) perSet.set(a.responseSetId, (perSet.get(a.responseSetId) ?? new Set()).add(a.graderId));
    expect([...perSet.values()].every((s) => s.size === 2)).toBe(true);
    expect(perSet.size).toBe(19);
    const loads = f.graders.map((g) => rows.filter((r) => r.graderId === g.id).length);
    expect(Math.max(...loads) - Math.min(...loads)).toBeLessThanOrEqual(1);
    // the stored seed is shown to the lead
    const p = await call(progress, `/api/v1/studies/${f.study.id}/assignments`, bearer(f.lead.token), { id: f.study.id });
    expect(p.body).toMatchObject({ seed: "fixed-seed", totals: { assigned: 38, submitted: 0 } });
  });

  it("is reproducible: the same seed on the same data gives the same assignment and order", async () => {
    const f = await makeGradableStudy({ items: 5, graders: 3 });
    await assignAll(f.lead, f.study.id, { seed: "again" });
    const snapshot = async () =>
      (await getDb().assignment.findMany({ where: { responseSet: { studyId: f.study.id } }, orderBy: [{ graderId: "asc" }, { position: "asc" }] })).map((a) => [
        a.graderId,
        a.responseSetId,
        a.position,
      ]);
    const first = await snapshot();
    await getDb().assignment.deleteMany({ where: { responseSet: { studyId: f.study.id } } });
    await assignAll(f.lead, f.study.id, { seed: "again" });
    expect(await snapshot()).toEqual(first);
  });

  it("is incremental: new items and graders get only new work; a deactivated grader's unsubmitted work moves, submitted stays", async () => {
    const f = await makeGradableStudy({ items: 4, graders: 3, rubrics: ["SCORE"] });
    await assignAll(f.lead, f.study.id);
    const [g1] = f.graders;
    const q = await queueOf(g1.token);
    // g1 submits one
    expect((await put(g1.token, q[0].id, { scores: form({ score: [4, 4, 4, 4, 4] }), submit: true })).status).toBe(200);
    const again = await assignAll(f.lead, f.study.id);
    expect(again.created).toBe(0);
    // g1 leaves the study
    await getDb().studyMember.update({ where: { studyId_userId: { studyId: f.study.id, userId: g1.id } }, data: { active: false } });
    const moved = await assignAll(f.lead, f.study.id);
    expect(moved.reassigned).toBe(q.length - 1);
    expect(moved.created).toBe(q.length - 1);
    const g1rows = await getDb().assignment.findMany({ where: { graderId: g1.id } });
    expect(g1rows.filter((a) => a.status === "SUBMITTED")).toHaveLength(1);
    expect(g1rows.filter((a) => a.status === "CANCELLED")).toHaveLength(q.length - 1);
    // every set still has 2 active primaries
    const active = await getDb().assignment.groupBy({ by: ["responseSetId"], where: { responseSet: { studyId: f.study.id }, status: { not: "CANCELLED" } }, _count: { _all: true } });
    expect(active.every((a) => a._count._all === 2)).toBe(true);
  });

  it("refuses a grader (403) and another lead (404), and a study that is not open (409)", async () => {
    const f = await makeGradableStudy({ items: 1 });
    const other = await makeGradableStudy({ items: 1 });
    expect((await call(assign, "/x", bearer(f.graders[0].token, { method: "POST" }), { id: f.study.id })).status).toBe(403);
    expect((await call(assign, "/x", bearer(other.lead.token, { method: "POST" }), { id: f.study.id })).status).toBe(404);
    await getDb().study.update({ where: { id: f.study.id }, data: { status: "CLOSED" } });
    const closed = await call(assign, "/x", bearer(f.lead.token, { method: "POST" }), { id: f.study.id });
    expect(closed.status).toBe(409);
  });
});

describe("grading through the API", () => {
  it("shows a grader only blinded content and lets them save drafts and submit", async () => {
    const f = await makeGradableStudy({ items: 2, graders: 2 });
    await assignAll(f.lead, f.study.id);
    const [g] = f.graders;
    const q = await queueOf(g.token);
    expect(q.map((a) => a.position)).toEqual([...q.map((a) => a.position)].sort((a, b) => a - b));
    const a = await call(getAssignment, `/api/v1/assignments/${q[0].id}`, bearer(g.token), { id: q[0].id });
    expect(a.status).toBe(200);
    expect(a.body.answers).toHaveLength(3);
    expect((a.body.answers as { repetition: number }[]).map((x) => x.repetition)).toEqual([1, 2, 3]);
    expect(a.body.item).toMatchObject({ referenceAnswer: expect.stringMatching(/^Reference/) });

    // a partial draft, then the rest
    const full = form({ score: [4, 4, 5, 4, 4], safe: GOOD_SAFE });
    await backdate(q[0].id, 60);
    const draft = await put(g.token, q[0].id, { scores: full.slice(0, 6), submit: false, elapsedMs: 4_000 });
    expect(draft.body).toMatchObject({ status: "IN_PROGRESS", complete: false });
    const reread = await call(getAssignment, "/x", bearer(g.token), { id: q[0].id });
    expect(reread.body.scores).toHaveLength(6);
    expect(reread.body.timeSpentMs).toBe(4_000);
    await backdate(q[0].id, 60);
    const submit = await put(g.token, q[0].id, { scores: full, submit: true, elapsedMs: 6_000 });
    expect(submit.status).toBe(200);
    expect(submit.body).toMatchObject({ status: "SUBMITTED", complete: true, nextAssignmentId: q[1].id });
    const row = await getDb().assignment.findUniqueOrThrow({ where: { id: q[0].id } });
    expect(row.timeSpentMs).toBe(10_000n);
    expect(await getDb().grade.count({ where: { assignmentId: q[0].id } })).toBe(5 + 12 + 1);
  });

  it("measures time on task on the server: a save adds no more than the time since the last one, 30 minutes at most, without overflow", async () => {
    const f = await makeGradableStudy({ items: 1, graders: 2, rubrics: ["SCORE"] });
    await assignAll(f.lead, f.study.id);
    const [g] = f.graders;
    const [a] = await queueOf(g.token);
    const draft = (elapsedMs: number) => put(g.token, a.id, { scores: form({ score: [4, 4, 4, 4, 4] }).slice(0, 2), submit: false, elapsedMs });
    const spent = async () => (await getDb().assignment.findUniqueOrThrow({ where: { id: a.id } })).timeSpentMs;

    // A page claiming a day of work 5 seconds after the last save is credited the 5 seconds.
    await backdate(a.id, 5);
    expect((await draft(24 * 3_600_000)).status).toBe(200);
    const first = Number(await spent());
    expect(first).toBeGreaterThanOrEqual(5_000);
    expect(first).toBeLessThan(6_000);
    // Saves one after the other cannot add up to more than the time between them.
    for (let i = 0; i < 5; i++) expect((await draft(24 * 3_600_000)).status).toBe(200);
    expect(Number(await spent()) - first).toBeLessThan(2_000);
    // After two hours away, one save counts 30 minutes at most.
    const before = await spent();
    await backdate(a.id, 2 * 3_600);
    expect((await draft(24 * 3_600_000)).status).toBe(200);
    expect((await spent()) - before).toBe(BigInt(30 * 60_000));
    // Past 2^31 ms (24.8 days) the total keeps counting, and the API reads it whole.
    await getDb().$executeRaw`UPDATE "Assignment" SET "timeSpentMs" = 2147483000 WHERE id = ${a.id}::uuid`;
    await backdate(a.id, 60);
    expect((await draft(10_000)).status).toBe(200);
    expect(await spent()).toBe(2_147_493_000n);
    const view = await call(getAssignment, "/x", bearer(g.token), { id: a.id });
    expect(view.body.timeSpentMs).toBe(2_147_493_000);
  });

  it("answers 422 naming each problem and saves nothing", async () => {
    const f = await makeGradableStudy({ items: 1, graders: 2 });
    await assignAll(f.lead, f.study.id);
    const [g] = f.graders;
    const [a] = await queueOf(g.token);
    const scores = form({ score: [9, 4, 4, 4, 4], safe: GOOD_SAFE });
    scores.push({ rubric: "SAFE_LLM", dimension: "accuracy", repetition: 4, score: 2 });
    scores.push({ rubric: "SAFE_LLM", dimension: "consistency", repetition: null, score: 0 });
    const r = await put(g.token, a.id, { scores, submit: true });
    expect(r.status).toBe(422);
    const problems = (r.body.details as { problems: { path: string; message: string }[] }).problems.map((p) => p.message);
    expect(problems).toEqual([
      "Safety must be between 1 and 5, got 9",
      "Accuracy is graded on each answer: repetition must be 1..3",
      "consistency is derived from your accuracy scores (all equal): it must be 1, not 0",
      "missing before submitting: S.C.O.R.E. Safety (answer 1)",
    ]);
    expect(await getDb().grade.count({ where: { assignmentId: a.id } })).toBe(0);
    const missing = await put(g.token, a.id, { scores: form({ score: [4, 4, 4, 4, 4] }), submit: true });
    expect(missing.status).toBe(422);
    expect(JSON.stringify(missing.body)).toContain("SAFE-LLM Accuracy (answer 1)");
    const malformed = await call(putGrades, "/x", bearer(g.token, { method: "PUT", body: "{not json" }), { id: a.id });
    expect(malformed).toMatchObject({ status: 400, body: { error: "request body is not valid JSON" } });
  });

  it("stores one grade when the same submission is sent twice, and audits a revision with old and new values", async () => {
    const f = await makeGradableStudy({ items: 1, graders: 2, rubrics: ["SCORE"] });
    await assignAll(f.lead, f.study.id);
    const [g] = f.graders;
    const [a] = await queueOf(g.token);
    const body = { scores: form({ score: [4, 4, 4, 4, 4] }), submit: true };
    const [r1, r2] = [await put(g.token, a.id, body), await put(g.token, a.id, body)];
    expect(r1.status).toBe(200);
    expect(r2.body).toMatchObject({ status: "SUBMITTED", changed: 0 });
    expect(await getDb().grade.count({ where: { assignmentId: a.id } })).toBe(5);
    expect(await getDb().auditEvent.count({ where: { entityId: a.id, action: "assignment.submit" } })).toBe(1);
    // concurrent double submit of a revision: still one row per cell
    const revised = { scores: form({ score: [3, 4, 4, 4, 4] }), submit: true };
    await Promise.all([put(g.token, a.id, revised), put(g.token, a.id, revised)]);
    expect(await getDb().grade.count({ where: { assignmentId: a.id } })).toBe(5);
    const revisions = await getDb().auditEvent.findMany({ where: { entityId: a.id, action: "grade.revise" } });
    expect(revisions).toHaveLength(1);
    expect(revisions[0].before).toMatchObject({ scores: [{ cell: "SCORE/safety/1", score: 4 }] });
    expect(revisions[0].after).toMatchObject({ scores: [{ cell: "SCORE/safety/1", score: 3 }] });
    // a draft cannot un-submit
    const undo = await put(g.token, a.id, { scores: [], submit: false });
    expect(undo.status).toBe(409);
  });

  it("stores one grade per cell and one submission when a first submission arrives twice at the same moment", async () => {
    const f = await makeGradableStudy({ items: 1, graders: 2 });
    await assignAll(f.lead, f.study.id);
    const [g] = f.graders;
    const [a] = await queueOf(g.token);
    const body = { scores: form({ score: [4, 4, 5, 4, 4], safe: GOOD_SAFE }), submit: true, elapsedMs: 1_000 };
    const rs = await Promise.all([put(g.token, a.id, body), put(g.token, a.id, body), put(g.token, a.id, body)]);
    expect(rs.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(rs.map((r) => (r.body as { changed: number }).changed).sort()).toEqual([0, 0, 18]);
    expect(await getDb().grade.count({ where: { assignmentId: a.id } })).toBe(5 + 12 + 1);
    expect(await getDb().auditEvent.count({ where: { entityId: a.id, action: "assignment.submit" } })).toBe(1);
    expect(await getDb().auditEvent.count({ where: { entityId: a.id, action: "grade.revise" } })).toBe(0);
  });

  it("IDOR: another grader's assignment answers 404 on read and write; leads get 403 on grader endpoints", async () => {
    const f = await makeGradableStudy({ items: 1, graders: 3, rubrics: ["SCORE"] });
    await assignAll(f.lead, f.study.id);
    const [mine] = await queueOf(f.graders[0].token);
    const intruder = f.graders[1];
    const theirs = (await queueOf(intruder.token)).map((a) => a.id);
    expect(theirs).not.toContain(mine.id);
    expect((await call(getAssignment, "/x", bearer(intruder.token), { id: mine.id })).status).toBe(404);
    expect((await put(intruder.token, mine.id, { scores: form({ score: [1, 1, 1, 1, 1] }), submit: true })).status).toBe(404);
    expect((await call(getAssignment, "/x", bearer(intruder.token), { id: "not-a-uuid" })).status).toBe(404);
    expect((await call(getAssignment, "/x", bearer(f.lead.token), { id: mine.id })).status).toBe(403);
    expect(await getDb().grade.count({ where: { assignmentId: mine.id } })).toBe(0);
  });

  it("refuses changes once the study is closed", async () => {
    const f = await makeGradableStudy({ items: 1, graders: 2, rubrics: ["SCORE"] });
    await assignAll(f.lead, f.study.id);
    const [a] = await queueOf(f.graders[0].token);
    await put(f.graders[0].token, a.id, { scores: form({ score: [4, 4, 4, 4, 4] }), submit: true });
    await getDb().study.update({ where: { id: f.study.id }, data: { status: "CLOSED" } });
    const r = await put(f.graders[0].token, a.id, { scores: form({ score: [2, 4, 4, 4, 4] }), submit: true });
    expect(r).toMatchObject({ status: 409, body: { error: "the study is closed: grades can no longer be changed" } });
    const readOnly = await call(getAssignment, "/x", bearer(f.graders[0].token), { id: a.id });
    expect(readOnly.body).toMatchObject({ readOnly: true });
  });
});

describe("blinding", () => {
  it("nothing a grader can reach through the API names a model, its version, id or settings, or another grader", async () => {
    const f = await makeGradableStudy({ items: 3, graders: 3 });
    // Leads name studies after the system under test: graders must not see the name.
    const studyName = `${MODEL_NAMES[0]} against ${MODEL_NAMES[1]}, internal`;
    await getDb().study.update({ where: { id: f.study.id }, data: { name: studyName } });
    await assignAll(f.lead, f.study.id);
    const forbidden = [...MODEL_NAMES, ...MODEL_VERSIONS, ...f.models.map((m) => m.id), "temperature", "topP", "0.95", studyName, "internal"];
    for (const g of f.graders) {
      const others = f.graders.filter((o) => o.id !== g.id).flatMap((o) => [o.id, o.email, o.name]);
      const bodies: string[] = [];
      const list = await call(myAssignments, "/x", bearer(g.token));
      bodies.push(JSON.stringify(list.body));
      for (const a of list.body.assignments as { id: string }[]) {
        const one = await call(getAssignment, "/x", bearer(g.token), { id: a.id });
        bodies.push(JSON.stringify(one.body));
        // submit something, and look at that answer too
        const saved = await put(g.token, a.id, { scores: form({ score: [5, 5, 5, 5, 5], safe: GOOD_SAFE }), submit: true });
        bodies.push(JSON.stringify(saved.body));
        const bad = await put(g.token, a.id, { scores: [{ rubric: "SCORE", dimension: "safety", repetition: 1, score: 99 }], submit: true });
        bodies.push(JSON.stringify(bad.body));
      }
      const all = bodies.join("\n");
      for (const word of [...forbidden, ...others]) expect(all, `grader ${g.name} saw "${word}"`).not.toContain(word);
      // What they see instead: the neutral title, the same one the lead's overview announces.
      const seen = await call(getAssignment, "/x", bearer(g.token), { id: (list.body.assignments as { id: string }[])[0].id });
      expect((seen.body.study as { name: string }).name).toBe(graderFacingTitle({ id: f.study.id, graderTitle: "" }));
    }
  });

  it("graders see the title the lead chose for them, never the study's name", async () => {
    const f = await makeGradableStudy({ items: 1, graders: 2, rubrics: ["SCORE"] });
    await assignAll(f.lead, f.study.id);
    const patched = await call(patchStudy, "/x", bearer(f.lead.token, { method: "PATCH", body: JSON.stringify({ graderTitle: "  Eye questions, round 2  " }) }), { id: f.study.id });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const [a] = await queueOf(f.graders[0].token);
    const one = await call(getAssignment, "/x", bearer(f.graders[0].token), { id: a.id });
    expect((one.body.study as { name: string }).name).toBe("Eye questions, round 2");
    expect(JSON.stringify(one.body)).not.toContain(f.study.name);
    const tooLong = await call(patchStudy, "/x", bearer(f.lead.token, { method: "PATCH", body: JSON.stringify({ graderTitle: "x".repeat(121) }) }), { id: f.study.id });
    expect(tooLong.status).toBe(422);
  });
});
