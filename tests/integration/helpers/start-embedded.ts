// Started as a child process by embedded.test.ts, then SIGKILLed to leave an
// orphaned PostgreSQL behind, as a crashed app would.
import { startEmbeddedPostgres } from "@/lib/db/embedded";

const [dataDir, port] = process.argv.slice(2);
startEmbeddedPostgres({ dataDir, port: Number(port) }).then(
  (db) => console.log(`READY ${db.port}`),
  (err: unknown) => {
    console.error(String(err));
    process.exit(1);
  },
);
setInterval(() => {}, 1_000);
