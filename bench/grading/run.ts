/**
 * bench/grading: G concurrent graders (default 50) work through their queues
 * against the production build on PostgreSQL. Each grader, per assignment:
 * opens the grading page as a full HTML load (a first visit or a reload),
 * opens it as the app does after "Submit" (the client-side navigation: the RSC
 * payload, no HTML), reads it through the API (JSON), and submits it.
 * In the same run, the same clients hit /api/ping, a route with no database and
 * no auth, as the framework's floor, and /login, a page with no database, as
 * the framework's floor for a rendered page. Every route is warmed up at full
 * concurrency first (unmeasured), so that lazy route loading and the JIT are
 * not in the figures. Prints p50/p95/p99 and throughput of each and the p95
 * ratios against /api/ping (goal: within 3x), then counts rows: every
 * acknowledged submission stored once, nothing duplicated. The three phases
 * (floor, page floor, grading) run in turn for several rounds and each label's
 * latencies are pooled over the rounds.
 *
 * With --design pairwise the study is a pairwise one (./lib/pairwise-study.ts) and each
 * grader cycles through the comparison page (full HTML load), its JSON and its submission
 * (no client-side navigation case: the comparison form's router state is not captured).
 *
 *   npm run build && npx tsx bench/grading/run.ts [--graders 50] [--seconds 10] [--rounds 3] [--warmup 5] [--rubrics score|custom] [--design scoring|pairwise]
 */
import { parseArgs } from "node:util";
import pg from "pg";
import { cellsPerForm, closedLoop, cpuSample, cpuSpent, generateStudy, gradeBody, pooled, printTable, type LoadResult } from "../lib/harness";
import { navigationRequest } from "../lib/navigation";
import { generatePairwiseStudy, preferenceBody, PREFERENCES_PER_FORM } from "../lib/pairwise-study";
import { startServer, throwawayDatabase } from "../lib/server";

const { values } = parseArgs({
  options: { graders: { type: "string", default: "50" }, seconds: { type: "string", default: "10" }, rounds: { type: "string", default: "3" }, warmup: { type: "string", default: "5" }, port: { type: "string", default: "3411" }, rubrics: { type: "string", default: "score" }, design: { type: "string", default: "scoring" } },
});
const W = Number(values.warmup);
const R = Number(values.rounds);
const G = Number(values.graders);
const S = Number(values.seconds);
const port = Number(values.port);
if (values.rubrics !== "score" && values.rubrics !== "custom") throw new Error("--rubrics is score or custom");
const RUBRICS = values.rubrics;
if (values.design !== "scoring" && values.design !== "pairwise") throw new Error("--design is scoring or pairwise");
const PAIRWISE = values.design === "pairwise";
const CELLS_PER_FORM = PAIRWISE ? PREFERENCES_PER_FORM : cellsPerForm(RUBRICS);
const base = `http://127.0.0.1:${port}`;

const db = await throwawayDatabase("bench_grading");
try {
  console.log(`generating a ${PAIRWISE ? "pairwise " : ""}study for ${G} graders ...`);
  const { graders } = PAIRWISE ? await generatePairwiseStudy(db.url, { graders: G, perGrader: 400 }) : await generateStudy(db.url, { graders: G, perGrader: 400, rubrics: RUBRICS });
  const server = await startServer(db.url, port);
  try {
    const acknowledged = new Set<string>();
    const next = new Map<number, number>();
    /** One grader's step i: a page load, a navigation, an API read, a submission, in turn, on their current assignment. */
    const graderStep = async (c: number, i: number) => {
      const g = graders[c];
      const k = next.get(c) ?? 0;
      const id = g.assignmentIds[k % g.assignmentIds.length];
      // Graders start at different points of the cycle, as real ones would: all 50
      // opening a page in the same millisecond at the start of each round is a burst
      // no study has, and it would land on the page's figures only.
      const phase = (i + c) % 4;
      if (phase === 0) {
        const r = await fetch(`${base}/grade/${id}`, { headers: { cookie: g.cookie } });
        await r.arrayBuffer();
        return { label: "GET /grade/[id] (page)", ok: r.ok };
      }
      if (phase === 1) {
        // What the browser asks for when the form moves on to this assignment after submitting the previous one.
        const previous = g.assignmentIds[(k + g.assignmentIds.length - 1) % g.assignmentIds.length];
        const [url, init] = await navigationRequest(previous, id, g.cookie);
        const r = await fetch(base + url, init);
        await r.arrayBuffer();
        return { label: "GET /grade/[id] (navigation)", ok: r.ok && (r.headers.get("content-type") ?? "").startsWith("text/x-component") };
      }
      if (phase === 2) {
        const r = await fetch(`${base}/api/v1/assignments/${id}`, { headers: { cookie: g.cookie } });
        await r.arrayBuffer();
        return { label: "GET assignment JSON", ok: r.ok };
      }
      const r = await fetch(`${base}/api/v1/assignments/${id}/grades`, {
        method: "PUT",
        headers: { cookie: g.cookie, "content-type": "application/json" },
        body: gradeBody(true, RUBRICS),
      });
      await r.arrayBuffer();
      if (r.ok) acknowledged.add(id);
      next.set(c, k + 1);
      return { label: "PUT grades (submit)", ok: r.ok };
    };
    /** A pairwise grader's step: the comparison page (full load), its JSON, its submission, in turn. */
    const comparisonStep = async (c: number, i: number) => {
      const g = graders[c];
      const k = next.get(c) ?? 0;
      const id = g.assignmentIds[k % g.assignmentIds.length];
      const phase = (i + c) % 3;
      if (phase === 0) {
        const r = await fetch(`${base}/grade/comparisons/${id}`, { headers: { cookie: g.cookie } });
        await r.arrayBuffer();
        return { label: "GET /grade/comparisons/[id] (page)", ok: r.ok };
      }
      if (phase === 1) {
        const r = await fetch(`${base}/api/v1/comparison-assignments/${id}`, { headers: { cookie: g.cookie } });
        await r.arrayBuffer();
        return { label: "GET comparison JSON", ok: r.ok };
      }
      const r = await fetch(`${base}/api/v1/comparison-assignments/${id}/submit`, { method: "POST", headers: { cookie: g.cookie, "content-type": "application/json" }, body: preferenceBody() });
      await r.arrayBuffer();
      if (r.ok) acknowledged.add(id);
      next.set(c, k + 1);
      return { label: "POST comparison (submit)", ok: r.ok };
    };
    const step = PAIRWISE ? comparisonStep : graderStep;
    const ping = async () => {
      const r = await fetch(`${base}/api/ping`);
      await r.arrayBuffer();
      return { label: "GET /api/ping (floor)", ok: r.ok };
    };
    const login = async () => {
      const r = await fetch(`${base}/login`);
      await r.arrayBuffer();
      return { label: "GET /login (page floor)", ok: r.ok };
    };

    console.log(`\nwarm-up: ${G} clients on every route for ${W}s (not measured)`);
    await closedLoop(G, W, (c, i) => (i % 3 === 0 ? ping() : i % 3 === 1 ? login() : step(c, i)));

    const runs: LoadResult[] = [];
    const cpu = new Map<string, { server: number; postgres: number; requests: number }>();
    for (let round = 1; round <= R; round++) {
      console.log(`round ${round}/${R}: ${G} clients on /api/ping for ${S}s, on /login for ${S}s, then ${G} graders open, navigate to, read and submit their next assignment for ${S}s`);
      for (const [phase, run] of [["ping", ping], ["login", login], ["grading", step]] as const) {
        const before = cpuSample(server.proc.pid!);
        const results = await closedLoop(G, S, run);
        const after = cpuSample(server.proc.pid!);
        runs.push(...results);
        if (before && after) {
          const spent = cpuSpent(before, after);
          const c = cpu.get(phase) ?? { server: 0, postgres: 0, requests: 0 };
          cpu.set(phase, { server: c.server + spent.server, postgres: c.postgres + spent.postgres, requests: c.requests + results.reduce((a, r) => a + r.requests, 0) });
        }
      }
    }
    const results = pooled(runs);
    const floor = results.find((r) => r.label === "GET /api/ping (floor)")!;
    const order = ["GET /api/ping (floor)", "GET /login (page floor)", "GET /grade/[id] (page)", "GET /grade/comparisons/[id] (page)", "GET /grade/[id] (navigation)", "GET assignment JSON", "GET comparison JSON", "PUT grades (submit)", "POST comparison (submit)"];
    printTable([...results].sort((a, b) => order.indexOf(a.label) - order.indexOf(b.label)), floor);
    const pingCpu = cpu.get("ping");
    if (pingCpu) {
      console.log("\nCPU per request (server process, all threads / PostgreSQL), and the server's against the floor's:");
      for (const [phase, c] of cpu) {
        const server = c.server / c.requests;
        const label = phase === "grading" ? `grading (mean of the ${PAIRWISE ? "three" : "four"} kinds)` : phase === "ping" ? "/api/ping (floor)" : "/login";
        console.log(`  ${label.padEnd(34)} ${server.toFixed(1).padStart(6)} ms / ${(c.postgres / c.requests).toFixed(1).padStart(5)} ms   ${(server / (pingCpu.server / pingCpu.requests)).toFixed(2)}x`);
      }
    }

    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    const { rows } = await c.query<{ submitted: number; grades: number; dup: number }>(
      PAIRWISE
        ? `SELECT (SELECT count(*)::int FROM "ComparisonAssignment" WHERE status = 'SUBMITTED') AS submitted,
                  (SELECT count(*)::int FROM "Preference") AS grades,
                  (SELECT count(*)::int FROM (SELECT 1 FROM "Preference" GROUP BY "assignmentId", rubric, axis HAVING count(*) > 1) d) AS dup`
        : `SELECT (SELECT count(*)::int FROM "Assignment" WHERE status = 'SUBMITTED') AS submitted,
                  (SELECT count(*)::int FROM "Grade") AS grades,
                  (SELECT count(*)::int FROM (SELECT 1 FROM "Grade" GROUP BY "assignmentId", rubric, dimension, repetition HAVING count(*) > 1) d) AS dup`,
    );
    const idsNotSubmitted = await c.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${PAIRWISE ? "ComparisonAssignment" : "Assignment"}" WHERE id = ANY($1::uuid[]) AND status <> 'SUBMITTED'`, [[...acknowledged]]);
    await c.end();
    console.log(`\nacknowledged submissions: ${acknowledged.size}; assignments SUBMITTED in the database: ${rows[0].submitted}`);
    console.log(`grade rows: ${rows[0].grades} (expected ${acknowledged.size * CELLS_PER_FORM}); duplicated cells: ${rows[0].dup}; acknowledged but not stored: ${idsNotSubmitted.rows[0].n}`);
    const lost = idsNotSubmitted.rows[0].n > 0 || rows[0].grades !== acknowledged.size * CELLS_PER_FORM || rows[0].dup > 0;
    console.log(lost ? "RESULT: LOST OR DUPLICATED GRADES" : "RESULT: no grade lost or duplicated");
    if (lost) process.exitCode = 1;
  } finally {
    await server.stop();
  }
} finally {
  await db.drop();
}
