import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { encode } from "next-auth/jwt";
import pg from "pg";
import { CELLS_PER_FORM, gradeBody } from "../bench/lib/harness";
import { productionServerArgs } from "../bench/lib/production-server";

/**
 * Durability: SIGKILL the server (embedded database mode) in the middle of a
 * grading burst, start it again on the same data folder: every submission and
 * draft it acknowledged before dying is there, and the embedded PostgreSQL it
 * left running is adopted.
 */
const SECRET = "durability-secret-long-enough-0123456789";

/** The server's own output, kept so that a start that never turns healthy says why (a CI run once hung there). */
let output = "";

function start(dir: string, port: number, pgPort: number): ChildProcess {
  const child = spawn(process.execPath, productionServerArgs(["--seed-demo"]), {
    env: { ...process.env, DATABASE_URL: "", PORT: String(port), CLINGRADE_DATA_DIR: dir, CLINGRADE_PG_PORT: String(pgPort), AUTH_SECRET: SECRET, LOG_LEVEL: "warn" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  output = "";
  const keep = (b: Buffer) => (output = (output + b.toString()).slice(-8_000));
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  child.on("exit", (code, signal) => keep(Buffer.from(`\n[server exited: code ${code}, signal ${signal}]\n`)));
  return child;
}

async function waitHealthy(port: number) {
  try {
    await expect
      .poll(async () => (await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => null))?.status, { timeout: 90_000, intervals: [500] })
      .toBe(200);
  } catch (err) {
    throw new Error(`the server on port ${port} never answered 200; its last output:\n${output}`, { cause: err });
  }
}

test("a SIGKILL mid-burst loses no acknowledged grade or draft, and the embedded database recovers", async () => {
  test.setTimeout(240_000);
  const dir = mkdtempSync(path.join(os.tmpdir(), "clingrade-durability-"));
  const port = 3600 + Math.floor(Math.random() * 200);
  const pgPort = port + 21000;
  let app = start(dir, port, pgPort);
  await waitHealthy(port);

  const password = readFileSync(path.join(dir, "pg-password"), "utf8").trim();
  const dbUrl = `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${pgPort}/clingrade`;
  const db = new pg.Client({ connectionString: dbUrl });
  await db.connect();
  // Sessions for the four demo graders, written as the sign-in would.
  const graders = (
    await db.query<{ id: string }>(`SELECT u.id FROM "User" u WHERE u.email LIKE 'grader%@demo.clingrade.org' ORDER BY u.email`)
  ).rows;
  const clients: { cookie: string; assignments: string[] }[] = [];
  for (const g of graders) {
    const sid = `durability-${g.id}`;
    await db.query(`INSERT INTO "AuthSession" (id, "userId", "expiresAt") VALUES ($1, $2, now() + interval '1 hour')`, [sid, g.id]);
    const cookie = `next-auth.session-token=${await encode({ token: { sub: g.id, sid }, secret: SECRET })}`;
    const a = await db.query<{ id: string }>(`SELECT id FROM "Assignment" WHERE "graderId" = $1 AND status = 'PENDING' ORDER BY position`, [g.id]);
    clients.push({ cookie, assignments: a.rows.map((r) => r.id) });
  }
  await db.end();

  const submitted = new Set<string>();
  const drafted = new Set<string>();
  let killed = false;
  const burst = clients.map(async (c) => {
    for (const [i, id] of c.assignments.entries()) {
      if (killed) return;
      const submit = i % 4 !== 3; // every fourth is left as a draft
      const r = await fetch(`http://127.0.0.1:${port}/api/v1/assignments/${id}/grades`, {
        method: "PUT",
        headers: { cookie: c.cookie, "content-type": "application/json" },
        body: gradeBody(submit),
      }).catch(() => null);
      if (r?.ok) (submit ? submitted : drafted).add(id);
    }
  });
  // Kill once the burst is well under way (some answers acknowledged, others in flight).
  await expect.poll(() => submitted.size + drafted.size, { timeout: 60_000, intervals: [50] }).toBeGreaterThanOrEqual(10);
  killed = true;
  app.kill("SIGKILL");
  await Promise.all(burst);
  expect(submitted.size + drafted.size).toBeGreaterThan(0);

  // Restart on the same folder: the orphaned PostgreSQL is adopted, nothing is re-seeded.
  app = start(dir, port, pgPort);
  let log = "";
  app.stdout!.on("data", (d) => (log += d));
  await waitHealthy(port);
  expect(log).toMatch(/adopting it after a crash/);
  expect(log).toMatch(/already there; nothing was added/);

  const check = new pg.Client({ connectionString: dbUrl });
  await check.connect();
  const sub = await check.query<{ n: number }>(`SELECT count(*)::int AS n FROM "Assignment" WHERE id = ANY($1::uuid[]) AND status = 'SUBMITTED'`, [[...submitted]]);
  const subGrades = await check.query<{ n: number }>(`SELECT count(*)::int AS n FROM "Grade" WHERE "assignmentId" = ANY($1::uuid[])`, [[...submitted]]);
  const draftGrades = await check.query<{ n: number }>(`SELECT count(*)::int AS n FROM "Grade" WHERE "assignmentId" = ANY($1::uuid[])`, [[...drafted]]);
  await check.end();
  expect(sub.rows[0].n).toBe(submitted.size);
  expect(subGrades.rows[0].n).toBe(submitted.size * CELLS_PER_FORM);
  expect(draftGrades.rows[0].n).toBe(drafted.size * CELLS_PER_FORM);
  test.info().annotations.push({ type: "durability", description: `${submitted.size} submissions and ${drafted.size} drafts acknowledged before SIGKILL; all present after restart` });

  app.kill("SIGTERM");
  await new Promise((r) => app.once("exit", r));
});
