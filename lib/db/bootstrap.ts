import path from "node:path";
import { assertDatabaseReachable } from "./connect-check";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "./embedded";
import { applyMigrations } from "./migrate";

/**
 * The two database modes: DATABASE_URL when set, else the embedded PostgreSQL.
 * Either way the migrations are applied before anything else touches the data.
 */
export interface DatabaseHandle {
  url: string;
  mode: "external" | "embedded";
  embedded: EmbeddedDatabase | null;
  migrations: { applied: string[]; alreadyApplied: string[] };
}

export function dataDir(): string {
  return path.resolve(process.env.CLINGRADE_DATA_DIR ?? ".data");
}

export async function prepareDatabase(opts: { allowShared?: boolean; log?: (m: string) => void; migrate?: boolean } = {}): Promise<DatabaseHandle> {
  const log = opts.log ?? (() => {});
  const external = process.env.DATABASE_URL?.trim();
  let embedded: EmbeddedDatabase | null = null;
  let url: string;
  if (external) {
    await assertDatabaseReachable(external);
    url = external;
  } else {
    embedded = await startEmbeddedPostgres({ dataDir: dataDir(), allowShared: opts.allowShared, log });
    url = embedded.url;
  }
  try {
    // Backups read the database as it is; a restore needs it empty.
    const migrations = opts.migrate === false ? { applied: [], alreadyApplied: [] } : await applyMigrations(url);
    if (migrations.applied.length) log(`Applied migrations: ${migrations.applied.join(", ")}`);
    return { url, mode: external ? "external" : "embedded", embedded, migrations };
  } catch (err) {
    await embedded?.stop();
    throw err;
  }
}
