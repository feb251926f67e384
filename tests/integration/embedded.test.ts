import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { freePort } from "./helpers/free-port";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { startEmbeddedPostgres, StartupError } from "@/lib/db/embedded";
import { embeddedBinDir, embeddedMajor } from "@/lib/db/embedded-package";
import { folderSnapshot } from "./helpers/folder-snapshot";

const dirs: string[] = [];
async function tempDir() {
  const d = await mkdtemp(path.join(os.tmpdir(), "clingrade-emb-"));
  dirs.push(d);
  return d;
}
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});


async function selectOne(url: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const { rows } = await c.query("SELECT 1 AS one");
  await c.end();
  return rows[0].one;
}

/** Alive and not a zombie (an orphan's exit may never be reaped in a container). */
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
};

describe("embedded PostgreSQL", () => {
  it("initialises under the data folder, keeps data across restarts, and stops", async () => {
    const dir = await tempDir();
    const port = await freePort();
    const a = await startEmbeddedPostgres({ dataDir: dir, port });
    expect(a.url).toMatch(new RegExp(`^postgresql://postgres:[^@]+@127\\.0\\.0\\.1:${port}/clingrade$`));
    const c = new pg.Client({ connectionString: a.url });
    await c.connect();
    await c.query("CREATE TABLE kept (v text); INSERT INTO kept VALUES ('still here')");
    await c.end();
    const pid = Number((await readFile(path.join(dir, "pg", "postmaster.pid"), "utf8")).split("\n")[0]);
    await a.stop();
    expect(alive(pid)).toBe(false);

    const b = await startEmbeddedPostgres({ dataDir: dir, port });
    const c2 = new pg.Client({ connectionString: b.url });
    await c2.connect();
    expect((await c2.query("SELECT v FROM kept")).rows).toEqual([{ v: "still here" }]);
    await c2.end();
    await b.stop();
  });

  it("starts cleanly after a crash left a stale postmaster.pid", async () => {
    const dir = await tempDir();
    const port = await freePort();
    const a = await startEmbeddedPostgres({ dataDir: dir, port });
    await a.stop();
    // a pid file whose process is long gone, as after a power cut
    await writeFile(path.join(dir, "pg", "postmaster.pid"), `999999\n${path.join(dir, "pg")}\n0\n${port}\n`);
    const b = await startEmbeddedPostgres({ dataDir: dir, port });
    expect(await selectOne(b.url)).toBe(1);
    await b.stop();
  });

  it("adopts the server a SIGKILLed app left running, and stops it when it stops", async () => {
    const dir = await tempDir();
    const port = await freePort();
    // `node --import tsx` keeps it one process, so SIGKILL hits the owner itself.
    const child = spawn(process.execPath, ["--import", "tsx", "tests/integration/helpers/start-embedded.ts", dir, String(port)], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (d) => String(d).includes("READY") && resolve());
      child.on("exit", () => reject(new Error("child exited early")));
    });
    child.kill("SIGKILL");
    await new Promise((r) => child.on("exit", r));
    const pid = Number((await readFile(path.join(dir, "pg", "postmaster.pid"), "utf8")).split("\n")[0]);
    expect(alive(pid)).toBe(true); // the orphan is still there

    const b = await startEmbeddedPostgres({ dataDir: dir, port });
    expect(await selectOne(b.url)).toBe(1);
    await b.stop();
    expect(alive(pid)).toBe(false);
    expect(existsSync(path.join(dir, "owner.pid"))).toBe(false);
  });

  it("names the problem when the data folder is corrupt", async () => {
    const dir = await tempDir();
    await mkdir(path.join(dir, "pg"), { recursive: true });
    await writeFile(path.join(dir, "pg", "junk"), "x");
    const err = await startEmbeddedPostgres({ dataDir: dir, port: await freePort() }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StartupError);
    expect((err as Error).message).toMatch(/incomplete or corrupt \(no PG_VERSION\)\. Move it away/);
  });

  it("embeds the PostgreSQL major its package is named for", async () => {
    const dir = await tempDir();
    const db = await startEmbeddedPostgres({ dataDir: dir, port: await freePort() });
    try {
      const c = new pg.Client({ connectionString: db.url });
      await c.connect();
      const { rows } = await c.query("SELECT current_setting('server_version_num')::int / 10000 AS major");
      await c.end();
      expect(rows[0].major).toBe(embeddedMajor());
      expect((await readFile(path.join(dir, "pg", "PG_VERSION"), "utf8")).trim()).toBe(String(embeddedMajor()));
      // Where `admin backup` looks for the package's own pg_dump: beside the server it runs.
      expect(existsSync(path.join(embeddedBinDir() ?? "none", "postgres"))).toBe(true);
    } finally {
      await db.stop();
    }
  });

  it("refuses a data folder made by another PostgreSQL major in one line, leaving it untouched", async () => {
    const dir = await tempDir();
    const pgDir = path.join(dir, "pg");
    // What an earlier Clingrade, which embedded PostgreSQL 18, leaves behind (with a live-looking pid file).
    const other = embeddedMajor() === 18 ? 17 : 18;
    await mkdir(path.join(pgDir, "base", "1"), { recursive: true });
    await writeFile(path.join(pgDir, "PG_VERSION"), `${other}\n`);
    await writeFile(path.join(pgDir, "base", "1", "1259"), Buffer.alloc(8192, 7));
    await writeFile(path.join(pgDir, "postmaster.pid"), `${process.pid}\n${pgDir}\n0\n54329\n`);
    await writeFile(path.join(dir, "pg-password"), "secret\n", { mode: 0o600 });
    await chmod(dir, 0o700);
    const before = folderSnapshot(dir);

    const err = await startEmbeddedPostgres({ dataDir: dir, port: await freePort() }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StartupError);
    const message = (err as Error).message;
    expect(message.split("\n")).toHaveLength(1);
    expect(message).toBe(
      `The embedded database in ${pgDir} was made by PostgreSQL ${other}, and this Clingrade embeds PostgreSQL ${embeddedMajor()}, which cannot open it; the folder was left untouched. Keep using the Clingrade version that made it (its \`npm run admin -- backup\` needs a pg_dump ${other}, e.g. PG_BIN_DIR=/usr/lib/postgresql/${other}/bin), or set CLINGRADE_DATA_DIR to a new folder for a new database (README, "Backups": moving studies over).`,
    );
    expect(folderSnapshot(dir)).toEqual(before);
  });

  it("names the problem when the port is taken", async () => {
    const dir = await tempDir();
    const blocker = net.createServer();
    const port = await freePort();
    await new Promise<void>((r) => blocker.listen(port, "127.0.0.1", r));
    try {
      const err = await startEmbeddedPostgres({ dataDir: dir, port }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StartupError);
      expect((err as Error).message).toMatch(new RegExp(`Port ${port} is already in use.*CLINGRADE_PG_PORT`));
    } finally {
      blocker.close();
    }
  });
});
