/**
 * Benchmark: the Graders' quality report (graderQuality, lib/grader-quality) against the bare SQL
 * that reads its grades, measured in the same run (goal: within 2x), and the sensitivity analysis
 * (graderSensitivity: the dashboard's figures once per grader), measured on its own.
 *
 *   npx tsx bench/grader-quality/run.ts
 *
 * The study is bench/lib/graded-study.ts's (BENCH_SETS sets, default 10,000; 30 graders, 3 primary
 * per set), in a throwaway database on DATABASE_URL's server (default
 * postgresql://postgres@127.0.0.1:5432; BENCH_KEEP=1 keeps it). BENCH_CASES: custom (default) or
 * score; BENCH_RUNS timed runs after a warm-up (default 5); BENCH_SENSITIVITY=0 skips the
 * sensitivity timing.
 *
 * The bare SQL: every ordinal grade of every submitted primary assignment, with its grader, set,
 * time on task and submission time, every row fetched with pg (JIT off, as the report reads).
 */
import { performance } from "node:perf_hooks";
import pg from "pg";
import { disconnectDb } from "../../lib/db/client";
import { graderQuality } from "../../lib/grader-quality/service";
import { graderSensitivity } from "../../lib/grader-quality/sensitivity";
import { generate, type Case } from "../lib/graded-study";
import { throwawayDatabase } from "../lib/server";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const CASES = (process.env.BENCH_CASES ?? "custom").split(",") as Case[];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const BARE_SQL = `
SELECT a."graderId", a."responseSetId", a."timeSpentMs", a."submittedAt", g.rubric, g.dimension, g.repetition, g.score
FROM "Assignment" a JOIN "Grade" g ON g."assignmentId" = a.id
WHERE a."studyId" = $1 AND a.kind = 'PRIMARY' AND a.status = 'SUBMITTED' AND g.score IS NOT NULL AND NOT g.na AND g.criterion = ''`;

async function timeRuns(label: string, fn: () => Promise<unknown>, runs = RUNS): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  const m = median(times);
  console.log(`  ${label.padEnd(52)} median ${m.toFixed(0).padStart(7)} ms   (runs: ${times.map((t) => t.toFixed(0)).join(", ")})`);
  return m;
}

async function runCase(variant: Case) {
  const db = await throwawayDatabase("clingrade_bench_quality", { keep: Boolean(process.env.BENCH_KEEP) });
  process.env.DATABASE_URL = db.url;
  const c = new pg.Client({ connectionString: db.url });
  try {
    await c.connect();
    const t0 = performance.now();
    const { studyId } = await generate(c, variant);
    const { rows } = await c.query<{ grades: number }>(`SELECT count(*)::int AS grades FROM "Grade"`);
    console.log(`generated ${rows[0].grades.toLocaleString("en")} grades in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const report = await graderQuality(studyId);
    if (!report || report.graders.length !== 30 || report.graders.some((g) => g.bias.estimate === null)) throw new Error("the report is missing graders or figures");
    await c.query("SET jit = off");
    const bare = await timeRuns("bare SQL: the grades it reads (pg, JIT off)", async () => {
      const r = await c.query(BARE_SQL, [studyId]);
      if (r.rows.length === 0) throw new Error("the bare query returned nothing");
    });
    const quality = await timeRuns("graderQuality (every signal, 30 graders)", () => graderQuality(studyId));
    console.log(`  ratio graderQuality / bare SQL: ${(quality / bare).toFixed(2)}x (goal: within 2x)`);
    if (process.env.BENCH_SENSITIVITY !== "0") {
      const s = await timeRuns("graderSensitivity (dashboard figures x 31)", () => graderSensitivity(studyId), 1);
      console.log(`  sensitivity: ${(s / 1000).toFixed(1)} s, ${(s / bare).toFixed(1)}x the bare SQL (a separate section: streamed after the table)`);
    }
  } finally {
    await c.end();
    await disconnectDb();
    await db.drop();
  }
}

async function main() {
  for (const variant of CASES) {
    console.log(`\n== ${variant === "custom" ? "custom rubric, 10 ordinal 1-5 dimensions" : "the two published rubrics"} ==`);
    await runCase(variant);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
