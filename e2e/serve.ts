/**
 * The server the e2e suite runs against: the production build on a fresh
 * database seeded with the demo. With DATABASE_URL set (CI uses the system
 * PostgreSQL) a new database `clingrade_e2e` is created on that server;
 * otherwise the embedded PostgreSQL runs in a fresh temporary folder.
 * What the tests need to reach the same database is written to e2e/.env.json.
 *
 * The server is the standalone folder as `npm start` runs it, from a copy
 * outside the checkout: a package the folder lacks would fail here rather than
 * be found in the checkout's node_modules (Node looks in every parent folder).
 */
import { spawn } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { productionServerArgs, standaloneDir } from "../bench/lib/production-server";

const port = process.env.E2E_PORT ?? "3100";
const env: NodeJS.ProcessEnv = {
  ...process.env,
  PORT: port,
  AUTH_SECRET: "e2e-secret-that-is-long-enough-0123456789abcdef",
  NEXTAUTH_URL: `http://127.0.0.1:${port}`,
  NEXT_TELEMETRY_DISABLED: "1",
  LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
};

async function main() {
  const shared: Record<string, string> = {};
  if (process.env.DATABASE_URL) {
    const server = new URL(process.env.DATABASE_URL);
    server.pathname = "/postgres";
    const c = new pg.Client({ connectionString: server.toString() });
    await c.connect();
    // One database per port, so suites on different E2E_PORTs can run side by side.
    const name = `clingrade_e2e_${port}`;
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${name}`);
    await c.end();
    server.pathname = `/${name}`;
    env.DATABASE_URL = shared.DATABASE_URL = server.toString();
  } else {
    const dir = mkdtempSync(path.join(os.tmpdir(), "clingrade-e2e-"));
    env.CLINGRADE_DATA_DIR = shared.CLINGRADE_DATA_DIR = dir;
    env.CLINGRADE_PG_PORT = shared.CLINGRADE_PG_PORT = process.env.CLINGRADE_PG_PORT ?? String(50000 + Number(port));
  }
  const built = standaloneDir();
  if (!existsSync(path.join(built, "start.mjs"))) throw new Error(`No standalone build in ${path.relative(process.cwd(), built)}: run \`npm run build\` first.`);
  // One copy per port, replaced at each start: a run killed before its clean-up leaves one folder at most.
  const standalone = path.join(os.tmpdir(), `clingrade-standalone-${port}`);
  rmSync(standalone, { recursive: true, force: true });
  // Links copied as they are: resolved, Next's links to external packages would lead back into the checkout.
  cpSync(built, standalone, { recursive: true, verbatimSymlinks: true });
  // Readable by all, as a checkout is: run as root, the embedded PostgreSQL runs its programs as another user.
  chmodSync(standalone, 0o755);
  shared.CLINGRADE_E2E_STANDALONE = standalone;
  writeFileSync(path.resolve(`e2e/.env.${port}.json`), JSON.stringify(shared));
  // Started from an empty folder, as from anywhere: the migrations and the demo's data must be found beside the script.
  const cwd = mkdtempSync(path.join(os.tmpdir(), "clingrade-e2e-cwd-"));
  const child = spawn(process.execPath, productionServerArgs(["--seed-demo"], standalone), { env, cwd, stdio: "inherit" });
  for (const sig of ["SIGINT", "SIGTERM"] as const) process.on(sig, () => child.kill(sig));
  child.on("exit", (code: number | null) => {
    for (const dir of [standalone, cwd]) rmSync(dir, { recursive: true, force: true });
    process.exit(code ?? 0);
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
