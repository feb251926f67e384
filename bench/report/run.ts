/**
 * Benchmark: the study report as PDF against the dashboard, over HTTP, on the production build.
 *
 *   npm run build && npx tsx bench/report/run.ts
 *
 * Goal (issue #36): the report of a 10,000-set study (PDF with every table and figure) in under
 * 3x the time the dashboard takes for the same study, measured in the same run; the server's
 * memory under 300 MB more than when idle.
 *
 * In a throwaway database (DATABASE_URL's server; BENCH_KEEP=1 keeps it) it generates the
 * stats benchmark's study with the same bulk SQL (bench/lib/graded-study.ts: BENCH_SETS sets,
 * default 10,000; BENCH_CASE=score, the published rubrics, or custom; BENCH_DATABASE_URL reuses a
 * database a BENCH_KEEP=1 run kept), serves it with the
 * production build on BENCH_PORT (default 3410), and after one warm-up of each times BENCH_RUNS
 * (default 3) rounds of GET /api/v1/studies/{id}/stats (what the dashboard page calls) and
 * GET /api/v1/studies/{id}/report?format=pdf, one after the other, with a Bearer token of the
 * study's lead. Memory, before the times: the server's RSS from /proc once it has settled after
 * start (idle), and its highest RSS sampled every 25 ms while it makes its first report (peak);
 * the highest RSS of the whole run (VmHWM) is printed too.
 */
import { performance } from "node:perf_hooks";
import pg from "pg";
import { createApiToken } from "../../lib/auth/tokens";
import { disconnectDb } from "../../lib/db/client";
import { memoryOf, settledMemory } from "../lib/bulk-file";
import { generate, type Case } from "../lib/graded-study";
import { startServer, throwawayDatabase } from "../lib/server";

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const PORT = Number(process.env.BENCH_PORT ?? 3410);
const CASE = (process.env.BENCH_CASE ?? "score") as Case;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mb = (bytes: number) => `${(bytes / 1048576).toFixed(0)} MB`;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function main() {
  // BENCH_DATABASE_URL: a database a kept run generated (BENCH_KEEP=1), used as it is and left in place.
  const reuse = process.env.BENCH_DATABASE_URL;
  const db = reuse ? { url: reuse, drop: async () => undefined } : await throwawayDatabase("clingrade_bench_report", { keep: Boolean(process.env.BENCH_KEEP) });
  process.env.DATABASE_URL = db.url;
  const c = new pg.Client({ connectionString: db.url });
  let server: Awaited<ReturnType<typeof startServer>> | null = null;
  try {
    await c.connect();
    const t0 = performance.now();
    const { studyId, leadId } = reuse
      ? (await c.query<{ studyId: string; leadId: string }>(`SELECT id AS "studyId", "createdById" AS "leadId" FROM "Study" ORDER BY "createdAt" LIMIT 1`)).rows[0]
      : await generate(c, CASE);
    const k = (await c.query<{ sets: number; grades: number }>(`SELECT (SELECT count(*) FROM "ResponseSet")::int AS sets, (SELECT count(*) FROM "Grade")::int AS grades`)).rows[0];
    console.log(`${CASE}: generated ${k.sets.toLocaleString("en")} response sets, ${k.grades.toLocaleString("en")} grades in ${s(performance.now() - t0)}`);

    server = await startServer(db.url, PORT);
    const pid = server.proc.pid!;
    const idle = await settledMemory(pid);
    if (!idle) throw new Error("cannot read the server's memory from /proc");
    const { token } = await createApiToken(leadId, { name: "report benchmark" });
    const base = `http://127.0.0.1:${PORT}/api/v1/studies/${studyId}`;
    const get = async (path: string): Promise<{ ms: number; bytes: Buffer }> => {
      const start = performance.now();
      const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
      const bytes = Buffer.from(await res.arrayBuffer());
      if (!res.ok) throw new Error(`GET ${path}: HTTP ${res.status}: ${bytes.toString("utf8").slice(0, 300)}`);
      return { ms: performance.now() - start, bytes };
    };

    // Memory first, on the fresh server: its highest RSS while it makes one report, against idle.
    let peak = idle.now;
    const sampler = setInterval(() => {
      peak = Math.max(peak, memoryOf(pid)?.now ?? 0);
    }, 25);
    const first = await get("/report?format=pdf");
    clearInterval(sampler);
    peak = Math.max(peak, memoryOf(pid)?.now ?? 0);
    if (first.bytes.subarray(0, 5).toString("latin1") !== "%PDF-") throw new Error("the report is not a PDF");
    console.log(`report PDF: ${(first.bytes.length / 1024).toFixed(0)} KB; the first (cold) ${s(first.ms)}`);
    const reportPeak = peak;

    // Then the times: a warm-up of the dashboard, then rounds of one dashboard and one report.
    await get("/stats");
    const stats: number[] = [];
    const report: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      stats.push((await get("/stats")).ms);
      report.push((await get("/report?format=pdf")).ms);
    }
    const after = memoryOf(pid)!;
    const ratio = median(report) / median(stats);
    console.log(`GET /stats (dashboard)            median ${s(median(stats))}  (runs: ${stats.map((x) => (x / 1000).toFixed(2)).join(", ")})`);
    console.log(`GET /report?format=pdf            median ${s(median(report))}  (runs: ${report.map((x) => (x / 1000).toFixed(2)).join(", ")})`);
    console.log(`ratio report / dashboard: ${ratio.toFixed(2)}x (goal: under 3x) ${ratio < 3 ? "MET" : "MISSED"}`);
    console.log(`server RSS idle ${mb(idle.now)}, peak during the first report ${mb(reportPeak)} (+${mb(reportPeak - idle.now)}; goal: under +300 MB) ${reportPeak - idle.now < 300 * 1048576 ? "MET" : "MISSED"}`);
    console.log(`  after all the runs: RSS ${mb(after.now)}, highest ever (VmHWM) ${mb(after.peak)} (+${mb(after.peak - idle.now)})`);
  } finally {
    await server?.stop();
    await c.end().catch(() => undefined);
    await disconnectDb();
    await db.drop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
