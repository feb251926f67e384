/**
 * The benchmarks' large graded study (bench/stats, bench/grader-quality), generated with bulk SQL
 * (not the services), seeded (setseed) so every run is the same: BENCH_SETS response sets
 * (default 10,000: questions x 4 models, 8 specialties, N = 3), 3 primary graders each from a
 * pool of 30, ~12% adjudicated, ~4% still waiting for a grade; the published rubrics or a custom
 * one of 10 ordinal dimensions. Each submitted assignment has a server time on task.
 */
import { rubricProblems } from "@/lib/rubrics/document";
import { templateRubrics } from "@/lib/rubrics/study-rubrics";
import { randomBytes } from "node:crypto";
import type pg from "pg";
import { CUSTOM_RUBRIC as CUSTOM, CUSTOM_THRESHOLDS } from "./custom-rubric";

export const SETS = Number(process.env.BENCH_SETS ?? 10_000);
const MODELS = ["gpt-4o", "claude-3.5-sonnet", "llama-3.1-70b", "gemini-1.5-pro"];
const SPECIALTIES = ["Ophthalmology", "Anesthesia", "Medication safety", "Cardiology", "Nephrology", "Dermatology", "Pediatrics", "Oncology"];
export const GRADERS = 30;
const N = 3;

export type Case = "score" | "custom";

/** The whole study in a handful of INSERT ... SELECT statements, seeded (setseed) so every run is the same. */
export async function generate(c: pg.Client, variant: Case): Promise<{ studyId: string; leadId: string }> {
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
    `INSERT INTO "Assignment" (id, "responseSetId", "studyId", "graderId", kind, position, status, "updatedAt", "submittedAt", "timeSpentMs")
     SELECT gen_random_uuid(), s.rs_id, (SELECT "studyId" FROM "ResponseSet" WHERE id = s.rs_id), g.id, 'PRIMARY', s.idx, st, now(),
            CASE WHEN st = 'SUBMITTED' THEN now() - make_interval(mins => s.idx::int) END, CASE WHEN st = 'SUBMITTED' THEN (20000 + random() * 180000)::bigint ELSE 0 END
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
  // Grades of every submitted assignment: the first template 1-5 on answer 1 (its across-answers dimension on the set), the second per answer;
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

