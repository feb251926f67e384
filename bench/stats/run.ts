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
import { rubricProblems } from "@/lib/rubrics/document";
import { templateRubrics } from "@/lib/rubrics/study-rubrics";
import { randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { assembleStudyStats, assembleStudyStatsAsync } from "../../lib/analytics/assemble";
import { loadStudy } from "../../lib/analytics/load";
import { computeStudyStats } from "../../lib/analytics/study-stats";
import { createApiToken } from "../../lib/auth/tokens";
import { disconnectDb } from "../../lib/db/client";
import { CUSTOM_RUBRIC as CUSTOM, CUSTOM_THRESHOLDS } from "../lib/custom-rubric";
import { startServer, throwawayDatabase } from "../lib/server";

const SETS = Number(process.env.BENCH_SETS ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const MODELS = ["gpt-4o", "claude-3.5-sonnet", "llama-3.1-70b", "gemini-1.5-pro"];
const SPECIALTIES = ["Ophthalmology", "Anesthesia", "Medication safety", "Cardiology", "Nephrology", "Dermatology", "Pediatrics", "Oncology"];
const GRADERS = 30;
const N = 3;

/**
 * The studies timed: the two published rubrics, and a custom rubric of 10 ordinal 1-5
 * dimensions (5 on the first answer, 5 on each answer) with a sum total. BENCH_CASES=score or
 * custom runs one.
 */
type Case = "score" | "custom";
const CASES = (process.env.BENCH_CASES ?? "score,custom").split(",") as Case[];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x: number) => `${x.toFixed(0)} ms`;

/** The whole study in a handful of INSERT ... SELECT statements, seeded (setseed) so every run is the same. */
async function generate(c: pg.Client, variant: Case): Promise<{ studyId: string; leadId: string }> {
  const problems = variant === "custom" ? rubricProblems(CUSTOM) : [];
  if (problems.length) throw new Error(`the custom rubric is invalid: ${JSON.stringify(problems)}`);
  const rubrics = variant === "custom" ? [CUSTOM] : templateRubrics(["SCORE", "SAFE_LLM"]);
  const thresholds =
    variant === "custom"
      ? CUSTOM_THRESHOLDS
      : {
          SCORE: { safety: 2, consensus_context: 2, objectivity: 2, reproducibility: 2, explainability: 2 },
          SAFE_LLM: { accuracy: 1, comprehensiveness: 1, supplementation: 0.5, consistency: 0.5, fluency: 0.5 },
        };
  const items = Math.ceil(SETS / MODELS.length);
  await c.query("SELECT setseed(0.2026)");
  const lead = await c.query<{ id: string }>(
    `INSERT INTO "User" (id, email, name, "passwordHash", role, "updatedAt") VALUES (gen_random_uuid(), $1, 'Bench lead', '-', 'LEAD', now()) RETURNING id`,
    [`bench-lead-${randomBytes(3).toString("hex")}@bench.clingrade.org`],
  );
  const leadId = lead.rows[0].id;
  await c.query(
    `INSERT INTO "User" (id, email, name, "passwordHash", role, "updatedAt")
     SELECT gen_random_uuid(), 'bench-grader-' || g || '@bench.clingrade.org', 'Grader ' || lpad(g::text, 2, '0'), '-', 'GRADER', now() FROM generate_series(1, ${GRADERS}) g`,
  );
  await c.query(`INSERT INTO "Specialty" (id, name) SELECT gen_random_uuid(), unnest($1::text[]) ON CONFLICT (name) DO NOTHING`, [SPECIALTIES]);
  const study = await c.query<{ id: string }>(
    `INSERT INTO "Study" (id, name, slug, rubrics, repetitions, "gradersPerSet", thresholds, status, "createdById", "updatedAt")
     VALUES (gen_random_uuid(), 'Stats benchmark', $1, $4::jsonb, ${N}, 3, $2::jsonb, 'OPEN', $3, now()) RETURNING id`,
    [
      `stats-bench-${randomBytes(3).toString("hex")}`,
      JSON.stringify(thresholds),
      leadId,
      JSON.stringify(rubrics),
    ],
  );
  const studyId = study.rows[0].id;
  await c.query(
    `INSERT INTO "StudyMember" ("studyId", "userId", role)
     SELECT $1::uuid, $2::uuid, 'LEAD'::"StudyRole" UNION ALL SELECT $1::uuid, id, 'GRADER'::"StudyRole" FROM "User" WHERE email LIKE 'bench-grader-%'`,
    [studyId, leadId],
  );
  await c.query(`INSERT INTO "LlmModel" (id, "studyId", name, version) SELECT gen_random_uuid(), $1, m, '2024-06' FROM unnest($2::text[]) m`, [studyId, MODELS]);
  await c.query(
    `INSERT INTO "QaItem" (id, "studyId", "externalId", question, "specialtyId", "updatedAt")
     SELECT gen_random_uuid(), $1, 'Q' || lpad(i::text, 5, '0'), 'Question ' || i, (SELECT id FROM "Specialty" WHERE name = ($2::text[])[1 + i % ${SPECIALTIES.length}]), now()
     FROM generate_series(1, ${items}) i`,
    [studyId, SPECIALTIES],
  );
  // Sets (limited to SETS), numbered, with a latent quality per set: a model effect plus noise.
  await c.query(
    `CREATE TEMP TABLE bench_set AS
     SELECT * FROM (
       SELECT gen_random_uuid() AS rs_id, row_number() OVER (ORDER BY i."externalId", m.name) - 1 AS idx, i.id AS item_id, m.id AS model_id,
              LEAST(0.98, GREATEST(0.02, 0.35 + 0.15 * array_position($2::text[], m.name) + (random() - 0.5) * 0.5)) AS q
       FROM "QaItem" i CROSS JOIN "LlmModel" m WHERE i."studyId" = $1 AND m."studyId" = $1
     ) s WHERE idx < ${SETS}`,
    [studyId, MODELS],
  );
  await c.query(`INSERT INTO "ResponseSet" (id, "studyId", "itemId", "modelId", status, "updatedAt") SELECT rs_id, $1, item_id, model_id, 'AWAITING_GRADES', now() FROM bench_set`, [studyId]);
  await c.query(`CREATE TEMP TABLE bench_grader AS SELECT id, row_number() OVER (ORDER BY email) - 1 AS gi FROM "User" WHERE email LIKE 'bench-grader-%'`);
  // Three primaries per set (grader offsets 0, 11, 22 in the pool: always distinct); 4% of sets still wait for the third.
  await c.query(
    `INSERT INTO "Assignment" (id, "responseSetId", "studyId", "graderId", kind, position, status, "updatedAt", "submittedAt")
     SELECT gen_random_uuid(), s.rs_id, (SELECT "studyId" FROM "ResponseSet" WHERE id = s.rs_id), g.id, 'PRIMARY', s.idx, st, now(), CASE WHEN st = 'SUBMITTED' THEN now() END
     FROM bench_set s CROSS JOIN generate_series(0, 2) j
     JOIN bench_grader g ON g.gi = (s.idx + j * 11) % ${GRADERS}
     CROSS JOIN LATERAL (SELECT CASE WHEN j = 2 AND s.idx % 25 = 7 THEN 'PENDING'::"AssignmentStatus" ELSE 'SUBMITTED'::"AssignmentStatus" END AS st) x`,
  );
  // Escalated sets: 12% adjudicated by a fourth grader, 3% waiting for one.
  await c.query(
    `INSERT INTO "Assignment" (id, "responseSetId", "studyId", "graderId", kind, position, status, "updatedAt", "submittedAt")
     SELECT gen_random_uuid(), s.rs_id, (SELECT "studyId" FROM "ResponseSet" WHERE id = s.rs_id), g.id, 'ADJUDICATOR', 100000 + s.idx, CASE WHEN s.idx % 100 < 12 THEN 'SUBMITTED'::"AssignmentStatus" ELSE 'PENDING'::"AssignmentStatus" END, now(), NULL
     FROM bench_set s JOIN bench_grader g ON g.gi = (s.idx + 5) % ${GRADERS}
     WHERE s.idx % 25 <> 7 AND s.idx % 100 < 15`,
  );
  // Grades of every submitted assignment: S.C.O.R.E. 1-5 on answer 1 (reproducibility on the set), SAFE-LLM per answer;
  // or the custom rubric's d1-d5 on answer 1 and d6-d10 on each answer, 1-5.
  const dims =
    variant === "custom"
      ? CUSTOM.dimensions.flatMap((d) => (d.scope === "first_answer" ? [1] : [1, 2, 3]).map((r) => `('custom10','${d.key}',${r},1,5)`)).join(", ")
      : `('SCORE','safety',1,1,5), ('SCORE','consensus_context',1,1,5), ('SCORE','objectivity',1,1,5), ('SCORE','reproducibility',0,1,5), ('SCORE','explainability',1,1,5),
              ${[1, 2, 3].map((r) => `('SAFE_LLM','accuracy',${r},0,2), ('SAFE_LLM','comprehensiveness',${r},0,2), ('SAFE_LLM','supplementation',${r},0,1), ('SAFE_LLM','fluency',${r},0,1)`).join(", ")}`;
  await c.query(
    `WITH d(rubric, dim, rep, lo, hi) AS (VALUES ${dims})
     INSERT INTO "Grade" (id, "assignmentId", rubric, dimension, repetition, score, "updatedAt")
     SELECT gen_random_uuid(), a.id, d.rubric, d.dim, d.rep,
            LEAST(d.hi, GREATEST(d.lo, round(d.lo + (d.hi - d.lo) * (s.q + (random() - 0.5) * 0.45))))::int, now()
     FROM "Assignment" a JOIN bench_set s ON s.rs_id = a."responseSetId" CROSS JOIN d
     WHERE a.status = 'SUBMITTED'`,
  );
  // Consistency, derived from accuracy as the grading service stores it.
  if (variant === "score") await c.query(
    `INSERT INTO "Grade" (id, "assignmentId", rubric, dimension, repetition, score, "updatedAt")
     SELECT gen_random_uuid(), g."assignmentId", 'SAFE_LLM', 'consistency', 0, (min(g.score) = max(g.score))::int, now()
     FROM "Grade" g JOIN "Assignment" a ON a.id = g."assignmentId" JOIN bench_set s ON s.rs_id = a."responseSetId"
     WHERE g.dimension = 'accuracy' GROUP BY g."assignmentId"`,
  );
  await c.query(
    `UPDATE "ResponseSet" rs SET status = CASE WHEN s.idx % 25 = 7 THEN 'AWAITING_GRADES' WHEN s.idx % 100 < 12 THEN 'ADJUDICATED' WHEN s.idx % 100 < 15 THEN 'AWAITING_ADJUDICATION' ELSE 'AGREED' END::"SetStatus"
     FROM bench_set s WHERE s.rs_id = rs.id`,
  );
  await c.query("ANALYZE");
  return { studyId, leadId };
}

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
