/**
 * bench/load: 100 concurrent graders for 60 s against the production build on
 * PostgreSQL, each opening their next assignment, saving a draft and submitting
 * it. Reports throughput and p95/p99 per request kind, then counts rows: every
 * submission the server acknowledged (HTTP 200) is stored exactly once.
 *
 *   npm run build && npx tsx bench/load/run.ts [--graders 100] [--seconds 60]
 *
 * `--instances 2` runs the same load through a round-robin balancer
 * (bench/lib/balancer.ts) in front of two production servers on the one
 * database, alternating phases of `--seconds` with the balancer sending
 * everything to one instance and to both (`--rounds` of each, default 2, after
 * `--warmup` unmeasured seconds on both), and prints the throughput ratio, the
 * p95s and the row counts over both modes.
 */
import { parseArgs } from "node:util";
import pg from "pg";
import { startBalancer } from "../lib/balancer";
import { CELLS_PER_FORM, closedLoop, cpuSample, generateStudy, gradeBody, pooled, printTable, type BenchGrader, type LoadResult } from "../lib/harness";
import { startServer, throwawayDatabase } from "../lib/server";

const { values } = parseArgs({
  options: {
    graders: { type: "string", default: "100" },
    seconds: { type: "string", default: "60" },
    port: { type: "string", default: "3412" },
    instances: { type: "string", default: "1" },
    rounds: { type: "string", default: "2" },
    warmup: { type: "string", default: "5" },
  },
});
const G = Number(values.graders);
const S = Number(values.seconds);
const port = Number(values.port);
const instances = Number(values.instances);
if (instances !== 1 && instances !== 2) throw new Error("--instances is 1 or 2");

const acknowledged = new Set<string>();
const next = new Map<number, number>();
/** Refused requests by kind and status, printed when there are any. */
const refused = new Map<string, number>();
const note = (label: string, r: Response) => {
  if (!r.ok) refused.set(`${label} ${r.status}`, (refused.get(`${label} ${r.status}`) ?? 0) + 1);
  return r.ok;
};

/** One closed-loop phase of every grader against `base`: open, save a draft, submit. */
function phase(base: string, graders: BenchGrader[], seconds: number): Promise<LoadResult[]> {
  return closedLoop(G, seconds, async (c, i) => {
    const g = graders[c];
    const k = next.get(c) ?? 0;
    const id = g.assignmentIds[k % g.assignmentIds.length];
    const step = i % 3;
    if (step === 0) {
      const r = await fetch(`${base}/api/v1/assignments/${id}`, { headers: { cookie: g.cookie } });
      await r.arrayBuffer();
      return { label: "GET assignment", ok: note("GET assignment", r) };
    }
    const submit = step === 2;
    const r = await fetch(`${base}/api/v1/assignments/${id}/grades`, { method: "PUT", headers: { cookie: g.cookie, "content-type": "application/json" }, body: gradeBody(submit) });
    await r.arrayBuffer();
    if (submit) {
      if (r.ok) acknowledged.add(id);
      next.set(c, k + 1);
    }
    const label = submit ? "PUT grades (submit)" : "PUT grades (draft)";
    return { label, ok: note(label, r) };
  });
}

/** All requests of some phases as one row: their latencies pooled, their throughput over the phases' summed time. */
function overall(phases: LoadResult[][], label: string): LoadResult {
  const all = pooled(phases.flat().map((r) => ({ ...r, label })))[0];
  const seconds = phases.reduce((s, p) => s + p[0].seconds, 0);
  return { ...all, seconds, throughput: all.requests / seconds };
}

const db = await throwawayDatabase("bench_load");
try {
  console.log(`generating a study for ${G} graders ...`);
  // Enough assignments that no grader comes back to one already submitted (a draft of it would be refused).
  const { graders } = await generateStudy(db.url, { graders: G, perGrader: instances === 1 ? 200 : 100 * Number(values.rounds) * Math.max(1, S / 30) });
  const ports = Array.from({ length: instances }, (_, i) => port + i);
  const servers = await Promise.all(ports.map((p) => startServer(db.url, p)));
  try {
    if (instances === 1) {
      const base = `http://127.0.0.1:${port}`;
      await fetch(`${base}/api/v1/assignments/${graders[0].assignmentIds[0]}`, { headers: { cookie: graders[0].cookie } });
      console.log(`load: ${G} graders for ${S}s (open, save draft, submit)`);
      const results = await phase(base, graders, S);
      printTable(results);
      const total = results.reduce((s, r) => s + r.requests, 0);
      console.log(`total ${total} requests in ${results[0].seconds.toFixed(1)} s = ${(total / results[0].seconds).toFixed(1)} req/s`);
    } else {
      const balancer = await startBalancer(port + instances, ports);
      try {
        console.log(`warm-up: ${values.warmup}s through the balancer on both instances (unmeasured)`);
        await phase(balancer.url, graders, Number(values.warmup));
        const byMode: Record<"one" | "two", LoadResult[][]> = { one: [], two: [] };
        // CPU of the app servers (all threads of both processes) per mode; PostgreSQL's is left out,
        // since the server is shared with whatever else runs on the machine.
        const cpu = { one: 0, two: 0 };
        const serverCpu = () => servers.reduce((s, x) => s + (cpuSample(x.proc.pid!)?.server ?? NaN), 0);
        for (let r = 0; r < Number(values.rounds); r++) {
          for (const mode of ["one", "two"] as const) {
            balancer.upstreams = mode === "one" ? [ports[0]] : ports;
            console.log(`round ${r + 1}: ${G} graders for ${S}s through the balancer, ${mode === "one" ? "one instance" : "two instances"}`);
            const before = serverCpu();
            byMode[mode].push(await phase(balancer.url, graders, S));
            cpu[mode] += serverCpu() - before;
          }
        }
        const rows = (["one", "two"] as const).flatMap((mode) => {
          const label = mode === "one" ? "1 instance" : "2 instances";
          const perKind = pooled(byMode[mode].flat()).map((x) => ({ ...x, label: `${label}: ${x.label}` }));
          return [...perKind, overall(byMode[mode], `${label}: all requests`)];
        });
        printTable(rows);
        const [one, two] = [rows.find((x) => x.label === "1 instance: all requests")!, rows.find((x) => x.label === "2 instances: all requests")!];
        const served = [0, 1].map((i) => balancer.log.filter((s) => s.upstream === i).length);
        console.log(`throughput: 1 instance ${one.throughput.toFixed(1)} req/s, 2 instances ${two.throughput.toFixed(1)} req/s, ratio ${(two.throughput / one.throughput).toFixed(2)}`);
        console.log(`p95 of all requests: 1 instance ${one.p95.toFixed(0)} ms, 2 instances ${two.p95.toFixed(0)} ms; answered by instance A ${served[0]}, B ${served[1]}`);
        console.log(`app server CPU per request: 1 instance ${(cpu.one / one.requests).toFixed(1)} ms, 2 instances ${(cpu.two / two.requests).toFixed(1)} ms (both processes)`);
      } finally {
        await balancer.close();
      }
    }

    if (refused.size) console.log(`refused: ${[...refused].map(([k, n]) => `${k}: ${n}`).join(", ")}`);
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
    await Promise.all(servers.map((s) => s.stop()));
  }
} finally {
  await db.drop();
}
