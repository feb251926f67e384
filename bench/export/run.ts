/**
 * Benchmark: the `grades` export (lib/exports) against PostgreSQL's own
 * `psql \copy` of the same query.
 *
 *   npx tsx bench/export/run.ts
 *
 * In a throwaway database (created on DATABASE_URL's server, default
 * postgresql://postgres@127.0.0.1:5432, migrated with applyMigrations,
 * dropped at the end) it writes a study with 1,000,000 score rows by bulk SQL
 * (bench/export/seed.ts; BENCH_ROWS changes the size), then in one run times:
 *  1. the export consumed directly: exportStream(), the web stream the route
 *     handler returns, read to the end;
 *  2. the same through HTTP: the real route handler (GET
 *     /api/v1/studies/{id}/export) behind a node:http server in this process,
 *     downloaded with node:http and a Bearer token;
 *  3. `psql -c "SET jit = off" -c "\copy (<the same SELECT>) to stdout with (<copyCsv(GRADE_COLUMNS)>)"`
 *     (the export session sets jit = off too), its stdout read by this process;
 *  4. with BENCH_URL and BENCH_TOKEN (a lead's API token on a running server)
 *     and BENCH_STUDY (a study id there), that server's grades export too.
 * It checks that 1 and 3 produce the same bytes (SHA-256), and prints the
 * times, the ratio export / psql (goal: within 2x) and the peak RSS of this
 * process while exporting (goal: under 250 MB). In the same run it times the
 * reads of final scores: the streamed `sets`, `score-long` and `summary`
 * exports, a page of the results table and of the sets API, and every page of
 * the sets API in turn, against the baseline of computeSetResults() holding
 * every set's results at once.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import pg from "pg";
import { createApiToken } from "../../lib/auth/tokens";
import { disconnectDb } from "../../lib/db/client";
import { GRADE_COLUMNS, gradesSelect } from "../../lib/exports/grades";
import { loadPeople } from "../../lib/exports/people";
import { closeExportPools } from "../../lib/exports/pool";
import { exportStream } from "../../lib/exports/service";
import { copyCsv } from "../../lib/exports/sql";
import { computeSetResults, setResultsAfter, setResultsPage, type SetCursor } from "../../lib/results/sets";
import { templateRubrics } from "../../lib/rubrics/study-rubrics";
import { itemsFor, seedExportStudy } from "./seed";
import { mb, measure } from "../lib/measure";
import { throwawayDatabase } from "../lib/server";

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);

const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

interface Digest {
  bytes: number;
  sha256: string;
}

async function digest(chunks: AsyncIterable<Uint8Array>): Promise<Digest> {
  const hash = createHash("sha256");
  let bytes = 0;
  for await (const c of chunks) {
    bytes += c.byteLength;
    hash.update(c);
  }
  return { bytes, sha256: hash.digest("hex") };
}

/** The real route handler behind a plain node:http server: Request in, streamed Response out, with backpressure and client aborts. */
async function serveRoute(): Promise<{ url: string; close: () => Promise<void> }> {
  // Imported here, after main() has set LOG_LEVEL and DATABASE_URL.
  const { GET: exportRoute } = await import("../../app/api/v1/studies/[id]/export/route");
  const server = http.createServer(async (req, res) => {
    const ac = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) ac.abort();
    });
    try {
      const url = new URL(req.url ?? "/", "http://localhost");
      const id = /^\/api\/v1\/studies\/([^/]+)\/export$/.exec(url.pathname)?.[1] ?? "";
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
      const response = await exportRoute(new Request(url, { headers, signal: ac.signal }), { params: Promise.resolve({ id }) });
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (response.body) await pipeline(Readable.fromWeb(response.body as import("node:stream/web").ReadableStream<Uint8Array>), res);
      else res.end();
    } catch (err) {
      if (!res.headersSent) res.writeHead(500).end(String(err));
      else res.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Downloads with node:http (a plain streaming client, as a browser or curl would be), hashing as it reads. */
function download(url: string, token: string): Promise<Digest & { status: number }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { authorization: `Bearer ${token}` } }, (res) => {
      if (res.statusCode !== 200) {
        let body = "";
        res.on("data", (d) => (body += d));
        res.on("end", () => reject(new Error(`HTTP ${res.statusCode}: ${body}`)));
        return;
      }
      digest(res).then((d) => resolve({ status: 200, ...d }), reject);
    });
    req.on("error", reject);
  });
}

function psqlCopy(url: string, select: string): Promise<Digest> {
  return new Promise((resolve, reject) => {
    const oneLine = select.replace(/\s*\n\s*/g, " ");
    const child = spawn("psql", [url, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-c", "SET jit = off", "-c", `\\copy (${oneLine}) to stdout with (${copyCsv(GRADE_COLUMNS)})`], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    const result = digest(child.stdout);
    child.on("error", reject);
    child.on("close", async (code) => (code === 0 ? resolve(await result) : reject(new Error(`psql exited ${code}: ${stderr}`))));
  });
}

async function remote(): Promise<string> {
  const base = process.env.BENCH_URL;
  const token = process.env.BENCH_TOKEN;
  const study = process.env.BENCH_STUDY;
  if (!base || !token) return "skipped (set BENCH_URL, BENCH_TOKEN and BENCH_STUDY to time a running server)";
  if (!study) return "skipped: BENCH_STUDY (a study id on that server) is needed with BENCH_URL";
  const t0 = performance.now();
  const d = await download(new URL(`/api/v1/studies/${study}/export?dataset=grades&format=csv`, base).toString(), token);
  const ms = performance.now() - t0;
  return `${secs(ms)}   ${mb(d.bytes)}   (${base})`;
}

/** A full collection (V8's gc, exposed at run time): a baseline that holds no earlier step's garbage. */
function collectGarbage(): void {
  v8.setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

async function main() {
  const db = await throwawayDatabase("clingrade_bench_export");
  const url = db.url;
  process.env.DATABASE_URL = url;
  process.env.AUTH_SECRET ??= "bench-secret-".padEnd(48, "x");
  process.env.LOG_LEVEL ??= "warn";
  let server: Awaited<ReturnType<typeof serveRoute>> | null = null;
  try {
    const step = (what: string) => process.env.BENCH_VERBOSE && console.log(`  rss ${mb(process.memoryUsage.rss())} after ${what}`);
    step("migrations");
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const items = itemsFor(ROWS);
    const t0 = performance.now();
    const seeded = await seedExportStudy(client, { items });
    console.log(`generated ${seeded.grades.toLocaleString("en")} score rows (${items.toLocaleString("en")} items x 3 models x 2 graders x 18 scores) in ${secs(performance.now() - t0)}`);
    step("seeding");
    const people = await loadPeople((sql, params) => client.query(sql, params).then((r) => r.rows), seeded.studyId);
    await client.end();
    const study = { id: seeded.studyId, slug: seeded.slug, rubrics: templateRubrics(["SCORE", "SAFE_LLM"]) };

    // Warm-up: the first query of a process pays for connections and plan caches; psql does not.
    await digest((await exportStream(study, { dataset: "grades", format: "csv" })) as unknown as AsyncIterable<Uint8Array>);
    step("warm-up");
    const directBaseline = process.memoryUsage.rss();
    const direct = await measure(async () => digest((await exportStream(study, { dataset: "grades", format: "csv" })) as unknown as AsyncIterable<Uint8Array>));
    const json = await measure(async () => digest((await exportStream(study, { dataset: "grades", format: "json" })) as unknown as AsyncIterable<Uint8Array>));
    // The datasets of final scores: one row per response set, computed from all the scores as they stream in.
    const results: [string, Awaited<ReturnType<typeof measure<Digest>>>][] = [];
    for (const dataset of ["sets", "score-long", "summary"] as const) {
      results.push([dataset, await measure(async () => digest((await exportStream(study, { dataset, format: "csv" })) as unknown as AsyncIterable<Uint8Array>))]);
      step(dataset);
    }
    // Baseline: every set's results in one read (computeSetResults: what the sets API and the results table read for any page before
    // they paged, and what the table still reads when sorted by a total), held at once as the streamed exports never do.
    const allAtOnce = await measure(() => computeSetResults(study.id));

    // What the results table and the sets API now read instead: one page, chosen in SQL before any score is read. These and
    // the same baseline again are measured as the growth of V8's heap from a collected one (the resident size cannot show it:
    // the baseline left the process holding hundreds of MB of pages that V8 reuses rather than returns).
    const fromCollected = async <T,>(fn: () => Promise<T>) => {
      collectGarbage();
      const before = process.memoryUsage().heapUsed;
      let peak = before;
      const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 10);
      try {
        const r = await measure(fn);
        return { ...r, growth: Math.max(peak, process.memoryUsage().heapUsed) - before };
      } finally {
        clearInterval(timer);
      }
    };
    const allCollected = await fromCollected(() => computeSetResults(study.id));
    const tableFirst = await fromCollected(() => setResultsPage(study.id, { sort: "externalId", desc: false, page: 1, pageSize: 25 }));
    const tableDeep = await fromCollected(() => setResultsPage(study.id, { sort: "model", desc: true, page: Math.ceil((3 * items) / 50), pageSize: 25 }));
    const apiFirst = await fromCollected(() => setResultsAfter(study.id, {}, null, 1000));
    const apiWalk = await fromCollected(async () => {
      let at: SetCursor | null = null;
      let pages = 0;
      do {
        at = (await setResultsAfter(study.id, {}, at, 1000)).next;
        pages++;
      } while (at);
      return pages;
    });

    // Over HTTP the whole route runs, with its authentication through Prisma (whose query compiler alone is ~80 MB).
    const { token } = await createApiToken(seeded.leadId, { name: "bench" });
    server = await serveRoute();
    await download(`${server.url}/api/v1/studies/${study.id}/export?dataset=audit`, token);
    step("loading the route and Prisma");
    const httpBaseline = process.memoryUsage.rss();
    const overHttp = await measure(() => download(`${server!.url}/api/v1/studies/${study.id}/export?dataset=grades&format=csv`, token));
    const psqlStart = performance.now();
    const psql = await psqlCopy(url, gradesSelect(study.id, people, false, "csv", study.rubrics));
    const psqlMs = performance.now() - psqlStart;
    const remoteLine = await remote();

    const same = psql.sha256 === direct.value.sha256 && psql.bytes === direct.value.bytes && overHttp.value.sha256 === direct.value.sha256;
    const ratio = direct.ms / psqlMs;
    const httpRatio = overHttp.ms / psqlMs;
    const peak = Math.max(direct.peakRss, json.peakRss);
    const rate = (ms: number) => `${Math.round(seeded.grades / (ms / 1000)).toLocaleString("en")} rows/s`;
    console.log("");
    console.log(`grades CSV, exportStream() read directly   ${secs(direct.ms)}   ${mb(direct.value.bytes)}   ${rate(direct.ms)}   peak RSS ${mb(direct.peakRss)}`);
    console.log(`grades CSV, over HTTP (route handler)      ${secs(overHttp.ms)}   ${mb(overHttp.value.bytes)}   ${rate(overHttp.ms)}   peak RSS ${mb(overHttp.peakRss)}`);
    console.log(`grades JSON, exportStream() read directly  ${secs(json.ms)}   ${mb(json.value.bytes)}   ${rate(json.ms)}   peak RSS ${mb(json.peakRss)}`);
    console.log(`${"baseline: computeSetResults(), all at once".padEnd(43)}${secs(allAtOnce.ms)}   ${allAtOnce.value.length.toLocaleString("en")} sets   peak RSS ${mb(allAtOnce.peakRss)} (+${mb(allAtOnce.peakRss - directBaseline)})`);
    const grew = (r: { growth: number }) => `peak heap +${mb(r.growth)} over a collected one`;
    console.log(`${"computeSetResults() again, all at once".padEnd(43)}${secs(allCollected.ms)}   ${grew(allCollected)}`);
    console.log(`${"results table, page 1 (25, by question)".padEnd(43)}${secs(tableFirst.ms)}   of ${tableFirst.value.total.toLocaleString("en")} sets   ${grew(tableFirst)}`);
    console.log(`${"results table, a middle page (by model)".padEnd(43)}${secs(tableDeep.ms)}   page ${tableDeep.value.page}   ${grew(tableDeep)}`);
    console.log(`${"sets API, first page of 1,000".padEnd(43)}${secs(apiFirst.ms)}   ${grew(apiFirst)}`);
    console.log(`${"sets API, every page of 1,000 in turn".padEnd(43)}${secs(apiWalk.ms)}   ${apiWalk.value} pages   ${grew(apiWalk)}`);
    for (const [dataset, r] of results) console.log(`${`${dataset} CSV, exportStream() read directly`.padEnd(43)}${secs(r.ms)}   ${mb(r.value.bytes)}   peak RSS ${mb(r.peakRss)} (+${mb(r.peakRss - directBaseline)})`);
    console.log(`psql \\copy (same SELECT) to stdout csv     ${secs(psqlMs)}   ${mb(psql.bytes)}   ${rate(psqlMs)}`);
    console.log(`running server (BENCH_URL)                 ${remoteLine}`);
    console.log(`same bytes as psql (SHA-256)               ${same ? "yes" : `NO (export ${direct.value.sha256.slice(0, 12)}, http ${overHttp.value.sha256.slice(0, 12)}, psql ${psql.sha256.slice(0, 12)})`}`);
    console.log(`ratio export / psql                        ${ratio.toFixed(2)}x direct, ${httpRatio.toFixed(2)}x over HTTP   goal <= 2x: ${Math.max(ratio, httpRatio) <= 2 ? "met" : "NOT met"}`);
    console.log(`peak RSS while exporting (direct)          ${mb(peak)}   goal < 250 MB: ${peak < 250 * 1024 * 1024 ? "met" : "NOT met"}   (${mb(directBaseline)} before: +${mb(peak - directBaseline)})`);
    console.log(`peak RSS while exporting over HTTP         ${mb(overHttp.peakRss)}   (${mb(httpBaseline)} with the route and Prisma loaded: +${mb(overHttp.peakRss - httpBaseline)})`);
    console.log(`peak RSS of the process (getrusage)        ${mb(process.resourceUsage().maxRSS * 1024)}`);
  } finally {
    await server?.close();
    await closeExportPools();
    await disconnectDb();
    await db.drop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
