import type { Worker } from "node:worker_threads";
import type { WorkerJob } from "./run";

/**
 * A job thread started before its job: the thread and its bundle (zod, pg,
 * papaparse, re2js and ours, about 40 MB) are then part of the idle server,
 * not of the upload that needs them, and the import starts at once.
 *
 * A spare serves one job and is then stopped, like any job thread: nothing of
 * one import (its heap, its module state, a connection) is there for the next,
 * which gets a new spare started once the last one has exited. A spare that
 * dies while it waits (it should not) is dropped, and the next job starts a
 * thread as before. IMPORT_WORKER_WARM=0 keeps none.
 *
 * Two jobs keep one (WARM_JOBS): the grade import, the import of a million
 * grades being the one whose memory during the upload is a goal; and the
 * pairwise dashboard's bootstraps, whose time is (bench/README.md), and whose
 * spare also compiles their loops while it waits (./serve.ts's warmUp).
 */

export const WARM_JOBS: readonly WorkerJob[] = ["grade-import", "pairwise-stats"];

export function warmWorkers(): boolean {
  return process.env.IMPORT_WORKER_WARM !== "0";
}

interface Spare {
  worker: Worker;
  heapMb: number;
}

// On globalThis: the start script (scripts/start.ts, which starts the first
// spare) and the route handlers that take it are separate bundles, each with
// its own copy of this module.
const KEY = Symbol.for("clingrade.workers.spares");
type Registry = { spares: Map<WorkerJob, Spare>; starting: Set<WorkerJob> };

function registry(): Registry {
  const g = globalThis as { [KEY]?: Registry };
  g[KEY] ??= { spares: new Map(), starting: new Set() };
  return g[KEY];
}

/**
 * The job's spare when it was made with this heap ceiling (else it is
 * stopped: IMPORT_WORKER_HEAP_MB changed), taken out of the registry.
 */
export function takeSpare(job: WorkerJob, heapMb: number): Worker | null {
  const r = registry();
  const spare = r.spares.get(job);
  if (!spare) return null;
  r.spares.delete(job);
  if (spare.heapMb !== heapMb) {
    void spare.worker.terminate();
    return null;
  }
  spare.worker.ref();
  return spare.worker;
}

/**
 * Starts a spare for `job` when it keeps one and has none (nor one starting).
 * `start` makes the thread (./run.ts: the job's bundle, the heap ceiling).
 */
export function refillSpare(job: WorkerJob, heapMb: number, start: () => Promise<Worker>): void {
  const r = registry();
  if (!warmWorkers() || !WARM_JOBS.includes(job) || r.spares.has(job) || r.starting.has(job)) return;
  r.starting.add(job);
  start().then(
    (worker) => {
      r.starting.delete(job);
      // A waiting spare does not keep the process alive.
      worker.unref();
      const spare = { worker, heapMb };
      const drop = () => {
        if (r.spares.get(job) === spare) r.spares.delete(job);
      };
      worker.once("exit", drop);
      worker.once("error", drop);
      r.spares.set(job, spare);
    },
    () => r.starting.delete(job),
  );
}

/** The spares waiting now (tests). */
export function waitingSpares(): Map<WorkerJob, Worker> {
  return new Map([...registry().spares].map(([job, s]) => [job, s.worker]));
}
