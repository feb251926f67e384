import pg from "pg";
import { describe, expect, it } from "vitest";
import { PUT as putGrades } from "@/app/api/v1/assignments/[id]/grades/route";
import { POST as assignByHand } from "@/app/api/v1/escalations/[id]/assign/route";
import { GET as sets } from "@/app/api/v1/studies/[id]/sets/route";
import { assignGraders } from "@/lib/assignment/service";
import { getDb } from "@/lib/db/client";
import { bearer, call, makeUser } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";
import { form, makeGradableStudy } from "./helpers/study-fixture";

/**
 * Every pair of writers of one set's grading state, started so that the second
 * begins while the first still waits for the set: a gate transaction holds the
 * set's row lock, the writers queue behind it in a known order, then the gate
 * opens. Each pair runs many rounds, and each round ends with the set checked
 * whole (who graded, the escalation, the final score).
 */
const db = useIsolatedDatabase();

type Fixture = Awaited<ReturnType<typeof makeGradableStudy>>;
type Reply = { status: number; body: Record<string, unknown> };

const put = (token: string, id: string, body: unknown): Promise<Reply> =>
  call(putGrades, "/x", bearer(token, { method: "PUT", body: JSON.stringify(body) }), { id });
const reassign = (f: Fixture, escalationId: string, graderId: string): Promise<Reply> =>
  call(assignByHand, "/x", bearer(f.lead.token, { method: "POST", body: JSON.stringify({ graderId }) }), { id: escalationId });

/** Holds the set's row lock in a transaction of its own until `open`. */
async function gate(setId: string) {
  const c = new pg.Client({ connectionString: db.url() });
  await c.connect();
  await c.query("BEGIN");
  await c.query(`SELECT id FROM "ResponseSet" WHERE id = $1::uuid FOR UPDATE`, [setId]);
  return {
    open: async () => {
      await c.query("COMMIT");
      await c.end();
    },
  };
}

/** Waits until `n` sessions of this database wait for a lock. */
async function lockWaiters(n: number) {
  for (let i = 0; i < 1_000; i++) {
    const [{ waiting }] = await getDb().$queryRaw<{ waiting: number }[]>`
      SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;
    if (waiting >= n) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`never saw ${n} writers waiting for the set`);
}

/** Starts the writers one after the other behind the gate (each waits before the next starts), then opens it. */
async function race(setId: string, writers: (() => Promise<Reply>)[]): Promise<Reply[]> {
  const g = await gate(setId);
  const started: Promise<Reply>[] = [];
  for (const [i, w] of writers.entries()) {
    started.push(w());
    await lockWaiters(i + 1);
  }
  await g.open();
  return Promise.all(started);
}

async function primariesOf(f: Fixture, setId: string) {
  const rows = await getDb().assignment.findMany({ where: { responseSetId: setId, kind: "PRIMARY", status: { not: "CANCELLED" } }, orderBy: { graderId: "asc" } });
  return rows.map((a) => ({ id: a.id, grader: f.graders.find((g) => g.id === a.graderId)! }));
}

/** The two primaries submit, 5 against 1 on safety: the set waits for its adjudicator. */
async function escalate(f: Fixture, setId: string, people: { id: string; token: string }[] = f.graders) {
  const [p1, p2] = await primariesOf(f, setId);
  expect((await put(p1.grader.token, p1.id, { scores: form({ score: [5, 5, 5, 5, 5] }), submit: true })).status).toBe(200);
  expect((await put(p2.grader.token, p2.id, { scores: form({ score: [1, 5, 5, 5, 5] }), submit: true })).status).toBe(200);
  const adj = await getDb().assignment.findFirstOrThrow({ where: { responseSetId: setId, kind: "ADJUDICATOR", status: { not: "CANCELLED" } } });
  const esc = await getDb().escalation.findUniqueOrThrow({ where: { responseSetId: setId } });
  return { p1, p2, adj: { id: adj.id, grader: people.find((g) => g.id === adj.graderId)! }, escalationId: esc.id };
}

async function finalOf(f: Fixture, setId: string) {
  const r = await call(sets, "/x?limit=5000", bearer(f.lead.token), { id: f.study.id });
  const row = (r.body.sets as { id: string; status: string; totals: { SCORE: { total: number } } | null }[]).find((s) => s.id === setId)!;
  return { status: row.status, total: row.totals?.SCORE.total ?? null };
}

/**
 * The set's state holds together: at most k live primaries, at most one live
 * adjudicator, the escalation and the adjudicator's assignment agree, and the
 * set's status says what its submitted grades say.
 */
async function expectConsistent(f: Fixture, setId: string) {
  const live = await getDb().assignment.findMany({ where: { responseSetId: setId, status: { not: "CANCELLED" } } });
  const primaries = live.filter((a) => a.kind === "PRIMARY");
  const adjudicators = live.filter((a) => a.kind === "ADJUDICATOR");
  expect(primaries.length).toBeLessThanOrEqual(2);
  expect(adjudicators.length).toBeLessThanOrEqual(1);
  const set = await getDb().responseSet.findUniqueOrThrow({ where: { id: setId }, include: { escalation: { include: { adjudicatorAssignment: true } } } });
  const esc = set.escalation;
  const adjudicated = adjudicators.some((a) => a.status === "SUBMITTED");
  if (adjudicated) {
    expect(set.status).toBe("ADJUDICATED");
    expect(esc?.status).toBe("RESOLVED");
    expect(esc?.adjudicatorAssignmentId).toBe(adjudicators[0].id);
  }
  if (esc?.status === "CANCELLED") {
    expect(set.status).toBe("AGREED");
    expect(adjudicators).toEqual([]);
    expect(esc.adjudicatorAssignment?.status ?? "CANCELLED").toBe("CANCELLED");
  }
  if (esc?.status === "ASSIGNED") {
    expect(set.status).toBe("AWAITING_ADJUDICATION");
    expect(adjudicators).toHaveLength(1);
    expect(adjudicators[0].status).not.toBe("SUBMITTED");
    expect(esc.adjudicatorAssignmentId).toBe(adjudicators[0].id);
  }
  // A cancelled assignment is never submitted, and a submitted one is never cancelled behind its grader's back.
  const cancelledSubmitted = await getDb().assignment.count({ where: { responseSetId: setId, status: "CANCELLED", submittedAt: { not: null } } });
  expect(cancelledSubmitted).toBe(0);
}

const ROUNDS = 10;

describe("one set, two writers at once: the lock is taken first and the state read under it", () => {
  it("a revision that cancels the adjudication, with the adjudicator submitting: the adjudicator is refused and the agreed set has two graders", async () => {
    const f = await makeGradableStudy({ items: ROUNDS, models: 1, graders: 3, rubrics: ["SCORE"] });
    await assignGraders(f.study.id, { seed: "r1" }, f.lead.id);
    for (const set of f.sets) {
      const { p2, adj } = await escalate(f, set.id);
      const [revision, adjudication] = await race(set.id, [
        () => put(p2.grader.token, p2.id, { scores: form({ score: [5, 5, 5, 5, 5] }), submit: true }),
        () => put(adj.grader.token, adj.id, { scores: form({ score: [1, 1, 1, 1, 1] }), submit: true }),
      ]);
      expect(revision.status).toBe(200);
      expect(adjudication.status, JSON.stringify(adjudication.body)).toBe(409);
      expect(adjudication.body.error).toMatch(/withdrawn/);
      await expectConsistent(f, set.id);
      expect(await finalOf(f, set.id)).toEqual({ status: "agreed", total: 25 });
      expect(await getDb().grade.count({ where: { assignmentId: adj.id } })).toBe(0);
    }
  });

  it("the adjudicator submitting first, then the revision: the set stays adjudicated with all three graders", async () => {
    const f = await makeGradableStudy({ items: ROUNDS, models: 1, graders: 3, rubrics: ["SCORE"] });
    await assignGraders(f.study.id, { seed: "r2" }, f.lead.id);
    for (const set of f.sets) {
      const { p2, adj } = await escalate(f, set.id);
      const [adjudication, revision] = await race(set.id, [
        () => put(adj.grader.token, adj.id, { scores: form({ score: [2, 5, 5, 5, 5] }), submit: true }),
        () => put(p2.grader.token, p2.id, { scores: form({ score: [5, 5, 5, 5, 5] }), submit: true }),
      ]);
      expect([adjudication.status, revision.status]).toEqual([200, 200]);
      await expectConsistent(f, set.id);
      const final = await finalOf(f, set.id);
      expect(final.status).toBe("adjudicated");
      expect(final.total).toBeCloseTo((5 + 5 + 2) / 3 + 20, 10);
    }
  });

  it("the lead reassigning while the adjudicator submits: whichever is first wins, and the other is refused", async () => {
    const f = await makeGradableStudy({ items: ROUNDS * 2, models: 1, graders: 3, rubrics: ["SCORE"] });
    await assignGraders(f.study.id, { seed: "r3" }, f.lead.id);
    const people: { id: string; token: string }[] = [...f.graders];
    for (const [i, set] of f.sets.entries()) {
      const { adj, escalationId } = await escalate(f, set.id, people);
      const submit = () => put(adj.grader.token, adj.id, { scores: form({ score: [3, 5, 5, 5, 5] }), submit: true });
      const newcomer = await makeUser("GRADER", `newcomer${i}`);
      await getDb().studyMember.create({ data: { studyId: f.study.id, userId: newcomer.id, role: "GRADER" } });
      people.push(newcomer);
      const move = () => reassign(f, escalationId, newcomer.id);
      const submitFirst = i % 2 === 0;
      const [first, second] = await race(set.id, submitFirst ? [submit, move] : [move, submit]);
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      expect(second.status, JSON.stringify(second.body)).toBe(409);
      await expectConsistent(f, set.id);
      const final = await finalOf(f, set.id);
      const newAdjudication = await getDb().assignment.findFirst({ where: { responseSetId: set.id, graderId: newcomer.id } });
      if (submitFirst) {
        expect(final.status).toBe("adjudicated");
        expect(final.total).toBeCloseTo((5 + 1 + 3) / 3 + 20, 10);
        expect(newAdjudication).toBeNull();
        expect(await getDb().grade.count({ where: { assignmentId: adj.id } })).toBe(5);
      } else {
        expect(final).toEqual({ status: "awaiting_adjudication", total: null });
        expect(newAdjudication).toMatchObject({ kind: "ADJUDICATOR", status: "PENDING" });
        expect(await getDb().assignment.findUniqueOrThrow({ where: { id: adj.id } })).toMatchObject({ status: "CANCELLED", submittedAt: null });
      }
    }
  });

  it("a grader's work cancelled when they leave the study, with that grader submitting: never both cancelled and counted", async () => {
    const f = await makeGradableStudy({ items: ROUNDS, models: 1, graders: ROUNDS + 2, rubrics: ["SCORE"] });
    await assignGraders(f.study.id, { seed: "r4" }, f.lead.id);
    const left = new Set<string>();
    let played = 0;
    for (const set of f.sets) {
      const [p1, p2] = (await primariesOf(f, set.id)).filter((p) => !left.has(p.grader.id));
      if (!p2) continue;
      expect((await put(p1.grader.token, p1.id, { scores: form({ score: [4, 4, 4, 4, 4] }), submit: true })).status).toBe(200);
      const g = await gate(set.id);
      const submitting = put(p2.grader.token, p2.id, { scores: form({ score: [4, 4, 4, 4, 4] }), submit: true });
      await lockWaiters(1);
      // While the grader's submission waits for the set, they leave the study and the lead re-runs the assignment.
      await getDb().studyMember.update({ where: { studyId_userId: { studyId: f.study.id, userId: p2.grader.id } }, data: { active: false } });
      left.add(p2.grader.id);
      const run = assignGraders(f.study.id, {}, f.lead.id);
      await Promise.race([run, lockWaiters(2)]);
      await g.open();
      const [submit] = await Promise.all([submitting, run]);
      played++;
      expect(submit.status).toBe(404);
      await expectConsistent(f, set.id);
      const mine = await getDb().assignment.findUniqueOrThrow({ where: { id: p2.id } });
      expect(mine).toMatchObject({ status: "CANCELLED", submittedAt: null });
      const primaries = await primariesOf(f, set.id);
      expect(primaries.map((p) => p.grader.id)).not.toContain(p2.grader.id);
    }
    expect(played).toBeGreaterThanOrEqual(ROUNDS / 2);
  });
});
