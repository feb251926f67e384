/**
 * What every benchmark needs around the code it measures, and nothing heavier
 * (no Prisma, no next-auth: a benchmark that measures its own process's memory
 * loads this too): a throwaway database on DATABASE_URL's server, and the
 * production server started on a database as `npm start` runs it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { applyMigrations } from "../../lib/db/migrate";
import { productionServerArgs, standaloneDir } from "./production-server";

/** The AUTH_SECRET of every server a benchmark starts (its sessions and tokens are made with it). */
export const AUTH_SECRET = "bench-secret-that-is-long-enough-0123456789";

/** The same server and credentials as `url`, another database. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/**
 * A database of its own for one run (`<prefix>_<random>`), created on
 * DATABASE_URL's server (default postgresql://postgres@127.0.0.1:5432), migrated
 * with the app's own runner; `drop()` removes it (`keep: true` leaves it for
 * inspection).
 */
export async function throwawayDatabase(prefix: string, opts: { keep?: boolean } = {}) {
  const server = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
  const name = `${prefix}_${randomBytes(4).toString("hex")}`;
  const adminUrl = withDatabase(server, "postgres");
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = withDatabase(server, name);
  await applyMigrations(url, path.resolve("prisma/migrations"));
  return {
    name,
    url,
    drop: async () => {
      if (opts.keep) return console.log(`kept the database ${name}`);
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

/** The production build (`npm run build`, or CLINGRADE_DIST_DIR's) exists. */
export const hasProductionBuild = () => existsSync(path.join(standaloneDir(), "start.mjs"));

/**
 * The production server on `dbUrl`, started as `npm start` starts it and ready
 * (its /api/health answered). `env` adds to the environment it is given;
 * `args` to the start command's (`--seed-demo`).
 */
export async function startServer(
  dbUrl: string,
  port: number,
  env: Record<string, string> = {},
  opts: { args?: string[] } = {},
): Promise<{ proc: ChildProcess; stop: () => Promise<void> }> {
  // `env` may name another build (bench/grading/ab.ts runs two). BENCH_SERVER_FLAGS adds Node flags
  // (`--cpu-prof --cpu-prof-dir=DIR` profiles the server under the benchmark's load; written when it stops).
  const dir = standaloneDir(env.CLINGRADE_DIST_DIR);
  if (!existsSync(path.join(dir, "start.mjs"))) throw new Error(`No production build (${path.relative(process.cwd(), dir)}/start.mjs): run \`npm run build\` first.`);
  const flags = process.env.BENCH_SERVER_FLAGS?.split(/\s+/).filter(Boolean) ?? [];
  const proc = spawn(process.execPath, productionServerArgs(opts.args ?? [], dir, flags), {
    env: { ...process.env, DATABASE_URL: dbUrl, PORT: String(port), AUTH_SECRET, LOG_LEVEL: "warn", NEXT_TELEMETRY_DISABLED: "1", DATABASE_POOL_SIZE: "20", ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (proc.exitCode !== null) return resolve();
      proc.once("exit", () => resolve());
      proc.kill("SIGTERM");
    });
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`the server exited with ${proc.exitCode} before it was ready`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return { proc, stop };
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the server on port ${port} did not answer /api/health within 120 s`);
    }
    await new Promise((r) => setTimeout(r, 300));
  }
}
