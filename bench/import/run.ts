/**
 * Benchmark: the study import (lib/import) against PostgreSQL's own bulk load.
 *
 *   npx tsx bench/import/run.ts
 *
 * Generates 10,000 questions x 3 models x 3 repetitions = 90,000 answer rows
 * (answers of 500-1,500 characters, some quoted over several lines) as a CSV
 * file, then in a throwaway database:
 *  1. imports it through the real code path (importIntoStudy, reading the file
 *     as a stream, exactly as the route handler passes the request body);
 *  2. imports it again (every answer compared, nothing written);
 *  3. loads the same file with `psql \copy` into a plain table;
 *  4. when there is a production build (`npm run build`), uploads it over HTTP
 *     to the production server started on the same database (as `npm start`
 *     runs it, with IMPORT_MAX_BYTES above the file's size), into a second
 *     study: POST /api/v1/studies/{id}/import with a lead's Bearer token, the
 *     body streamed from the file; it prints the time against the direct
 *     import and the server's peak RSS;
 *  5. with BENCH_URL and BENCH_TOKEN (a lead's API token) set, also uploads it
 *     over HTTP to a running server (BENCH_STUDY: a study id there; else one is
 *     created through POST /api/v1/studies); that server needs IMPORT_MAX_BYTES
 *     above the file's size (about 120 MB).
 * Prints the times, the ratio import / \copy (goal: within 3x) and the peak
 * RSS of this process (goal: under 300 MB).
 *
 * DATABASE_URL names the server (default postgresql://postgres@127.0.0.1:5432);
 * the benchmark creates and drops its own database there. BENCH_ITEMS changes the size.
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { stat } from "node:fs/promises";
import { once } from "node:events";
import os from "node:os";
import { performance } from "node:perf_hooks";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { disconnectDb, getDb } from "../../lib/db/client";
import { createApiToken } from "../../lib/auth/tokens";
import { importIntoStudy, type ImportResult } from "../../lib/import/service";
import { templateRubrics } from "../../lib/rubrics/study-rubrics";
import { DEFAULT_THRESHOLDS } from "../../lib/rubrics/thresholds";
import { mulberry32 } from "../../lib/stats";
import { copyIntoBareTable, memoryOf, scratchFile } from "../lib/bulk-file";
import { mb, measure } from "../lib/measure";
import { hasProductionBuild, startServer, throwawayDatabase } from "../lib/server";

const ITEMS = Number(process.env.BENCH_ITEMS ?? 10_000);
const MODELS = ["gpt-4o", "claude-3.5-sonnet", "llama-3.1-70b"];
const N = 3;
const PORT = Number(process.env.BENCH_PORT ?? 3412);
/** Pairs of imports with and without reference answers (BENCH_METRIC_PAIRS; 0 skips them). */
const METRIC_PAIRS = Number(process.env.BENCH_METRIC_PAIRS ?? 2);
const SPECIALTIES = ["Ophthalmology", "Anesthesia", "Medication safety", "Cardiology", "Nephrology", "Dermatology", "Pediatrics", "Oncology"];
const WORDS = (
  "the patient presents with acute symptoms and a history of hypertension diabetes renal impairment; " +
  "recommended management includes monitoring blood pressure, adjusting the dose, reviewing contraindications, " +
  "and referral to a specialist if symptoms persist. evidence from randomized trials suggests benefit, " +
  "although guidelines differ on thresholds for treatment and follow-up intervals in elderly patients"
).split(" ");

function quote(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** A plausible answer of 500-1,500 characters; one in five spans several lines, one in ten quotes something. */
function answer(rng: () => number): string {
  const target = 500 + Math.floor(rng() * 1000);
  const parts: string[] = [];
  let length = 0;
  while (length < target) {
    const w = WORDS[Math.floor(rng() * WORDS.length)];
    parts.push(w);
    length += w.length + 1;
  }
  let s = parts.join(" ").slice(0, target);
  if (rng() < 0.2) s = s.replace(/; /, ";\n- ").replace(/, /, ",\n- ");
  if (rng() < 0.1) s = `Per the "${parts[3]}" guidance: ${s}`;
  return s;
}

/** `withReferences` false: the same rows with an empty reference_answer (no metrics to compute). */
async function generate(file: string, withReferences = true): Promise<{ rows: number; bytes: number }> {
  const rng = mulberry32(20_260_101);
  const out = createWriteStream(file);
  out.write("item_id,specialty,question,reference_answer,model,repetition,response,model_version,temperature\n");
  let rows = 0;
  for (let i = 1; i <= ITEMS; i++) {
    const q = `What is the recommended management of case ${i}, a patient with ${WORDS[i % WORDS.length]} findings?`;
    const drawn = answer(rng).slice(0, 300);
    const ref = withReferences ? drawn : "";
    const specialty = SPECIALTIES[i % SPECIALTIES.length];
    let chunk = "";
    for (const m of MODELS) {
      for (let r = 1; r <= N; r++) {
        chunk += `Q${String(i).padStart(5, "0")},${specialty},${quote(q)},${quote(ref)},${m},${r},${quote(answer(rng))},2024-06,0.7\n`;
        rows++;
      }
    }
    if (!out.write(chunk)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
  return { rows, bytes: (await stat(file)).size };
}

/** Uploads the file to a server's import route, into `studyId` or a study it creates through the API. */
async function upload(base: string, token: string, file: string, bytes: number, studyId?: string): Promise<{ ms: number; created: number } | string> {
  const auth = { authorization: `Bearer ${token}` };
  if (!studyId) {
    const res = await fetch(new URL("/api/v1/studies", base), {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ name: `Import benchmark ${new Date().toISOString()}`, rubrics: ["SCORE"], repetitions: N, gradersPerSet: 2 }),
    });
    if (res.status !== 201) return `could not create a study on ${base}: ${res.status} ${await res.text()}`;
    studyId = ((await res.json()) as { id: string }).id;
  }
  const t0 = performance.now();
  const res = await fetch(new URL(`/api/v1/studies/${studyId}/import`, base), {
    method: "POST",
    headers: { ...auth, "content-type": "text/csv", "content-length": String(bytes) },
    body: Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>,
    duplex: "half",
  } as RequestInit);
  const body = await res.text();
  const ms = performance.now() - t0;
  return res.ok ? { ms, created: (JSON.parse(body) as { created: number }).created } : `HTTP ${res.status}: ${body.slice(0, 300)}`;
}

async function viaRunningServer(file: string, bytes: number): Promise<string> {
  const base = process.env.BENCH_URL;
  const token = process.env.BENCH_TOKEN;
  if (!base || !token) return "skipped (set BENCH_URL and BENCH_TOKEN to upload to a running server)";
  const r = await upload(base, token, file, bytes, process.env.BENCH_STUDY);
  return typeof r === "string" ? r : `${(r.ms / 1000).toFixed(2)} s (${r.created} created)`;
}

/**
 * The same file over HTTP into the production server on the same database
 * (as `npm start` runs it), into a second study: Next's request handling, the
 * proxy, the route's guard and the body as a web stream are all in the figure.
 */
async function viaProductionServer(file: string, bytes: number, leadId: string, url: string): Promise<{ ms: number; created: number; peak: number; before: number } | string> {
  if (!hasProductionBuild()) return "skipped (no production build: run `npm run build` first)";
  const { token } = await createApiToken(leadId, { name: "bench" });
  await disconnectDb();
  const server = await startServer(url, PORT, { IMPORT_MAX_BYTES: String(2 * bytes) });
  try {
    // A first request loads the route and Prisma, so the peak below is the upload's, not the server's start.
    await fetch(`http://127.0.0.1:${PORT}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } });
    const before = memoryOf(server.proc.pid!);
    const r = await upload(`http://127.0.0.1:${PORT}`, token, file, bytes);
    const after = memoryOf(server.proc.pid!);
    if (typeof r === "string") return r;
    return { ...r, peak: after?.peak ?? NaN, before: before?.now ?? NaN };
  } finally {
    await server.stop();
  }
}

/**
 * The imports, run in a child process of their own so that its peak RSS is
 * the import's and not the generator's or the harness's.
 */
async function child() {
  const { file, bytes, studyId, leadId, bare, metricStudies } = JSON.parse(process.env.BENCH_CHILD as string) as {
    file: string;
    bytes: number;
    studyId: string;
    leadId: string;
    bare: { file: string; bytes: number };
    metricStudies: { withRefs: string; without: string }[];
  };
  // Read with pg, not Prisma: the figure is the import's memory, not the ORM's (about 60 MB more in a server).
  const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await c.connect();
  const { rows } = await c.query<{ id: string; status: "DRAFT" | "OPEN" | "CLOSED"; repetitions: number }>(`SELECT id, status, repetitions FROM "Study" WHERE id = $1`, [studyId]);
  await c.end();
  const study = rows[0];
  const before = process.memoryUsage.rss();
  const importOnce = async (into: typeof study, f: { file: string; bytes: number }) => {
    const phases: string[] = [];
    const m = await measure(() =>
      importIntoStudy({
        study: into,
        actorId: leadId,
        requestId: "bench",
        contentType: "text/csv",
        contentLength: f.bytes,
        // 90,000 realistic answers make a file of about 120 MB, over the 50 MB
        // default (IMPORT_MAX_BYTES): the benchmark measures speed, not the limit.
        maxBytes: 1024 * 1024 * 1024,
        body: createReadStream(f.file, { highWaterMark: 64 * 1024 }),
        onPhase: (phase, ms) => phases.push(`${phase} ${(ms / 1000).toFixed(2)} s`),
      }),
    );
    return { ms: m.ms, peakRss: m.peakRss, phases: phases.join(", "), result: m.value };
  };
  const runs: { ms: number; peakRss: number; phases: string; result: ImportResult }[] = [];
  for (let i = 0; i < 2; i++) runs.push(await importOnce(study, { file, bytes }));
  // Reference metrics' cost (issue #33): the same answers into new studies with and without reference
  // answers, alternating which goes first so the machine's drift falls on both sides.
  // The importing process's CPU time (all its threads; the metrics are computed here) moves far less
  // with the shared machine's load than the wall time does, so both are reported. PostgreSQL's CPU is
  // left out: /proc cannot tell this run's backends from other work on the same server.
  const metrics: { withRefs: number[]; without: number[]; cpuWithRefs: number[]; cpuWithout: number[] } = { withRefs: [], without: [], cpuWithRefs: [], cpuWithout: [] };
  for (const [i, pair] of metricStudies.entries()) {
    const order = i % 2 === 0 ? (["without", "withRefs"] as const) : (["withRefs", "without"] as const);
    for (const side of order) {
      const cpu0 = process.cpuUsage();
      const r = await importOnce({ ...study, id: pair[side] }, side === "withRefs" ? { file, bytes } : bare);
      const cpu = process.cpuUsage(cpu0);
      if (r.result.created !== runs[0].result.created) throw new Error(`metrics run: expected ${runs[0].result.created} created, got ${r.result.created}`);
      metrics[side].push(r.ms);
      metrics[side === "withRefs" ? "cpuWithRefs" : "cpuWithout"].push((cpu.user + cpu.system) / 1000);
    }
  }
  process.stdout.write(JSON.stringify({ before, runs, metrics, maxRss: process.resourceUsage().maxRSS * 1024 }));
}

async function main() {
  const { file, dispose } = await scratchFile("clingrade-bench-import-", "import.csv");
  const bareScratch = await scratchFile("clingrade-bench-import-", "no-references.csv");
  const database = await throwawayDatabase("clingrade_bench_import");
  const url = database.url;
  process.env.DATABASE_URL = url;
  try {
    const gen = await measure(() => generate(file));
    const bare = await generate(bareScratch.file, false);
    console.log(
      `generated ${gen.value.rows.toLocaleString("en")} answer rows (${ITEMS.toLocaleString("en")} items x ${MODELS.length} models x ${N}), ${mb(gen.value.bytes)} in ${(gen.ms / 1000).toFixed(1)} s`,
    );

    const db = getDb();
    const lead = await db.user.create({ data: { email: `bench-${randomBytes(3).toString("hex")}@bench.clingrade.org`, name: "Bench lead", role: "LEAD", passwordHash: "-" } });
    const newStudy = (name: string) =>
      db.study.create({
        data: {
          name,
          slug: `import-bench-${randomBytes(3).toString("hex")}`,
          rubrics: templateRubrics(["SCORE"], N),
          repetitions: N,
          thresholds: DEFAULT_THRESHOLDS,
          createdById: lead.id,
          members: { create: { userId: lead.id, role: "LEAD" } },
        },
      });
    const study = await newStudy("Import benchmark");
    const metricStudies: { withRefs: string; without: string }[] = [];
    for (let i = 0; i < METRIC_PAIRS; i++) metricStudies.push({ withRefs: (await newStudy(`With references ${i}`)).id, without: (await newStudy(`Without references ${i}`)).id });
    await disconnectDb();

    const run = spawnSync(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url)], {
      env: {
        ...process.env,
        DATABASE_URL: url,
        BENCH_CHILD: JSON.stringify({ file, bytes: gen.value.bytes, studyId: study.id, leadId: lead.id, bare: { file: bareScratch.file, bytes: bare.bytes }, metricStudies }),
      },
      encoding: "utf8",
      maxBuffer: 16 * 1024 * 1024,
    });
    if (run.status !== 0) throw new Error(`the import process failed: ${run.stderr}`);
    const out = JSON.parse(run.stdout) as {
      before: number;
      runs: { ms: number; peakRss: number; phases: string; result: ImportResult }[];
      metrics: { withRefs: number[]; without: number[]; cpuWithRefs: number[]; cpuWithout: number[] };
      maxRss: number;
    };
    const [first, again] = out.runs;
    if (first.result.created !== gen.value.rows) throw new Error(`expected ${gen.value.rows} created, got ${first.result.created}`);
    if (again.result.unchanged !== gen.value.rows) throw new Error(`expected ${gen.value.rows} unchanged, got ${again.result.unchanged}`);

    const copy = await copyIntoBareTable(
      url,
      file,
      "item_id text, specialty text, question text, reference_answer text, model text, repetition int, response text, model_version text, temperature float8",
    );

    const production = await viaProductionServer(file, gen.value.bytes, lead.id, url);
    if (typeof production !== "string" && production.created !== gen.value.rows) throw new Error(`over HTTP: expected ${gen.value.rows} created, got ${production.created}`);
    const http = await viaRunningServer(file, gen.value.bytes);
    const ratio = first.ms / copy.ms;
    console.log("");
    console.log(`import (importIntoStudy, streamed file)   ${(first.ms / 1000).toFixed(2)} s   ${Math.round(gen.value.rows / (first.ms / 1000)).toLocaleString("en")} rows/s   (${first.phases})`);
    console.log(`re-import, all unchanged                  ${(again.ms / 1000).toFixed(2)} s   (${again.phases})`);
    console.log(`peak RSS sampled per import               ${mb(first.peakRss)} first, ${mb(again.peakRss)} re-import`);
    console.log(`psql \\copy into a plain table            ${(copy.ms / 1000).toFixed(2)} s   (${copy.output})`);
    console.log(
      `import over HTTP, production server       ${
        typeof production === "string"
          ? production
          : `${(production.ms / 1000).toFixed(2)} s   ${(production.ms / first.ms).toFixed(2)}x the direct import   server peak RSS ${mb(production.peak)} (${mb(production.before)} before the upload)`
      }`,
    );
    console.log(`import over HTTP, running server          ${http}`);
    console.log(`ratio import / \\copy                      ${ratio.toFixed(2)}x   goal <= 2x: ${ratio <= 2 ? "met" : "NOT met"}`);
    console.log(
      `peak RSS of the importing process         ${mb(out.maxRss)}   goal < 300 MB: ${out.maxRss < 300 * 1024 * 1024 ? "met" : "NOT met"}   (${mb(out.before)} before the first import)`,
    );
    const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    if (out.metrics.withRefs.length) {
      const added = avg(out.metrics.withRefs) / avg(out.metrics.without) - 1;
      const secs = (xs: number[]) => xs.map((x) => (x / 1000).toFixed(2)).join(" / ");
      console.log(`reference metrics: with references        ${secs(out.metrics.withRefs)} s   without ${secs(out.metrics.without)} s (new studies, alternating)`);
      console.log(`reference metrics add                     ${(added * 100).toFixed(1)}%   goal <= 30%: ${added <= 0.3 ? "met" : "NOT met"}`);
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
      const addedMedian = median(out.metrics.withRefs) / median(out.metrics.without) - 1;
      console.log(`reference metrics add (lower medians)     ${(addedMedian * 100).toFixed(1)}%`);
      if (out.metrics.cpuWithRefs.length) {
        const addedCpu = avg(out.metrics.cpuWithRefs) / avg(out.metrics.cpuWithout) - 1;
        console.log(`CPU of the import process: with references ${secs(out.metrics.cpuWithRefs)} s   without ${secs(out.metrics.cpuWithout)} s`);
        console.log(`reference metrics add to the import's CPU ${(addedCpu * 100).toFixed(1)}%   goal <= 30%: ${addedCpu <= 0.3 ? "met" : "NOT met"}`);
      }
    }
    console.log(`machine load average (1 min)              ${os.loadavg()[0].toFixed(2)} on ${os.cpus().length} CPUs`);
  } finally {
    await disconnectDb();
    await database.drop();
    await dispose();
    await bareScratch.dispose();
  }
}

const entry = process.env.BENCH_CHILD ? child : main;
entry().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
