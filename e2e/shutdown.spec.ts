import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { closeSync, constants, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { encode } from "next-auth/jwt";
import pg from "pg";
import { CELLS_PER_FORM, gradeBody } from "../bench/lib/harness";
import { startEmbeddedPostgres } from "../lib/db/embedded";
import { productionServerArgs } from "../bench/lib/production-server";
import { e2eDatabaseUrl } from "./fixtures";

/**
 * Graceful shutdown: SIGTERM to the production server (embedded database mode)
 * in the middle of a burst of grade submissions. Every request gets an answer
 * or a refused connection, never a reset; the requests in flight at the signal
 * are answered; every acknowledged submission is stored and every refused one
 * left untouched; the embedded PostgreSQL is stopped cleanly.
 */
const SECRET = "shutdown-secret-long-enough-0123456789";
const METRICS_TOKEN = "shutdown-metrics-token-0123456789";

interface Outcome {
  id: string;
  sentAt: number;
  answeredAt: number;
  status?: number;
  connection?: string;
  error?: string;
}

function put(port: number, agent: http.Agent, cookie: string, id: string): Promise<Outcome> {
  const body = gradeBody(true);
  const sentAt = performance.now();
  return new Promise((resolve) => {
    const done = (o: Partial<Outcome>) => resolve({ id, sentAt, answeredAt: performance.now(), ...o });
    const req = http.request(
      { host: "127.0.0.1", port, path: `/api/v1/assignments/${id}/grades`, method: "PUT", agent, headers: { cookie, "content-type": "application/json", "content-length": Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        res.on("end", () => done({ status: res.statusCode, connection: res.headers.connection }));
        res.on("error", (err: NodeJS.ErrnoException) => done({ error: `${err.code ?? err.message} (in the response)` }));
      },
    );
    req.on("error", (err: NodeJS.ErrnoException) => done({ error: err.code ?? err.message }));
    req.end(body);
  });
}

test("SIGTERM mid-burst: every request answered or refused, every acknowledged grade stored, a clean stop", async () => {
  test.setTimeout(240_000);
  const dir = mkdtempSync(path.join(os.tmpdir(), "clingrade-shutdown-"));
  const port = 3850 + Math.floor(Math.random() * 200);
  const pgPort = port + 21000;
  const app: ChildProcess = spawn(process.execPath, productionServerArgs(["--seed-demo"]), {
    env: { ...process.env, DATABASE_URL: "", PORT: String(port), CLINGRADE_DATA_DIR: dir, CLINGRADE_PG_PORT: String(pgPort), AUTH_SECRET: SECRET, LOG_LEVEL: "warn", SHUTDOWN_TIMEOUT_MS: "20000", METRICS_TOKEN },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  app.stdout!.on("data", (d) => (log += d));
  app.stderr!.on("data", (d) => (log += d));
  const exited = new Promise<number | null>((r) => app.once("exit", (code) => r(code)));
  await expect
    .poll(async () => (await fetch(`http://127.0.0.1:${port}/api/health/ready`).catch(() => null))?.status, { timeout: 120_000, intervals: [500] })
    .toBe(200);
  expect((await fetch(`http://127.0.0.1:${port}/api/health/live`)).status).toBe(200);

  const password = readFileSync(path.join(dir, "pg-password"), "utf8").trim();
  const dbUrl = `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${pgPort}/clingrade`;
  const db = new pg.Client({ connectionString: dbUrl });
  await db.connect();
  // Sessions for the demo graders, written as the sign-in would; two clients per grader, each on its own kept-alive connection.
  const graders = (await db.query<{ id: string }>(`SELECT id FROM "User" WHERE email LIKE 'grader%@demo.clingrade.org' ORDER BY email`)).rows;
  const clients: { cookie: string; assignments: string[]; agent: http.Agent }[] = [];
  for (const g of graders) {
    const sid = `shutdown-${g.id}`;
    await db.query(`INSERT INTO "AuthSession" (id, "userId", "expiresAt") VALUES ($1, $2, now() + interval '1 hour')`, [sid, g.id]);
    const cookie = `next-auth.session-token=${await encode({ token: { sub: g.id, sid }, secret: SECRET })}`;
    const ids = (await db.query<{ id: string }>(`SELECT id FROM "Assignment" WHERE "graderId" = $1 AND status = 'PENDING' ORDER BY position`, [g.id])).rows.map((r) => r.id);
    for (const half of [0, 1]) clients.push({ cookie, assignments: ids.filter((_, i) => i % 2 === half), agent: new http.Agent({ keepAlive: true, maxSockets: 1 }) });
  }
  await db.end();
  expect(clients.length).toBeGreaterThanOrEqual(8);

  const outcomes: Outcome[] = [];
  const burst = clients.map(async (c) => {
    for (const id of c.assignments) {
      const o = await put(port, c.agent, c.cookie, id);
      outcomes.push(o);
      if (o.error) return; // refused: this instance is gone
    }
  });
  // A kept-alive connection of a load balancer's health checker, to see readiness fail while draining.
  const checker = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const ready = () =>
    new Promise<number | string>((resolve) => {
      http.get({ host: "127.0.0.1", port, path: "/api/health/ready", agent: checker }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode!));
      }).on("error", (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    });
  expect(await ready()).toBe(200);

  await expect.poll(() => outcomes.filter((o) => o.status === 200).length, { timeout: 60_000, intervals: [50] }).toBeGreaterThanOrEqual(12);
  // The production build counts into one registry across its route bundles (the grades route counts, the metrics route reads).
  expect((await fetch(`http://127.0.0.1:${port}/api/metrics`)).status).toBe(401);
  const scraped = await fetch(`http://127.0.0.1:${port}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(scraped.status).toBe(200);
  const text = await scraped.text();
  const value = (re: RegExp) => Number(re.exec(text)?.[1] ?? NaN);
  expect(value(/^clingrade_grades_submitted_total (\d+)$/m)).toBeGreaterThanOrEqual(12);
  expect(value(/^clingrade_http_requests_total\{route="\/api\/v1\/assignments\/\[id\]\/grades",method="PUT",status="200"\} (\d+)$/m)).toBeGreaterThanOrEqual(12);
  expect(value(/^clingrade_db_pool_connections (\d+)$/m)).toBeGreaterThan(0);
  const signalAt = performance.now();
  app.kill("SIGTERM");
  // Once the server is draining (a client saw it), the checker's connection, idle since before the signal, is answered 503.
  await expect.poll(() => outcomes.some((o) => o.answeredAt > signalAt && (o.connection === "close" || o.error || o.status === 503)), { timeout: 10_000, intervals: [5] }).toBe(true);
  const readiness = await ready();
  await Promise.all(burst);
  const code = await exited;
  const stoppedAfterMs = performance.now() - signalAt;
  for (const c of clients) c.agent.destroy();
  checker.destroy();

  expect(readiness, "readiness while draining").toBe(503);
  expect(code).toBe(0);
  expect(log).toContain("SIGTERM received, shutting down");
  expect(log).toContain("Every request in flight was answered.");
  expect(log).toContain("Stopping the embedded PostgreSQL");
  expect(existsSync(path.join(dir, "pg", "postmaster.pid")), "the embedded PostgreSQL stopped").toBe(false);

  // Every request got an answer, or its connection was refused: nothing was reset mid-request.
  const errors = outcomes.filter((o) => o.error).map((o) => o.error);
  expect(errors.filter((e) => e !== "ECONNREFUSED"), "requests cut without an answer").toEqual([]);
  expect(outcomes.filter((o) => o.status !== undefined && o.status !== 200 && o.status !== 503), "unexpected statuses").toEqual([]);
  const acknowledged = outcomes.filter((o) => o.status === 200);
  // Taken before the drain began and answered during it (the drain closes their connections after them).
  const inFlightAtSignal = acknowledged.filter((o) => o.connection === "close");
  expect(inFlightAtSignal.length, "submissions in flight when the drain began, answered").toBeGreaterThan(0);
  const turnedAway = outcomes.filter((o) => o.status === 503 || o.error);

  // The database as the server left it.
  const embedded = await startEmbeddedPostgres({ dataDir: dir, port: pgPort });
  const check = new pg.Client({ connectionString: dbUrl });
  await check.connect();
  try {
    const ids = acknowledged.map((o) => o.id);
    const sub = await check.query<{ n: number }>(`SELECT count(*)::int AS n FROM "Assignment" WHERE id = ANY($1::uuid[]) AND status = 'SUBMITTED'`, [ids]);
    const grades = await check.query<{ n: number }>(`SELECT count(*)::int AS n FROM "Grade" WHERE "assignmentId" = ANY($1::uuid[])`, [ids]);
    const untouched = await check.query<{ n: number }>(`SELECT count(*)::int AS n FROM "Assignment" WHERE id = ANY($1::uuid[]) AND status = 'PENDING'`, [turnedAway.map((o) => o.id)]);
    expect(sub.rows[0].n).toBe(acknowledged.length);
    expect(grades.rows[0].n).toBe(acknowledged.length * CELLS_PER_FORM);
    expect(untouched.rows[0].n, "refused submissions changed nothing").toBe(turnedAway.length);
  } finally {
    await check.end();
    await embedded.stop();
  }
  const description = `${acknowledged.length} submissions acknowledged (${inFlightAtSignal.length} of them in flight at SIGTERM), ${outcomes.filter((o) => o.status === 503).length} answered 503, ${errors.length} refused; stopped ${Math.round(stoppedAfterMs)} ms after the signal`;
  test.info().annotations.push({ type: "shutdown", description });
  console.log(`shutdown: ${description}`);
});

/**
 * A server whose output is gone (the pipe's reader, `head` or a supervisor,
 * closed it) starts, serves and stops on SIGTERM. Each failed write of its own
 * output was an unhandled error: before Next was loaded it killed the server
 * at its first message; after, Next's handler reported it on stderr, whose
 * failure raised the next, and the server could spin at full CPU instead of
 * stopping. A named pipe stands in for the shell's pipe (Node's own stdio
 * pipes are sockets).
 */
test("a server whose output pipe is closed starts, serves, and stops on SIGTERM", async () => {
  test.setTimeout(90_000);
  const port = 3650 + Math.floor(Math.random() * 150);
  const fifoDir = mkdtempSync(path.join(os.tmpdir(), "clingrade-output-"));
  const fifo = path.join(fifoDir, "out");
  execFileSync("mkfifo", [fifo]);
  const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
  const writer = openSync(fifo, "w");
  const app: ChildProcess = spawn(process.execPath, productionServerArgs([]), {
    env: { ...process.env, DATABASE_URL: e2eDatabaseUrl(), PORT: String(port), AUTH_SECRET: SECRET, CLINGRADE_JUDGE_WORKER: "off" },
    stdio: ["ignore", writer, writer],
  });
  closeSync(writer);
  closeSync(reader); // nobody reads its output from the start
  let exitCode: number | null | undefined;
  const exited = new Promise<void>((r) => app.once("exit", (code) => r(void (exitCode = code))));
  try {
    await expect
      .poll(async () => (exitCode !== undefined ? `exited with ${exitCode}` : (await fetch(`http://127.0.0.1:${port}/api/health/live`).catch(() => null))?.status), { timeout: 60_000, intervals: [300] })
      .toBe(200);
    expect((await fetch(`http://127.0.0.1:${port}/api/v1/studies`, { method: "POST", body: "{" })).status).toBe(401);
    app.kill("SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 20_000))]);
    expect(exitCode ?? "still running 20 s after SIGTERM").toBe(0);
  } finally {
    app.kill("SIGKILL");
    rmSync(fifoDir, { recursive: true, force: true });
  }
});
