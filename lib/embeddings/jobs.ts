import { getDb } from "@/lib/db/client";

/**
 * An embedding run's state, all in PostgreSQL, as the judge runs' (lib/judges/runner/jobs.ts):
 * a worker leases a whole run (FOR UPDATE SKIP LOCKED, a lease it renews), so any instance's
 * worker may run it and one whose worker died is taken over once its lease expires; every
 * write names the lease, so a worker that lost it writes nothing.
 */

export interface ClaimedRun {
  id: string;
  studyId: string;
  leaseToken: string;
  attempts: number;
}

/** Claims of one run before it fails: a run that kills its worker each time is not tried for ever. */
export const MAX_CLAIMS = 3;

/** Leases the oldest run that is waiting, or whose worker stopped renewing its lease. */
export async function claimRun(leaseMs: number, onlyRunId?: string): Promise<ClaimedRun | null> {
  return getDb().$transaction(async (tx) => {
    const only = onlyRunId ?? null;
    await tx.$executeRaw`UPDATE "EmbeddingRun" SET status = 'FAILED', "leaseToken" = NULL, "leaseExpiresAt" = NULL, "finishedAt" = now(),
        error = 'the worker running it stopped before finishing, ' || attempts || ' times'
      WHERE status = 'RUNNING' AND "leaseExpiresAt" <= now() AND attempts >= ${MAX_CLAIMS}
        AND (${only}::uuid IS NULL OR id = ${only}::uuid)`;
    const [claimed] = await tx.$queryRaw<ClaimedRun[]>`
      UPDATE "EmbeddingRun" SET status = 'RUNNING', attempts = attempts + 1, "leaseToken" = gen_random_uuid(),
        "leaseExpiresAt" = now() + ${leaseMs} * interval '1 millisecond', "startedAt" = coalesce("startedAt", now()), embedded = 0
      WHERE id = (SELECT id FROM "EmbeddingRun"
                   WHERE (status = 'PENDING' OR (status = 'RUNNING' AND "leaseExpiresAt" <= now()))
                     AND (${only}::uuid IS NULL OR id = ${only}::uuid)
                   ORDER BY "createdAt", id LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING id, "studyId", "leaseToken", attempts`;
    return claimed ?? null;
  });
}

/** Extends the lease and records progress; false when the lease is lost (taken over): the worker then stops. */
export async function renewRun(run: ClaimedRun, leaseMs: number, progress?: { embedded: number; requests: number; dimensions: number | null }): Promise<boolean> {
  const n = progress
    ? await getDb().$executeRaw`UPDATE "EmbeddingRun" SET "leaseExpiresAt" = now() + ${leaseMs} * interval '1 millisecond',
          embedded = ${progress.embedded}, requests = ${progress.requests}, dimensions = ${progress.dimensions}
        WHERE id = ${run.id}::uuid AND "leaseToken" = ${run.leaseToken}::uuid AND status = 'RUNNING'`
    : await getDb().$executeRaw`UPDATE "EmbeddingRun" SET "leaseExpiresAt" = now() + ${leaseMs} * interval '1 millisecond'
        WHERE id = ${run.id}::uuid AND "leaseToken" = ${run.leaseToken}::uuid AND status = 'RUNNING'`;
  return n === 1;
}

/** One answer's similarity, with the digest of the texts it was computed from. */
export interface Similarity {
  responseId: string;
  similarity: number;
  /** md5(reference) || md5(answer), hex: an answer or reference changed since is not written. */
  digest: string;
}

const WRITE_CHUNK = 5000;

/**
 * A run's similarities, stored in one transaction if the lease is still this worker's: they
 * replace every earlier one of the study (the study's similarities all come from one run, one
 * model), and an answer whose text or reference changed while the run went on is left without
 * one (its digest no longer matches). Returns false, writing nothing, when the lease is lost.
 */
export async function settleDone(run: ClaimedRun, result: { similarities: Similarity[]; requests: number; dimensions: number | null }): Promise<boolean> {
  return getDb().$transaction(
    async (tx) => {
      const held = await tx.$queryRaw<{ ok: boolean }[]>`SELECT true AS ok FROM "EmbeddingRun"
        WHERE id = ${run.id}::uuid AND "leaseToken" = ${run.leaseToken}::uuid AND status = 'RUNNING' FOR UPDATE`;
      if (held.length !== 1) return false;
      const s = result.similarities;
      for (let i = 0; i < s.length; i += WRITE_CHUNK) {
        const chunk = s.slice(i, i + WRITE_CHUNK);
        await tx.$executeRaw`UPDATE "Response" r SET "embeddingSimilarity" = u.sim, "embeddingRunId" = ${run.id}::uuid
          FROM unnest(${chunk.map((x) => x.responseId)}::uuid[], ${chunk.map((x) => x.similarity)}::float8[], ${chunk.map((x) => x.digest)}::text[]) AS u(id, sim, digest),
               "ResponseSet" rs, "QaItem" q
          WHERE r.id = u.id AND rs.id = r."responseSetId" AND q.id = rs."itemId" AND rs."studyId" = ${run.studyId}::uuid
            AND md5(q."referenceAnswer") || md5(r.text) = u.digest`;
      }
      await tx.$executeRaw`UPDATE "Response" r SET "embeddingSimilarity" = NULL, "embeddingRunId" = NULL
        FROM "ResponseSet" rs
        WHERE rs.id = r."responseSetId" AND rs."studyId" = ${run.studyId}::uuid
          AND r."embeddingRunId" IS DISTINCT FROM ${run.id}::uuid AND (r."embeddingRunId" IS NOT NULL OR r."embeddingSimilarity" IS NOT NULL)`;
      await tx.$executeRaw`UPDATE "EmbeddingRun" SET status = 'DONE', "finishedAt" = now(), "leaseToken" = NULL, "leaseExpiresAt" = NULL, error = NULL,
          embedded = ${s.length}, requests = ${result.requests}, dimensions = ${result.dimensions}
        WHERE id = ${run.id}::uuid`;
      return true;
    },
    { timeout: 300_000, maxWait: 10_000 },
  );
}

/** A run that failed: its error recorded, nothing of it stored (the earlier run's similarities stay). */
export async function settleFailed(run: ClaimedRun, message: string, progress: { requests: number; dimensions: number | null }): Promise<boolean> {
  const line = message.replace(/[\u0000-\u001f\u007f]+/g, " ").slice(0, 500);
  const n = await getDb().$executeRaw`UPDATE "EmbeddingRun" SET status = 'FAILED', "finishedAt" = now(), "leaseToken" = NULL, "leaseExpiresAt" = NULL,
      error = ${line}, requests = ${progress.requests}, dimensions = ${progress.dimensions}
    WHERE id = ${run.id}::uuid AND "leaseToken" = ${run.leaseToken}::uuid AND status = 'RUNNING'`;
  return n === 1;
}
