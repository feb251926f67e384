import { existsSync } from "node:fs";
import path from "node:path";
import { Worker, type Transferable } from "node:worker_threads";
import { appDir } from "@/lib/build/app-dir";
import { ApiError } from "@/lib/errors/api-error";
import { errorFromWorker, type WorkerReply } from "./protocol";

/**
 * Runs one job (an import) in a worker thread of its own, so that reading and
 * checking a file never holds the event loop that answers everyone else, and
 * the file's garbage lives in a heap with a ceiling (IMPORT_WORKER_HEAP_MB):
 * a file that needs more stops its own import with a 413, not the server.
 *
 * The production build bundles each job's entry beside start.mjs
 * (scripts/build-standalone.ts); from a checkout (development, tests) the
 * TypeScript entry runs through tsx.
 */

export const WORKER_ENTRIES = {
  "grade-import": "lib/grade-import/worker.ts",
  "answer-import": "lib/import/worker.ts",
  "archive-import": "lib/exports/archive-worker.ts",
} as const;

export type WorkerJob = keyof typeof WORKER_ENTRIES;

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
function entryOf(job: WorkerJob): { filename: string; entry: string | null } {
  const dir = appDir();
  const bundled = path.join(/* turbopackIgnore: true */ dir, bundledEntryName(job));
  if (existsSync(/* turbopackIgnore: true */ bundled)) return { filename: bundled, entry: null };
  return { filename: path.join(/* turbopackIgnore: true */ dir, "lib/workers/tsx-entry.mjs"), entry: path.join(/* turbopackIgnore: true */ dir, WORKER_ENTRIES[job]) };
}

export function outOfMemory(heapMb: number): ApiError {
  const message = `reading the file needed more memory than an import may use (${heapMb} MB, IMPORT_WORKER_HEAP_MB); nothing was imported`;
  return new ApiError(413, message, { errors: [{ row: 0, column: null, message }], total: 1, limit: "IMPORT_WORKER_HEAP_MB" });
}

/** Runs `job` on `input` in a new worker thread; `transfer` lists what moves to it (a request body's stream). */
export function runInWorker<O>(job: WorkerJob, input: unknown, transfer: Transferable[] = []): Promise<O> {
  const heapMb = workerHeapMb();
  const { filename, entry } = entryOf(job);
  const worker = new Worker(/* turbopackIgnore: true */ filename, {
    workerData: { entry },
    resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 16 },
  });
  return new Promise<O>((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      fn();
      // The job has answered; whatever it left open (a closed connection's timers) ends with the thread.
      void worker.terminate();
    };
    worker.on("message", (reply: WorkerReply<O>) => settle(() => (reply.ok ? resolve(reply.value) : reject(errorFromWorker(reply.error)))));
    worker.on("error", (e: Error & { code?: string }) => settle(() => reject(e.code === "ERR_WORKER_OUT_OF_MEMORY" ? outOfMemory(heapMb) : e)));
    worker.on("exit", (code) => settle(() => reject(new Error(`the ${job} worker stopped (exit code ${code}) before it answered`))));
    worker.postMessage({ input }, transfer);
  });
}
