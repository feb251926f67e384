import { execFile, spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { open, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { describeUrl } from "./connect-check";
import { embeddedBinDir } from "./embedded-package";

/**
 * Backups with PostgreSQL's own tools: `pg_dump --format=custom` and
 * `pg_restore`. pg_dump refuses a server newer than itself, so the tool is
 * chosen by version: PG_BIN_DIR if set (and only it), else the embedded
 * PostgreSQL's binaries (when its package ships them), the PATH, and every
 * /usr/lib/postgresql/<version>/bin (Debian keeps one per major version).
 */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BackupError";
  }
}

const run = promisify(execFile);

interface Tool {
  file: string;
  major: number;
}

async function versionOf(file: string): Promise<number | null> {
  try {
    const { stdout } = await run(file, ["--version"], { timeout: 10_000 });
    const m = /\(PostgreSQL\)\s+(\d+)/.exec(stdout);
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

function candidates(name: string): string[] {
  const explicit = process.env.PG_BIN_DIR?.trim();
  if (explicit) return [path.join(explicit, name)];
  const found: string[] = [];
  const embedded = embeddedBinDir();
  if (embedded) found.push(path.join(embedded, name));
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) if (dir) found.push(path.join(dir, name));
  const debian = "/usr/lib/postgresql";
  if (existsSync(debian)) for (const v of readdirSync(debian)) found.push(path.join(debian, v, "bin", name));
  return [...new Set(found)].filter((f) => existsSync(f));
}

/**
 * The newest `name` available, which must be at least `minMajor`; `server`
 * (the database's major) names the client to install when none fits.
 */
export async function findTool(name: "pg_dump" | "pg_restore", server: number, minMajor = server): Promise<Tool> {
  const tools: Tool[] = [];
  for (const file of candidates(name)) {
    const major = await versionOf(file);
    if (major !== null) tools.push({ file, major });
  }
  tools.sort((a, b) => b.major - a.major);
  const best = tools[0];
  const where = process.env.PG_BIN_DIR?.trim() ? `in PG_BIN_DIR (${process.env.PG_BIN_DIR})` : "on this machine";
  const install = `Install PostgreSQL ${server}'s client tools (Debian, Ubuntu: apt-get install postgresql-client-${server}, from apt.postgresql.org if the release has no such package) or set PG_BIN_DIR to a folder holding ${name} ${server} or newer.`;
  if (!best) throw new BackupError(`The database is PostgreSQL ${server}, and no ${name} was found ${where}. ${install}`);
  if (best.major < minMajor) {
    throw new BackupError(`The database is PostgreSQL ${server}, but the newest ${name} ${where} is version ${best.major} (${best.file}); ${name} must be at least the server's version. ${install}`);
  }
  return best;
}

/** libpq takes the URL without its password (which `ps` would show) and the password from the environment. */
function connection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = "";
  return { dbname: u.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  try {
    await c.connect();
  } catch (err) {
    throw new BackupError(`Cannot connect to the database (${describeUrl(url)}): ${(err as Error).message}`);
  }
  try {
    return await fn(c);
  } finally {
    await c.end().catch(() => {});
  }
}

async function serverMajor(c: pg.Client): Promise<number> {
  const { rows } = await c.query<{ v: string }>("SELECT current_setting('server_version_num') AS v");
  return Math.floor(Number(rows[0].v) / 10_000);
}

/** What a database holds, in a line a person can check after a backup or a restore. */
async function summary(c: pg.Client): Promise<string> {
  const count = async (table: string) => {
    const exists = await c.query(`SELECT to_regclass($1) AS t`, [`public."${table}"`]);
    if (!exists.rows[0].t) return 0;
    return (await c.query<{ n: number }>(`SELECT count(*)::int AS n FROM public."${table}"`)).rows[0].n;
  };
  const [studies, users, assignments, grades, migrations] = [await count("Study"), await count("User"), await count("Assignment"), await count("Grade"), await count("_prisma_migrations")];
  return `${studies} studies, ${users} users, ${assignments} assignments, ${grades} grades, ${migrations} migrations`;
}

function runTool(tool: Tool, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool.file, args, { env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", (err) => reject(new BackupError(`${tool.file} did not run: ${err.message}`)));
    child.on("close", (code) => {
      if (code === 0) return resolve();
      const lines = stderr.trim().split("\n").filter(Boolean);
      reject(new BackupError(`${path.basename(tool.file)} failed (exit ${code}): ${lines.slice(0, 3).join(" | ") || "no message"}`));
    });
  });
}

export interface BackupResult {
  file: string;
  bytes: number;
  tool: Tool;
  server: number;
  summary: string;
}

/**
 * Writes a custom-format dump of the database to `out`, never over an
 * existing file unless `force`: written beside it first and renamed when
 * complete, so that a failed backup leaves no half file under the name.
 */
export async function backupDatabase(url: string, out: string, opts: { force?: boolean } = {}): Promise<BackupResult> {
  const file = path.resolve(out);
  if (existsSync(file) && !opts.force) throw new BackupError(`${file} already exists: choose another --out, or add --force to replace it.`);
  if (!existsSync(path.dirname(file))) throw new BackupError(`The folder ${path.dirname(file)} does not exist.`);
  const { server, text } = await withClient(url, async (c) => ({ server: await serverMajor(c), text: await summary(c) }));
  const tool = await findTool("pg_dump", server);
  const partial = `${file}.partial-${process.pid}`;
  const { dbname, env } = connection(url);
  try {
    await runTool(tool, ["--format=custom", "--compress=6", "--no-sync", `--file=${partial}`, `--dbname=${dbname}`], env);
    await rename(partial, file);
  } finally {
    await rm(partial, { force: true });
  }
  return { file, bytes: (await stat(file)).size, tool, server, summary: text };
}

export interface RestoreResult {
  tool: Tool;
  summary: string;
}

/** The user tables, views and sequences of a database: none means it is empty. */
async function userRelations(c: pg.Client): Promise<string[]> {
  const { rows } = await c.query<{ name: string }>(`
    SELECT format('%I.%I', n.nspname, c.relname) AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
      AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_toast%' AND n.nspname NOT LIKE 'pg\\_temp%'
    ORDER BY 1`);
  return rows.map((r) => r.name);
}

/**
 * Restores a custom-format dump into an empty database, in one transaction
 * (a failure leaves the database empty). A database that holds anything is
 * refused: restoring over data would mix two histories.
 */
export async function restoreDatabase(url: string, from: string): Promise<RestoreResult> {
  const file = path.resolve(from);
  if (!existsSync(file)) throw new BackupError(`${file} does not exist.`);
  const head = Buffer.alloc(5);
  const fd = await open(file, "r");
  try {
    await fd.read(head, 0, 5, 0);
  } finally {
    await fd.close();
  }
  if (head.toString("latin1") !== "PGDMP") throw new BackupError(`${file} is not a backup made by \`admin backup\` (a pg_dump custom-format archive).`);
  const server = await withClient(url, async (c) => {
    const relations = await userRelations(c);
    if (relations.length) {
      throw new BackupError(
        `The database ${describeUrl(url)} is not empty (${relations.length} tables and other relations, such as ${relations.slice(0, 3).join(", ")}): restore only into an empty database. Create one (CREATE DATABASE ...) and point DATABASE_URL at it, or, for the embedded database, set CLINGRADE_DATA_DIR to a new folder.`,
      );
    }
    return serverMajor(c);
  });
  // pg_restore must read the archive's format: the newest one is the likeliest to.
  const tool = await findTool("pg_restore", server, 0);
  const { dbname, env } = connection(url);
  await runTool(tool, ["--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction", `--dbname=${dbname}`, file], env);
  return { tool, summary: await withClient(url, summary) };
}
