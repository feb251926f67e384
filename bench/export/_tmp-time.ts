import pg from "pg";
import { randomBytes } from "node:crypto";
import { applyMigrations } from "../../lib/db/migrate";
import { seedExportStudy } from "../../bench/export/seed";
import { exportStream } from "../../lib/exports/service";
import { closeExportPools } from "../../lib/exports/pool";
import { disconnectDb } from "../../lib/db/client";
const server = "postgresql://postgres@127.0.0.1:5432/postgres";
const name = `tmp_exp_${randomBytes(3).toString("hex")}`;
const admin = new pg.Client({ connectionString: server }); await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const url = `postgresql://postgres@127.0.0.1:5432/${name}`;
process.env.DATABASE_URL = url;
try {
  await applyMigrations(url);
  const c = new pg.Client({ connectionString: url }); await c.connect();
  const s = await seedExportStudy(c, { items: 700 }); await c.end();
  const study = { id: s.studyId, slug: s.slug, rubrics: ["SCORE", "SAFE_LLM"] as const };
  for (const [dataset, format] of [["grades","csv"],["grades","json"],["audit","csv"],["study","json"],["sets","csv"]] as const) {
    const t0 = performance.now();
    const stream = await exportStream(study, { dataset, format });
    const t1 = performance.now();
    let bytes = 0;
    for await (const ch of stream as any) bytes += ch.byteLength;
    console.log(dataset, format, "first", (t1 - t0).toFixed(0), "ms total", (performance.now() - t0).toFixed(0), "ms", bytes);
  }
} finally {
  await closeExportPools(); await disconnectDb();
  await admin.query(`DROP DATABASE ${name} WITH (FORCE)`); await admin.end();
}
