/**
 * `npm run migrate`: applies prisma/migrations to the database (DATABASE_URL,
 * or the embedded PostgreSQL under .data/) and says what it applied, without
 * starting the server. The server applies them at start-up too; this is for a
 * deployment that migrates before it rolls instances over.
 */
import { prepareDatabase } from "@/lib/db/bootstrap";
import { StartupError } from "@/lib/db/embedded";

async function main() {
  const db = await prepareDatabase({ log: (m) => console.log(`[clingrade] ${m}`) });
  try {
    const { applied, alreadyApplied } = db.migrations;
    console.log(applied.length ? `Applied ${applied.length} migration(s).` : `Up to date: ${alreadyApplied.length} migrations already applied.`);
  } finally {
    await db.embedded?.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof StartupError ? err.message : err);
  process.exit(1);
});
