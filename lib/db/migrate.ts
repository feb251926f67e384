import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { appDir } from "@/lib/build/app-dir";

/**
 * Applies prisma/migrations/<name>/migration.sql in name order, each in its own
 * transaction, under a PostgreSQL advisory lock so that two app instances
 * starting together cannot both migrate. Applied migrations are recorded in
 * Prisma's standard `_prisma_migrations` table, so Prisma tooling reads the same
 * history. We do this ourselves because Prisma's native migrate engine cannot be
 * downloaded here (and `migrate deploy` without it silently applies nothing).
 */
export interface MigrationResult {
  applied: string[];
  alreadyApplied: string[];
}

const LOCK_KEY = 727_001; // arbitrary, fixed: one lock for Clingrade's migrations

export const DEFAULT_MIGRATIONS_DIR = path.join(appDir(), "prisma/migrations");

export async function listMigrations(dir = DEFAULT_MIGRATIONS_DIR) {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    }),
  );
}

export async function applyMigrations(connectionString: string, dir = DEFAULT_MIGRATIONS_DIR): Promise<MigrationResult> {
  const migrations = await listMigrations(dir);
  const client = new pg.Client({ connectionString });
  await client.connect();
  const result: MigrationResult = { applied: [], alreadyApplied: [] };
  try {
    await client.query("SELECT pg_advisory_lock($1)", [LOCK_KEY]);
    await client.query(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" VARCHAR(36) PRIMARY KEY NOT NULL,
      "checksum" VARCHAR(64) NOT NULL,
      "finished_at" TIMESTAMPTZ,
      "migration_name" VARCHAR(255) NOT NULL,
      "logs" TEXT,
      "rolled_back_at" TIMESTAMPTZ,
      "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
      "applied_steps_count" INTEGER NOT NULL DEFAULT 0)`);
    const { rows } = await client.query<{ migration_name: string; checksum: string }>(
      `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const done = new Map(rows.map((r) => [r.migration_name, r.checksum]));
    for (const m of migrations) {
      const appliedChecksum = done.get(m.name);
      if (appliedChecksum !== undefined) {
        if (appliedChecksum !== m.checksum) {
          throw new Error(
            `Migration ${m.name} was edited after it was applied to this database. Restore its original migration.sql and write a new migration instead.`,
          );
        }
        result.alreadyApplied.push(m.name);
        continue;
      }
      await client.query("BEGIN");
      try {
        await client.query(m.sql);
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count) VALUES ($1, $2, now(), $3, 1)`,
          [randomUUID(), m.checksum, m.name],
        );
        await client.query("COMMIT");
        result.applied.push(m.name);
      } catch (err) {
        await client.query("ROLLBACK");
        const reason = err instanceof Error ? err.message : String(err);
        throw new Error(`Migration ${m.name} failed and was rolled back: ${reason}`);
      }
    }
    return result;
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [LOCK_KEY]).catch(() => {});
    await client.end();
  }
}
