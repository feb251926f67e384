/**
 * Benchmark: the memory of a study archive's import (POST /api/v1/study-archives).
 *
 *   npx tsx bench/export/archive.ts
 *
 * In a throwaway database (created on DATABASE_URL's server, migrated,
 * dropped at the end) it writes a graded study by bulk SQL
 * (bench/export/seed.ts; BENCH_ROWS score rows, default 500,000), exports it
 * as a `study` archive to a temporary file, and then, each in a process of its
 * own so that the peaks do not mix:
 *  1. baseline: the document read whole and parsed, as the import did before
 *     it streamed (the body as one string, JSON.parse, the contract's zod
 *     schema); the import then held all of it while writing, so this is a
 *     lower bound of its peak;
 *  2. the import as the route handler runs it (importArchive), the file read as
 *     a stream, into the same database as a new study.
 * It prints the time and the peaks of the JS heap (sampled every 20 ms) and of
 * the resident memory of each, and checks that the new study holds every score.
 * BENCH_LIVE=1 also prints the live heap (after a full collection) every 2 s.
 */
import { spawn } from "node:child_process";
import { createReadStream, createWriteStream, readFileSync, statSync, unlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import pg from "pg";
import { itemsFor, seedExportStudy } from "./seed";
import { mb } from "../lib/measure";
import { throwawayDatabase } from "../lib/server";

const ROWS = Number(process.env.BENCH_ROWS ?? 500_000);

interface Peak {
  ms: number;
  heap: number;
  rss: number;
  heapBefore: number;
  rssBefore: number;
  note: string;
}

/** Peak heap and RSS while `fn` runs, sampled every 20 ms, and both before it (after a full collection). */
async function peaks(fn: () => Promise<string>): Promise<Peak> {
  v8.setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
  const heapBefore = process.memoryUsage().heapUsed;
  const rssBefore = process.memoryUsage.rss();
  let heap = heapBefore;
  let rss = rssBefore;
  const sample = () => {
    const m = process.memoryUsage();
    heap = Math.max(heap, m.heapUsed);
    rss = Math.max(rss, m.rss);
  };
  const timer = setInterval(sample, 20);
  const liveTimer = process.env.BENCH_LIVE
    ? setInterval(() => {
        (runInNewContext("gc") as () => void)();
        console.error(`live heap ${mb(process.memoryUsage().heapUsed)}`);
      }, 2000)
    : undefined;
  const t0 = performance.now();
  try {
    const note = await fn();
    sample();
    return { ms: performance.now() - t0, heap, rss, heapBefore, rssBefore, note };
  } finally {
    clearInterval(timer);
    if (liveTimer) clearInterval(liveTimer);
  }
}

async function phase(name: string, file: string, leadId: string): Promise<void> {
  // Both with what the route handler has loaded: Prisma, connected.
  const { getDb, disconnectDb } = await import("../../lib/db/client");
  await getDb().$queryRaw`SELECT 1`;
  if (name === "whole") {
    const { StudyArchive } = await import("../../lib/exports/contract");
    const p = await peaks(async () => {
      const text = readFileSync(file, "utf8");
      const parsed = StudyArchive.safeParse(JSON.parse(text));
      if (!parsed.success) throw new Error(JSON.stringify(parsed.error.issues.slice(0, 3)));
      return `${parsed.data.assignments.length.toLocaleString("en")} assignments held`;
    });
    await disconnectDb();
    process.stdout.write(JSON.stringify(p));
    return;
  }
  const { importArchive } = await import("../../lib/exports/archive-import");
  const p = await peaks(async () => {
    const imported = await importArchive({ body: createReadStream(file, { highWaterMark: 64 * 1024 }), actor: { id: leadId, role: "LEAD" } });
    const grades = await getDb().grade.count({ where: { assignment: { studyId: imported.id } } });
    return `${grades.toLocaleString("en")} scores imported`;
  });
  await disconnectDb();
  process.stdout.write(JSON.stringify(p));
}

function child(name: string, file: string, leadId: string, dbUrl: string): Promise<Peak> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [...process.execArgv, process.argv[1], "--phase", name, file, leadId], {
      env: { ...process.env, DATABASE_URL: dbUrl },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    proc.stdout.on("data", (d) => (out += d));
    proc.on("exit", (code) => (code === 0 ? resolve(JSON.parse(out) as Peak) : reject(new Error(`${name} exited with ${code}`))));
  });
}

async function main() {
  const db = await throwawayDatabase("archive_bench");
  process.env.DATABASE_URL = db.url;
  const file = path.join(os.tmpdir(), `clingrade-archive-bench-${process.pid}.json`);
  try {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const t0 = performance.now();
    const seeded = await seedExportStudy(client, { items: itemsFor(ROWS) });
    await client.end();
    console.log(`generated ${seeded.grades.toLocaleString("en")} score rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const { exportStream } = await import("../../lib/exports/service");
    const { closeExportPools } = await import("../../lib/exports/pool");
    const stream = await exportStream({ id: seeded.studyId, slug: seeded.slug, rubrics: ["SCORE", "SAFE_LLM"] }, { dataset: "study", format: "json" });
    await pipeline(Readable.fromWeb(stream as import("node:stream/web").ReadableStream<Uint8Array>), createWriteStream(file));
    await closeExportPools();
    console.log(`archive: ${mb(statSync(file).size)}`);

    const whole = await child("whole", file, seeded.leadId, db.url);
    const streamed = await child("stream", file, seeded.leadId, db.url);
    const row = (label: string, p: Peak) =>
      `| ${label} | ${(p.ms / 1000).toFixed(1)} s | ${mb(p.heap)} (+${mb(p.heap - p.heapBefore)}) | ${mb(p.rss)} (+${mb(p.rss - p.rssBefore)}) | ${p.note} |`;
    console.log("\n| | time | peak JS heap (over the start) | peak RSS (over the start) | |\n|---|---|---|---|---|");
    console.log(row("baseline: read whole, JSON.parse, zod (the import before)", whole));
    console.log(row("importArchive, streamed (parse, check and write)", streamed));
    console.log(`\nheap growth, streamed / whole: ${((streamed.heap - streamed.heapBefore) / (whole.heap - whole.heapBefore)).toFixed(2)}x`);
    if (!streamed.note.startsWith(seeded.grades.toLocaleString("en"))) throw new Error(`expected ${seeded.grades} scores, got: ${streamed.note}`);
  } finally {
    try {
      unlinkSync(file);
    } catch {
      /* not written */
    }
    await db.drop();
  }
}

const at = process.argv.indexOf("--phase");
if (at > 0) {
  phase(process.argv[at + 1], process.argv[at + 2], process.argv[at + 3]).then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
} else {
  main().then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
