import { logger } from "@/lib/log/logger";

/**
 * The loop of a worker that runs jobs leased from PostgreSQL (the judges' tasks, the embedding
 * runs): it claims up to its free slots, renews each job's lease every third of its length while
 * the job runs (a lease lost aborts the job's signal: another worker has taken it over, or it was
 * cancelled), and polls when it has nothing to claim or no free slot, woken early when a job
 * ends. Stopping lets the jobs in flight finish within a grace period; after that their leases
 * expire and any worker takes them over. State is the database's: two instances share the work.
 */
export interface LeasedLoopOptions<T extends { id: string }, O> {
  /** In the log: "judge worker", "embedding worker". */
  name: string;
  concurrency: number;
  leaseMs: number;
  pollMs: number;
  /** Leases up to `free` waiting jobs. */
  claim(free: number): Promise<T[]>;
  /** Extends the job's lease: false when it is no longer this worker's. */
  renew(job: T): Promise<boolean>;
  /** Runs and settles one job; `signal` aborts when its lease is lost. */
  run(job: T, signal: AbortSignal): Promise<O>;
  /** After a job, its lease no longer renewed. */
  settled?(job: T, outcome: O): void;
  /** Whether nothing is left to do (a worker for one run: that run is settled); `idle()` waits for it. */
  nothingLeft(): Promise<boolean>;
}

export interface LeasedLoop {
  inFlight(): number;
  /** Resolves when the loop finds nothing to do and has nothing in flight. */
  idle(): Promise<void>;
  stop(graceMs?: number): Promise<void>;
}

export function startLeasedLoop<T extends { id: string }, O>(o: LeasedLoopOptions<T, O>): LeasedLoop {
  const inflight = new Map<string, Promise<void>>();
  let stopping = false;
  let wake: (() => void) | null = null;
  const idleWaiters: (() => void)[] = [];

  async function runLeased(job: T): Promise<void> {
    const abort = new AbortController();
    const renew = setInterval(() => {
      o.renew(job).then(
        (held) => held || abort.abort(),
        () => {},
      );
    }, Math.max(50, Math.floor(o.leaseMs / 3)));
    let outcome: O;
    try {
      outcome = await o.run(job, abort.signal);
    } finally {
      clearInterval(renew);
    }
    o.settled?.(job, outcome);
  }

  async function loop() {
    while (!stopping) {
      let claimed: T[] = [];
      const free = o.concurrency - inflight.size;
      if (free > 0) {
        try {
          claimed = await o.claim(free);
        } catch (err) {
          if (!stopping) logger.warn({ err: (err as Error).message }, `${o.name} could not claim work`);
        }
      }
      for (const job of claimed) {
        const done = runLeased(job)
          // A job settles itself; what escapes it is a bug, logged, and its lease left to expire.
          .catch((err: unknown) => logger.warn({ jobId: job.id, err: err instanceof Error ? err.message : String(err) }, `${o.name} job failed`))
          .finally(() => {
            inflight.delete(job.id);
            wake?.();
          });
        inflight.set(job.id, done);
      }
      if (!claimed.length && inflight.size === 0 && (await o.nothingLeft().catch(() => false))) idleWaiters.splice(0).forEach((r) => r());
      if (!claimed.length || inflight.size >= o.concurrency) {
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, o.pollMs);
          wake = () => {
            clearTimeout(t);
            wake = null;
            resolve();
          };
        });
      }
    }
  }

  const looping = loop();
  return {
    inFlight: () => inflight.size,
    idle: () => new Promise<void>((resolve) => idleWaiters.push(resolve)),
    async stop(graceMs = 30_000) {
      stopping = true;
      wake?.();
      await looping;
      await Promise.race([Promise.all([...inflight.values()]), new Promise((r) => setTimeout(r, graceMs))]);
    },
  };
}
