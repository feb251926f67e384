/**
 * Administration from the command line.
 *
 *   npm run admin -- create-user --email E --name N --role LEAD|GRADER|ADMIN (--password P | --password-stdin) [--specialty S ...]
 *   npm run admin -- create-token --email E [--name LABEL] [--expires-days D]
 *   npm run admin -- revoke-token --id TOKEN_ID
 *   npm run admin -- deactivate-user --email E | activate-user --email E
 *   npm run admin -- unlock-user --email E      (clears the account's sign-in throttling)
 *   npm run admin -- unlink-sso --email E [--issuer URL]  (removes its single sign-on links, ends its sessions)
 *   npm run admin -- list-users
 *   npm run admin -- backup --out FILE [--force]   (pg_dump custom format; PG_BIN_DIR picks the tools)
 *   npm run admin -- restore --from FILE           (into an empty database only, then migrates it)
 *   npm run admin -- judge-run --id RUN_ID [--resume] (works on one judge run in the foreground until it is settled)
 *
 * Uses DATABASE_URL, else the embedded database (shared with a running app).
 */
import { parseArgs } from "node:util";
import { backupDatabase, BackupError, restoreDatabase } from "@/lib/db/backup";
import { prepareDatabase } from "@/lib/db/bootstrap";
import { applyMigrations } from "@/lib/db/migrate";
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
      out: { type: "string" },
      from: { type: "string" },
      force: { type: "boolean" },
      resume: { type: "boolean" },
      issuer: { type: "string" },
    },
    strict: true,
  });
  if (command === "backup" || command === "restore") return backupOrRestore(command, values);
  const password = values["password-stdin"] ? await readStdin() : values.password;
  const db = await prepareDatabase({ allowShared: true });
  process.env.DATABASE_URL = db.url;
  try {
    if (command === "judge-run") {
      const { runJudgeRunCommand } = await import("@/lib/judges/runner/cli");
      process.exitCode = await runJudgeRunCommand(values.id, { resume: values.resume, say: (l) => console.log(l) });
      return;
    }
    const out = await runAdminCommand(command, { ...values, password });
    for (const line of out) console.log(line);
  } finally {
    await disconnectDb();
    await db.embedded?.stop();
  }
}

const kb = (bytes: number) => `${Math.max(1, Math.round(bytes / 1024))} kB`;

async function backupOrRestore(command: "backup" | "restore", values: { out?: string; from?: string; force?: boolean }) {
  const file = command === "backup" ? values.out : values.from;
  if (!file) throw new AdminUsageError(`${command} needs ${command === "backup" ? "--out FILE" : "--from FILE"}`);
  // Neither migrates first: a backup takes the database as it is, a restore needs it empty.
  const db = await prepareDatabase({ allowShared: true, migrate: false });
  try {
    if (command === "backup") {
      const r = await backupDatabase(db.url, file, { force: values.force });
      console.log(`Backed up ${r.summary} to ${r.file} (${kb(r.bytes)}, PostgreSQL ${r.server}, ${r.tool.file} ${r.tool.major}).`);
    } else {
      const r = await restoreDatabase(db.url, file);
      // A backup of an older version gets this version's later migrations.
      const migrations = await applyMigrations(db.url);
      console.log(`Restored ${r.summary} from ${file} (${r.tool.file} ${r.tool.major}).`);
      if (migrations.applied.length) console.log(`Applied migrations: ${migrations.applied.join(", ")}`);
    }
  } finally {
    await db.embedded?.stop();
  }
}

main().catch((err: unknown) => {
  const known = err instanceof StartupError || err instanceof AdminUsageError || err instanceof BackupError || (err instanceof Error && err.name === "UserError");
  console.error(`admin: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}`);
  if (!known && process.env.DEBUG) console.error(err);
  process.exit(known && err instanceof AdminUsageError ? 2 : 1);
});
