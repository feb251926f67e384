import pg from "pg";
import { StartupError } from "./embedded";

/** Where a URL points, without its password, for error messages. */
export function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || 5432}${u.pathname}`;
  } catch {
    return "<unparseable url>";
  }
}

/** Fails fast, in one line, when DATABASE_URL is wrong, instead of a stack trace later. */
export async function assertDatabaseReachable(url: string, timeoutMs = 5_000): Promise<void> {
  try {
    new URL(url);
  } catch {
    throw new StartupError("DATABASE_URL is not a valid URL. Expected postgresql://USER:PASSWORD@HOST:PORT/DATABASE");
  }
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  try {
    await client.connect();
    await client.query("SELECT 1");
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new StartupError(`Cannot connect to the PostgreSQL in DATABASE_URL (${describeUrl(url)}): ${reason}. Check DATABASE_URL, or unset it to use the embedded database.`);
  } finally {
    await client.end().catch(() => {});
  }
}
