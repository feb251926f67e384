import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, inject } from "vitest";
import { disconnectDb, getDb } from "@/lib/db/client";

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: inject("pgServerUrl") });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** Creates an empty, migrated database by cloning the run's template. */
export async function createMigratedDatabase(): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const name = `clingrade_t_${randomBytes(6).toString("hex")}`;
  await admin((c) => c.query(`CREATE DATABASE "${name}" TEMPLATE "${inject("templateDatabase")}"`));
  return {
    name,
    url: withDatabase(inject("pgServerUrl"), name),
    drop: () => admin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}

/** Gives this test file its own database and points the app's client (getDb) at it. */
export function useIsolatedDatabase(): { url: () => string } {
  let db: Awaited<ReturnType<typeof createMigratedDatabase>> | undefined;
  beforeAll(async () => {
    db = await createMigratedDatabase();
    process.env.DATABASE_URL = db.url;
    process.env.AUTH_SECRET ??= "test-secret-".padEnd(48, "x");
    await getDb().$queryRaw`SELECT 1`;
  });
  afterAll(async () => {
    await disconnectDb();
    await db?.drop();
  });
  return {
    url: () => {
      if (!db) throw new Error("database not ready: call inside a test or hook");
      return db.url;
    },
  };
}
