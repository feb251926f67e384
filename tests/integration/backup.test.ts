import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync, chmodSync, mkdirSync, existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { GET as exportRoute } from "@/app/api/v1/studies/[id]/export/route";
import { assignGraders } from "@/lib/assignment/service";
import { BackupError, findTool } from "@/lib/db/backup";
import { disconnectDb, getDb } from "@/lib/db/client";
import { closeExportPools } from "@/lib/exports/pool";
import { saveGrades } from "@/lib/grading/service";
import { bearer } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";
import { form, GOOD_SAFE, makeGradableStudy } from "./helpers/study-fixture";

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

function admin(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.resolve("node_modules/tsx/dist/cli.mjs"), "scripts/admin.ts", ...args], {
      env: { ...process.env, DATABASE_URL: source.url(), ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

const EXPORTS = [
  ...["grades", "score-long", "sets", "summary", "audit"].flatMap((dataset) => ["csv", "json"].map((format) => `dataset=${dataset}&format=${format}&identities=1`)),
  "dataset=grades&format=csv&bom=1",
  "dataset=study&identities=1&audit=1",
  "dataset=study",
];

let studyId: string;
let leadToken: string;
/** Why the round trip cannot run here (no pg_dump as new as the server), if it cannot. */
let noTools: string | null = null;

/** Every export of the study from the database DATABASE_URL points at, at one fixed clock (the study export is stamped). */
async function allExports(): Promise<Record<string, Buffer>> {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date("2026-12-02T10:00:00Z"));
  try {
    const out: Record<string, Buffer> = {};
    for (const query of EXPORTS) {
      const res = await exportRoute(new Request(`http://localhost/api/v1/studies/${studyId}/export?${query}`, bearer(leadToken)), { params: Promise.resolve({ id: studyId }) });
      expect(res.status, query).toBe(200);
      out[query] = Buffer.from(await res.arrayBuffer());
    }
    return out;
  } finally {
    vi.useRealTimers();
  }
}

beforeAll(async () => {
  const client = new pg.Client({ connectionString: source.url() });
  await client.connect();
  const major = Math.floor(Number((await client.query("SELECT current_setting('server_version_num') AS v")).rows[0].v) / 10_000);
  await client.end();
  await findTool("pg_dump", major).catch((err: unknown) => {
    if (!(err instanceof BackupError)) throw err;
    noTools = err.message;
  });
  const f = await makeGradableStudy({ items: 2, models: 2, graders: 3 });
  studyId = f.study.id;
  leadToken = f.lead.token;
  await assignGraders(f.study.id, { seed: "backup" }, f.lead.id);
  const of = (setId: string) => getDb().assignment.findMany({ where: { responseSetId: setId, status: { not: "CANCELLED" } }, orderBy: [{ kind: "asc" }, { graderId: "asc" }] });
  const submit = (a: { id: string; graderId: string }, score: [number, number, number, number, number], harm?: { flag: boolean; comment: string }) =>
    saveGrades(a.graderId, a.id, { scores: form({ score, safe: GOOD_SAFE }).map((s, i) => (i === 0 ? { ...s, comment: 'quote " comma, =SUM(A1) 😷\nline' } : s)), submit: true, ...(harm ? { harm } : {}) });
  const [s0, s1, s2] = f.sets;
  const [a, b] = await of(s0.id);
  await submit(a, [5, 4, 4, 4, 4]);
  await submit(b, [2, 4, 4, 4, 4]);
  const adj = await getDb().assignment.findFirstOrThrow({ where: { responseSetId: s0.id, kind: "ADJUDICATOR" } });
  await submit(adj, [3, 4, 5, 4, 4]);
  const [c, d] = await of(s1.id);
  await submit(c, [4, 4, 4, 4, 4], { flag: true, comment: "Could delay urgent care" });
  await submit(d, [4, 5, 4, 4, 4]);
  const [e, g] = await of(s2.id);
  await submit(e, [3, 3, 3, 3, 3]);
  await saveGrades(g.graderId, g.id, { scores: form({ score: [4, 4, 4, 4, 4] }), submit: false });
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
    before = await allExports();
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
      const after = await allExports();
      expect(Object.keys(after)).toEqual(Object.keys(before));
      for (const query of EXPORTS) {
        expect(after[query].length, query).toBeGreaterThan(100);
        expect(after[query].equals(before[query]), `${query} differs after the restore`).toBe(true);
      }
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
    expect(none.stderr).toMatch(/No pg_dump found in PG_BIN_DIR/);
  });
});
