import { getDb, type Tx } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import { ApiError } from "@/lib/errors/api-error";
import type { JudgedSet } from "./judge-set";

/**
 * A judge run's state, all in PostgreSQL: tasks are leased with
 * FOR UPDATE SKIP LOCKED and a lease that expires, so any number of workers
 * (one per app instance, or `npm run admin -- judge-run`) share the work,
 * a dead worker's task is taken over after its lease, and a settle names its
 * lease, so a task is scored once.
 */

// One claim at a time across every instance: claims are short, and the
// per-endpoint concurrency is counted and taken under the same lock.
const CLAIM_LOCK = 0x6a756467; // "judg"
/** Starting or resuming a judge's run: one at a time per judge (with hashtext(judgeId) as the second key). */
export const RUN_LOCK = 0x72756e73; // "runs"

export interface ClaimedTask {
  id: string;
  runId: string;
  /** Scoring: the response set; pairwise: null, and the comparison is set. */
  responseSetId: string | null;
  comparisonId: string | null;
  leaseToken: string;
  attempts: number;
}

type Candidate = { id: string; runId: string; attempts: number; maxAttempts: number; endpointId: string; room: number; expired: boolean };

/** Leases up to `max` tasks that are due, within each endpoint's concurrency; tasks whose worker died too often fail. */
export async function claimTasks(max: number, leaseMs: number, onlyRunId?: string): Promise<ClaimedTask[]> {
  if (max <= 0) return [];
  const db = getDb();
  const { claimed, exhaustedRuns } = await db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${CLAIM_LOCK}::int)`;
    const candidates = await tx.$queryRaw<Candidate[]>`
      SELECT t.id, t."runId", t.attempts, r."maxAttempts", r."endpointId",
             (e.concurrency - (SELECT count(*) FROM "JudgeRunTask" t2 JOIN "JudgeRun" r2 ON r2.id = t2."runId"
                               WHERE r2."endpointId" = r."endpointId" AND t2.status = 'RUNNING' AND t2."leaseExpiresAt" > now()))::int AS room,
             (t.status = 'RUNNING') AS expired
      FROM "JudgeRunTask" t
      JOIN "JudgeRun" r ON r.id = t."runId"
      JOIN "JudgeEndpoint" e ON e.id = r."endpointId"
      WHERE r.status = 'RUNNING' AND t."availableAt" <= now()
        AND (t.status = 'PENDING' OR (t.status = 'RUNNING' AND t."leaseExpiresAt" <= now()))
        AND (${onlyRunId ?? null}::uuid IS NULL OR t."runId" = ${onlyRunId ?? null}::uuid)
      ORDER BY t."availableAt", t.id
      LIMIT ${max * 4}
      FOR UPDATE OF t SKIP LOCKED`;
    const room = new Map<string, number>();
    const take: Candidate[] = [];
    const exhausted: Candidate[] = [];
    for (const c of candidates) {
      if (c.expired && c.attempts >= c.maxAttempts) {
        exhausted.push(c);
        continue;
      }
      const left = room.get(c.endpointId) ?? c.room;
      if (left <= 0 || take.length >= max) continue;
      room.set(c.endpointId, left - 1);
      take.push(c);
    }
    if (exhausted.length) {
      await tx.$executeRaw`UPDATE "JudgeRunTask" SET status = 'FAILED', "leaseToken" = NULL, "leaseExpiresAt" = NULL, "finishedAt" = now(),
        error = 'the worker running it stopped before finishing, ' || attempts || ' times'
        WHERE id = ANY(${exhausted.map((c) => c.id)}::uuid[])`;
    }
    if (!take.length) return { claimed: [] as ClaimedTask[], exhaustedRuns: [...new Set(exhausted.map((c) => c.runId))] };
    const claimed = await tx.$queryRaw<ClaimedTask[]>`
      UPDATE "JudgeRunTask" SET status = 'RUNNING', attempts = attempts + 1, "leaseToken" = gen_random_uuid(),
        "leaseExpiresAt" = now() + ${leaseMs} * interval '1 millisecond'
      WHERE id = ANY(${take.map((c) => c.id)}::uuid[])
      RETURNING id, "runId", "responseSetId", "comparisonId", "leaseToken", attempts`;
    return { claimed, exhaustedRuns: [...new Set(exhausted.map((c) => c.runId))] };
  });
  // Outside the claim: finishing locks the run row, which settles lock first.
  for (const runId of exhaustedRuns) await db.$transaction((tx) => finishIfSettled(tx, runId));
  return claimed;
}

/** Extends a lease; false when it is lost (taken over or cancelled): the worker then stops the task. */
export async function renewLease(task: ClaimedTask, leaseMs: number): Promise<boolean> {
  const n = await getDb().$executeRaw`UPDATE "JudgeRunTask" SET "leaseExpiresAt" = now() + ${leaseMs} * interval '1 millisecond'
    WHERE id = ${task.id}::uuid AND "leaseToken" = ${task.leaseToken}::uuid AND status = 'RUNNING'`;
  return n === 1;
}

async function lockRun(tx: Prisma.TransactionClient, runId: string) {
  const [run] = await tx.$queryRaw<{ judgeId: string; maxAttempts: number; pp: number; pc: number }[]>`
    SELECT "judgeId", "maxAttempts", "pricePer1kPromptTokens" AS pp, "pricePer1kCompletionTokens" AS pc FROM "JudgeRun" WHERE id = ${runId}::uuid FOR UPDATE`;
  return run;
}

async function finishIfSettled(tx: Prisma.TransactionClient, runId: string): Promise<void> {
  await tx.$executeRaw`UPDATE "JudgeRun" SET status = 'DONE', "finishedAt" = now()
    WHERE id = ${runId}::uuid AND status = 'RUNNING'
      AND NOT EXISTS (SELECT 1 FROM "JudgeRunTask" WHERE "runId" = ${runId}::uuid AND status IN ('PENDING', 'RUNNING'))`;
}

const costOf = (run: { pp: number; pc: number }, u: { promptTokens: number; completionTokens: number }) => (u.promptTokens / 1000) * run.pp + (u.completionTokens / 1000) * run.pc;

/** Whether this claim still holds the task in a running run. */
export async function leaseHeld(task: ClaimedTask): Promise<boolean> {
  const rows = await getDb().$queryRaw<{ ok: boolean }[]>`SELECT true AS ok FROM "JudgeRunTask" t JOIN "JudgeRun" r ON r.id = t."runId"
    WHERE t.id = ${task.id}::uuid AND t."leaseToken" = ${task.leaseToken}::uuid AND t.status = 'RUNNING' AND r.status = 'RUNNING'`;
  return rows.length === 1;
}

/**
 * A set judged: under the run's lock (which a cancel takes too), if the lease
 * is still this worker's and the run still running, `write` stores the scores
 * in the same transaction (the judges' write path) and the task is marked
 * done; otherwise nothing is written. A cancel, a lost lease and a write are
 * therefore never half-applied.
 */
export async function settleDone(task: ClaimedTask, result: Pick<JudgedSet, "requests" | "promptTokens" | "completionTokens">, write: (tx: Tx) => Promise<void>): Promise<boolean> {
  return getDb().$transaction(
    async (tx) => {
      const run = await lockRun(tx, task.runId);
      const held = await tx.$queryRaw<{ ok: boolean }[]>`SELECT true AS ok FROM "JudgeRunTask" t JOIN "JudgeRun" r ON r.id = t."runId"
        WHERE t.id = ${task.id}::uuid AND t."leaseToken" = ${task.leaseToken}::uuid AND t.status = 'RUNNING' AND r.status = 'RUNNING' FOR UPDATE OF t`;
      if (held.length !== 1) return false;
      await write(tx);
      await tx.$executeRaw`UPDATE "JudgeRunTask" SET status = 'DONE', "leaseToken" = NULL, "leaseExpiresAt" = NULL, "finishedAt" = now(), error = NULL,
          requests = requests + ${result.requests}, "promptTokens" = "promptTokens" + ${result.promptTokens}, "completionTokens" = "completionTokens" + ${result.completionTokens},
          cost = cost + ${costOf(run, result)}
        WHERE id = ${task.id}::uuid`;
      await finishIfSettled(tx, task.runId);
      return true;
    },
    { timeout: 120_000, maxWait: 10_000 },
  );
}

/** A failed attempt: back to the queue after an exponential backoff if it may pass and attempts remain, else failed with its error. */
export async function settleFailed(
  task: ClaimedTask,
  failure: { message: string; retryable: boolean; usage: { promptTokens: number; completionTokens: number; requests?: number } },
  backoff: { baseMs: number; maxMs: number },
): Promise<"retry" | "failed" | "lost"> {
  return getDb().$transaction(async (tx) => {
    const run = await lockRun(tx, task.runId);
    const retry = failure.retryable && task.attempts < run.maxAttempts;
    // Full jitter: instances that failed together do not retry together.
    const delay = Math.round(Math.min(backoff.maxMs, backoff.baseMs * 2 ** (task.attempts - 1)) * (0.5 + Math.random() / 2));
    const message = failure.message.replace(/[\u0000-\u001f\u007f]+/g, " ").slice(0, 500);
    const n = await tx.$executeRaw`UPDATE "JudgeRunTask" SET
        status = ${retry ? "PENDING" : "FAILED"}::"JudgeTaskStatus", "leaseToken" = NULL, "leaseExpiresAt" = NULL,
        "availableAt" = now() + ${retry ? delay : 0} * interval '1 millisecond', "finishedAt" = ${retry ? null : new Date()}::timestamptz,
        error = ${message}, requests = requests + ${failure.usage.requests ?? 0},
        "promptTokens" = "promptTokens" + ${failure.usage.promptTokens}, "completionTokens" = "completionTokens" + ${failure.usage.completionTokens},
        cost = cost + ${costOf(run, failure.usage)}
      WHERE id = ${task.id}::uuid AND "leaseToken" = ${task.leaseToken}::uuid AND status = 'RUNNING'`;
    if (n !== 1) return "lost";
    if (!retry) await finishIfSettled(tx, task.runId);
    return retry ? "retry" : "failed";
  });
}

/** Stops a run: tasks not done are cancelled (a worker in the middle of one loses its lease and writes nothing). */
export async function cancelRun(runId: string): Promise<boolean> {
  return getDb().$transaction(async (tx) => {
    await lockRun(tx, runId);
    const n = await tx.$executeRaw`UPDATE "JudgeRun" SET status = 'CANCELLED', "finishedAt" = now() WHERE id = ${runId}::uuid AND status = 'RUNNING'`;
    if (n !== 1) return false;
    await tx.$executeRaw`UPDATE "JudgeRunTask" SET status = 'CANCELLED', "leaseToken" = NULL, "leaseExpiresAt" = NULL
      WHERE "runId" = ${runId}::uuid AND status IN ('PENDING', 'RUNNING')`;
    return true;
  });
}

/** Starts again what a run left: failed and cancelled tasks go back to the queue with fresh attempts. Returns the tasks requeued. */
export async function resumeRun(runId: string): Promise<number> {
  return getDb().$transaction(async (tx) => {
    const run = await lockRun(tx, runId);
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${RUN_LOCK}::int, hashtext(${run.judgeId}))`;
    const other = await tx.judgeRun.findFirst({ where: { judgeId: run.judgeId, status: "RUNNING", id: { not: runId } }, select: { id: true } });
    if (other) throw new ApiError(409, `another run of this judge is in progress (${other.id}): two runs would judge the same sets`);
    const n = await tx.$executeRaw`UPDATE "JudgeRunTask" SET status = 'PENDING', attempts = 0, "availableAt" = now(), "finishedAt" = NULL
      WHERE "runId" = ${runId}::uuid AND status IN ('FAILED', 'CANCELLED')`;
    const pending = await tx.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM "JudgeRunTask" WHERE "runId" = ${runId}::uuid AND status IN ('PENDING', 'RUNNING')`;
    if (pending[0].n > 0) await tx.$executeRaw`UPDATE "JudgeRun" SET status = 'RUNNING', "finishedAt" = NULL WHERE id = ${runId}::uuid`;
    return n;
  });
}
