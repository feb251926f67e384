/**
 * Benchmark: the pairwise statistics of the dashboard (issue 34) against the bare SQL read of the
 * preferences plus the fit, and the whole /stats of a pairwise study against the scoring
 * dashboard of a 10,000-set study, in the same run.
 *
 *   npx tsx bench/pairwise/run.ts
 *
 * In a throwaway database (DATABASE_URL's server, default postgresql://postgres@127.0.0.1:5432;
 * migrated, dropped at the end, BENCH_KEEP=1 keeps it) it generates with bulk SQL, seeded:
 *  - a pairwise study of 10 models x 2,000 questions with the three-axis preference template,
 *    5.5 comparisons per question (11,000), each compared by 3 graders: 99,000 preferences drawn
 *    from Davidson's model with known strengths (a tie parameter of 0.5);
 *  - the scoring study of bench/stats (BENCH_SETS, default 10,000 sets, bench/lib/graded-study.ts).
 * Then the median of BENCH_RUNS runs (default 5) after a warm-up of:
 *  1. the bare read: the two statements of lib/analytics/pairwise-load.ts in one snapshot, every row fetched (pg, JIT off);
 *  2. the fit: analysePreferences (every axis and overall) on rows already in memory, no bootstrap;
 *  3. the pairwise block without the bootstrap (read + fit + tables): goal within 2x of 1 + 2;
 *  4. computeStudyStats of the pairwise study (1,000 bootstrap fits per axis and overall);
 *  5. computeStudyStats of the scoring study (with its derived pairwise table), and the scoring
 *     dashboard as it was before it (loadStudy + assembleStudyStatsAsync): goal 4 below both.
 */
import { performance } from "node:perf_hooks";
import pg from "pg";
import { assembleStudyStatsAsync } from "../../lib/analytics/assemble";
import { loadStudy } from "../../lib/analytics/load";
import { comparisonsSql, loadPreferences, preferencesSql } from "../../lib/analytics/pairwise-load";
import { pairwiseStudyBlock } from "../../lib/analytics/pairwise";
import { computeStudyStats } from "../../lib/analytics/study-stats";
import { disconnectDb } from "../../lib/db/client";
import { templateRubrics } from "../../lib/rubrics/study-rubrics";
import { analysePreferences } from "../../lib/stats/pairwise";
import { generate } from "../lib/graded-study";
import { throwawayDatabase } from "../lib/server";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const MODELS = 10;
const QUESTIONS = 2_000;
const GRADERS = 3;
/** True log-strengths: evenly spaced, 0.3 apart. */
const STRENGTH = (m: number) => (m - (MODELS - 1) / 2) * 0.3;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x: number) => `${x.toFixed(0)} ms`;

async function timeRuns(label: string, fn: () => Promise<unknown>): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  const m = median(times);
  console.log(`  ${label.padEnd(58)} median ${ms(m).padStart(8)}   (runs: ${times.map((t) => t.toFixed(0)).join(", ")})`);
  return m;
}

/** The pairwise study in a few INSERT ... SELECT statements, seeded. */
async function generatePairwise(c: pg.Client): Promise<string> {
  const rubrics = templateRubrics(["clever_preference"], 1);
  const axes = rubrics[0].dimensions.map((d) => d.key);
  await c.query("SELECT setseed(0.34)");
  const lead = await c.query<{ id: string }>(`INSERT INTO "User" (id, email, name, "passwordHash", role, "updatedAt") VALUES (gen_random_uuid(), 'pw-bench-lead@bench.clingrade.org', 'Pairwise lead', '-', 'LEAD', now()) RETURNING id`);
  await c.query(
    `INSERT INTO "User" (id, email, name, "passwordHash", role, "updatedAt")
     SELECT gen_random_uuid(), 'pw-bench-grader-' || g || '@bench.clingrade.org', 'PW grader ' || g, '-', 'GRADER', now() FROM generate_series(1, ${GRADERS}) g`,
  );
  const study = await c.query<{ id: string }>(
    `INSERT INTO "Study" (id, name, slug, rubrics, repetitions, "gradersPerSet", thresholds, status, design, "createdById", "updatedAt")
     VALUES (gen_random_uuid(), 'Pairwise benchmark', 'pairwise-bench', $1::jsonb, 1, ${GRADERS}, '{}'::jsonb, 'OPEN', 'PAIRWISE', $2, now()) RETURNING id`,
    [JSON.stringify(rubrics), lead.rows[0].id],
  );
  const studyId = study.rows[0].id;
  await c.query(
    `INSERT INTO "StudyMember" ("studyId", "userId", role) SELECT $1::uuid, $2::uuid, 'LEAD'::"StudyRole" UNION ALL SELECT $1::uuid, id, 'GRADER'::"StudyRole" FROM "User" WHERE email LIKE 'pw-bench-grader-%'`,
    [studyId, lead.rows[0].id],
  );
  await c.query(`INSERT INTO "Specialty" (id, name) VALUES (gen_random_uuid(), 'Pairwise bench') ON CONFLICT (name) DO NOTHING`);
  await c.query(`INSERT INTO "LlmModel" (id, "studyId", name, version) SELECT gen_random_uuid(), $1, 'model-' || lpad(m::text, 2, '0'), '1' FROM generate_series(0, ${MODELS - 1}) m`, [studyId]);
  await c.query(
    `INSERT INTO "QaItem" (id, "studyId", "externalId", question, "specialtyId", "updatedAt")
     SELECT gen_random_uuid(), $1, 'P' || lpad(i::text, 5, '0'), 'Question ' || i, (SELECT id FROM "Specialty" WHERE name = 'Pairwise bench'), now() FROM generate_series(1, ${QUESTIONS}) i`,
    [studyId],
  );
  await c.query(
    `CREATE TEMP TABLE pw_set AS
     SELECT gen_random_uuid() AS id, i.id AS item_id, m.id AS model_id, substring(m.name from 7)::int AS mi, (substring(i."externalId" from 2)::int) AS qi
     FROM "QaItem" i CROSS JOIN "LlmModel" m WHERE i."studyId" = $1 AND m."studyId" = $1`,
    [studyId],
  );
  await c.query(`INSERT INTO "ResponseSet" (id, "studyId", "itemId", "modelId", status, "updatedAt") SELECT id, $1, item_id, model_id, 'AWAITING_GRADES', now() FROM pw_set`, [studyId]);
  // Answers of 200-1,200 characters, unrelated to the strengths.
  await c.query(`INSERT INTO "Response" (id, "responseSetId", repetition, text, "updatedAt") SELECT gen_random_uuid(), id, 1, repeat('x', 200 + (random() * 1000)::int), now() FROM pw_set`);
  // 5 comparisons per question (6 on even ones): models a = (q + 2k) % 10 and b = a + 1 + q % 9 (never a), sides by a coin.
  await c.query(
    `CREATE TEMP TABLE pw_cmp AS
     SELECT gen_random_uuid() AS id, q.qi, k, CASE WHEN random() < 0.5 THEN x.a ELSE x.b END AS l, 0 AS r
     FROM (SELECT DISTINCT qi FROM pw_set) q CROSS JOIN generate_series(0, 5) k
     CROSS JOIN LATERAL (SELECT (q.qi + 2 * k) % ${MODELS} AS a, ((q.qi + 2 * k) % ${MODELS} + 1 + q.qi % 9) % ${MODELS} AS b) x
     WHERE k < 5 OR q.qi % 2 = 0`,
  );
  await c.query(`UPDATE pw_cmp c SET r = CASE WHEN c.l = (c.qi + 2 * c.k) % ${MODELS} THEN ((c.qi + 2 * c.k) % ${MODELS} + 1 + c.qi % 9) % ${MODELS} ELSE (c.qi + 2 * c.k) % ${MODELS} END`);
  await c.query(
    `INSERT INTO "Comparison" (id, "studyId", "itemId", "leftSetId", "leftRepetition", "rightSetId", "rightRepetition", status, "updatedAt")
     SELECT c.id, $1, ls.item_id, ls.id, 1, rs.id, 1, 'AGREED', now()
     FROM pw_cmp c JOIN pw_set ls ON ls.qi = c.qi AND ls.mi = c.l JOIN pw_set rs ON rs.qi = c.qi AND rs.mi = c.r`,
    [studyId],
  );
  await c.query(
    `INSERT INTO "ComparisonAssignment" (id, "comparisonId", "studyId", "graderId", kind, position, status, "updatedAt", "submittedAt")
     SELECT gen_random_uuid(), c.id, $1, u.id, 'PRIMARY', row_number() OVER (PARTITION BY u.id ORDER BY c.qi, c.k), 'SUBMITTED', now(), now()
     FROM pw_cmp c CROSS JOIN "User" u WHERE u.email LIKE 'pw-bench-grader-%'`,
    [studyId],
  );
  const strengths = Array.from({ length: MODELS }, (_, m) => Math.exp(STRENGTH(m)));
  await c.query(
    `INSERT INTO "Preference" (id, "assignmentId", rubric, axis, choice, "updatedAt")
     SELECT gen_random_uuid(), a.id, $2, ax, CASE WHEN u * (pl + pr + t) < pl THEN 'LEFT' WHEN u * (pl + pr + t) < pl + t THEN 'TIE' ELSE 'RIGHT' END::"PreferenceChoice", now()
     FROM "ComparisonAssignment" a JOIN pw_cmp c ON c.id = a."comparisonId" CROSS JOIN unnest($3::text[]) ax
     CROSS JOIN LATERAL (SELECT ($4::float8[])[c.l + 1] AS pl, ($4::float8[])[c.r + 1] AS pr, random() AS u) p
     CROSS JOIN LATERAL (SELECT 0.5 * sqrt(p.pl * p.pr) AS t) tt
     WHERE a."studyId" = $1`,
    [studyId, rubrics[0].key, axes, strengths],
  );
  await c.query("ANALYZE");
  return studyId;
}

async function main() {
  const db = await throwawayDatabase("clingrade_bench_pairwise", { keep: Boolean(process.env.BENCH_KEEP) });
  process.env.DATABASE_URL = db.url;
  const c = new pg.Client({ connectionString: db.url });
  try {
    await c.connect();
    let t0 = performance.now();
    const pairwiseId = await generatePairwise(c);
    const n = await c.query<{ prefs: number; cmp: number }>(`SELECT (SELECT count(*) FROM "Preference")::int AS prefs, (SELECT count(*) FROM "Comparison")::int AS cmp`);
    console.log(`pairwise study: ${n.rows[0].cmp.toLocaleString("en")} comparisons, ${n.rows[0].prefs.toLocaleString("en")} preferences, generated in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    t0 = performance.now();
    const { studyId: scoringId } = await generate(c, "score");
    console.log(`scoring study: generated in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    await c.query("SET jit = off");

    const rubrics = templateRubrics(["clever_preference"], 1);
    const check = await computeStudyStats(pairwiseId);
    const overall = check?.pairwise?.data?.axes.at(-1);
    if (!overall || overall.n !== n.rows[0].prefs) throw new Error(`the pairwise block is not over every preference: ${JSON.stringify(check?.pairwise?.reason)}`);
    const fitted = overall.strengths.rows.map((r) => r.logStrength!.toFixed(2)).join(" ");
    const truth = Array.from({ length: MODELS }, (_, m) => STRENGTH(m).toFixed(2)).join(" ");
    const covered = overall.strengths.rows.filter((r, m) => r.ci && r.ci[0] <= STRENGTH(m) && STRENGTH(m) <= r.ci[1]).length;
    console.log(`  overall strengths ${fitted}\n  truth             ${truth}\n  bootstrap CIs covering the truth: ${covered} of ${MODELS}; nu ${overall.strengths.nu?.toFixed(3)}`);

    console.log(`timing (median of ${RUNS} runs after a warm-up):`);
    const comparisons = comparisonsSql(pairwiseId, null);
    const preferences = preferencesSql(pairwiseId);
    const bare = await timeRuns("bare SQL: comparisons and preferences, every row fetched (pg)", async () => {
      await c.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
      await c.query(comparisons.text, comparisons.values as unknown[]);
      const r = await c.query(preferences.text, preferences.values as unknown[]);
      await c.query("COMMIT");
      if (r.rows.length === 0) throw new Error("no rows");
    });
    const rows = await loadPreferences(pairwiseId);
    const fit = await timeRuns("the fit: analysePreferences, no bootstrap", async () => analysePreferences(rows, { replicates: 0 }));
    const block = await timeRuns("pairwise block without bootstrap (read + fit + tables)", () => pairwiseStudyBlock(pairwiseId, rubrics, {}, { replicates: 0 }));
    console.log(`  ratio block / (bare SQL + fit): ${(block / (bare + fit)).toFixed(2)}x (goal: within 2x)`);
    await timeRuns("pairwise block with 1,000 bootstrap fits", () => pairwiseStudyBlock(pairwiseId, rubrics, {}));
    const whole = await timeRuns("computeStudyStats, pairwise study (whole /stats)", () => computeStudyStats(pairwiseId));
    const scoring = await timeRuns("computeStudyStats, 10,000-set scoring study", () => computeStudyStats(scoringId));
    const before = await timeRuns("scoring dashboard without the derived table", async () => assembleStudyStatsAsync((await loadStudy(scoringId))!));
    console.log(`  pairwise /stats over scoring /stats: ${(whole / scoring).toFixed(2)}x; over the scoring dashboard without its derived table: ${(whole / before).toFixed(2)}x (goal: below 1)`);
  } finally {
    await c.end().catch(() => undefined);
    await disconnectDb();
    await db.drop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
