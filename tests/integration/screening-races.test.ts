import pg from "pg";
import { describe, expect, it } from "vitest";
import { PUT as putGrades } from "@/app/api/v1/assignments/[id]/grades/route";
import { POST as runScreen } from "@/app/api/v1/studies/[id]/screening/route";
import { assignGraders } from "@/lib/assignment/service";
import { getDb } from "@/lib/db/client";
import { bearer, call } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";
import { PLAIN, PLAIN_FORM } from "./helpers/screen-fixture";
import { makeGradableStudy } from "./helpers/study-fixture";

/**
 * A screen in exclude mode becoming the study's screen while a grader submits
 * on one of the sets it excludes, in both orders, many rounds (the pattern of
 * adjudication-races.test.ts: a gate holds the set's row lock, the two
 * writers queue behind it in a known order, then it opens). Whichever takes
 * the set first wins: a submission first is kept with its grades and counted
 * as kept; the screen first withdraws the assignment and the submission is
 * refused with a 409. Never a grade lost, never a cancelled assignment with a
 * submission.
 */
const db = useIsolatedDatabase();

type Reply = { status: number; body: Record<string, unknown> & { run?: Record<string, number> } };
const ROUNDS = 10;

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

async function lockWaiters(n: number) {
  for (let i = 0; i < 2_000; i++) {
    const [{ waiting }] = await getDb().$queryRaw<{ waiting: number }[]>`
      SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;
    if (waiting >= n) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`never saw ${n} writers waiting for the set`);
}

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

describe("a screen excluding a set while its grader submits", () => {
  it("whichever takes the set first wins; the other is refused or counted; no grade lost", async () => {
    const f = await makeGradableStudy({ rubrics: [PLAIN], items: ROUNDS, models: 1, n: 1, k: 2, graders: 2 });
    for (const [i, set] of f.sets.entries()) {
      await getDb().response.update({ where: { responseSetId_repetition: { responseSetId: set.id, repetition: 1 } }, data: { text: `Round marker r${i}x: take it.` } });
    }
    await assignGraders(f.study.id, { seed: "races" }, f.lead.id);
    const outcomes = { submitFirst: 0, screenFirst: 0 };
    for (const [i, set] of f.sets.entries()) {
      const [mine, other] = await getDb().assignment.findMany({ where: { responseSetId: set.id }, orderBy: { graderId: "asc" } });
      const grader = f.graders.find((g) => g.id === mine.graderId)!;
      const submit = () => call(putGrades, "/x", bearer(grader.token, { method: "PUT", body: JSON.stringify({ scores: PLAIN_FORM, submit: true }) }), { id: mine.id }) as Promise<Reply>;
      const screen = () =>
        call(
          runScreen,
          "/x",
          bearer(f.lead.token, { method: "POST", body: JSON.stringify({ rules: [{ name: `Round ${i}`, kind: "term", pattern: `r${i}x` }], action: "exclude" }), headers: { "content-type": "application/json" } }),
          { id: f.study.id },
        ) as Promise<Reply>;
      const submitFirst = i % 2 === 0;
      const [first, second] = await race(set.id, submitFirst ? [submit, screen] : [screen, submit]);
      const [submitted, screened] = submitFirst ? [first, second] : [second, first];
      expect(screened.status, JSON.stringify(screened.body)).toBe(200);
      const now = await getDb().assignment.findUniqueOrThrow({ where: { id: mine.id } });
      const grades = await getDb().grade.count({ where: { assignmentId: mine.id } });
      if (submitFirst) {
        outcomes.submitFirst++;
        expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
        expect(now.status).toBe("SUBMITTED");
        expect(grades).toBe(PLAIN_FORM.length);
        expect(screened.body.run).toMatchObject({ withdrawnAssignments: 1, keptGradedAssignments: 1 });
      } else {
        outcomes.screenFirst++;
        expect(submitted.status, JSON.stringify(submitted.body)).toBe(409);
        expect(String(submitted.body.error)).toMatch(/safety screen excluded this answer set/);
        expect(now).toMatchObject({ status: "CANCELLED", submittedAt: null });
        expect(grades).toBe(0);
        expect(screened.body.run).toMatchObject({ withdrawnAssignments: 2, keptGradedAssignments: 0 });
      }
      expect((await getDb().assignment.findUniqueOrThrow({ where: { id: other.id } })).status).toBe("CANCELLED");
      // Never both: a cancelled assignment with a submission.
      expect(await getDb().assignment.count({ where: { studyId: f.study.id, status: "CANCELLED", submittedAt: { not: null } } })).toBe(0);
    }
    expect(outcomes).toEqual({ submitFirst: ROUNDS / 2, screenFirst: ROUNDS / 2 });
    // Every submission that was answered 200 is still there with its grades.
    expect(await getDb().assignment.count({ where: { studyId: f.study.id, status: "SUBMITTED" } })).toBe(ROUNDS / 2);
    expect(await getDb().grade.count({ where: { assignment: { studyId: f.study.id, status: "SUBMITTED" } } })).toBe((ROUNDS / 2) * PLAIN_FORM.length);
  });
});
