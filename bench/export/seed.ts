import { templateRubrics } from "@/lib/rubrics/study-rubrics";
import { randomBytes } from "node:crypto";
import type pg from "pg";

/**
 * A large graded study written by bulk SQL (INSERT ... SELECT generate_series),
 * for the export benchmark and the export tests' abort checks: `items` x
 * `models` response sets of N = 3 answers, each set graded by two graders
 * with both rubrics (5 S.C.O.R.E. + 13 SAFE-LLM scores = 18 per assignment),
 * so items x models x 36 score rows. One grade in ten has a comment, some
 * with quotes, commas, line breaks and leading "=" to exercise the CSV rules.
 */
export const SCORES_PER_ASSIGNMENT = 18;

export interface SeededStudy {
  studyId: string;
  slug: string;
  leadId: string;
  grades: number;
}

export function itemsFor(scoreRows: number, models = 3): number {
  return Math.ceil(scoreRows / (models * 2 * SCORES_PER_ASSIGNMENT));
}

export async function seedExportStudy(c: pg.Client | pg.PoolClient, opts: { items: number; models?: number; graders?: number; leadId?: string }): Promise<SeededStudy> {
  const tag = randomBytes(4).toString("hex");
  const models = opts.models ?? 3;
  const graders = opts.graders ?? 8;
  await c.query("BEGIN");
  try {
    const leadId =
      opts.leadId ??
      (
        await c.query<{ id: string }>(
          `INSERT INTO "User" (id, email, name, "passwordHash", role, "updatedAt") VALUES (gen_random_uuid(), $1, 'Bench lead', '-', 'LEAD', now()) RETURNING id`,
          [`bench-lead-${tag}@bench.clingrade.org`],
        )
      ).rows[0].id;
    await c.query(
      `INSERT INTO "User" (id, email, name, "passwordHash", role, "updatedAt")
       SELECT gen_random_uuid(), 'bench-g' || i || '-' || $1 || '@bench.clingrade.org', 'Bench grader ' || i, '-', 'GRADER', now() FROM generate_series(1, $2::int) i`,
      [tag, graders],
    );
    await c.query(`INSERT INTO "Specialty" (id, name) SELECT gen_random_uuid(), 'Bench specialty ' || i FROM generate_series(1, 4) i ON CONFLICT (name) DO NOTHING`);
    const slug = `export-bench-${tag}`;
    const { rows } = await c.query<{ id: string }>(
      `INSERT INTO "Study" (id, name, slug, rubrics, repetitions, "gradersPerSet", thresholds, status, "createdById", "updatedAt", "openedAt", "closedAt")
       VALUES (gen_random_uuid(), 'Export benchmark ' || $1, $2, $4::jsonb, 3, 2, '{}'::jsonb, 'CLOSED', $3, now(), now(), now()) RETURNING id`,
      [tag, slug, leadId, JSON.stringify(templateRubrics(["SCORE", "SAFE_LLM"]))],
    );
    const studyId = rows[0].id;
    await c.query(`INSERT INTO "StudyMember" ("studyId", "userId", role) VALUES ($1, $2, 'LEAD')`, [studyId, leadId]);
    await c.query(
      `CREATE TEMP TABLE bench_graders ON COMMIT DROP AS
       SELECT row_number() OVER (ORDER BY email) - 1 AS n, id FROM "User" WHERE email LIKE 'bench-g%-' || $1 || '@bench.clingrade.org'`,
      [tag],
    );
    await c.query(`INSERT INTO "StudyMember" ("studyId", "userId", role) SELECT $1, id, 'GRADER' FROM bench_graders`, [studyId]);
    await c.query(
      `INSERT INTO "LlmModel" (id, "studyId", name, version) SELECT gen_random_uuid(), $1, 'bench-model-' || i, 'v' || i FROM generate_series(1, $2::int) i`,
      [studyId, models],
    );
    await c.query(
      `INSERT INTO "QaItem" (id, "studyId", "externalId", question, "referenceAnswer", "specialtyId", "updatedAt")
       SELECT gen_random_uuid(), $1, 'Q' || lpad(i::text, 6, '0'), 'Question ' || i || ': what is the management of case ' || i || '?', 'Reference ' || i,
              (SELECT id FROM "Specialty" WHERE name = 'Bench specialty ' || (1 + i % 4)), now()
         FROM generate_series(1, $2::int) i`,
      [studyId, opts.items],
    );
    await c.query(
      `INSERT INTO "ResponseSet" (id, "studyId", "itemId", "modelId", status, "updatedAt")
       SELECT gen_random_uuid(), $1, qi.id, m.id, 'AGREED', now() FROM "QaItem" qi CROSS JOIN "LlmModel" m WHERE qi."studyId" = $1 AND m."studyId" = $1`,
      [studyId],
    );
    await c.query(
      `INSERT INTO "Response" (id, "responseSetId", repetition, text, "updatedAt")
       SELECT gen_random_uuid(), rs.id, r, 'Answer ' || r || ' of set ' || rs.id, now() FROM "ResponseSet" rs CROSS JOIN generate_series(1, 3) r WHERE rs."studyId" = $1`,
      [studyId],
    );
    await c.query(
      `WITH sets AS (SELECT id, row_number() OVER (ORDER BY id) AS n FROM "ResponseSet" WHERE "studyId" = $1)
       INSERT INTO "Assignment" (id, "responseSetId", "studyId", "graderId", kind, position, status, "harmFlag", "harmComment", "updatedAt", "submittedAt")
       SELECT gen_random_uuid(), s.id, $1, g.id, 'PRIMARY', s.n, 'SUBMITTED', s.n % 97 = 0, CASE WHEN s.n % 97 = 0 THEN 'Possible harm: "dose", see answer 2' END, now(), now()
         FROM sets s CROSS JOIN generate_series(0, 1) k JOIN bench_graders g ON g.n = (s.n + k) % $2`,
      [studyId, graders],
    );
    const cells = `(VALUES ('SCORE','safety',1,1,5,1), ('SCORE','consensus_context',1,1,5,2), ('SCORE','objectivity',1,1,5,3), ('SCORE','reproducibility',0,1,5,4),
      ('SCORE','explainability',1,1,5,5), ('SAFE_LLM','consistency',0,0,1,6),
      ('SAFE_LLM','accuracy',1,0,2,7), ('SAFE_LLM','comprehensiveness',1,0,2,8), ('SAFE_LLM','supplementation',1,0,1,9), ('SAFE_LLM','fluency',1,0,1,10),
      ('SAFE_LLM','accuracy',2,0,2,11), ('SAFE_LLM','comprehensiveness',2,0,2,12), ('SAFE_LLM','supplementation',2,0,1,13), ('SAFE_LLM','fluency',2,0,1,14),
      ('SAFE_LLM','accuracy',3,0,2,15), ('SAFE_LLM','comprehensiveness',3,0,2,16), ('SAFE_LLM','supplementation',3,0,1,17), ('SAFE_LLM','fluency',3,0,1,18))
      AS cell(rubric, dimension, repetition, lo, hi, k)`;
    const inserted = await c.query(
      `INSERT INTO "Grade" (id, "assignmentId", rubric, dimension, repetition, score, comment, "updatedAt")
       SELECT gen_random_uuid(), a.id, cell.rubric, cell.dimension, cell.repetition,
              cell.lo + (a.position + cell.k) % (cell.hi - cell.lo + 1),
              CASE (a.position + cell.k) % 40 WHEN 0 THEN 'Agrees with the guideline, "mostly", see refs' WHEN 10 THEN E'Two lines:\\nsecond line' WHEN 20 THEN '=1+1 (formula-like text)' WHEN 30 THEN 'Précis, très complet 😷' END,
              now()
         FROM "Assignment" a JOIN "ResponseSet" rs ON rs.id = a."responseSetId" CROSS JOIN ${cells}
        WHERE rs."studyId" = $1`,
      [studyId],
    );
    await c.query("COMMIT");
    await c.query(`ANALYZE "Grade"; ANALYZE "Assignment"; ANALYZE "ResponseSet"; ANALYZE "QaItem"; ANALYZE "LlmModel"`);
    return { studyId, slug, leadId, grades: inserted.rowCount ?? 0 };
  } catch (err) {
    await c.query("ROLLBACK");
    throw err;
  }
}
