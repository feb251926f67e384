import pg from "pg";
import { databaseUrl } from "@/lib/db/url";

/**
 * The exports' own connection pool (raw `pg`, not Prisma): exports stream with
 * COPY and cursors, which hold a connection for the whole download, so they get
 * a small pool of their own and can never starve the app's Prisma pool. One pool
 * per DATABASE_URL, like getDb() (tests point DATABASE_URL elsewhere).
 */
export const EXPORT_APPLICATION_NAME = "clingrade-export";

const globalForPool = globalThis as unknown as { clingradeExportPools?: Map<string, pg.Pool> };

export function exportPool(): pg.Pool {
  const url = databaseUrl();
  const pools = (globalForPool.clingradeExportPools ??= new Map());
  let pool = pools.get(url);
  if (!pool) {
    pool = new pg.Pool({
      connectionString: url,
      max: Number(process.env.EXPORT_POOL_SIZE ?? 4),
      idleTimeoutMillis: 30_000,
      allowExitOnIdle: true,
      application_name: EXPORT_APPLICATION_NAME,
    });
    // An idle connection that the server drops must not crash the process.
    pool.on("error", () => undefined);
    pools.set(url, pool);
  }
  return pool;
}

/** Checked-out and idle connections of the current database's pool (tests and health checks read it). */
export function exportPoolStats(): { total: number; idle: number; waiting: number } {
  const pool = globalForPool.clingradeExportPools?.get(databaseUrl());
  return pool ? { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount } : { total: 0, idle: 0, waiting: 0 };
}

export async function closeExportPools(): Promise<void> {
  const pools = globalForPool.clingradeExportPools;
  if (!pools) return;
  globalForPool.clingradeExportPools = new Map();
  await Promise.all([...pools.values()].map((p) => p.end()));
}
