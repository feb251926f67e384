import pg from "pg";
import { randomBytes } from "node:crypto";
import { applyMigrations } from "../../lib/db/migrate";
import { seedExportStudy } from "./seed";
import { gradesSelect } from "../../lib/exports/grades";
import { loadPeople } from "../../lib/exports/people";
const server = "postgresql://postgres@127.0.0.1:5432/postgres";
const name = `tmp_exp_${randomBytes(3).toString("hex")}`;
const admin = new pg.Client({ connectionString: server }); await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const url = `postgresql://postgres@127.0.0.1:5432/${name}`;
try {
  await applyMigrations(url);
  const c = new pg.Client({ connectionString: url }); await c.connect();
  const s = await seedExportStudy(c, { items: 700 });
  const people = await loadPeople((sql, p) => c.query(sql, p).then((r) => r.rows), s.studyId);
  const sql = gradesSelect(s.studyId, people, false, "csv");
  const r = await c.query("EXPLAIN ANALYZE " + sql);
  console.log(r.rows.map((x) => x["QUERY PLAN"]).join("\n"));
  await c.end();
} finally {
  await admin.query(`DROP DATABASE ${name} WITH (FORCE)`); await admin.end();
}
