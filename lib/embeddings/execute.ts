import { createHash } from "node:crypto";
import { getDb } from "@/lib/db/client";
import { EndpointError, type EndpointAccess } from "@/lib/judges/runner/client";
import { endpointApiKey } from "@/lib/judges/runner/secret";
import { cosineSimilarity } from "@/lib/stats/cosine";
import { batchesOf, embedWithRetries, type RetryPolicy } from "./client";
import { renewRun, settleDone, settleFailed, type ClaimedRun, type Similarity } from "./jobs";
import { WITH_REFERENCE } from "./runs";

/**
 * One run's work: pages through the study's answers that have a reference answer, by question,
 * embeds each page's answers and the references it has not embedded yet (batched, at most the
 * endpoint's concurrency in flight, each batch retried as the judges' tasks are), keeps each
 * answer's cosine with its reference and drops the vectors. Only the similarities are held until
 * the end, where they are stored in one transaction (jobs.ts): a failure anywhere stores nothing.
 */
export interface ExecuteOptions {
  fetchImpl: typeof fetch;
  retry: RetryPolicy;
  leaseMs: number;
  /** Aborted when the lease is lost: requests in flight stop and nothing is written. */
  signal: AbortSignal;
  /** Answers per page (default 1000). */
  pageSize?: number;
}

/** Requests in flight per run, whatever the endpoint allows. */
const MAX_CONCURRENCY = 16;
const md5 = (s: string) => createHash("md5").update(s, "utf8").digest("hex");

type Row = { id: string; text: string; itemId: string; reference: string };
type Input = { text: string; set: (v: Float64Array) => void };

/** A failure the run's status reports: the endpoint's, or a reply that cannot be used. */
class RunFailure extends Error {}

async function accessOf(runId: string): Promise<{ access: EndpointAccess; concurrency: number }> {
  const run = await getDb().embeddingRun.findUniqueOrThrow({ where: { id: runId }, include: { endpoint: true } });
  const e = run.endpoint;
  let apiKey: string | null;
  try {
    apiKey = endpointApiKey(e);
  } catch (err) {
    throw new RunFailure((err as Error).message);
  }
  return { access: { baseUrl: e.baseUrl, model: run.model, apiKey, timeoutMs: e.timeoutMs }, concurrency: Math.max(1, Math.min(MAX_CONCURRENCY, e.concurrency)) };
}

/** Runs `jobs` with at most `limit` at once; the first failure stops the others from starting and is thrown. */
async function pool(jobs: (() => Promise<void>)[], limit: number): Promise<void> {
  let next = 0;
  let failed: unknown = null;
  const lane = async () => {
    while (failed === null && next < jobs.length) {
      const job = jobs[next++];
      try {
        await job();
      } catch (err) {
        failed ??= err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, lane));
  if (failed !== null) throw failed;
}

export async function executeRun(run: ClaimedRun, opts: ExecuteOptions): Promise<"done" | "failed" | "lost"> {
  const progress = { requests: 0, dimensions: null as number | null };
  const guarded: typeof fetch = (input, init) => opts.fetchImpl(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, opts.signal]) : opts.signal });
  try {
    const { access, concurrency } = await accessOf(run.id);
    const similarities: Similarity[] = [];
    // Answers come by question: a reference is embedded once, and only the current question's vector is carried to the next page.
    let carried: { itemId: string; vector: Float64Array } | null = null;
    let after = { itemId: "00000000-0000-0000-0000-000000000000", id: "00000000-0000-0000-0000-000000000000" };
    for (;;) {
      const rows = await getDb().$queryRawUnsafe<Row[]>(
        `SELECT r.id::text AS id, r.text, q.id::text AS "itemId", q."referenceAnswer" AS reference
           FROM "Response" r JOIN "ResponseSet" rs ON rs.id = r."responseSetId" JOIN "QaItem" q ON q.id = rs."itemId"
          WHERE rs."studyId" = $1::uuid AND ${WITH_REFERENCE} AND (q.id, r.id) > ($2::uuid, $3::uuid)
          ORDER BY q.id, r.id LIMIT ${opts.pageSize ?? 1000}`,
        run.studyId,
        after.itemId,
        after.id,
      );
      if (rows.length === 0) break;
      const refs = new Map<string, Float64Array>();
      if (carried) refs.set(carried.itemId, carried.vector);
      const answerVectors: Float64Array[] = new Array(rows.length);
      const inputs: Input[] = [];
      const wanted = new Set<string>();
      for (const r of rows) {
        if (refs.has(r.itemId) || wanted.has(r.itemId)) continue;
        wanted.add(r.itemId);
        inputs.push({ text: r.reference, set: (v) => refs.set(r.itemId, v) });
      }
      rows.forEach((r, i) => inputs.push({ text: r.text, set: (v) => (answerVectors[i] = v) }));
      const jobs = batchesOf(inputs, (x) => x.text).map((batch) => async () => {
        const got = await embedWithRetries(access, batch.map((x) => x.text), progress.dimensions, opts.retry, guarded, () => progress.requests++);
        const length = got.vectors[0].length;
        if (progress.dimensions !== null && length !== progress.dimensions) throw new RunFailure(`the endpoint gave vectors of ${length} dimensions in one batch and ${progress.dimensions} in another`);
        progress.dimensions = length;
        got.vectors.forEach((v, k) => batch[k].set(v));
      });
      await pool(jobs, concurrency);
      rows.forEach((r, i) => {
        const similarity = cosineSimilarity(answerVectors[i], refs.get(r.itemId)!);
        if (similarity === null) throw new RunFailure("the endpoint gave a vector of zeros: its cosine with another has no value");
        similarities.push({ responseId: r.id, similarity, digest: md5(r.reference) + md5(r.text) });
      });
      const last = rows[rows.length - 1];
      carried = { itemId: last.itemId, vector: refs.get(last.itemId)! };
      after = { itemId: last.itemId, id: last.id };
      if (!(await renewRun(run, opts.leaseMs, { embedded: similarities.length, ...progress }))) return "lost";
    }
    return (await settleDone(run, { similarities, ...progress })) ? "done" : "lost";
  } catch (err) {
    if (opts.signal.aborted) return "lost";
    if (!(err instanceof EndpointError || err instanceof RunFailure)) throw err;
    return (await settleFailed(run, err.message, progress)) ? "failed" : "lost";
  }
}
