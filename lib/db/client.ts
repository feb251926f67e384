import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { logger } from "@/lib/log/logger";
import { databaseUrl } from "./url";

/**
 * One connection pool and one Prisma client per process, created on first use
 * so that whoever starts the process (the start script, a test file) can set
 * DATABASE_URL first. Prisma and the hand-written SQL of the hot paths
 * (`lib/db/sql.ts`) share the pool, so the pool size is the process's whole
 * claim on PostgreSQL.
 */
const globalForDb = globalThis as unknown as { clingradeDb?: PrismaClient; clingradePool?: pg.Pool; clingradeDbUrl?: string };

export { databaseUrl };

/** How long an unused connection stays open. */
export const POOL_IDLE_MS = 10 * 60_000;

function connect(): { db: PrismaClient; pool: pg.Pool } {
  const url = databaseUrl();
  if (!globalForDb.clingradeDb || !globalForDb.clingradePool || globalForDb.clingradeDbUrl !== url) {
    const pool = new pg.Pool({
      connectionString: url,
      max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
      // A request waiting this long for a connection fails with a clear error rather than hanging.
      connectionTimeoutMillis: 10_000,
      // A grader reads an answer for minutes between two requests. With pg's default of 10 s
      // nearly every request of a quiet study would open a connection: a new backend with cold
      // caches that parses and plans every statement again.
      idleTimeoutMillis: POOL_IDLE_MS,
      // TCP keep-alive, so that a firewall does not drop a connection that waits this long.
      keepAlive: true,
      keepAliveInitialDelayMillis: 60_000,
      // Idle connections alone do not keep a script or a test worker alive.
      allowExitOnIdle: true,
    });
    // An idle connection that PostgreSQL closes (restart, failover) must not crash the process; the pool replaces it.
    pool.on("error", (err) => logger.warn({ err: err.message }, "an idle database connection failed; the pool replaces it"));
    globalForDb.clingradePool = pool;
    globalForDb.clingradeDb = new PrismaClient({ adapter: new PrismaPg(pool) });
    globalForDb.clingradeDbUrl = url;
  }
  return { db: globalForDb.clingradeDb, pool: globalForDb.clingradePool };
}

export function getDb(): PrismaClient {
  return connect().db;
}

/** The pool behind `getDb()`, for `lib/db/sql.ts`. */
export function getPool(): pg.Pool {
  return connect().pool;
}

export async function disconnectDb(): Promise<void> {
  const { clingradeDb: db, clingradePool: pool } = globalForDb;
  globalForDb.clingradeDb = undefined;
  globalForDb.clingradePool = undefined;
  globalForDb.clingradeDbUrl = undefined;
  await db?.$disconnect();
  await pool?.end();
}

export type Db = PrismaClient;
export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];
