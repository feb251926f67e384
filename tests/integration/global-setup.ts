import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { freePort } from "./helpers/free-port";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "@/lib/db/embedded";
import { applyMigrations } from "@/lib/db/migrate";

/**
 * One PostgreSQL server for the integration run: DATABASE_URL's server if set,
 * else a throwaway embedded one. A template database gets the migrations once;
 * every test file then clones it (helpers/db.ts), so files never share data.
 */
declare module "vitest" {
  export interface ProvidedContext {
    pgServerUrl: string;
    templateDatabase: string;
  }
}


export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export default async function setup(project: TestProject) {
  let embedded: EmbeddedDatabase | null = null;
  let tmpDir: string | null = null;
  let serverUrl: string;
  if (process.env.DATABASE_URL) {
    serverUrl = withDatabase(process.env.DATABASE_URL, "postgres");
  } else {
    tmpDir = await mkdtemp(path.join(os.tmpdir(), "clingrade-test-pg-"));
    embedded = await startEmbeddedPostgres({ dataDir: tmpDir, port: await freePort() });
    serverUrl = withDatabase(embedded.url, "postgres");
  }
  const template = `clingrade_tpl_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${template}"`);
  await admin.end();
  await applyMigrations(withDatabase(serverUrl, template), path.resolve("prisma/migrations"));

  project.provide("pgServerUrl", serverUrl);
  project.provide("templateDatabase", template);

  return async () => {
    const c = new pg.Client({ connectionString: serverUrl });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
    await c.end();
    await embedded?.stop();
    if (tmpDir) await rm(tmpDir, { recursive: true, force: true });
  };
}
