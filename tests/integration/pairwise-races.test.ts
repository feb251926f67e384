import pg from "pg";
import { describe, expect, it } from "vitest";
import { POST as postSubmit } from "@/app/api/v1/comparison-assignments/[id]/submit/route";
import { POST as dealRoute } from "@/app/api/v1/studies/[id]/comparison-assignments/route";
import { POST as planPost } from "@/app/api/v1/studies/[id]/comparisons/route";
import { getDb } from "@/lib/db/client";
import { bearer, call } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";
import { makePairwiseStudy } from "./helpers/pairwise-fixture";

/**
 * Writers of one comparison's state started so that the second begins while the first still waits
 * for the comparison: a gate transaction holds the comparison's row lock, the writers queue behind
 * it, then the gate opens (as tests/integration/adjudication-races.test.ts does for sets). Many
 * rounds; each ends with the comparison checked whole.
 */
const db = useIsolatedDatabase();
type Reply = { status: number; body: Record<string, unknown> };
const json = (token: string, method: string, body: unknown) => bearer(token, { method, body: JSON.stringify(body) });
const submit = (token: string, id: string, body: unknown): Promise<Reply> => call(postSubmit, "/x", json(token, "POST", body), { id });
const all = (choice: "a" | "tie" | "b") => ({ preferences: [{ rubric: "overall_preference", axis: "overall", choice }] });

async function gate(comparisonId: string) {
  const c = new pg.Client({ connectionString: db.url() });
  await c.connect();
  await c.query("BEGIN");
  await c.query(`SELECT id FROM "Comparison" WHERE id = $1::uuid FOR UPDATE`, [comparisonId]);
  return { open: async () => (await c.query("COMMIT"), await c.end()) };
}

async function lockWaiters(n: number) {
  for (let i = 0; i < 1_000; i++) {
    const [{ waiting }] = await getDb().$queryRaw<{ waiting: number }[]>`
      SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;
    if (waiting >= n) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`never saw ${n} writers waiting for the comparison`);
}

async function race(comparisonId: string, writers: (() => Promise<Reply>)[]): Promise<Reply[]> {
  const g = await gate(comparisonId);
  const started: Promise<Reply>[] = [];
  for (const [i, w] of writers.entries()) {
    started.push(w());
    await lockWaiters(i + 1);
  }
  await g.open();
  return Promise.all(started);
}

describe("parallel submits of one comparison", () => {
  it("escalates exactly once when the two primaries submit opposite preferences at the same time, round after round", async () => {
    const ROUNDS = 8;
    const f = await makePairwiseStudy({ rubrics: ["overall_preference"], items: ROUNDS, models: 2, graders: 3, n: 1 });
    expect((await call(planPost, "/x", json(f.lead.token, "POST", { design: { kind: "all_pairs" }, seed: "race" }), { id: f.study.id })).status).toBe(200);
    expect((await call(dealRoute, "/x", json(f.lead.token, "POST", {}), { id: f.study.id })).status).toBe(200);
    const comparisons = await getDb().comparison.findMany({ where: { studyId: f.study.id }, orderBy: { id: "asc" } });
    expect(comparisons).toHaveLength(ROUNDS);
    for (const [round, c] of comparisons.entries()) {
      const ps = await getDb().comparisonAssignment.findMany({ where: { comparisonId: c.id, kind: "PRIMARY" }, orderBy: { graderId: "asc" } });
      const token = (graderId: string) => f.graders.find((g) => g.id === graderId)!.token;
      const [x, y] = round % 2 ? [ps[1], ps[0]] : ps;
      const replies = await race(c.id, [() => submit(token(x.graderId), x.id, all("a")), () => submit(token(y.graderId), y.id, all("b"))]);
      expect(replies.map((r) => r.status), JSON.stringify(replies.map((r) => r.body))).toEqual([200, 200]);
      expect((await getDb().comparison.findUniqueOrThrow({ where: { id: c.id } })).status, `round ${round}`).toBe("AWAITING_ADJUDICATION");
      expect(await getDb().comparisonEscalation.count({ where: { comparisonId: c.id } })).toBe(1);
      const adjudicators = await getDb().comparisonAssignment.findMany({ where: { comparisonId: c.id, kind: "ADJUDICATOR" } });
      expect(adjudicators).toHaveLength(1);
      expect(ps.map((p) => p.graderId)).not.toContain(adjudicators[0].graderId);
      const created = await getDb().auditEvent.count({ where: { studyId: f.study.id, action: "comparison_escalation.create", entityId: (await getDb().comparisonEscalation.findUniqueOrThrow({ where: { comparisonId: c.id } })).id } });
      expect(created).toBe(1);
    }
  });

  it("the same submit sent twice at once stores one preference and one submission", async () => {
    const f = await makePairwiseStudy({ rubrics: ["overall_preference"], items: 1, models: 2, graders: 2, n: 1 });
    await call(planPost, "/x", json(f.lead.token, "POST", { design: { kind: "all_pairs" } }), { id: f.study.id });
    await call(dealRoute, "/x", json(f.lead.token, "POST", {}), { id: f.study.id });
    const c = await getDb().comparison.findFirstOrThrow({ where: { studyId: f.study.id } });
    const p = await getDb().comparisonAssignment.findFirstOrThrow({ where: { comparisonId: c.id } });
    const token = f.graders.find((g) => g.id === p.graderId)!.token;
    const replies = await race(c.id, [() => submit(token, p.id, all("a")), () => submit(token, p.id, all("a"))]);
    expect(replies.map((r) => r.status)).toEqual([200, 200]);
    expect(await getDb().preference.count({ where: { assignmentId: p.id } })).toBe(1);
    expect(await getDb().auditEvent.count({ where: { action: "comparison.submit", entityId: p.id } })).toBe(1);
  });
});
