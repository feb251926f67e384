import pg from "pg";
import { writeFileSync } from "node:fs";
import { gradesSelect } from "../../lib/exports/grades";
import { loadPeople } from "../../lib/exports/people";
const c = new pg.Client({ connectionString: "postgresql://postgres@127.0.0.1:5432/tmp_exp_play" }); await c.connect();
const { rows } = await c.query(`SELECT id FROM "Study" LIMIT 1`);
const people = await loadPeople((sql, p) => c.query(sql, p).then((r) => r.rows), rows[0].id);
writeFileSync("/tmp/grades.sql", gradesSelect(rows[0].id, people, false, "csv"));
await c.end();
