/**
 * Benchmark: memory and others' latency during hostile grade uploads.
 *
 *   npx tsx bench/grade-import/hostile.ts
 *
 * Builds the files of issue 32 (a zip of 100 MB of shared strings weighing
 * under 1 MB; 3,000,000 one-cell rows with xl/workbook.xml stored after the
 * sheet; a 256 MB cell; a long CSV of 20,000 ids of 199 characters with the
 * rewrite rule (?:a+){1,300}$) and uploads each as a dry run, with the default limits.
 * With a production build (`npm run build`), each goes to a freshly started
 * production server and its peak RSS (VmHWM) is read against its idle RSS;
 * without one, each runs through the route handler in a child process of its
 * own, whose peak RSS is read the same way. Meanwhile GET /api/v1/me is asked
 * every 25 ms: its p99 is printed. Goals: peak under 300 MB above idle, p99
 * under 500 ms, every file refused with a 413/422 naming a setting.
 *
 * DATABASE_URL names the server (default postgresql://postgres@127.0.0.1:5432).
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createApiToken } from "../../lib/auth/tokens";
import { disconnectDb, getDb } from "../../lib/db/client";
import { CHATTOGOVAR_RUBRIC } from "../../lib/demo/data/chattogovar/rubric";
import { DEFAULT_THRESHOLDS } from "../../lib/rubrics/thresholds";
import { bigCellSheet, manyRowsSheet, sharedStringsXml, workbook } from "../../tests/helpers/hostile-zip";
import { memoryOf, scratchFile, settledMemory } from "../lib/bulk-file";
import { mb } from "../lib/measure";
import { hasProductionBuild, startServer, throwawayDatabase } from "../lib/server";

const PORT = Number(process.env.BENCH_PORT ?? 3414);
const WIDE = { format: "wide", item: "item", model: "model", raters: [{ column: "R1" }], sheets: { Sheet1: "accuracy" } };
const LONG = { format: "long", item: "item_id", model: "model", rater: "rater", dimension: "dimension", score: "score" };

interface Case {
  name: string;
  file: string;
  filename: string;
  mapping: unknown;
}

interface Outcome {
  status: number;
  error: string;
  ms: number;
  idle: number;
  peak: number;
  p99: number;
  probes: number;
}

/** Uploads one file to `base` while probing GET /me; `memory` reads the serving process's RSS. */
async function upload(base: string, token: string, studyId: string, c: Case, memory: () => { peak: number; now: number } | null, send?: (req: Request) => Promise<Response>): Promise<Outcome> {
  const fetchIt = send ?? ((req: Request) => fetch(req));
  const auth = { authorization: `Bearer ${token}` };
  await fetchIt(new Request(`${base}/api/v1/me`, { headers: auth }));
  const idle = memory()?.now ?? NaN;
  const latencies: number[] = [];
  let done = false;
  const probe = (async () => {
    while (!done) {
      const t0 = performance.now();
      await (await fetchIt(new Request(`${base}/api/v1/me`, { headers: auth }))).text();
      latencies.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 25));
    }
  })();
  const form = new FormData();
  form.set("file", new Blob([new Uint8Array(readFileSync(c.file))]), c.filename);
  form.set("mapping", JSON.stringify(c.mapping));
  const t0 = performance.now();
  const res = await fetchIt(new Request(`${base}/api/v1/studies/${studyId}/grade-imports?dryRun=1`, { method: "POST", headers: auth, body: form }));
  const body = (await res.json()) as { error?: string };
  const ms = performance.now() - t0;
  done = true;
  await probe;
  const sorted = latencies.sort((a, b) => a - b);
  return { status: res.status, error: body.error ?? "", ms, idle, peak: memory()?.peak ?? NaN, p99: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))], probes: sorted.length };
}

async function child() {
  const { c, token, studyId } = JSON.parse(process.env.BENCH_CHILD as string) as { c: Case; token: string; studyId: string };
  const { POST } = await import("../../app/api/v1/studies/[id]/grade-imports/route");
  const { GET } = await import("../../app/api/v1/me/route");
  const send = (req: Request) => {
    const path = new URL(req.url).pathname;
    return path.endsWith("/me") ? GET(req, { params: Promise.resolve({}) }) : POST(req, { params: Promise.resolve({ id: studyId }) });
  };
  const memory = () => ({ peak: process.resourceUsage().maxRSS * 1024, now: process.memoryUsage.rss() });
  process.stdout.write(JSON.stringify(await upload("http://localhost", token, studyId, c, memory, send)));
}

async function main() {
  const db0 = await throwawayDatabase("hostile_upload_bench");
  const scratch = await scratchFile("clingrade-hostile-", "x");
  process.env.DATABASE_URL = db0.url;
  try {
    const db = getDb();
    const lead = await db.user.create({ data: { email: `bench-${randomBytes(3).toString("hex")}@bench.clingrade.org`, name: "Bench lead", role: "LEAD", passwordHash: "-" } });
    const study = await db.study.create({
      data: { name: "Hostile uploads", slug: `hostile-${randomBytes(3).toString("hex")}`, rubrics: [CHATTOGOVAR_RUBRIC], repetitions: 1, thresholds: DEFAULT_THRESHOLDS, createdById: lead.id, members: { create: { userId: lead.id, role: "LEAD" } } },
    });
    const { token } = await createApiToken(lead.id, { name: "bench" });
    await disconnectDb();
    const at = (name: string) => scratch.file.replace(/x$/, name);
    const ids = Array.from({ length: 20_000 }, (_, i) => `${"a".repeat(193)}${String(i).padStart(5, "0")}b`);
    const cases: Case[] = [];
    const add = (name: string, filename: string, data: Buffer, mapping: unknown) => {
      writeFileSync(at(filename), data);
      cases.push({ name: `${name} (${mb(data.length)} sent)`, file: at(filename), filename, mapping });
    };
    add("100 MB of shared strings", "strings.xlsx", workbook(manyRowsSheet(10), sharedStringsXml(800_000, 120)), WIDE);
    add("3,000,000 rows, workbook.xml last", "rows.xlsx", workbook(manyRowsSheet(3_000_000)), WIDE);
    add("a 256 MB cell", "cell.xlsx", workbook(bigCellSheet(256 * 1024 * 1024)), WIDE);
    add("(?:a+){1,300}$ over 20,000 ids of 199 chars", "ids.csv", Buffer.from(`item_id,model,rater,dimension,score\n${ids.map((id) => `${id},A,p,accuracy,5`).join("\n")}\n`), { ...LONG, itemRewrites: [{ match: "(?:a+){1,300}$", replace: "x" }] });

    const http = hasProductionBuild() && process.env.BENCH_HTTP !== "0";
    console.log(http ? "production server, one fresh start per file" : "no production build: the route handlers in a child process per file");
    for (const c of cases) {
      let o: Outcome;
      if (http) {
        const server = await startServer(db0.url, PORT, {});
        try {
          // Idle: once what the server starts in the background has loaded.
          await settledMemory(server.proc.pid!);
          o = await upload(`http://127.0.0.1:${PORT}`, token, study.id, c, () => memoryOf(server.proc.pid!));
        } finally {
          await server.stop();
        }
      } else {
        const run = spawnSync(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url)], {
          env: { ...process.env, DATABASE_URL: db0.url, BENCH_CHILD: JSON.stringify({ c, token, studyId: study.id }) },
          encoding: "utf8",
          maxBuffer: 1 << 20,
        });
        if (run.status !== 0) throw new Error(run.stderr);
        o = JSON.parse(run.stdout.slice(run.stdout.lastIndexOf('{"status"'))) as Outcome;
      }
      console.log(
        `${c.name}: HTTP ${o.status} in ${(o.ms / 1000).toFixed(2)} s, peak ${mb(o.peak - o.idle)} above idle (${mb(o.idle)}), GET /me p99 ${o.p99.toFixed(0)} ms over ${o.probes}: ${o.error.slice(0, 110)}`,
      );
    }
  } finally {
    await disconnectDb();
    await scratch.dispose();
    await db0.drop();
  }
}

const entry = process.env.BENCH_CHILD ? child : main;
entry().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
