import { getDb } from "@/lib/db/client";
import { startLeasedLoop } from "@/lib/jobs/leased-loop";
import { logger } from "@/lib/log/logger";
import { executeRun } from "./execute";
import { claimRun, renewRun, settleFailed, type ClaimedRun } from "./jobs";

/**
 * The loop that runs embedding similarity runs (lib/jobs/leased-loop.ts, as the judges' worker): it
 * leases a waiting run (one at a time by default), renews the lease while it works, and settles it. The
 * server starts one (scripts/start.ts) beside the judges' worker; stopping it lets the run in
 * flight finish within the grace period, after which its lease expires and any worker takes it over.
 */
export interface EmbeddingWorkerOptions {
  /** Runs in flight in this worker (default 1). */
  concurrency?: number;
  /** How long a lease lasts without renewal (default 120 s; renewed every third of it). */
  leaseMs?: number;
  /** Idle poll interval (default 2 s). */
  pollMs?: number;
  /** Attempts per batch of inputs (default 4), the first retry after backoffMs, doubling up to maxBackoffMs (defaults 2 s, 60 s). */
  maxAttempts?: number;
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Answers per page (default 1000; tests make it small). */
  pageSize?: number;
  /** Only this run (tests, a foreground command). */
  runId?: string;
  fetchImpl?: typeof fetch;
  onSettled?: (run: ClaimedRun, outcome: "done" | "failed" | "lost") => void;
}

export interface EmbeddingWorker {
  stop(graceMs?: number): Promise<void>;
  /** Resolves when the worker finds nothing to do and has nothing in flight (with `runId`: when that run is settled). */
  idle(): Promise<void>;
}

export function startEmbeddingWorker(opts: EmbeddingWorkerOptions = {}): EmbeddingWorker {
  const leaseMs = opts.leaseMs ?? 120_000;
  const retry = { maxAttempts: opts.maxAttempts ?? 4, baseMs: opts.backoffMs ?? 2000, maxMs: opts.maxBackoffMs ?? 60_000 };
  return startLeasedLoop<ClaimedRun, "done" | "failed" | "lost">({
    name: "embedding worker",
    concurrency: opts.concurrency ?? 1,
    leaseMs,
    pollMs: opts.pollMs ?? 2000,
    claim: async () => {
      const run = await claimRun(leaseMs, opts.runId);
      return run ? [run] : [];
    },
    renew: (run) => renewRun(run, leaseMs),
    async run(run, signal) {
      try {
        return await executeRun(run, { fetchImpl: opts.fetchImpl ?? fetch, retry, leaseMs, signal, pageSize: opts.pageSize });
      } catch (err) {
        // A database error, a bug: recorded on the run, never a run left running for ever.
        const message = err instanceof Error ? err.message.split("\n")[0] : String(err);
        logger.warn({ runId: run.id, err: message }, "embedding run failed");
        return (await settleFailed(run, `the run stopped on an internal error: ${message}`, { requests: 0, dimensions: null }).catch(() => false)) ? "failed" : "lost";
      }
    },
    settled: (run, outcome) => opts.onSettled?.(run, outcome),
    async nothingLeft() {
      if (!opts.runId) return true;
      const run = await getDb().embeddingRun.findUnique({ where: { id: opts.runId }, select: { status: true } });
      return run?.status !== "RUNNING" && run?.status !== "PENDING";
    },
  });
}
