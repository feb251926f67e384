import pg from "pg";
import { databaseUrl } from "@/lib/db/url";
import { ApiError } from "@/lib/errors/api-error";

/**
 * Imports take memory and a connection for as long as a file is read, so a
 * server runs a few at a time (IMPORT_MAX_CONCURRENT, 429 beyond it) and a
 * study one at a time (409): a second import of the same study would wait on
 * the first's lock for minutes. The study's turn is a PostgreSQL session
 * advisory lock, held by a connection of its own for the import's length, so
 * two instances on one database refuse alike and a killed process frees it.
 */

// The advisory lock's first key: this module's locks, apart from any other's.
const LOCK_SPACE = 0x1a2b_0032;
export const RETRY_AFTER_S = 10;

let running = 0;

export function maxConcurrentImports(): number {
  const configured = Number(process.env.IMPORT_MAX_CONCURRENT);
  return Number.isFinite(configured) && configured > 0 ? Math.floor(configured) : 2;
}

/**
 * Runs an import when the server has room for it and, for an import into a
 * study (`studyId`; null for a study archive, which makes a new one), when it
 * is the study's only one.
 */
export async function withImportSlot<T>(studyId: string | null, run: () => Promise<T>): Promise<T> {
  const max = maxConcurrentImports();
  if (running >= max) throw new ApiError(429, `this server is already running ${max} imports (IMPORT_MAX_CONCURRENT): try again shortly`, undefined, RETRY_AFTER_S);
  running++;
  if (studyId === null) {
    try {
      return await run();
    } finally {
      running--;
    }
  }
  const client = new pg.Client({ connectionString: databaseUrl(), application_name: "clingrade-import-slot" });
  client.on("error", () => undefined);
  try {
    await client.connect();
    const { rows } = await client.query<{ ok: boolean }>("SELECT pg_try_advisory_lock($1::int, hashtext($2::text)) AS ok", [LOCK_SPACE, studyId]);
    if (!rows[0].ok) throw new ApiError(409, "another import into this study is running: try again when it has finished", undefined, RETRY_AFTER_S);
    return await run();
  } finally {
    running--;
    // Ending the session releases its advisory lock.
    await client.end().catch(() => undefined);
  }
}
