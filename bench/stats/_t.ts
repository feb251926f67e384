import { performance } from "node:perf_hooks";
import pg from "pg";
import { computeStudyStats } from "../../lib/analytics/study-stats";
import { loadStudy } from "../../lib/analytics/load";
import { assembleStudyStats } from "../../lib/analytics/assemble";
const url = "postgresql://postgres@127.0.0.1:5432/clingrade_bench_stats_a63b29c5";
process.env.DATABASE_URL = url;
const c = new pg.Client({ connectionString: url }); await c.connect();
const id = (await c.query(`select id from "Study"`)).rows[0].id;
const BARE = `SET jit = off`;
await c.query(BARE);
const sql = (await import("node:fs")).readFileSync("/tmp/bare.sql", "utf8");
for (let i = 0; i < 4; i++) {
  let t = performance.now(); await c.query(sql, [id]); const b = performance.now() - t;
  t = performance.now(); const l = await loadStudy(id); const tl = performance.now() - t;
  t = performance.now(); assembleStudyStats(l!); const ta = performance.now() - t;
  console.log(`bare ${b.toFixed(0)}  load ${tl.toFixed(0)}  assemble ${ta.toFixed(0)}  ratio ${((tl + ta) / b).toFixed(2)}`);
}
await c.end(); process.exit(0);
