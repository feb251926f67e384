import { getDb, type Db, type Tx } from "@/lib/db/client";
import { sql, sqlTransaction } from "@/lib/db/sql";
import { Prisma } from "@/lib/generated/prisma/client";
import { decideThrottle, throttleConfigFromEnv, type ThrottleConfig } from "./throttle-policy";

/**
 * The LoginAttempt table's side of sign-in throttling (the policy itself is
 * lib/auth/throttle-policy.ts). An attempt is reserved, counted as a failure,
 * before its password is checked, and the count and the reservation happen
 * under a lock on the address: N parallel attempts from one address see the
 * counts 0..N-1, so no more than the limits ever reach the password check.
 */
export type Reservation =
  | { action: "allow"; attemptId: string; delayMs: number }
  | { action: "refuse"; retryAfterMs: number; scope: "pair" | "address" };

interface Counts {
  now: Date;
  account: number;
  pair: number;
  oldestPair: Date | null;
  address: number;
  oldestAddress: Date | null;
}

/** Sign-in locks are (this, hash of the address): the two-key form keeps them apart from the app's other advisory locks. */
const ADDRESS_LOCK_CLASS = 1;
/** Expired attempts deleted at most per reservation: enough to keep up, since each reservation adds one. */
const CLEANUP_BATCH = 100;

const windowStart = (config: ThrottleConfig) => Prisma.sql`now() - ${config.windowMs / 1000}::float8 * interval '1 second'`;

export async function reserveAttempt(email: string, address: string, config: ThrottleConfig): Promise<Reservation> {
  const reservation = await sqlTransaction(async (tx): Promise<Reservation> => {
    // The address's lock covers both refusals (a pair includes its address). None is taken on the
    // account, whose count only slows down: attempts on one account from many addresses must not
    // queue behind each other, or a flood of them would keep the real user waiting.
    await tx.rows(Prisma.sql`SELECT pg_advisory_xact_lock(${ADDRESS_LOCK_CLASS}::int, hashtext(${address}))`);
    // A statement after the lock: under READ COMMITTED it sees every attempt reserved before it.
    const [c] = await tx.rows<Counts>(Prisma.sql`
      SELECT now() AS now,
             count(*) FILTER (WHERE email = ${email})::int AS account,
             count(*) FILTER (WHERE email = ${email} AND address = ${address})::int AS pair,
             min("createdAt") FILTER (WHERE email = ${email} AND address = ${address}) AS "oldestPair",
             count(*) FILTER (WHERE address = ${address})::int AS address,
             min("createdAt") FILTER (WHERE address = ${address}) AS "oldestAddress"
        FROM "LoginAttempt"
       WHERE (email = ${email} OR address = ${address}) AND outcome <> 'SUCCEEDED' AND "createdAt" >= ${windowStart(config)}`);
    const decision = decideThrottle(
      { pairFailures: c.pair, oldestPairFailureAt: c.oldestPair, addressFailures: c.address, oldestAddressFailureAt: c.oldestAddress, accountFailures: c.account },
      c.now,
      config,
    );
    // A refused attempt is not recorded: hammering does not extend the window.
    if (decision.action === "refuse") return decision;
    const [row] = await tx.rows<{ id: string }>(Prisma.sql`INSERT INTO "LoginAttempt" (email, address) VALUES (${email}, ${address}) RETURNING id::text AS id`);
    return { action: "allow", attemptId: row.id, delayMs: decision.delayMs };
  });
  if (reservation.action === "allow") await deleteExpiredAttempts(config);
  return reservation;
}

/**
 * Settles a reserved attempt. A success also forgets that pair's earlier
 * failures (the user proved themself from that address); the account's
 * failures from other addresses keep their slow-down until the window passes.
 */
export async function settleAttempt(attemptId: string, succeeded: boolean, email: string, address: string): Promise<void> {
  if (!succeeded) {
    await sql.rows(Prisma.sql`UPDATE "LoginAttempt" SET outcome = 'FAILED' WHERE id = ${attemptId}::bigint`);
    return;
  }
  await sql.rows(Prisma.sql`
    WITH settled AS (UPDATE "LoginAttempt" SET outcome = 'SUCCEEDED' WHERE id = ${attemptId}::bigint)
    DELETE FROM "LoginAttempt" WHERE email = ${email} AND address = ${address} AND outcome = 'FAILED'`);
}

/** The oldest attempts, if expired: ids grow with time, so the head of the table is where they are. */
async function deleteExpiredAttempts(config: ThrottleConfig): Promise<void> {
  // SKIP LOCKED: parallel sign-ins never wait on (or deadlock over) each other's cleanup.
  await sql.rows(Prisma.sql`
    DELETE FROM "LoginAttempt" WHERE id IN (
      SELECT id FROM "LoginAttempt"
       WHERE id IN (SELECT id FROM "LoginAttempt" ORDER BY id LIMIT ${CLEANUP_BATCH})
         AND "createdAt" < ${windowStart(config)}
         FOR UPDATE SKIP LOCKED)`);
}

/** Forgets an account's failed (and in-flight) attempts from every address: the admin unlock. Returns how many. */
export async function clearLoginFailures(db: Db | Tx, email: string): Promise<number> {
  const { count } = await db.loginAttempt.deleteMany({ where: { email, outcome: { not: "SUCCEEDED" } } });
  return count;
}

/** Failed attempts in the window per account, for the users page. */
export async function loginFailuresByEmail(emails: string[], config: ThrottleConfig = throttleConfigFromEnv()): Promise<Map<string, number>> {
  if (emails.length === 0) return new Map();
  const rows = await getDb().loginAttempt.groupBy({
    by: ["email"],
    where: { email: { in: emails }, outcome: { not: "SUCCEEDED" }, createdAt: { gte: new Date(Date.now() - config.windowMs) } },
    _count: { _all: true },
  });
  return new Map(rows.map((r) => [r.email, r._count._all]));
}
