import { Prisma } from "@/lib/generated/prisma/client";

/**
 * The one lock order for a comparison's grading state (its assignments, preferences, escalation
 * and status), as lib/db/set-lock.ts is for a response set's: a planning or dealing run's study
 * lock first, then the comparisons' rows in id order, then whatever the writer changes. Every
 * writer takes these locks in a statement of its own before it reads what it decides on: under
 * READ COMMITTED a later statement sees everything committed before the lock was granted.
 * Comparisons never lock response sets (nor the reverse), so the two orders cannot cross.
 */
export function lockComparisonsSql(ids: readonly string[] | Prisma.Sql): Prisma.Sql {
  const list = ids instanceof Prisma.Sql ? ids : Prisma.sql`SELECT unnest(${[...ids]}::uuid[])`;
  return Prisma.sql`SELECT id FROM "Comparison" WHERE id IN (${list}) ORDER BY id FOR UPDATE`;
}

/** The advisory lock that serialises a study's planning and dealing runs (the same key as scoring's assignment runs). */
export function studyRunLockSql(studyId: string): Prisma.Sql {
  return Prisma.sql`SELECT pg_advisory_xact_lock(hashtext(${"assign:" + studyId}))`;
}
