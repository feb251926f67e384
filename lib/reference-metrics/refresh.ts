import { Prisma } from "@/lib/generated/prisma/client";
import type { Sql } from "@/lib/db/sql";
import { ReferenceCache, statsArray } from "./compute";

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
 */
export async function refreshReferenceMetrics(db: Sql, scope: RefreshScope): Promise<number> {
  const filters: Prisma.Sql[] = [Prisma.sql`rs."studyId" = ${scope.studyId}::uuid`];
  if (scope.itemIds) filters.push(Prisma.sql`q.id = ANY(${[...scope.itemIds]}::uuid[])`);
  if (scope.externalIds) filters.push(Prisma.sql`q."externalId" = ANY(${[...scope.externalIds]}::text[])`);
  if (scope.responseIds) filters.push(Prisma.sql`r.id = ANY(${[...scope.responseIds]}::uuid[])`);
  const cache = new ReferenceCache();
  let after = "00000000-0000-0000-0000-000000000000";
  let written = 0;
  for (;;) {
    const rows = await db.rows<{ id: string; itemId: string; text: string; reference: string }>(Prisma.sql`
      SELECT r.id, q.id AS "itemId", r.text, q."referenceAnswer" AS reference
        FROM "Response" r JOIN "ResponseSet" rs ON rs.id = r."responseSetId" JOIN "QaItem" q ON q.id = rs."itemId"
       WHERE ${Prisma.join(filters, " AND ")} AND r.id > ${after}::uuid
       ORDER BY r.id LIMIT ${BATCH}`);
    if (rows.length === 0) return written;
    const metrics = rows.map((r) => cache.score(r.itemId, r.reference, r.text));
    await db.rows(Prisma.sql`
      UPDATE "Response" r SET bleu = u.bleu, rouge1 = u.rouge1, "rougeL" = u.rouge_l,
             "bleuStats" = CASE WHEN u.stats = '' THEN '{}'::int[] ELSE string_to_array(u.stats, ',')::int[] END
        FROM unnest(${rows.map((r) => r.id)}::uuid[], ${metrics.map((m) => m?.bleu ?? null)}::float8[], ${metrics.map((m) => m?.rouge1 ?? null)}::float8[],
                    ${metrics.map((m) => m?.rougeL ?? null)}::float8[], ${metrics.map((m) => statsArray(m).join(","))}::text[])
          AS u(id, bleu, rouge1, rouge_l, stats)
       WHERE r.id = u.id`);
    written += rows.length;
    after = rows[rows.length - 1].id;
    if (rows.length < BATCH) return written;
  }
}

/** The same on the import's own pg connection (its transaction). */
export function pgSql(client: { query: (text: string, values: unknown[]) => Promise<{ rows: unknown[] }> }): Sql {
  return { rows: async <T>(s: Prisma.Sql) => (await client.query(s.text, s.values as unknown[])).rows as T[] };
}
