import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { freePort } from "./helpers/free-port";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb, getDb } from "@/lib/db/client";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "@/lib/db/embedded";
import { embeddedMajor } from "@/lib/db/embedded-package";
import { applyMigrations } from "@/lib/db/migrate";
import { closeExportPools } from "@/lib/exports/pool";
import { folderSnapshot } from "./helpers/folder-snapshot";
import { allExports, expectSameExports, runAdmin, seedGradedStudy, type GradedStudy } from "./helpers/graded-study";

/**
 * Backups of the embedded database, the README's first way to run Clingrade
 * (no DATABASE_URL): `admin backup` beside the running app finds a pg_dump as
 * new as the embedded PostgreSQL on this machine, and `admin restore` into a
 * new CLINGRADE_DATA_DIR brings every export of a graded study back byte for
 * byte. Whatever server the rest of the run uses, these start their own.
 */
const work = mkdtempSync(path.join(os.tmpdir(), "clingrade-embedded-backup-"));
// As root, PostgreSQL runs as the "postgres" user, which must reach the data folders inside.
if (process.getuid?.() === 0) chmodSync(work, 0o755);
const sourceDir = path.join(work, "source");
const restoredDir = path.join(work, "restored");
const file = path.join(work, "clingrade.dump");
let source: EmbeddedDatabase | null = null;
let restored: EmbeddedDatabase | null = null;
let study: GradedStudy;
let before: Record<string, Buffer>;


/** The environment of `npm run admin` in embedded mode: no DATABASE_URL, no PG_BIN_DIR. */
function embeddedEnv(dataDir: string, port: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, CLINGRADE_DATA_DIR: dataDir, CLINGRADE_PG_PORT: String(port) };
  delete env.DATABASE_URL;
  delete env.PG_BIN_DIR;
  return env;
}

async function serverMajor(url: string): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<{ major: number }>("SELECT current_setting('server_version_num')::int / 10000 AS major")).rows[0].major;
  } finally {
    await c.end();
  }
}

beforeAll(async () => {
  source = await startEmbeddedPostgres({ dataDir: sourceDir, port: await freePort() });
  await applyMigrations(source.url);
  process.env.DATABASE_URL = source.url;
  process.env.AUTH_SECRET ??= "test-secret-".padEnd(48, "x");
  study = await seedGradedStudy();
  before = await allExports(study);
}, 180_000);

afterAll(async () => {
  await closeExportPools();
  await disconnectDb();
  await restored?.stop();
  await source?.stop();
  await rm(work, { recursive: true, force: true });
});

describe("backups of the embedded database", () => {
  it("backs up the running embedded PostgreSQL with a pg_dump from this machine", async () => {
    expect(await serverMajor(source!.url)).toBe(embeddedMajor());
    const r = await runAdmin(["backup", "--out", file], embeddedEnv(sourceDir, await freePort()));
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const m = /^Backed up 1 studies, 4 users, \d+ assignments, \d+ grades, \d+ migrations to .*clingrade\.dump \(\d+ kB, PostgreSQL (\d+), \S*pg_dump (\d+)\)\.$/m.exec(r.stdout);
    expect(m, r.stdout).not.toBeNull();
    expect(Number(m![1])).toBe(embeddedMajor());
    expect(Number(m![2])).toBeGreaterThanOrEqual(embeddedMajor());
    expect(readFileSync(file).subarray(0, 5).toString("latin1")).toBe("PGDMP");
    // The app's server was shared, not stopped.
    expect(await serverMajor(source!.url)).toBe(embeddedMajor());
  }, 120_000);

  it("restores into a new data folder, where every export is the same byte for byte", async () => {
    const port = await freePort();
    const r = await runAdmin(["restore", "--from", file], embeddedEnv(restoredDir, port));
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Restored 1 studies, 4 users, \d+ assignments, \d+ grades, \d+ migrations from /);
    expect(r.stdout).not.toMatch(/Applied migrations/);
    expect(existsSync(path.join(restoredDir, "pg", "postmaster.pid"))).toBe(false); // admin stopped the server it started

    restored = await startEmbeddedPostgres({ dataDir: restoredDir, port });
    await closeExportPools();
    await disconnectDb();
    process.env.DATABASE_URL = restored.url;
    expectSameExports(await allExports(study), before);
    expect(await getDb().grade.count()).toBeGreaterThan(0);
  }, 120_000);

  it("refuses to restore into an embedded database that holds data", async () => {
    const grades = await getDb().grade.count();
    const r = await runAdmin(["restore", "--from", file], embeddedEnv(restoredDir, await freePort()));
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toMatch(/^admin: The database 127\.0\.0\.1:\d+\/clingrade is not empty \(.*\): restore only into an empty database\. .*set CLINGRADE_DATA_DIR to a new folder\.$/);
    expect(await getDb().grade.count()).toBe(grades);
  }, 120_000);

  it("refuses, in one line and touching nothing, a data folder made by another PostgreSQL major", async () => {
    const other = embeddedMajor() === 18 ? 17 : 18;
    const dir = path.join(work, "older");
    mkdirSync(path.join(dir, "pg", "global"), { recursive: true });
    writeFileSync(path.join(dir, "pg", "PG_VERSION"), `${other}\n`);
    writeFileSync(path.join(dir, "pg", "global", "pg_control"), Buffer.alloc(8192, 1));
    writeFileSync(path.join(dir, "pg-password"), "secret\n", { mode: 0o600 });
    const snapshot = folderSnapshot(dir);
    const out = path.join(work, "older.dump");
    const r = await runAdmin(["backup", "--out", out], embeddedEnv(dir, await freePort()));
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr.trim()).toMatch(
      new RegExp(`^admin: The embedded database in .*older/pg was made by PostgreSQL ${other}, and this Clingrade embeds PostgreSQL ${embeddedMajor()}, which cannot open it; the folder was left untouched\\. Keep using the Clingrade version that made it .* or set CLINGRADE_DATA_DIR to a new folder`),
    );
    expect(folderSnapshot(dir)).toEqual(snapshot);
    expect(existsSync(out)).toBe(false);
  }, 60_000);
});
