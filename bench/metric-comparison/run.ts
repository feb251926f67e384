/**
 * Benchmark: the reference metrics' comparison (metricComparison, lib/metric-comparison: the
 * heatmap, corpus BLEU, every correlation with its interval and the disagreement lists) against
 * the bare SQL read of what it rests on: the stored metrics of every answer and the final scores
 * of every set.
 *
 *   npx tsx bench/metric-comparison/run.ts
 *
 * In a throwaway database (created on DATABASE_URL's server, default
 * postgresql://postgres@127.0.0.1:5432, migrated, dropped at the end; BENCH_KEEP=1 keeps it) it
 * generates with bulk SQL a study of BENCH_SETS response sets (default 10,000: 2,500 questions x 4
 * models, 8 specialties, N = 3, so 30,000 answers with BLEU, ROUGE-1, ROUGE-L and BLEU's
 * statistics) graded on the custom 10-dimension rubric with a total (bench/lib/custom-rubric.ts) by
 * 3 primary graders from a pool of 30; 96% of the sets final. It then times the median of
 * BENCH_RUNS runs (default 5) after a warm-up of:
 *  1. the bare read, JIT off: per final set and dimension the mean over graders of each grader's
 *     mean over the answers, and every answer's metrics, every row fetched with `pg`; the two
 *     queries one after the other, and at once on two connections (the floor the ratio uses:
 *     metricComparison runs its reads at once too);
 *  2. metricComparison(studyId);
 * and prints the ratio (goal: within 2x).
 */
import { randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { disconnectDb } from "../../lib/db/client";
import { assembleComparison } from "../../lib/metric-comparison/assemble";
import { readComparison } from "../../lib/metric-comparison/read";
import { metricComparison } from "../../lib/metric-comparison/service";
import { rubricProblems } from "../../lib/rubrics/document";
import { CUSTOM_RUBRIC as CUSTOM, CUSTOM_THRESHOLDS } from "../lib/custom-rubric";
import { throwawayDatabase } from "../lib/server";

const SETS = Number(process.env.BENCH_SETS ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const MODELS = ["gpt-4o", "claude-3.5-sonnet", "llama-3.1-70b", "gemini-1.5-pro"];
const SPECIALTIES = ["Ophthalmology", "Anesthesia", "Medication safety", "Cardiology", "Nephrology", "Dermatology", "Pediatrics", "Oncology"];
const GRADERS = 30;
const N = 3;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x: number) => `${x.toFixed(0)} ms`;

/** The study in a handful of INSERT ... SELECT statements, seeded (setseed) so every run is the same. */
async function generate(c: pg.Client): Promise<string> {
  const problems = rubricProblems(CUSTOM);
  if (problems.length) throw new Error(`the custom rubric is invalid: ${JSON.stringify(problems)}`);
  const items = Math.ceil(SETS / MODELS.length);
  await c.query("SELECT setseed(0.2033)");
  const lead = await c.query<{ id: string }>(
    `INSERT INTO "User" (id, email, name, "passwordHash", role, "updatedAt") VALUES (gen_random_uuid(), $1, 'Bench lead', '-', 'LEAD', now()) RETURNING id`,
    [`bench-lead-${randomBytes(3).toString("hex")}@bench.clingrade.org`],
  );
  await c.query(
    `INSERT INTO "User" (id, email, name, "passwordHash", role, "updatedAt")
     SELECT gen_random_uuid(), 'bench-grader-' || g || '@bench.clingrade.org', 'Grader ' || lpad(g::text, 2, '0'), '-', 'GRADER', now() FROM generate_series(1, ${GRADERS}) g`,
  );
  await c.query(`INSERT INTO "Specialty" (id, name) SELECT gen_random_uuid(), unnest($1::text[]) ON CONFLICT (name) DO NOTHING`, [SPECIALTIES]);
  const study = await c.query<{ id: string }>(
    `INSERT INTO "Study" (id, name, slug, rubrics, repetitions, "gradersPerSet", thresholds, status, "createdById", "updatedAt")
     VALUES (gen_random_uuid(), 'Metric comparison benchmark', $1, $4::jsonb, ${N}, 3, $2::jsonb, 'OPEN', $3, now()) RETURNING id`,
    [`metrics-bench-${randomBytes(3).toString("hex")}`, JSON.stringify(CUSTOM_THRESHOLDS), lead.rows[0].id, JSON.stringify([CUSTOM])],
  );
  const studyId = study.rows[0].id;
  await c.query(
    `INSERT INTO "StudyMember" ("studyId", "userId", role)
     SELECT $1::uuid, $2::uuid, 'LEAD'::"StudyRole" UNION ALL SELECT $1::uuid, id, 'GRADER'::"StudyRole" FROM "User" WHERE email LIKE 'bench-grader-%'`,
    [studyId, lead.rows[0].id],
  );
  await c.query(`INSERT INTO "LlmModel" (id, "studyId", name, version) SELECT gen_random_uuid(), $1, m, '2024-06' FROM unnest($2::text[]) m`, [studyId, MODELS]);
  await c.query(
    `INSERT INTO "QaItem" (id, "studyId", "externalId", question, "referenceAnswer", "specialtyId", "updatedAt")
     SELECT gen_random_uuid(), $1, 'Q' || lpad(i::text, 5, '0'), 'Question ' || i, 'Reference ' || i, (SELECT id FROM "Specialty" WHERE name = ($2::text[])[1 + i % ${SPECIALTIES.length}]), now()
     FROM generate_series(1, ${items}) i`,
    [studyId, SPECIALTIES],
  );
  // Sets with a latent quality q (a model effect plus noise) that the grades and, more loosely, the metrics follow.
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
  // N answers per set, each with metrics in 0-1 and BLEU's ten statistics.
  await c.query(
    `INSERT INTO "Response" (id, "responseSetId", repetition, text, "updatedAt", bleu, rouge1, "rougeL", "bleuStats")
     SELECT gen_random_uuid(), s.rs_id, r, 'Answer ' || r, now(), b, LEAST(1, b + 0.25 * random()), LEAST(1, b + 0.15 * random()),
            ARRAY[40, 44, 30, 20, 12, 6, 40, 39, 38, 37]::int[]
     FROM bench_set s CROSS JOIN generate_series(1, ${N}) r
     CROSS JOIN LATERAL (SELECT LEAST(1, GREATEST(0, 0.1 + 0.3 * s.q + (random() - 0.5) * 0.3)) AS b) m`,
  );
  await c.query(`CREATE TEMP TABLE bench_grader AS SELECT id, row_number() OVER (ORDER BY email) - 1 AS gi FROM "User" WHERE email LIKE 'bench-grader-%'`);
  await c.query(
    `INSERT INTO "Assignment" (id, "responseSetId", "studyId", "graderId", kind, position, status, "updatedAt", "submittedAt")
     SELECT gen_random_uuid(), s.rs_id, $1, g.id, 'PRIMARY', s.idx, st, now(), CASE WHEN st = 'SUBMITTED' THEN now() END
     FROM bench_set s CROSS JOIN generate_series(0, 2) j
     JOIN bench_grader g ON g.gi = (s.idx + j * 11) % ${GRADERS}
     CROSS JOIN LATERAL (SELECT CASE WHEN j = 2 AND s.idx % 25 = 7 THEN 'PENDING'::"AssignmentStatus" ELSE 'SUBMITTED'::"AssignmentStatus" END AS st) x`,
    [studyId],
  );
  const dims = CUSTOM.dimensions.flatMap((d) => (d.scope === "first_answer" ? [1] : [1, 2, 3]).map((r) => `('custom10','${d.key}',${r},1,5)`)).join(", ");
  await c.query(
    `WITH d(rubric, dim, rep, lo, hi) AS (VALUES ${dims})
     INSERT INTO "Grade" (id, "assignmentId", rubric, dimension, repetition, score, "updatedAt")
     SELECT gen_random_uuid(), a.id, d.rubric, d.dim, d.rep,
            LEAST(d.hi, GREATEST(d.lo, round(d.lo + (d.hi - d.lo) * (s.q + (random() - 0.5) * 0.45))))::int, now()
     FROM "Assignment" a JOIN bench_set s ON s.rs_id = a."responseSetId" CROSS JOIN d
     WHERE a.status = 'SUBMITTED'`,
  );
  await c.query(`UPDATE "ResponseSet" rs SET status = CASE WHEN s.idx % 25 = 7 THEN 'AWAITING_GRADES' ELSE 'AGREED' END::"SetStatus" FROM bench_set s WHERE s.rs_id = rs.id`);
  await c.query("ANALYZE");
  return studyId;
}

/** Final scores: per final set and dimension, the mean over graders of each grader's mean over the answers. */
const BARE_SCORES = `
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

/** Every answer's stored metrics. */
const BARE_METRICS = `
SELECT r."responseSetId", r.bleu, r.rouge1, r."rougeL", r."bleuStats"
FROM "Response" r JOIN "ResponseSet" rs ON rs.id = r."responseSetId"
WHERE rs."studyId" = $1 AND r.bleu IS NOT NULL`;

async function timeRuns(label: string, fn: () => Promise<unknown>): Promise<number> {
  await fn(); // warm-up: connections, plan cache
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

async function main() {
  const db = await throwawayDatabase("clingrade_bench_metrics", { keep: Boolean(process.env.BENCH_KEEP) });
  process.env.DATABASE_URL = db.url;
  const a = new pg.Client({ connectionString: db.url });
  const b = new pg.Client({ connectionString: db.url });
  try {
    await a.connect();
    await b.connect();
    const t0 = performance.now();
    const studyId = await generate(a);
    const k = (
      await a.query<{ sets: number; answers: number; grades: number }>(
        `SELECT (SELECT count(*) FROM "ResponseSet")::int AS sets, (SELECT count(*) FROM "Response")::int AS answers, (SELECT count(*) FROM "Grade")::int AS grades`,
      )
    ).rows[0];
    console.log(`generated ${k.sets.toLocaleString("en")} sets, ${k.answers.toLocaleString("en")} answers with metrics, ${k.grades.toLocaleString("en")} grades in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const check = await metricComparison(studyId);
    if (!check || check.finalSets === 0 || check.correlation.rows.length === 0 || check.heatmap.length === 0) throw new Error("metricComparison returned an empty comparison on a full study");
    console.log(`  ${check.finalSets.toLocaleString("en")} final sets, ${check.heatmap.length} heatmap cells, ${check.correlation.rows.length} correlations, ${check.disagreements.cases.length} disagreement cases`);
    console.log(`timing (median of ${RUNS} runs after a warm-up):`);
    await a.query("SET jit = off");
    await b.query("SET jit = off");
    const scores = () => a.query(BARE_SCORES, [studyId]);
    const metrics = (c: pg.Client) => c.query(BARE_METRICS, [studyId]);
    await timeRuns("bare SQL: final scores per set (pg, JIT off)", scores);
    await timeRuns("bare SQL: every answer's metrics", () => metrics(a));
    const sequential = await timeRuns("bare SQL: both, one after the other", async () => {
      await scores();
      await metrics(a);
    });
    const floor = await timeRuns("bare SQL: both at once on two connections (floor)", () => Promise.all([scores(), metrics(b)]));
    const took = await timeRuns("metricComparison (heatmap, correlations, cases)", () => metricComparison(studyId));
    // Where the time goes: the reads (at once) and the statistics in JS.
    const read = (await readComparison(studyId))!;
    await timeRuns("  of which: readComparison (SQL + rows + final scores)", () => readComparison(studyId));
    await timeRuns("  of which: assembleComparison (JS)", async () => assembleComparison(read));
    console.log(`  ratio metricComparison / bare SQL at once: ${(took / floor).toFixed(2)}x (goal: within 2x); / one after the other: ${(took / sequential).toFixed(2)}x`);
  } finally {
    await a.end().catch(() => undefined);
    await b.end().catch(() => undefined);
    await disconnectDb();
    await db.drop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
