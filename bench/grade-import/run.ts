/**
 * Benchmark: the grade import (lib/grade-import) against PostgreSQL's own bulk load.
 *
 *   npx tsx bench/grade-import/run.ts
 *
 * Generates a long-format grades CSV of 1,000,020 rows (33,334 items x 3
 * models x 2 raters x 5 criteria of the chattogovar rubric, 0-10) with a
 * comment on every row, sized to about 200 MB (BENCH_COMMENT_CHARS), then in
 * a throwaway database:
 *  1. imports it through the real code path (importGrades reading the file as
 *     a stream), in a child process of its own so its peak RSS is the import's;
 *  2. imports it again (every grade unchanged, nothing written);
 *  3. loads the same file with `psql \copy` into a bare table;
 *  4. when there is a production build, uploads it over HTTP (text/csv body)
 *     to the production server on the same database, into a second study,
 *     and reads the server's peak RSS.
 * Prints the times, the ratio import / \copy of the rows it wrote into keyed
 * copies of its tables (goal: within 2x; the bare table's for reference) and the peak
 * RSS (goal: under 300 MB).
 *
 * DATABASE_URL names the server (default postgresql://postgres@127.0.0.1:5432).
 * BENCH_ITEMS changes the size. BENCH_DIRECT=0 skips steps 1-3 (only the
 * upload over HTTP), BENCH_HTTP=0 skips step 4. BENCH_CHILD_FLAGS gives the importing process
 * Node flags (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
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
import { createApiToken } from "../../lib/auth/tokens";
import { disconnectDb, getDb } from "../../lib/db/client";
import { CHATTOGOVAR_RUBRIC } from "../../lib/demo/data/chattogovar/rubric";
import { guessLongMapping } from "../../lib/grade-import/mapping";
import { importGrades, type GradeImportResult } from "../../lib/grade-import/service";
import { fileTables } from "../../lib/grade-import/tables";
import { DEFAULT_THRESHOLDS } from "../../lib/rubrics/thresholds";
import { mulberry32 } from "../../lib/stats";
import path from "node:path";
import { copyIntoBareTable, copyIntoKeyedTables, memoryOf, scratchFile, settledMemory } from "../lib/bulk-file";
import { mb, measure } from "../lib/measure";
import { hasProductionBuild, startServer, throwawayDatabase } from "../lib/server";

const ITEMS = Number(process.env.BENCH_ITEMS ?? 33_334);
const MODELS = ["ChatTogoVar", "GPT-4o", "VarChat"];
const RATERS = ["primary", "secondary"];
const DIMENSIONS = CHATTOGOVAR_RUBRIC.dimensions.map((d) => d.name);
const COMMENT_CHARS = Number(process.env.BENCH_COMMENT_CHARS ?? 150);
const PORT = Number(process.env.BENCH_PORT ?? 3413);
const WORDS = "the answer cites the variant correctly but omits population frequencies, and the clinical significance is stated without a source".split(" ");

function comment(rng: () => number): string {
  const parts: string[] = [];
  let length = 0;
  while (length < COMMENT_CHARS) {
    const w = WORDS[Math.floor(rng() * WORDS.length)];
    parts.push(w);
    length += w.length + 1;
  }
  const s = parts.join(" ").slice(0, COMMENT_CHARS);
  return rng() < 0.05 ? `"Says ""${parts[0]}"", then:\n${s}"` : s.includes(",") ? `"${s}"` : s;
}

async function generate(file: string): Promise<{ rows: number; bytes: number }> {
  const rng = mulberry32(20_261_203);
  const out = createWriteStream(file);
  out.write("item_id,model,rater,dimension,score,comment\n");
  let rows = 0;
  for (let i = 1; i <= ITEMS; i++) {
    let chunk = "";
    for (const m of MODELS)
      for (const r of RATERS)
        for (const d of DIMENSIONS) {
          chunk += `V${i},${m},${r},${d},${Math.floor(rng() * 11)},${comment(rng)}\n`;
          rows++;
        }
    if (!out.write(chunk)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
  return { rows, bytes: (await stat(file)).size };
}

async function viaProductionServer(file: string, bytes: number, leadId: string, studyId: string, url: string) {
  if (!hasProductionBuild()) return "skipped (no production build: run `npm run build` first)";
  const { token } = await createApiToken(leadId, { name: "bench" });
  await disconnectDb();
  const server = await startServer(url, PORT, { IMPORT_MAX_BYTES: String(2 * bytes) });
  try {
    const started = memoryOf(server.proc.pid!);
    await fetch(`http://127.0.0.1:${PORT}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } });
    const before = await settledMemory(server.proc.pid!);
    const t0 = performance.now();
    const res = await fetch(`http://127.0.0.1:${PORT}/api/v1/studies/${studyId}/grade-imports`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "text/csv", "content-length": String(bytes) },
      body: Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>,
      duplex: "half",
    } as RequestInit);
    const body = await res.text();
    const ms = performance.now() - t0;
    const after = memoryOf(server.proc.pid!);
    if (!res.ok) return `HTTP ${res.status}: ${body.slice(0, 300)}`;
    return `${(ms / 1000).toFixed(2)} s (${(JSON.parse(body) as GradeImportResult).created.toLocaleString("en")} created)   server peak RSS ${mb(after?.peak ?? NaN)} (${mb(started?.now ?? NaN)} once started, ${mb(before?.now ?? NaN)} idle before the upload: +${mb((after?.peak ?? NaN) - (before?.now ?? NaN))}, goal <= +150 MB)`;
  } finally {
    await server.stop();
  }
}

async function child() {
  const { file, studyId, leadId } = JSON.parse(process.env.BENCH_CHILD as string) as { file: string; studyId: string; leadId: string };
  const header = "item_id,model,rater,dimension,score,comment".split(",");
  const mapping = guessLongMapping(header)!;
  const before = process.memoryUsage.rss();
  const runs: { ms: number; peakRss: number; phases: string; result: GradeImportResult }[] = [];
  for (let i = 0; i < 2; i++) {
    const phases: string[] = [];
    const m = await measure(() =>
      importGrades({ study: { id: studyId }, actorId: leadId, mapping, tables: fileTables(file, "csv"), onPhase: (p, ms) => phases.push(`${p} ${(ms / 1000).toFixed(2)} s`) }),
    );
    runs.push({ ms: m.ms, peakRss: m.peakRss, phases: phases.join(", "), result: m.value });
  }
  process.stdout.write(JSON.stringify({ before, runs, maxRss: process.resourceUsage().maxRSS * 1024 }));
}

async function makeStudy(leadId: string, name: string) {
  return getDb().study.create({
    data: {
      name,
      slug: `grade-import-bench-${randomBytes(3).toString("hex")}`,
      rubrics: [CHATTOGOVAR_RUBRIC],
      repetitions: 1,
      thresholds: DEFAULT_THRESHOLDS,
      createdById: leadId,
      members: { create: { userId: leadId, role: "LEAD" } },
    },
  });
}

interface ChildRun {
  ms: number;
  peakRss: number;
  phases: string;
  result: GradeImportResult;
}

/** The import and the re-import in a child process of their own (its peak RSS is theirs). */
function importDirect(file: string, studyId: string, leadId: string, url: string, rows: number) {
  const run = spawnSync(process.execPath, [...(process.env.BENCH_CHILD_FLAGS ?? "").split(" ").filter(Boolean), "--import", "tsx", fileURLToPath(import.meta.url)], {
    env: { ...process.env, DATABASE_URL: url, BENCH_CHILD: JSON.stringify({ file, studyId, leadId }) },
    encoding: "utf8",
    maxBuffer: 16 * 1024 * 1024,
    stdio: ["ignore", "pipe", "inherit"],
  });
  if (run.status !== 0) throw new Error(`the import process failed (status ${run.status})`);
  const out = JSON.parse(run.stdout) as { before: number; runs: ChildRun[]; maxRss: number };
  const [first, again] = out.runs;
  if (first.result.created !== rows) throw new Error(`expected ${rows} created, got ${first.result.created}`);
  if (again.result.unchanged !== rows) throw new Error(`expected ${rows} unchanged, got ${again.result.unchanged}`);
  return { out, first, again };
}

async function main() {
  const { file, dispose } = await scratchFile("clingrade-bench-grades-", "grades.csv");
  const database = await throwawayDatabase("clingrade_bench_grades");
  const url = database.url;
  process.env.DATABASE_URL = url;
  try {
    const gen = await measure(() => generate(file));
    console.log(`generated ${gen.value.rows.toLocaleString("en")} grade rows, ${mb(gen.value.bytes)} in ${(gen.ms / 1000).toFixed(1)} s`);
    const db = getDb();
    const lead = await db.user.create({ data: { email: `bench-${randomBytes(3).toString("hex")}@bench.clingrade.org`, name: "Bench lead", role: "LEAD", passwordHash: "-" } });
    const study = await makeStudy(lead.id, "Grade import benchmark");
    const second = await makeStudy(lead.id, "Grade import benchmark over HTTP");
    await disconnectDb();

    const direct = process.env.BENCH_DIRECT === "0" ? null : importDirect(file, study.id, lead.id, url, gen.value.rows);
    const copy = direct ? await copyIntoBareTable(url, file, "item_id text, model text, rater text, dimension text, score int, comment text") : null;
    const inStudy = `"studyId" = '${study.id}'`;
    const keyed = direct
      ? await copyIntoKeyedTables(
          url,
          [
            { name: "QaItem", where: inStudy },
            { name: "ResponseSet", where: inStudy },
            { name: "Assignment", where: inStudy },
            { name: "Grade", where: `"assignmentId" IN (SELECT id FROM "Assignment" WHERE ${inStudy})` },
          ],
          path.dirname(file),
        )
      : null;

    const http = process.env.BENCH_HTTP === "0" ? "skipped (BENCH_HTTP=0)" : await viaProductionServer(file, gen.value.bytes, lead.id, second.id, url);
    console.log("");
    if (direct && copy && keyed) {
      const { out, first, again } = direct;
      const ratio = first.ms / keyed.ms;
      console.log(`grade import (importGrades, streamed file)  ${(first.ms / 1000).toFixed(2)} s   ${Math.round(gen.value.rows / (first.ms / 1000)).toLocaleString("en")} rows/s   (${first.phases})`);
      console.log(`re-import, all unchanged                    ${(again.ms / 1000).toFixed(2)} s   (${again.phases})`);
      console.log(`psql \\copy into a bare table              ${(copy.ms / 1000).toFixed(2)} s   (${copy.output})`);
      const counts = Object.entries(keyed.rows).map(([t, n]) => `${n.toLocaleString("en")} ${t}`).join(", ");
      console.log(`psql \\copy of the rows it wrote, keyed    ${(keyed.ms / 1000).toFixed(2)} s   (${counts}, into copies with the same keys, indexes and foreign keys, one transaction: ${keyed.perTable})`);
      console.log(`ratio import / keyed \\copy                  ${ratio.toFixed(2)}x   goal <= 2x: ${ratio <= 2 ? "met" : "NOT met"}   (against the bare table: ${(first.ms / copy.ms).toFixed(2)}x)`);
      console.log(`peak RSS sampled per import                 ${mb(first.peakRss)} first, ${mb(again.peakRss)} re-import`);
      console.log(`peak RSS of the importing process           ${mb(out.maxRss)}   goal < 300 MB: ${out.maxRss < 300 * 1024 * 1024 ? "met" : "NOT met"}   (${mb(out.before)} before the first import)`);
    } else console.log("direct import and \\copy                    skipped (BENCH_DIRECT=0)");
    console.log(`over HTTP, production server                ${http}`);
    console.log(`machine load average (1 min)                ${os.loadavg()[0].toFixed(2)} on ${os.cpus().length} CPUs`);
  } finally {
    await disconnectDb();
    await database.drop();
    await dispose();
  }
}

const entry = process.env.BENCH_CHILD ? child : main;
entry().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
