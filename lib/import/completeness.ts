import type { Db, Tx } from "@/lib/db/client";

/**
 * A response set (item x model) is complete when it holds all N answers of
 * the study, repetitions 1..N: graders compare the N answers with each other
 * (a dimension graded across them, or derived from them), so an incomplete set is
 * not offered for grading.
 *
 * `responseCount` counts the set's answers with repetition in 1..N (the
 * import refuses others; a later lowering of N leaves extra ones, which do
 * not count).
 */
export function isComplete(responseCount: number, repetitions: number): boolean {
  return repetitions >= 1 && responseCount >= repetitions;
}

/**
 * SQL condition, true when the response set aliased `setAlias` is complete for
 * the study aliased `studyAlias`; for queries that join sets with their study.
 * Example: `... FROM "ResponseSet" rs JOIN "Study" s ON s.id = rs."studyId" WHERE ${completeSetSql("rs", "s")}`.
 */
export function completeSetSql(setAlias: string, studyAlias: string): string {
  const ident = /^[A-Za-z_][A-Za-z0-9_]*$/;
  if (!ident.test(setAlias) || !ident.test(studyAlias)) throw new Error("completeSetSql: aliases must be plain identifiers");
  return `(SELECT count(*) FROM "Response" r WHERE r."responseSetId" = ${setAlias}.id AND r.repetition BETWEEN 1 AND ${studyAlias}.repetitions) >= ${studyAlias}.repetitions`;
}

/** Ids of the study's complete response sets (the ones grading may offer). */
export async function completeResponseSetIds(db: Db | Tx, studyId: string): Promise<string[]> {
  const rows = await db.$queryRawUnsafe<{ id: string }[]>(
    `SELECT rs.id::text AS id FROM "ResponseSet" rs JOIN "Study" s ON s.id = rs."studyId"
      WHERE rs."studyId" = $1::uuid AND ${completeSetSql("rs", "s")} ORDER BY rs."createdAt", rs.id`,
    studyId,
  );
  return rows.map((r) => r.id);
}

export interface Completeness {
  complete: number;
  incomplete: number;
}

/** How many of the study's response sets are complete and incomplete. */
export async function completenessOf(db: Db | Tx, studyId: string): Promise<Completeness> {
  const [row] = await db.$queryRawUnsafe<{ complete: bigint; incomplete: bigint }[]>(
    `SELECT count(*) FILTER (WHERE c) AS complete, count(*) FILTER (WHERE NOT c) AS incomplete
       FROM (SELECT ${completeSetSql("rs", "s")} AS c FROM "ResponseSet" rs JOIN "Study" s ON s.id = rs."studyId" WHERE rs."studyId" = $1::uuid) t`,
    studyId,
  );
  return { complete: Number(row?.complete ?? 0), incomplete: Number(row?.incomplete ?? 0) };
}
