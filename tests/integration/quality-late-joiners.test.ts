/**
 * Quality tasks for graders who join late (issue #35): a grader added after the quality settings
 * were stored gets their calibration round and their gold share without the lead calling the
 * settings again, is blocked from real work only while that round is there to do, and gets gold
 * for work dealt later; dealers racing (queue reads, assignment runs, the settings call) deal once;
 * a grader who passed never gets another round. On an instrument that is neither template.
 */
import pg from "pg";
import { describe, expect, it } from "vitest";
import { GET as myAssignments } from "@/app/api/v1/me/assignments/route";
import { GET as getAssignment } from "@/app/api/v1/assignments/[id]/route";
import { PUT as putGrades } from "@/app/api/v1/assignments/[id]/grades/route";
import { POST as addGrader } from "@/app/api/v1/studies/[id]/graders/route";
import { PUT as markSet } from "@/app/api/v1/studies/[id]/quality-sets/[setId]/route";
import { PUT as putSettings } from "@/app/api/v1/studies/[id]/quality-settings/route";
import { assignGraders } from "@/lib/assignment/service";
import { getDb } from "@/lib/db/client";
import { listQueueStudies } from "@/lib/queue/queries";
import { bearer, call as callRoute, makeUser } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";
import { CHECK_N as N, CHECK_RUBRIC, checkExpected as expectedFor, checkForm as formOf, checkTruth as truth } from "./helpers/check-rubric";
import { makeGradableStudy } from "./helpers/study-fixture";

const db = useIsolatedDatabase();

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = any;
const call = async <P,>(handler: (req: Request, ctx: { params: Promise<P> }) => Promise<Response>, url: string, init?: RequestInit, params?: P) =>
  (await callRoute(handler, url, init, params)) as { status: number; body: Body };
const json = (token: string, method: string, body: unknown) => bearer(token, { method, body: JSON.stringify(body), headers: { "content-type": "application/json" } });


type Fixture = Awaited<ReturnType<typeof makeGradableStudy>>;

/** A study with `cal` calibration and `gold` gold sets marked, assigned, and its settings stored once. */
async function studyWithSettings(settings: Record<string, unknown>, opts: { cal?: number; gold?: number; items?: number; graders?: number } = {}) {
  const f = await makeGradableStudy({ rubrics: [CHECK_RUBRIC], items: opts.items ?? 8, models: 2, n: N, graders: opts.graders ?? 2, k: 1 });
  const cal = f.sets.slice(0, opts.cal ?? 0).map((s) => s.id);
  const gold = f.sets.slice(cal.length, cal.length + (opts.gold ?? 0)).map((s) => s.id);
  for (const [purpose, ids] of [["CALIBRATION", cal], ["GOLD", gold]] as const) {
    for (const id of ids) {
      const r = await call(markSet, "/x", json(f.lead.token, "PUT", { purpose, expected: expectedFor(id), tolerance: 0, rationale: "Panel" }), { id: f.study.id, setId: id });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
  }
  await assignGraders(f.study.id, { seed: "first" }, f.lead.id);
  const s = await call(putSettings, "/x", json(f.lead.token, "PUT", settings), { id: f.study.id });
  expect(s.status, JSON.stringify(s.body)).toBe(200);
  return { ...f, cal, gold };
}

/** New complete sets in the study (a new question answered by every model): work for the next assignment run. */
async function moreSets(f: Fixture, items: number) {
  const d = getDb();
  const [{ specialtyId }] = await d.qaItem.findMany({ where: { studyId: f.study.id }, take: 1 });
  for (let i = 0; i < items; i++) {
    const item = await d.qaItem.create({ data: { studyId: f.study.id, externalId: `late-${Date.now()}-${i}-${Math.random()}`, question: "Another question?", specialtyId } });
    for (const m of f.models) {
      const set = await d.responseSet.create({ data: { studyId: f.study.id, itemId: item.id, modelId: m.id } });
      await d.response.createMany({ data: Array.from({ length: N }, (_, r) => ({ responseSetId: set.id, repetition: r + 1, text: `Answer ${r + 1}` })) });
    }
  }
}

const tasks = (studyId: string, graderId: string, purpose: "CALIBRATION" | "GOLD") => getDb().qualityTask.findMany({ where: { studyId, graderId, purpose }, orderBy: [{ round: "asc" }, { responseSetId: "asc" }] });
const primaries = (studyId: string, graderId: string) => getDb().assignment.count({ where: { studyId, graderId, kind: "PRIMARY", status: { not: "CANCELLED" } } });
const settingsCalls = (studyId: string) => getDb().auditEvent.count({ where: { studyId, action: "quality.settings" } });

describe("a grader who joins after the quality settings", () => {
  it("gets a calibration round at once, is blocked with it to do, then gets gold with their work, without another settings call", async () => {
    const f = await studyWithSettings({ calibrationRequired: true, calibrationRoundSize: 1, calibrationPassShare: 0.75, goldRate: 3, goldSeed: "gs" }, { cal: 2, gold: 3 });
    const late = await makeUser("GRADER", "late");
    const added = await call(addGrader, "/x", json(f.lead.token, "POST", { email: late.email }), { id: f.study.id });
    expect(added.status, JSON.stringify(added.body)).toBe(201);

    // Their queue holds their calibration round, and only it.
    let q = await call(myAssignments, "/x", bearer(late.token));
    expect(q.status).toBe(200);
    expect(q.body.assignments).toHaveLength(1);
    const cal = await tasks(f.study.id, late.id, "CALIBRATION");
    expect(cal.map((t) => [t.id, t.round])).toEqual([[q.body.assignments[0].id, 1]]);
    // The queue page's read deals nothing more.
    const studies = await listQueueStudies(late.id);
    expect(studies.find((s) => s.id === f.study.id)).toMatchObject({ total: 1, nextId: cal[0].id });
    expect(await tasks(f.study.id, late.id, "CALIBRATION")).toHaveLength(1);

    // New work comes to them with its gold share, placed among their own sets.
    await moreSets(f, 3);
    await assignGraders(f.study.id, { seed: "second" }, f.lead.id);
    const p = await primaries(f.study.id, late.id);
    expect(p).toBeGreaterThan(0);
    let gold = await tasks(f.study.id, late.id, "GOLD");
    expect(gold).toHaveLength(Math.min(3, Math.ceil(p / 2)));
    const positions = (await getDb().assignment.findMany({ where: { studyId: f.study.id, graderId: late.id } })).map((a) => a.position);
    for (const t of gold) expect(positions).toContain(t.position);
    const real = await getDb().assignment.findFirstOrThrow({ where: { studyId: f.study.id, graderId: late.id } });
    expect((await call(getAssignment, "/x", bearer(late.token), { id: real.id })).status).toBe(409);
    q = await call(myAssignments, "/x", bearer(late.token));
    expect(q.body.assignments.map((a: Body) => a.id)).toEqual([cal[0].id]);

    // Passing opens the real work and the gold, as for anyone else.
    const right = formOf((d, rep) => truth(cal[0].responseSetId, d, rep));
    expect((await call(putGrades, "/x", json(late.token, "PUT", { scores: right, submit: true }), { id: cal[0].id })).status).toBe(200);
    q = await call(myAssignments, "/x", bearer(late.token));
    const ids = q.body.assignments.map((a: Body) => a.id);
    expect(ids).toContain(real.id);
    for (const t of gold) expect(ids).toContain(t.id);
    expect(ids).not.toContain(cal[0].id);
    gold = await tasks(f.study.id, late.id, "GOLD");
    expect(gold).toHaveLength(Math.min(3, Math.ceil(p / 2)));
    expect(await settingsCalls(f.study.id)).toBe(1);
    expect(await getDb().auditEvent.count({ where: { studyId: f.study.id, action: "quality.deal" } })).toBeGreaterThanOrEqual(2);
  }, 60_000);

  it("tops up gold on the grader's own queue read when their work grew by another way", async () => {
    const f = await studyWithSettings({ goldRate: 2, goldSeed: "top" }, { gold: 4, items: 8 });
    const g = f.graders[0];
    const before = await tasks(f.study.id, g.id, "GOLD");
    expect(before).toHaveLength(Math.min(4, await primaries(f.study.id, g.id)));
    // Work that reached the queue without an assignment run (here: written straight in) is topped up on the next read.
    const late = await makeUser("GRADER", "direct");
    await getDb().studyMember.create({ data: { studyId: f.study.id, userId: late.id, role: "GRADER" } });
    const free = f.sets.filter((s) => !f.gold.includes(s.id)).slice(0, 3);
    await getDb().assignment.createMany({ data: free.map((s, i) => ({ studyId: f.study.id, responseSetId: s.id, graderId: late.id, kind: "PRIMARY" as const, position: 100 + i })) });
    expect(await tasks(f.study.id, late.id, "GOLD")).toHaveLength(0);
    const q = await call(myAssignments, "/x", bearer(late.token));
    const gold = await tasks(f.study.id, late.id, "GOLD");
    expect(gold).toHaveLength(3);
    expect(q.body.assignments).toHaveLength(6);
    // Seeded per grader, at their own positions; reading again deals nothing.
    for (const t of gold) expect([100, 101, 102]).toContain(t.position);
    await call(myAssignments, "/x", bearer(late.token));
    expect((await tasks(f.study.id, late.id, "GOLD")).map((t) => t.id).sort()).toEqual(gold.map((t) => t.id).sort());
    expect(await settingsCalls(f.study.id)).toBe(1);
  }, 60_000);
});

describe("a grader who passed calibration", () => {
  it("never gets another round: not on a queue read, an assignment run, nor another settings call", async () => {
    const f = await studyWithSettings({ calibrationRequired: true, calibrationRoundSize: 1, calibrationPassShare: 0.5 }, { cal: 3 });
    const g = f.graders[0];
    const [t] = await tasks(f.study.id, g.id, "CALIBRATION");
    expect((await call(putGrades, "/x", json(g.token, "PUT", { scores: formOf((d, rep) => truth(t.responseSetId, d, rep)), submit: true }), { id: t.id })).status).toBe(200);
    expect((await getDb().studyMember.findUniqueOrThrow({ where: { studyId_userId: { studyId: f.study.id, userId: g.id } } })).calibrationPassedAt).not.toBeNull();
    for (let i = 0; i < 3; i++) {
      await call(myAssignments, "/x", bearer(g.token));
      await listQueueStudies(g.id);
    }
    await moreSets(f, 1);
    await assignGraders(f.study.id, { seed: "again" }, f.lead.id);
    expect((await call(putSettings, "/x", json(f.lead.token, "PUT", { calibrationRoundSize: 2 }), { id: f.study.id })).status).toBe(200);
    await call(myAssignments, "/x", bearer(g.token));
    expect((await tasks(f.study.id, g.id, "CALIBRATION")).map((x) => x.id)).toEqual([t.id]);
    // The other grader, who has not passed, still has exactly one open round.
    expect(await tasks(f.study.id, f.graders[1].id, "CALIBRATION")).toHaveLength(1);
  }, 60_000);
});

/** Holds the study's assignment lock in a transaction of its own until `open`. */
async function gate(studyId: string) {
  const c = new pg.Client({ connectionString: db.url() });
  await c.connect();
  await c.query("BEGIN");
  await c.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, ["assign:" + studyId]);
  return {
    open: async () => {
      await c.query("COMMIT");
      await c.end();
    },
  };
}

/** Waits (briefly) until `n` sessions of this database wait for a lock. */
async function lockWaiters(n: number) {
  for (let i = 0; i < 400; i++) {
    const [{ waiting }] = await getDb().$queryRaw<{ waiting: number }[]>`
      SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;
    if (waiting >= n) return;
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe("dealers racing", () => {
  it("deal a late joiner's round and gold once, whichever of two queue reads and an assignment run goes first", async () => {
    const ROUNDS = 8;
    const f = await studyWithSettings({ calibrationRequired: true, calibrationRoundSize: 2, goldRate: 2, goldSeed: "race" }, { cal: 3, gold: 4, items: 6 });
    for (let round = 0; round < ROUNDS; round++) {
      const late = await makeUser("GRADER", `racer${round}`);
      expect((await call(addGrader, "/x", json(f.lead.token, "POST", { email: late.email }), { id: f.study.id })).status).toBe(201);
      await moreSets(f, 1);
      const g = await gate(f.study.id);
      const started = [
        call(myAssignments, "/x", bearer(late.token)).then((r) => r.status),
        listQueueStudies(late.id).then(() => 200),
        assignGraders(f.study.id, { seed: `r${round}` }, f.lead.id).then(() => 200),
      ];
      await lockWaiters(3);
      await g.open();
      expect(await Promise.all(started)).toEqual([200, 200, 200]);
      // And once more, both reads at once with nothing held.
      expect((await Promise.all([call(myAssignments, "/x", bearer(late.token)), call(myAssignments, "/x", bearer(late.token))])).map((r) => r.status)).toEqual([200, 200]);

      const cal = await tasks(f.study.id, late.id, "CALIBRATION");
      expect(cal.map((t) => t.round)).toEqual([1, 1]);
      expect(new Set(cal.map((t) => t.responseSetId)).size).toBe(2);
      const p = await primaries(f.study.id, late.id);
      const gold = await tasks(f.study.id, late.id, "GOLD");
      expect(gold).toHaveLength(Math.min(4, p));
      expect(new Set(gold.map((t) => t.responseSetId)).size).toBe(gold.length);
    }
    // Nobody got a second open round.
    const open = await getDb().qualityTask.groupBy({ by: ["graderId"], where: { studyId: f.study.id, purpose: "CALIBRATION", round: { gt: 1 } }, _count: { _all: true } });
    expect(open).toEqual([]);
  }, 180_000);
});
