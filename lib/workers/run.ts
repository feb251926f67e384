import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import v8 from "node:v8";
import { Worker, type Transferable } from "node:worker_threads";
import { appDir } from "@/lib/build/app-dir";
import { ApiError } from "@/lib/errors/api-error";
import { errorFromWorker, type WorkerReply } from "./protocol";
import { refillSpare, takeSpare, WARM_JOBS } from "./spare";

/**
 * Runs one job (an import) in a worker thread of its own, so that reading and
 * checking a file never holds the event loop that answers everyone else, and
 * the file's garbage lives in a heap with a ceiling (IMPORT_WORKER_HEAP_MB):
 * a file that needs more stops its own import with a 413, not the server.
 *
 * The production build bundles each job's entry beside start.mjs
 * (scripts/build-standalone.ts); a checkout (development, tests) bundles it
 * on first use (bundleFromCheckout).
 */

export const WORKER_ENTRIES = {
  "grade-import": "lib/grade-import/worker.ts",
  "answer-import": "lib/import/worker.ts",
  "archive-import": "lib/exports/archive-worker.ts",
  screen: "lib/screening/worker.ts",
  planner: "lib/planner/worker.ts",
  "grader-sensitivity": "lib/grader-quality/sensitivity-worker.ts",
  "pairwise-stats": "lib/analytics/pairwise-worker.ts",
  "report-checksums": "lib/report/checksum-worker.ts",
} as const;

export type WorkerJob = keyof typeof WORKER_ENTRIES;

/** Heap ceilings of the jobs that are analyses, not uploads (those take IMPORT_WORKER_HEAP_MB). */
export const JOB_HEAP_MB: Partial<Record<WorkerJob, number>> = { "pairwise-stats": 512 };

export const DEFAULT_WORKER_HEAP_MB = 128;

export function workerHeapMb(): number {
  const configured = Number(process.env.IMPORT_WORKER_HEAP_MB);
  return Number.isFinite(configured) && configured >= 32 ? Math.floor(configured) : DEFAULT_WORKER_HEAP_MB;
}

/** The bundled entry's file name beside start.mjs. */
export function bundledEntryName(job: WorkerJob): string {
  return `worker-${job}.mjs`;
}

// The paths below are made at run time; the comments keep Next's bundler from tracing the whole checkout for them.
const fromCheckout = new Map<WorkerJob, Promise<string>>();

/**
 * A checkout has no production bundle: the job's entry is bundled once per
 * process with esbuild (a development dependency), as the build does, into
 * node_modules/.cache (so its packages resolve to the checkout's), named by
 * its content. A worker then starts in tens of milliseconds, not the second
 * a TypeScript loader takes to compile the module graph in every new thread.
 */
async function bundleFromCheckout(job: WorkerJob): Promise<string> {
  const dir = path.join(/* turbopackIgnore: true */ appDir(), "node_modules", ".cache", "clingrade-workers");
  const name = "esbuild";
  const { build } = (await import(/* webpackIgnore: true */ /* turbopackIgnore: true */ name)) as typeof import("esbuild");
  const out = await build({
    entryPoints: [path.join(/* turbopackIgnore: true */ appDir(), WORKER_ENTRIES[job])],
    bundle: true,
    write: false,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    tsconfig: path.join(/* turbopackIgnore: true */ appDir(), "tsconfig.json"),
    logLevel: "warning",
  });
  const code = out.outputFiles[0].contents;
  const file = path.join(/* turbopackIgnore: true */ dir, `${job}-${createHash("sha256").update(code).digest("hex").slice(0, 16)}.mjs`);
  if (!existsSync(/* turbopackIgnore: true */ file)) {
    await mkdir(/* turbopackIgnore: true */ dir, { recursive: true });
    // Written aside then renamed: another process bundling the same code at once never reads half a file.
    const part = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    await writeFile(/* turbopackIgnore: true */ part, code);
    await rename(/* turbopackIgnore: true */ part, file);
  }
  return file;
}

function entryOf(job: WorkerJob): Promise<string> {
  const bundled = path.join(/* turbopackIgnore: true */ appDir(), bundledEntryName(job));
  if (existsSync(/* turbopackIgnore: true */ bundled)) return Promise.resolve(bundled);
  let file = fromCheckout.get(job);
  if (!file) {
    file = bundleFromCheckout(job);
    fromCheckout.set(job, file);
    file.catch(() => fromCheckout.delete(job));
  }
  return file;
}

export function outOfMemory(heapMb: number): ApiError {
  const message = `reading the file needed more memory than an import may use (${heapMb} MB, IMPORT_WORKER_HEAP_MB); nothing was imported`;
  return new ApiError(413, message, { errors: [{ row: 0, column: null, message }], total: 1, limit: "IMPORT_WORKER_HEAP_MB" });
}

/** A job thread's young generation (two semi-spaces and V8's new large-object space). */
export const WORKER_YOUNG_GENERATION_MB = 16;

let youngFlagCleared = false;

/**
 * A new job thread with the memory ceilings of IMPORT_WORKER_HEAP_MB and
 * WORKER_YOUNG_GENERATION_MB. `npm start` gives the server's own thread 32 MB
 * semi-spaces (--max-semi-space-size=32, package.json), and V8 applies that
 * flag to every isolate of the process over a worker's resourceLimits: each
 * import's thread then had a 64 MB young generation, most of its heap during a
 * 200 MB upload (bench/README.md, "grade import"). The server's isolate is sized
 * at launch, so the flag is cleared before the first worker starts and the
 * workers take resourceLimits' size; the server's own thread keeps its 32 MB.
 */
export function startJobWorker(filename: string | URL, heapMb = workerHeapMb(), warm = false): Worker {
  if (!youngFlagCleared) {
    v8.setFlagsFromString("--max-semi-space-size=0");
    youngFlagCleared = true;
  }
  return new Worker(/* turbopackIgnore: true */ filename, {
    // A spare (./spare.ts) warms its job's code up while it waits (./serve.ts).
    workerData: { warm },
    resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
  });
}

/**
 * Runs `job` on `input` in a new worker thread; `transfer` lists what moves to
 * it (a request body's stream). Aborting `signal` stops the thread and rejects
 * with the signal's reason: a job busy in one long computation (a screen's
 * regex) cannot stop itself.
 */
export async function runInWorker<O>(
  job: WorkerJob,
  input: unknown,
  transfer: Transferable[] = [],
  signal?: AbortSignal,
  // An analysis (not an upload) sets its own ceiling and says what ran out.
  limits: { heapMb?: number; outOfMemory?: (heapMb: number) => Error } = {},
): Promise<O> {
  const heapMb = limits.heapMb ?? JOB_HEAP_MB[job] ?? workerHeapMb();
  const start = async () => startJobWorker(await entryOf(job), heapMb);
  const startSpare = async () => startJobWorker(await entryOf(job), heapMb, true);
  // A thread started ahead (./spare.ts) when there is one; it has run nothing yet.
  const worker = takeSpare(job, heapMb) ?? (await start());
  return new Promise<O>((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      fn();
      // The job has answered; whatever it left open (a closed connection's timers) ends with the thread,
      // and only then does the next job's thread start: never two threads' memory for one import.
      void worker.terminate().then(() => refillSpare(job, heapMb, startSpare));
    };
    worker.on("message", (reply: WorkerReply<O>) => settle(() => (reply.ok ? resolve(reply.value) : reject(errorFromWorker(reply.error)))));
    worker.on("error", (e: Error & { code?: string }) => settle(() => reject(e.code === "ERR_WORKER_OUT_OF_MEMORY" ? (limits.outOfMemory ?? outOfMemory)(heapMb) : e)));
    worker.on("exit", (code) => settle(() => reject(new Error(`the ${job} worker stopped (exit code ${code}) before it answered`))));
    if (signal?.aborted) settle(() => reject(signal.reason));
    signal?.addEventListener("abort", () => settle(() => reject(signal.reason)), { once: true });
    worker.postMessage({ input, env: { ...process.env } }, transfer);
  });
}

/** Starts the threads of the jobs that keep one ready (./spare.ts); scripts/start.ts calls it once the server listens. */
export function prestartJobWorkers(): void {
  for (const job of WARM_JOBS) {
    const heapMb = JOB_HEAP_MB[job] ?? workerHeapMb();
    refillSpare(job, heapMb, async () => startJobWorker(await entryOf(job), heapMb, true));
  }
}
