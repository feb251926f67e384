/**
 * Each grading request's own cost, without the closed loop's queue: the
 * production server on a throwaway study (bench/lib/harness.ts), then one
 * request at a time, `/login` (the page floor), the grading page (a full load,
 * then the client-side navigation to it), the assignment JSON and a
 * submission, with each request's latency, the server's and PostgreSQL's CPU
 * (from /proc) and the bytes received. Where bench/grading/run.ts says how the
 * page fares under 50 graders, this says what the page itself costs.
 * With --pauses K, it then times K page loads each after --pause seconds of
 * quiet, as a grader's next request comes after reading an answer.
 *
 *   npm run build && npx tsx bench/grading/alone.ts [--rubrics score|custom] [--requests 150] [--pauses 0] [--pause 15] [--port 3499]
 */
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { cpuSample, cpuSpent, generateStudy, gradeBody } from "../lib/harness";
import { navigationRequest } from "../lib/navigation";
import { startServer, throwawayDatabase } from "../lib/server";

const { values } = parseArgs({ options: { rubrics: { type: "string", default: "custom" }, requests: { type: "string", default: "150" }, pauses: { type: "string", default: "0" }, pause: { type: "string", default: "15" }, port: { type: "string", default: "3499" } } });
if (values.rubrics !== "score" && values.rubrics !== "custom") throw new Error("--rubrics is score or custom");
const RUBRICS = values.rubrics;
const N = Number(values.requests);
const base = `http://127.0.0.1:${values.port}`;

const db = await throwawayDatabase("bench_grading_alone");
try {
  const { graders } = await generateStudy(db.url, { graders: 2, perGrader: N + 60, rubrics: RUBRICS });
  const server = await startServer(db.url, Number(values.port));
  try {
    const g = graders[0];
    const run = async (label: string, request: (i: number) => Promise<Response>, n: number) => {
      for (let i = 0; i < 20; i++) await (await request(i)).arrayBuffer();
      const before = cpuSample(server.proc.pid!);
      const t0 = performance.now();
      let bytes = 0;
      for (let i = 0; i < n; i++) {
        const r = await request(i);
        bytes += (await r.arrayBuffer()).byteLength;
        if (!r.ok) throw new Error(`${label}: HTTP ${r.status}`);
      }
      const ms = (performance.now() - t0) / n;
      const after = cpuSample(server.proc.pid!);
      const cpu = before && after ? cpuSpent(before, after) : null;
      const cpuText = cpu ? `server CPU ${(cpu.server / n).toFixed(1)} ms, PostgreSQL ${(cpu.postgres / n).toFixed(1)} ms` : "CPU not measured (not Linux)";
      console.log(`${label.padEnd(22)} ${ms.toFixed(1).padStart(6)} ms per request, ${cpuText}, ${Math.round(bytes / n)} bytes`);
    };
    const headers = { "accept-encoding": "gzip, deflate" };
    for (let pass = 1; pass <= 2; pass++) {
      console.log(`pass ${pass}:`);
      await run("GET /login", () => fetch(`${base}/login`, { headers }), N);
      await run("GET /grade/[id]", (i) => fetch(`${base}/grade/${g.assignmentIds[i % 50]}`, { headers: { ...headers, cookie: g.cookie } }), N);
      await run("GET /grade/[id] (nav.)", async (i) => {
        const [path, init] = await navigationRequest(g.assignmentIds[(i + 49) % 50], g.assignmentIds[i % 50], g.cookie);
        return fetch(`${base}${path}`, init);
      }, N);
      await run("GET assignment JSON", (i) => fetch(`${base}/api/v1/assignments/${g.assignmentIds[i % 50]}`, { headers: { cookie: g.cookie } }), N);
    }
    const pauses = Number(values.pauses);
    if (pauses > 0) {
      const ms: number[] = [];
      let server_ = 0;
      let postgres = 0;
      for (let i = 0; i < pauses; i++) {
        await sleep(Number(values.pause) * 1000);
        const before = cpuSample(server.proc.pid!);
        const t0 = performance.now();
        const r = await fetch(`${base}/grade/${g.assignmentIds[i % 50]}`, { headers: { ...headers, cookie: g.cookie } });
        await r.arrayBuffer();
        if (!r.ok) throw new Error(`after a pause: HTTP ${r.status}`);
        ms.push(performance.now() - t0);
        const after = cpuSample(server.proc.pid!);
        const cpu = before && after ? cpuSpent(before, after) : null;
        server_ += cpu?.server ?? 0;
        postgres += cpu?.postgres ?? 0;
      }
      const sorted = [...ms].sort((a, b) => a - b);
      console.log(
        `GET /grade/[id] after ${values.pause} s of quiet, ${pauses} times: median ${sorted[Math.floor(pauses / 2)].toFixed(1)} ms (${ms.map((m) => m.toFixed(1)).join(", ")}), ` +
          `server CPU ${(server_ / pauses).toFixed(1)} ms, PostgreSQL ${(postgres / pauses).toFixed(1)} ms`,
      );
    }
    // Submissions last: each one uses up an assignment (the warm-up's 20 included).
    let next = 50;
    await run("PUT grades (submit)", () => fetch(`${base}/api/v1/assignments/${g.assignmentIds[next++]}/grades`, { method: "PUT", headers: { cookie: g.cookie, "content-type": "application/json" }, body: gradeBody(true, RUBRICS) }), Math.min(N, g.assignmentIds.length - 70));
  } finally {
    await server.stop();
  }
} finally {
  await db.drop();
}
process.exit(0);
