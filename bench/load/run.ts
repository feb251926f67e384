/**
 * bench/load: 100 concurrent graders for 60 s against the production build on
 * PostgreSQL, each opening their next assignment, saving a draft and submitting
 * it. Reports throughput and p95/p99 per request kind, then counts rows: every
 * submission the server acknowledged (HTTP 200) is stored exactly once.
 *
 *   npm run build && npx tsx bench/load/run.ts [--graders 100] [--seconds 60]
 */
import { parseArgs } from "node:util";
import pg from "pg";
import { CELLS_PER_FORM, closedLoop, generateStudy, gradeBody, printTable } from "../lib/harness";
import { startServer, throwawayDatabase } from "../lib/server";

const { values } = parseArgs({ options: { graders: { type: "string", default: "100" }, seconds: { type: "string", default: "60" }, port: { type: "string", default: "3412" } } });
const G = Number(values.graders);
const S = Number(values.seconds);
const port = Number(values.port);
const base = `http://127.0.0.1:${port}`;

const db = await throwawayDatabase("bench_load");
try {
  console.log(`generating a study for ${G} graders ...`);
  const { graders } = await generateStudy(db.url, { graders: G, perGrader: 200 });
  const server = await startServer(db.url, port);
  try {
    await fetch(`${base}/api/v1/assignments/${graders[0].assignmentIds[0]}`, { headers: { cookie: graders[0].cookie } });
    const acknowledged = new Set<string>();
    const next = new Map<number, number>();
    console.log(`load: ${G} graders for ${S}s (open, save draft, submit)`);
    const results = await closedLoop(G, S, async (c, i) => {
      const g = graders[c];
      const k = next.get(c) ?? 0;
      const id = g.assignmentIds[k % g.assignmentIds.length];
      const phase = i % 3;
      if (phase === 0) {
        const r = await fetch(`${base}/api/v1/assignments/${id}`, { headers: { cookie: g.cookie } });
        await r.arrayBuffer();
        return { label: "GET assignment", ok: r.ok };
      }
      const submit = phase === 2;
      const r = await fetch(`${base}/api/v1/assignments/${id}/grades`, { method: "PUT", headers: { cookie: g.cookie, "content-type": "application/json" }, body: gradeBody(submit) });
      await r.arrayBuffer();
      if (submit) {
        if (r.ok) acknowledged.add(id);
        next.set(c, k + 1);
      }
      return { label: submit ? "PUT grades (submit)" : "PUT grades (draft)", ok: r.ok };
    });
    printTable(results);
    const total = results.reduce((s, r) => s + r.requests, 0);
    console.log(`total ${total} requests in ${results[0].seconds.toFixed(1)} s = ${(total / results[0].seconds).toFixed(1)} req/s`);

    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    const stored = await c.query<{ n: number }>(`SELECT count(*)::int AS n FROM "Assignment" WHERE id = ANY($1::uuid[]) AND status = 'SUBMITTED'`, [[...acknowledged]]);
    const grades = await c.query<{ n: number }>(`SELECT count(*)::int AS n FROM "Grade" g JOIN "Assignment" a ON a.id = g."assignmentId" WHERE a.status = 'SUBMITTED'`);
    const dup = await c.query<{ n: number }>(`SELECT count(*)::int AS n FROM (SELECT 1 FROM "Grade" GROUP BY "assignmentId", rubric, dimension, repetition HAVING count(*) > 1) d`);
    await c.end();
    console.log(`acknowledged submissions ${acknowledged.size}, stored as submitted ${stored.rows[0].n}; grade rows of submitted assignments ${grades.rows[0].n} (expected ${acknowledged.size * CELLS_PER_FORM}); duplicated cells ${dup.rows[0].n}`);
    const bad = stored.rows[0].n !== acknowledged.size || grades.rows[0].n !== acknowledged.size * CELLS_PER_FORM || dup.rows[0].n > 0;
    console.log(bad ? "RESULT: LOST OR DUPLICATED GRADES" : "RESULT: nothing acknowledged was lost or duplicated");
    if (bad) process.exitCode = 1;
  } finally {
    await server.stop();
  }
} finally {
  await db.drop();
}
