import { getDb } from "@/lib/db/client";
import { logger } from "@/lib/log/logger";
import { executeRun } from "./execute";
import { claimRun, renewRun, settleFailed, type ClaimedRun } from "./jobs";

/**
 * The loop that runs embedding similarity runs, as the judges' worker does: it leases a
 * waiting run (one at a time by default), renews the lease while it works, and settles it. The
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
  const concurrency = opts.concurrency ?? 1;
  const leaseMs = opts.leaseMs ?? 120_000;
  const pollMs = opts.pollMs ?? 2000;
  const retry = { maxAttempts: opts.maxAttempts ?? 4, baseMs: opts.backoffMs ?? 2000, maxMs: opts.maxBackoffMs ?? 60_000 };
  const inflight = new Map<string, Promise<void>>();
  let stopping = false;
  let wake: (() => void) | null = null;
  const idleWaiters: (() => void)[] = [];

  async function work(run: ClaimedRun): Promise<void> {
    const abort = new AbortController();
    const renew = setInterval(() => {
      renewRun(run, leaseMs).then(
        (held) => held || abort.abort(),
        () => {},
      );
    }, Math.max(50, Math.floor(leaseMs / 3)));
    let outcome: "done" | "failed" | "lost";
    try {
      outcome = await executeRun(run, { fetchImpl: opts.fetchImpl ?? fetch, retry, leaseMs, signal: abort.signal, pageSize: opts.pageSize });
    } catch (err) {
      // A database error, a bug: recorded on the run, never a run left running for ever.
      const message = err instanceof Error ? err.message.split("\n")[0] : String(err);
      logger.warn({ runId: run.id, err: message }, "embedding run failed");
      outcome = (await settleFailed(run, `the run stopped on an internal error: ${message}`, { requests: 0, dimensions: null }).catch(() => false)) ? "failed" : "lost";
    } finally {
      clearInterval(renew);
    }
    opts.onSettled?.(run, outcome);
  }

  async function nothingLeft(): Promise<boolean> {
    if (!opts.runId) return true;
    const run = await getDb().embeddingRun.findUnique({ where: { id: opts.runId }, select: { status: true } });
    return run?.status !== "RUNNING" && run?.status !== "PENDING";
  }

  async function loop() {
    while (!stopping) {
      let claimed: ClaimedRun | null = null;
      if (inflight.size < concurrency) {
        try {
          claimed = await claimRun(leaseMs, opts.runId);
        } catch (err) {
          if (!stopping) logger.warn({ err: (err as Error).message }, "embedding worker could not claim a run");
        }
      }
      if (claimed) {
        const run = claimed;
        inflight.set(
          run.id,
          work(run).finally(() => {
            inflight.delete(run.id);
            wake?.();
          }),
        );
        continue;
      }
      if (inflight.size === 0 && (await nothingLeft().catch(() => false))) idleWaiters.splice(0).forEach((r) => r());
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, pollMs);
        wake = () => {
          clearTimeout(t);
          wake = null;
          resolve();
        };
      });
    }
  }

  const looping = loop();
  return {
    idle: () => new Promise<void>((resolve) => idleWaiters.push(resolve)),
    async stop(graceMs = 30_000) {
      stopping = true;
      wake?.();
      await looping;
      await Promise.race([Promise.all([...inflight.values()]), new Promise((r) => setTimeout(r, graceMs))]);
    },
  };
}
