import { ReferenceCache, statsArray } from "./compute";

/**
 * A statement runner: the import's own pg connection, or a transaction. Plain text and values,
 * without Prisma, so the import workers (lib/workers) need not load its runtime.
 */
export type Query = (text: string, values: unknown[]) => Promise<{ rows: unknown[] }>;

/** Which answers to compute again: a study's, or only those of some questions or some answers. */
export interface RefreshScope {
  studyId: string;
  itemIds?: readonly string[];
  externalIds?: readonly string[];
  responseIds?: readonly string[];
}

const BATCH = 2000;

/**
 * Computes and stores the metrics of answers whose text or reference answer changed outside the
 * import's stream (a changed reference, a redaction, a restored archive, the demo). Pages through
 * the answers by id so a large study is never held whole. Returns how many answers it wrote.
 * Their embedding similarity (lib/embeddings) is cleared: it needs the endpoint, so the lead runs
 * it again (the run's status then counts the answers without one).
 * Each placeholder appears once, in order (callers may rebuild the statement from the text).
 */
export async function refreshReferenceMetrics(query: Query, scope: RefreshScope): Promise<number> {
  const values: unknown[] = [scope.studyId];
  const filters = [`rs."studyId" = $1::uuid`];
  const add = (sql: string, v: readonly string[]) => {
    values.push([...v]);
    filters.push(sql.replace("?", `$${values.length}`));
  };
  if (scope.itemIds) add(`q.id = ANY(?::uuid[])`, scope.itemIds);
  if (scope.externalIds) add(`q."externalId" = ANY(?::text[])`, scope.externalIds);
  if (scope.responseIds) add(`r.id = ANY(?::uuid[])`, scope.responseIds);
  const page = `SELECT r.id::text AS id, q.id::text AS "itemId", r.text, q."referenceAnswer" AS reference
      FROM "Response" r JOIN "ResponseSet" rs ON rs.id = r."responseSetId" JOIN "QaItem" q ON q.id = rs."itemId"
     WHERE ${filters.join(" AND ")} AND r.id > $${values.length + 1}::uuid
     ORDER BY r.id LIMIT ${BATCH}`;
  const cache = new ReferenceCache();
  let after = "00000000-0000-0000-0000-000000000000";
  let written = 0;
  for (;;) {
    const rows = (await query(page, [...values, after])).rows as { id: string; itemId: string; text: string; reference: string }[];
    if (rows.length === 0) return written;
    const metrics = rows.map((r) => cache.score(r.itemId, r.reference, r.text));
    await query(
      `UPDATE "Response" r SET bleu = u.bleu, rouge1 = u.rouge1, "rougeL" = u.rouge_l,
              "bleuStats" = CASE WHEN u.stats = '' THEN '{}'::int[] ELSE string_to_array(u.stats, ',')::int[] END,
              "embeddingSimilarity" = NULL, "embeddingRunId" = NULL
         FROM unnest($1::uuid[], $2::float8[], $3::float8[], $4::float8[], $5::text[]) AS u(id, bleu, rouge1, rouge_l, stats)
        WHERE r.id = u.id`,
      [rows.map((r) => r.id), metrics.map((m) => m?.bleu ?? null), metrics.map((m) => m?.rouge1 ?? null), metrics.map((m) => m?.rougeL ?? null), metrics.map((m) => statsArray(m).join(","))],
    );
    written += rows.length;
    after = rows[rows.length - 1].id;
    if (rows.length < BATCH) return written;
  }
}

/** A pg client or pool as a Query. */
export const pgQuery =
  (client: { query: (text: string, values: unknown[]) => Promise<{ rows: unknown[] }> }): Query =>
  (text, values) =>
    client.query(text, values);
