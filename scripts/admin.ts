/**
 * Administration from the command line.
 *
 *   npm run admin -- create-user --email E --name N --role LEAD|GRADER|ADMIN (--password P | --password-stdin) [--specialty S ...]
 *   npm run admin -- create-token --email E [--name LABEL] [--expires-days D]
 *   npm run admin -- revoke-token --id TOKEN_ID
 *   npm run admin -- deactivate-user --email E | activate-user --email E
 *   npm run admin -- unlock-user --email E      (clears the account's sign-in throttling)
 *   npm run admin -- list-users
 *
 * Uses DATABASE_URL, else the embedded database (shared with a running app).
 */
import { parseArgs } from "node:util";
import { prepareDatabase } from "@/lib/db/bootstrap";
import { disconnectDb } from "@/lib/db/client";
import { StartupError } from "@/lib/db/embedded";
import { runAdminCommand, AdminUsageError } from "@/lib/users/admin-cli";

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8").replace(/\r?\n$/, "");
}

async function main() {
  const [command, ...rest] = process.argv.slice(2);
  const { values } = parseArgs({
    args: rest,
    options: {
      email: { type: "string" },
      name: { type: "string" },
      role: { type: "string" },
      password: { type: "string" },
      "password-stdin": { type: "boolean" },
      specialty: { type: "string", multiple: true },
      id: { type: "string" },
      "expires-days": { type: "string" },
    },
    strict: true,
  });
  const password = values["password-stdin"] ? await readStdin() : values.password;
  const db = await prepareDatabase({ allowShared: true });
  process.env.DATABASE_URL = db.url;
  try {
    const out = await runAdminCommand(command, { ...values, password });
    for (const line of out) console.log(line);
  } finally {
    await disconnectDb();
    await db.embedded?.stop();
  }
}

main().catch((err: unknown) => {
  const known = err instanceof StartupError || err instanceof AdminUsageError || (err instanceof Error && err.name === "UserError");
  console.error(`admin: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}`);
  if (!known && process.env.DEBUG) console.error(err);
  process.exit(known && err instanceof AdminUsageError ? 2 : 1);
});
