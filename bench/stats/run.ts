/**
 * Benchmark: the dashboard statistics (computeStudyStats, lib/analytics) against
 * the bare SQL query that reads the same final scores.
 *
 *   npx tsx bench/stats/run.ts
 *
 * In a throwaway database (created on DATABASE_URL's server, default
 * postgresql://postgres@127.0.0.1:5432, migrated with applyMigrations,
 * dropped at the end; BENCH_KEEP=1 keeps it) it generates with bulk SQL (not the services) a study of
 * BENCH_SETS response sets (default 10,000: 2,500 questions x 4 models, 8
 * specialties, both rubrics, N = 3) graded by 3 primary graders each from a
 * pool of 30: ~96% of sets complete (agreed, or escalated: ~12% adjudicated by
 * a fourth grader, ~3% waiting for one), the rest still awaiting a grade. That is
 * about 30,000 assignments and 530,000 Grade rows.
 *
 * It then times, after a warm-up, the median of BENCH_RUNS runs (default 5) of:
 *  1. the bare query: per final set and dimension, the mean over graders of each
 *     grader's value (per-answer SAFE-LLM domains averaged over the N answers,
 *     consistency derived from accuracy), every row fetched with `pg`;
 *  2. computeStudyStats(studyId): everything the dashboard shows (final scores,
 *     radar, alpha, Cliff's delta with 1,000 bootstrap resamples per pair,
 *     inter-rater agreement, ranking, progress);
 *  3. with BENCH_URL set (e.g. http://127.0.0.1:3310): the endpoint over HTTP.
 *     The benchmark serves its own database there itself (the production build,
 *     so run `npm run build` first) and calls GET /api/v1/studies/{id}/stats with
 *     a token of its lead.
 * and prints the times and the ratio to the bare query (goal: within 2x).
 */
import { performance } from "node:perf_hooks";
import pg from "pg";
import { assembleStudyStats, assembleStudyStatsAsync } from "../../lib/analytics/assemble";
import { loadStudy } from "../../lib/analytics/load";
import { computeStudyStats } from "../../lib/analytics/study-stats";
import { createApiToken } from "../../lib/auth/tokens";
import { disconnectDb } from "../../lib/db/client";
import { generate, type Case } from "../lib/graded-study";
import { startServer, throwawayDatabase } from "../lib/server";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);

/**
 * The studies timed: the two published rubrics, and a custom rubric of 10 ordinal 1-5
 * dimensions (5 on the first answer, 5 on each answer) with a sum total. BENCH_CASES=score or
 * custom runs one.
 */
const CASES = (process.env.BENCH_CASES ?? "score,custom").split(",") as Case[];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x: number) => `${x.toFixed(0)} ms`;

/** The bare query: final score per final set and dimension, every row fetched. */
const BARE_SQL = `
SELECT gv.set_id, gv.dimension, avg(gv.v) AS final
FROM (
  SELECT a."responseSetId" AS set_id, a.id, g.dimension::text AS dimension, avg(g.score)::float8 AS v
  FROM "ResponseSet" rs
  JOIN "Assignment" a ON a."responseSetId" = rs.id AND a.status = 'SUBMITTED'
  JOIN "Grade" g ON g."assignmentId" = a.id
  WHERE rs."studyId" = $1 AND rs.status IN ('AGREED', 'ADJUDICATED') AND g.dimension <> 'consistency'
  GROUP BY a."responseSetId", a.id, g.dimension
  UNION ALL
  SELECT a."responseSetId", a.id, 'consistency', (min(g.score) = max(g.score))::int::float8
  FROM "ResponseSet" rs
  JOIN "Assignment" a ON a."responseSetId" = rs.id AND a.status = 'SUBMITTED'
  JOIN "Grade" g ON g."assignmentId" = a.id
  WHERE rs."studyId" = $1 AND rs.status IN ('AGREED', 'ADJUDICATED') AND g.dimension = 'accuracy'
  GROUP BY a."responseSetId", a.id
) gv
GROUP BY gv.set_id, gv.dimension`;

/** The same for a rubric with no derived dimension: per final set and dimension, the mean over graders of each grader's mean over the answers. */
const BARE_SQL_PLAIN = `
SELECT gv.set_id, gv.dimension, avg(gv.v) AS final
FROM (
  SELECT a."responseSetId" AS set_id, a.id, g.dimension::text AS dimension, avg(g.score)::float8 AS v
  FROM "ResponseSet" rs
  JOIN "Assignment" a ON a."responseSetId" = rs.id AND a.status = 'SUBMITTED'
  JOIN "Grade" g ON g."assignmentId" = a.id
  WHERE rs."studyId" = $1 AND rs.status IN ('AGREED', 'ADJUDICATED')
  GROUP BY a."responseSetId", a.id, g.dimension
) gv
GROUP BY gv.set_id, gv.dimension`;

async function timeRuns(label: string, fn: () => Promise<unknown>): Promise<number> {
  await fn(); // warm-up: connections, JIT, plan cache
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  const m = median(times);
  console.log(`  ${label.padEnd(48)} median ${ms(m).padStart(8)}   (runs: ${times.map((t) => t.toFixed(0)).join(", ")})`);
  return m;
}

async function main() {
  for (const variant of CASES) {
    console.log(`\n== ${variant === "custom" ? "custom rubric, 10 ordinal 1-5 dimensions, a sum total" : "S.C.O.R.E. + SAFE-LLM"} ==`);
    await runCase(variant);
  }
}

async function runCase(variant: Case) {
  const db = await throwawayDatabase("clingrade_bench_stats", { keep: Boolean(process.env.BENCH_KEEP) });
  const url = db.url;
  process.env.DATABASE_URL = url;
  const c = new pg.Client({ connectionString: url });
  let server: Awaited<ReturnType<typeof startServer>> | null = null;
  try {
    await c.connect();
    const t0 = performance.now();
    const { studyId, leadId } = await generate(c, variant);
    const counts = await c.query<{ sets: number; assignments: number; grades: number }>(
      `SELECT (SELECT count(*) FROM "ResponseSet")::int AS sets, (SELECT count(*) FROM "Assignment")::int AS assignments, (SELECT count(*) FROM "Grade")::int AS grades`,
    );
    const k = counts.rows[0];
    console.log(
      `generated ${k.sets.toLocaleString("en")} response sets, ${k.assignments.toLocaleString("en")} assignments, ${k.grades.toLocaleString("en")} grades in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );

    const check = await computeStudyStats(studyId);
    if (!check || !check.cliffs.data || !check.agreement.data || !check.radar.every((r) => r.data) || !check.ranking.data) throw new Error("computeStudyStats returned an empty block on a full study");
    console.log(`  ${check.scope.finalSets.toLocaleString("en")} final sets, ${check.cliffs.data.cells.length} Cliff's delta cells, ${check.agreement.data.rows.length} agreement rows`);
    console.log(`timing (median of ${RUNS} runs after a warm-up):`);
    const runBare = async () => {
      const r = await c.query(variant === "custom" ? BARE_SQL_PLAIN : BARE_SQL, [studyId]);
      if (r.rows.length === 0) throw new Error("the bare query returned nothing");
    };
    // computeStudyStats reads with JIT off (JIT compiles for ~1 s on these plans, longer than they run):
    // the baseline gets the same, its best case; the server default is shown for reference.
    await timeRuns("bare SQL, server default settings (JIT on)", runBare);
    await c.query("SET jit = off");
    const bare = await timeRuns("bare SQL: final scores per set (pg, JIT off)", runBare);
    const stats = await timeRuns("computeStudyStats (all dashboard numbers)", () => computeStudyStats(studyId));
    console.log(`  ratio computeStudyStats / bare SQL: ${(stats / bare).toFixed(2)}x (goal: within 2x)`);
    // Where the time goes: the read (five statements, one snapshot) and the statistics in JS.
    const loaded = (await loadStudy(studyId))!;
    await timeRuns("  of which: loadStudy (SQL + rows)", () => loadStudy(studyId));
    await timeRuns("  of which: assembleStudyStatsAsync (JS)", () => assembleStudyStatsAsync(loaded));
    await timeRuns("  (the same on one thread: assembleStudyStats)", async () => assembleStudyStats(loaded));

    if (process.env.BENCH_URL) {
      const base = process.env.BENCH_URL;
      server = await startServer(url, Number(new URL(base).port || 80));
      const { token } = await createApiToken(leadId, { name: "stats benchmark" });
      const endpoint = new URL(`/api/v1/studies/${studyId}/stats`, base);
      const http = await timeRuns(`GET ${endpoint.pathname.replace(studyId, "{id}")}`, async () => {
        const res = await fetch(endpoint, { headers: { authorization: `Bearer ${token}` } });
        if (!res.ok) throw new Error(`HTTP ${res.status}: ${(await res.text()).slice(0, 300)}`);
        await res.arrayBuffer();
      });
      console.log(`  ratio HTTP endpoint / bare SQL: ${(http / bare).toFixed(2)}x`);
    } else {
      console.log("  (set BENCH_URL=http://127.0.0.1:3310 to also time the endpoint over HTTP; needs `npm run build`)");
    }
  } finally {
    await server?.stop();
    await c.end().catch(() => undefined);
    await disconnectDb();
    await db.drop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
