import { Prisma } from "@/lib/generated/prisma/client";

/**
 * The one lock order for a response set's grading state (its assignments, grades,
 * escalation and status): an assignment run's study lock first, then the sets'
 * rows in id order, then whatever the writer changes. Every writer takes the set
 * locks with this statement before it reads what it decides on, in a statement
 * of its own: under READ COMMITTED a later statement sees everything committed
 * before the lock was granted, whereas a row read in the locking statement
 * itself may be stale (only the locked row is re-checked).
 *
 * `sets` is a list of ids or a subquery selecting them (a set's id never changes,
 * so a subquery read before the lock is granted still names the right rows).
 * Returns the ids it locked (an unknown id is simply absent).
 */
export function lockSetsSql(sets: readonly string[] | Prisma.Sql): Prisma.Sql {
  const ids = sets instanceof Prisma.Sql ? sets : Prisma.sql`SELECT unnest(${[...sets]}::uuid[])`;
  return Prisma.sql`SELECT id FROM "ResponseSet" WHERE id IN (${ids}) ORDER BY id FOR UPDATE`;
}
