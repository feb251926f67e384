import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { productionServerArgs } from "../bench/lib/production-server";

test("the health endpoint answers 200 on the suite's database", async ({ request }) => {
  const res = await request.get("/api/health");
  expect(res.status()).toBe(200);
  expect(await res.json()).toEqual({ status: "ok", db: "ok" });
});

/**
 * The other database mode: `npm start` without DATABASE_URL starts the embedded
 * PostgreSQL itself; /api/health answers 503 with a reason when the database is
 * gone; SIGTERM stops the app and the embedded database with it.
 */
test("embedded mode: healthy, then 503 when the database dies, and a clean stop", async ({ request }) => {
  test.setTimeout(120_000);
  const dir = mkdtempSync(path.join(os.tmpdir(), "clingrade-health-"));
  const port = 3000 + 200 + Math.floor(Math.random() * 500);
  const env = { ...process.env, PORT: String(port), CLINGRADE_DATA_DIR: dir, CLINGRADE_PG_PORT: String(port + 20000), AUTH_SECRET: "x".repeat(40), NEXT_TELEMETRY_DISABLED: "1" };
  delete (env as Record<string, string | undefined>).DATABASE_URL;
  const app: ChildProcess = spawn(process.execPath, productionServerArgs([]), { env, stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  app.stdout!.on("data", (d) => (log += d));
  app.stderr!.on("data", (d) => (log += d));
  try {
    await expect
      .poll(async () => (await request.get(`http://127.0.0.1:${port}/api/health`).catch(() => null))?.status(), { timeout: 60_000, intervals: [500] })
      .toBe(200);
    expect(log).toContain("Using the embedded PostgreSQL");

    const pgPid = Number(readFileSync(path.join(dir, "pg", "postmaster.pid"), "utf8").split("\n")[0]);
    process.kill(pgPid, "SIGKILL");
    await expect
      .poll(async () => (await request.get(`http://127.0.0.1:${port}/api/health`)).status(), { timeout: 20_000, intervals: [300] })
      .toBe(503);
    const body = await (await request.get(`http://127.0.0.1:${port}/api/health`)).json();
    expect(body).toMatchObject({ status: "unavailable", db: "error" });
    expect(body.reason).toMatch(/database unreachable/);
    expect(JSON.stringify(body)).not.toMatch(/postgresql:\/\//);
    // Readiness fails with it (a load balancer stops sending work); liveness does not (a restart would not help).
    const ready = await request.get(`http://127.0.0.1:${port}/api/health/ready`);
    expect(ready.status()).toBe(503);
    expect(await ready.json()).toMatchObject({ status: "unavailable", db: "error" });
    expect((await request.get(`http://127.0.0.1:${port}/api/health/live`)).status()).toBe(200);
  } finally {
    app.kill("SIGTERM");
    await new Promise((r) => app.once("exit", r));
  }
  expect(log).toContain("SIGTERM received, shutting down");
  expect(existsSync(path.join(dir, "owner.pid"))).toBe(false);
});

test("a clear one-line error for a wrong DATABASE_URL and for a missing AUTH_SECRET in production", async () => {
  const run = (env: Record<string, string>) =>
    new Promise<{ code: number; out: string }>((resolve) => {
      const p = spawn(process.execPath, productionServerArgs([]), {
        env: { ...process.env, PORT: "3999", ...env },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let out = "";
      p.stdout!.on("data", (d) => (out += d));
      p.stderr!.on("data", (d) => (out += d));
      p.on("exit", (code) => resolve({ code: code ?? -1, out }));
    });
  const noSecret = await run({ AUTH_SECRET: "", DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/postgres" });
  expect(noSecret.code).toBe(1);
  expect(noSecret.out.trim()).toMatch(/^\[clingrade\] error: AUTH_SECRET is not set; the production server refuses to start without it\./);
  const badUrl = await run({ AUTH_SECRET: "y".repeat(40), DATABASE_URL: "postgresql://nobody:secret-pw@127.0.0.1:1/none" });
  expect(badUrl.code).toBe(1);
  expect(badUrl.out.trim().split("\n")).toHaveLength(1);
  expect(badUrl.out).toMatch(/Cannot connect to the PostgreSQL in DATABASE_URL \(127\.0\.0\.1:1\/none\)/);
  expect(badUrl.out).not.toContain("secret-pw");
});
