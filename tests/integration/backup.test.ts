import { mkdtempSync, readFileSync, writeFileSync, chmodSync, mkdirSync, existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { BackupError, findTool } from "@/lib/db/backup";
import { disconnectDb, getDb } from "@/lib/db/client";
import { closeExportPools } from "@/lib/exports/pool";
import { useIsolatedDatabase } from "./helpers/db";
import { allExports, expectSameExports, runAdmin, seedGradedStudy, type GradedStudy } from "./helpers/graded-study";

/**
 * `npm run admin -- backup` and `restore`, run as a user would: a graded study
 * (an adjudicated escalation, a harm flag, a draft, awkward comments) is backed
 * up, restored into an empty database, and every export of it is the same,
 * byte for byte.
 */
const source = useIsolatedDatabase();
const dir = mkdtempSync(path.join(os.tmpdir(), "clingrade-backup-"));
const restoredName = `clingrade_restore_${process.pid}_${Date.now().toString(36)}`;
const restoredUrl = () => {
  const u = new URL(inject("pgServerUrl"));
  u.pathname = `/${restoredName}`;
  return u.toString();
};
async function onServer(sql: string) {
  const c = new pg.Client({ connectionString: inject("pgServerUrl") });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

const admin = (args: string[], env: Record<string, string> = {}) => runAdmin(args, { ...process.env, DATABASE_URL: source.url(), ...env });

let study: GradedStudy;
/** Why the round trip cannot run here (no pg_dump as new as the server), if it cannot. */
let noTools: string | null = null;

beforeAll(async () => {
  const client = new pg.Client({ connectionString: source.url() });
  await client.connect();
  const major = Math.floor(Number((await client.query("SELECT current_setting('server_version_num') AS v")).rows[0].v) / 10_000);
  await client.end();
  await findTool("pg_dump", major).catch((err: unknown) => {
    if (!(err instanceof BackupError)) throw err;
    // A fresh machine on the embedded PostgreSQL (no client tools) skips these; CI has them, so there it is a failure.
    if (process.env.CI) throw err;
    noTools = err.message;
  });
  study = await seedGradedStudy();
}, 120_000);

afterAll(async () => {
  await closeExportPools();
  await disconnectDb();
  await onServer(`DROP DATABASE IF EXISTS "${restoredName}" WITH (FORCE)`);
});

describe("npm run admin -- backup / restore", () => {
  const file = path.join(dir, "clingrade.dump");
  let before: Record<string, Buffer>;

  it("backs up the database in pg_dump's custom format, never over an existing file", async (ctx) => {
    if (noTools) return ctx.skip(noTools);
    before = await allExports(study);
    const r = await admin(["backup", "--out", file]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Backed up 1 studies, 4 users, \d+ assignments, \d+ grades, \d+ migrations to .*clingrade\.dump \(\d+ kB, PostgreSQL \d+, .*pg_dump \d+\)\.$/m);
    expect(readFileSync(file).subarray(0, 5).toString("latin1")).toBe("PGDMP");
    expect(r.stdout).not.toMatch(/postgres(ql)?:\/\//);

    const again = await admin(["backup", "--out", file]);
    expect(again.code).toBe(1);
    expect(again.stderr.trim()).toBe(`admin: ${file} already exists: choose another --out, or add --force to replace it.`);
    expect((await admin(["backup", "--out", file, "--force"])).code).toBe(0);
    expect((await admin(["backup"])).stderr).toMatch(/backup needs --out FILE/);
  });

  it("restores into an empty database, where every export is the same byte for byte", async (ctx) => {
    if (noTools) return ctx.skip(noTools);
    await onServer(`CREATE DATABASE "${restoredName}"`);
    const r = await admin(["restore", "--from", file], { DATABASE_URL: restoredUrl() });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Restored 1 studies, 4 users, \d+ assignments, \d+ grades, \d+ migrations from /);
    expect(r.stdout).not.toMatch(/Applied migrations/); // the backup was of this version

    await closeExportPools();
    await disconnectDb();
    process.env.DATABASE_URL = restoredUrl();
    try {
      expectSameExports(await allExports(study), before);
      // The restored data is live, not only readable: the API token still signs in, sequences and constraints work.
      expect(await getDb().grade.count()).toBeGreaterThan(0);
    } finally {
      await closeExportPools();
      await disconnectDb();
      process.env.DATABASE_URL = source.url();
    }
  });

  it("refuses a database that is not empty, and a file that is not a backup, changing nothing", async () => {
    const grades = await getDb().grade.count();
    const dump = path.join(dir, "refused.dump");
    writeFileSync(dump, "PGDMP the header is all the refusal reads");
    const r = await admin(["restore", "--from", dump]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toMatch(/^admin: The database 127\.0\.0\.1:\d+\/clingrade_t_\w+ is not empty \(\d+ tables and other relations, such as public\."\w+", .*\): restore only into an empty database\./);
    expect(await getDb().grade.count()).toBe(grades);

    const bogus = path.join(dir, "not-a-dump.sql");
    writeFileSync(bogus, "SELECT 1;\n");
    const wrong = await admin(["restore", "--from", bogus]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr.trim()).toBe(`admin: ${bogus} is not a backup made by \`admin backup\` (a pg_dump custom-format archive).`);
    const missing = await admin(["restore", "--from", path.join(dir, "nope.dump")]);
    expect(missing.stderr.trim()).toMatch(/nope\.dump does not exist\.$/);
  });

  it("says which pg_dump it needs when the one it finds is older than the server", async () => {
    const bin = path.join(dir, "old-bin");
    mkdirSync(bin);
    writeFileSync(path.join(bin, "pg_dump"), "#!/bin/sh\necho 'pg_dump (PostgreSQL) 9.6.24'\n");
    chmodSync(path.join(bin, "pg_dump"), 0o755);
    const out = path.join(dir, "never.dump");
    const r = await admin(["backup", "--out", out], { PG_BIN_DIR: bin });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toMatch(
      /^admin: The database is PostgreSQL (\d+), but the newest pg_dump in PG_BIN_DIR \(.*old-bin\) is version 9 \(.*old-bin\/pg_dump\); pg_dump must be at least the server's version\. Install PostgreSQL \1's client tools/,
    );
    expect(existsSync(out)).toBe(false);
    const none = await admin(["backup", "--out", out], { PG_BIN_DIR: path.join(dir, "empty") });
    expect(none.stderr.trim()).toMatch(/^admin: The database is PostgreSQL (\d+), and no pg_dump was found in PG_BIN_DIR \(.*empty\)\. Install PostgreSQL \1's client tools \(Debian, Ubuntu: apt-get install postgresql-client-\1\b.*\) or set PG_BIN_DIR to a folder holding pg_dump \1 or newer\.$/);
    expect(none.stderr.trim().split("\n")).toHaveLength(1);
  });
});
