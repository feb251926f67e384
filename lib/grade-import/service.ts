import { randomUUID } from "node:crypto";
import { once } from "node:events";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { databaseUrl } from "@/lib/db/client";
import { storedRubrics } from "@/lib/rubrics/study-rubrics";
import { ApiError } from "@/lib/errors/api-error";
import { SPECIALTY_NAMES_LOCK } from "@/lib/specialties/names";
import { CsvRowTooLongError } from "@/lib/import/csv";
import type { GradeImportMapping } from "./mapping";
import { GradeRows, MAX_PROBLEMS, type GradeProblem, type StagedGrade } from "./rows";
import type { GradeTable } from "./tables";
import { XlsxError } from "./xlsx";

/**
 * The grade import: grades made outside Clingrade, by raters known only by a
 * pseudonym, into a study's own tables, so the dashboard, results and exports
 * read them as they read any grade.
 *
 * Each rater becomes an external grader of the study (a User row with
 * externalStudyId, inactive and without credentials, so never signed in,
 * queued or assigned); each rater x answer set becomes a SUBMITTED PRIMARY
 * assignment, and each score a Grade row. Imported grades are final: nothing
 * here looks for disagreements or opens escalations.
 *
 * One transaction on one connection, under a lock on the study row: rows are
 * checked in memory as they stream and staged with COPY into a temporary
 * table; set-based SQL then finds repeated keys with different scores and
 * differences from grades already stored, creates what is missing and
 * inserts the grades (ON CONFLICT DO NOTHING: a grade already stored with the
 * same value is "unchanged"). Any problem, or a dry run, rolls it all back.
 */

export interface GradeImportResult {
  dryRun: boolean;
  /** Distinct items, models, raters and grades in the file. */
  items: number;
  models: number;
  raters: number;
  grades: number;
  /** Grades written now, and grades already stored with the same value. */
  created: number;
  unchanged: number;
  /** What the import added besides grades. */
  new: { items: number; models: number; raters: number; responseSets: number };
  /** Rows of the file (one per answer in the wide format, per grade in the long). */
  rows: number;
}

export interface GradeImportOptions {
  study: { id: string };
  actorId: string | null;
  requestId?: string | null;
  tables: AsyncIterable<GradeTable>;
  mapping: GradeImportMapping;
  dryRun?: boolean;
  onPhase?: (phase: "read" | "merge" | "commit", ms: number) => void;
}

/**
 * Ids that increase in the order rows are written: a random 64-bit prefix per
 * import and a counter. A million grades with random UUIDs touch the primary
 * key's pages at random (each page once more in the WAL after a checkpoint);
 * in order they fill one page after another.
 */
function orderedIds(): (counter: string) => string {
  const prefix = randomUUID().replaceAll("-", "").slice(0, 16);
  return (counter) => `('${prefix}' || lpad(to_hex(${counter}), 16, '0'))::uuid`;
}

function plural(n: number, word: string): string {
  return `${n.toLocaleString("en")} ${word}${n === 1 ? "" : "s"}`;
}

export function gradeRejection(problems: GradeProblem[], total: number, message?: string): ApiError {
  const sorted = [...problems].slice(0, MAX_PROBLEMS);
  return new ApiError(422, message ?? `${plural(total, "problem")} in the file; nothing was imported`, { errors: sorted, total });
}

const STAGING_DDL = `CREATE TEMP TABLE gi_grade (
  sheet int NOT NULL, row int NOT NULL, item int NOT NULL, model int NOT NULL, rater int NOT NULL, dim int NOT NULL,
  repetition int NOT NULL, score int, category text, na boolean NOT NULL, comment text
) ON COMMIT DROP`;
const COPY_STAGED = `COPY gi_grade (sheet, row, item, model, rater, dim, repetition, score, category, na, comment) FROM STDIN (FORMAT csv)`;

const q = (s: string) => `"${s.replaceAll('"', '""')}"`;

function copyLine(g: StagedGrade): string {
  return `${g.sheet},${g.row},${g.item},${g.model},${g.rater},${g.dim},${g.repetition},${g.score ?? ""},${g.category === null ? "" : q(g.category)},${g.na ? "t" : "f"},${g.comment === null ? "" : q(g.comment)}\n`;
}

/** COPY with backpressure: each batch is one write; a full buffer waits for PostgreSQL. */
async function stageAll(client: pg.Client, source: AsyncIterable<StagedGrade[]>): Promise<void> {
  const stream = client.query(copyFrom(COPY_STAGED));
  const done = new Promise<void>((resolve, reject) => {
    stream.on("finish", resolve);
    stream.on("error", reject);
  });
  try {
    for await (const batch of source) {
      let s = "";
      for (const g of batch) s += copyLine(g);
      if (!stream.write(s)) await once(stream, "drain");
    }
  } catch (e) {
    stream.destroy(e instanceof Error ? e : new Error(String(e)));
    await done.catch(() => undefined);
    throw e;
  }
  stream.end();
  await done;
}

function toApiError(e: unknown): unknown {
  if (e instanceof XlsxError) return new ApiError(422, e.message, { errors: [{ sheet: null, row: 0, column: null, message: e.message }], total: 1 });
  if (e instanceof CsvRowTooLongError) return gradeRejection([{ sheet: null, row: e.line, column: null, message: e.message }], 1);
  return e;
}

async function* allGrades(rows: GradeRows, tables: AsyncIterable<GradeTable>): AsyncGenerator<StagedGrade[]> {
  for await (const t of tables) yield* rows.table(t);
}

export async function importGrades(o: GradeImportOptions): Promise<GradeImportResult> {
  const dryRun = o.dryRun ?? false;
  const client = new pg.Client({ connectionString: databaseUrl(), application_name: "clingrade-grade-import" });
  client.on("error", () => undefined);
  await client.connect();
  if (process.env.GRADE_IMPORT_TRACE) {
    const query = client.query.bind(client) as (...a: unknown[]) => unknown;
    (client as unknown as { query: unknown }).query = (...a: unknown[]) => {
      const t0 = performance.now();
      const r = query(...a);
      if (r instanceof Promise) void r.then(() => console.error(`${(performance.now() - t0).toFixed(0)} ms  ${String(a[0]).replace(/\s+/g, " ").slice(0, 90)}`), () => undefined);
      return r;
    };
  }
  let open = false;
  let t = performance.now();
  const lap = (phase: "read" | "merge" | "commit") => {
    const now = performance.now();
    o.onPhase?.(phase, now - t);
    t = now;
  };
  try {
    await client.query("SET temp_buffers = '256MB'");
    await client.query("BEGIN");
    open = true;
    await client.query("SET LOCAL work_mem = '128MB'");
    await client.query("SET LOCAL jit = off");
    const { rows: locked } = await client.query<{ status: string; repetitions: number; rubrics: unknown }>(
      `SELECT status::text, repetitions, rubrics FROM "Study" WHERE id = $1::uuid FOR UPDATE`,
      [o.study.id],
    );
    if (!locked.length) throw new ApiError(404, "study not found");
    if (locked[0].status === "CLOSED") throw new ApiError(409, "this study is closed: grades can no longer be imported");
    const orderedId = orderedIds();
    const rows = new GradeRows(o.mapping, storedRubrics(locked[0].rubrics), locked[0].repetitions);
    if (rows.dimensions.length === 0) throw new ApiError(409, "the study's rubric has no dimension a file can grade (criteria and derived dimensions cannot be imported)");

    await client.query(STAGING_DDL);
    try {
      await stageAll(client, allGrades(rows, o.tables));
    } catch (e) {
      throw toApiError(e);
    }
    lap("read");
    if (rows.totalProblems) throw gradeRejection(rows.problems, rows.totalProblems);
    if (rows.sheets.length === 0 || rows.rows === 0) throw gradeRejection([{ sheet: null, row: 1, column: null, message: "the file has no rows of grades" }], 1);

    // Statistics for the planner: without them a temporary table looks small, and a million rows meet nested loops.
    await client.query(`ANALYZE gi_grade`);
    const sheetName = (i: number) => rows.sheets[i - 1] ?? null;
    const dims = rows.dimensions;


    // Items, models and raters: found in the study or created.
    const study = o.study.id;
    await client.query(
      `CREATE TEMP TABLE gi_item ON COMMIT DROP AS
       SELECT t.idx::int AS idx, t.ext, i.id, i.id IS NULL AS fresh FROM unnest($1::text[]) WITH ORDINALITY AS t(ext, idx)
       LEFT JOIN "QaItem" i ON i."studyId" = $2::uuid AND i."externalId" = t.ext`,
      [rows.items.values, study],
    );
    const missingItems = await client.query<{ idx: number; ext: string }>(`SELECT idx, ext FROM gi_item WHERE fresh ORDER BY idx`);
    if (missingItems.rows.length && !o.mapping.createItems) {
      const count = await client.query<{ n: string }>(`SELECT count(*) AS n FROM "QaItem" WHERE "studyId" = $1::uuid`, [study]);
      if (Number(count.rows[0].n) > 0) {
        throw gradeRejection(
          missingItems.rows.slice(0, MAX_PROBLEMS).map((r) => ({ ...rows.items.firstSeen[r.idx - 1], message: `the study has no item "${r.ext}" (the mapping says not to create items)` })),
          missingItems.rows.length,
        );
      }
    }
    let specialtyId: string | null = null;
    if (missingItems.rows.length) {
      await client.query(SPECIALTY_NAMES_LOCK);
      const sp = await client.query<{ id: string }>(`SELECT id FROM "Specialty" WHERE lower(name) = 'unspecified' ORDER BY name LIMIT 1`);
      specialtyId = sp.rows[0]?.id ?? randomUUID();
      if (!sp.rows.length) await client.query(`INSERT INTO "Specialty" (id, name) VALUES ($1::uuid, 'Unspecified')`, [specialtyId]);
      await client.query(`UPDATE gi_item SET id = gen_random_uuid() WHERE fresh`);
      await client.query(
        `INSERT INTO "QaItem" (id, "studyId", "externalId", question, "specialtyId", "updatedAt")
         SELECT id, $1::uuid, ext, '', $2::uuid, now() FROM gi_item WHERE fresh`,
        [study, specialtyId],
      );
    }
    await client.query(
      `CREATE TEMP TABLE gi_model ON COMMIT DROP AS
       SELECT t.idx::int AS idx, t.name, m.id, m.id IS NULL AS fresh FROM unnest($1::text[]) WITH ORDINALITY AS t(name, idx)
       LEFT JOIN "LlmModel" m ON m."studyId" = $2::uuid AND m.name = t.name`,
      [rows.models.values, study],
    );
    await client.query(`UPDATE gi_model SET id = gen_random_uuid() WHERE fresh`);
    const newModels = await client.query(`INSERT INTO "LlmModel" (id, "studyId", name) SELECT id, $1::uuid, name FROM gi_model WHERE fresh`, [study]);

    await client.query(
      `CREATE TEMP TABLE gi_rater ON COMMIT DROP AS
       SELECT t.idx::int AS idx, t.name, u.id, u.id IS NULL AS fresh FROM unnest($1::text[]) WITH ORDINALITY AS t(name, idx)
       LEFT JOIN "User" u ON u."externalStudyId" = $2::uuid AND u.name = t.name`,
      [rows.raters.values, study],
    );
    await client.query(`UPDATE gi_rater SET id = gen_random_uuid() WHERE fresh`);
    const newRaters = await client.query(
      `INSERT INTO "User" (id, email, name, "passwordHash", role, active, "externalStudyId", "updatedAt")
       SELECT id, 'ext-' || id::text || '@external.invalid', name, '', 'GRADER', false, $1::uuid, now() FROM gi_rater WHERE fresh`,
      [study],
    );
    await client.query(
      `INSERT INTO "StudyMember" ("studyId", "userId", role) SELECT $1::uuid, id, 'GRADER' FROM gi_rater ON CONFLICT DO NOTHING`,
      [study],
    );

    // Answer sets (item x model) and the raters' assignments on them.
    const setPairs = [...rows.sets.values()];
    await client.query(
      `CREATE TEMP TABLE gi_set ON COMMIT DROP AS
       SELECT s.item, s.model, s.n, i.id AS item_id, m.id AS model_id, rs.id, rs.id IS NULL AS fresh
       FROM unnest($1::int[], $2::int[]) WITH ORDINALITY AS s(item, model, n)
       JOIN gi_item i ON i.idx = s.item JOIN gi_model m ON m.idx = s.model
       LEFT JOIN "ResponseSet" rs ON rs."itemId" = i.id AND rs."modelId" = m.id`,
      [setPairs.map((p) => p[0]), setPairs.map((p) => p[1])],
    );
    await client.query(`UPDATE gi_set SET id = ${orderedId("n")} WHERE fresh`);
    const newSets = await client.query(
      `INSERT INTO "ResponseSet" (id, "studyId", "itemId", "modelId", "updatedAt") SELECT id, $1::uuid, item_id, model_id, now() FROM gi_set WHERE fresh`,
      [study],
    );
    const triples = [...rows.assignments.values()];
    await client.query(
      `CREATE TEMP TABLE gi_asg ON COMMIT DROP AS
       SELECT a.item, a.model, a.rater, a.n, s.id AS set_id, r.id AS grader_id, x.id, x.id IS NULL AS fresh
       FROM unnest($1::int[], $2::int[], $3::int[]) WITH ORDINALITY AS a(item, model, rater, n)
       JOIN gi_set s ON s.item = a.item AND s.model = a.model
       JOIN gi_rater r ON r.idx = a.rater
       LEFT JOIN "Assignment" x ON x."graderId" = r.id AND x."responseSetId" = s.id`,
      [triples.map((p) => p[0]), triples.map((p) => p[1]), triples.map((p) => p[2])],
    );
    await client.query(`UPDATE gi_asg SET id = ${orderedId("n")} WHERE fresh`);
    await client.query(
      `INSERT INTO "Assignment" (id, "responseSetId", "studyId", "graderId", kind, position, status, "submittedAt", "updatedAt")
       SELECT id, set_id, $1::uuid, grader_id, 'PRIMARY', 0, 'SUBMITTED', now(), now() FROM gi_asg WHERE fresh`,
      [study],
    );
    await client.query(`CREATE INDEX ON gi_asg (item, model, rater)`);
    await client.query(`ANALYZE gi_asg`);
    await client.query(
      `CREATE TEMP TABLE gi_dim ON COMMIT DROP AS SELECT t.idx::int AS idx, t.rubric, t.dimension FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS t(rubric, dimension, idx)`,
      [dims.map((d) => d.rubric), dims.map((d) => d.key)],
    );

    // Repeated keys (item, model, rater, dimension, repetition): the same value is one grade; two values are a problem.
    // Looked for only when it matters (a million-row GROUP BY costs seconds): before merging with grades
    // stored earlier, or when the plain insert of new grades meets a key twice.
    const repeatedKeys = async (): Promise<number> => {
      const dup = await client.query<{ n: string; v: string; sheets: number[]; rowsAt: number[]; item: number; rater: number; dim: number }>(
        // Hashed twice rather than sorted: the common file repeats nothing, and then the first step returns no group.
        `WITH k AS (SELECT item, model, rater, dim, repetition FROM gi_grade GROUP BY 1, 2, 3, 4, 5 HAVING count(*) > 1)
         SELECT count(*) AS n, count(DISTINCT concat_ws('|', g.score, g.category, g.na)) AS v,
                (array_agg(g.sheet ORDER BY g.sheet, g.row))[1:5] AS sheets, (array_agg(g.row ORDER BY g.sheet, g.row))[1:5] AS "rowsAt",
                min(g.item) AS item, min(g.rater) AS rater, min(g.dim) AS dim
         FROM gi_grade g JOIN k USING (item, model, rater, dim, repetition)
         GROUP BY g.item, g.model, g.rater, g.dim, g.repetition`,
      );
      let duplicates = 0;
      const problems: GradeProblem[] = [];
      let total = 0;
      for (const d of dup.rows) {
        duplicates += Number(d.n) - 1;
        if (Number(d.v) > 1) {
          total++;
          if (problems.length < MAX_PROBLEMS) {
            const others = d.rowsAt.slice(1).map((r, i) => `${sheetName(d.sheets[i + 1]) ? `${sheetName(d.sheets[i + 1])} ` : ""}row ${r}`).join(", ");
            problems.push({
              sheet: sheetName(d.sheets[0]),
              row: d.rowsAt[0],
              column: null,
              message: `${rows.raters.values[d.rater - 1]} graded ${dims[d.dim - 1].name} of item ${rows.items.values[d.item - 1]} twice with different values (also ${others})`,
            });
          }
        }
      }
      if (total) throw gradeRejection(problems, total);
      return duplicates;
    };

    // A grade already stored (an earlier import) with another value: the file does not overwrite it.
    const anyOld = await client.query(`SELECT 1 FROM gi_asg WHERE NOT fresh LIMIT 1`);
    let duplicates = anyOld.rows.length ? await repeatedKeys() : 0;
    if (anyOld.rows.length) {
      const conflicts = await client.query<{ sheet: number; row: number; rater: number; dim: number; item: number; old: string }>(
        `SELECT g.sheet, g.row, g.rater, g.dim, g.item, coalesce(x.score::text, x.category, CASE WHEN x.na THEN 'N/A' END) AS old
         FROM gi_grade g
         JOIN gi_asg a ON a.item = g.item AND a.model = g.model AND a.rater = g.rater AND NOT a.fresh
         JOIN gi_dim d ON d.idx = g.dim
         JOIN "Grade" x ON x."assignmentId" = a.id AND x.rubric = d.rubric AND x.dimension = d.dimension AND x.repetition = g.repetition AND x.criterion = ''
         WHERE x.score IS DISTINCT FROM g.score OR x.category IS DISTINCT FROM g.category OR x.na <> g.na
         ORDER BY g.sheet, g.row LIMIT ${MAX_PROBLEMS + 1}`,
      );
      if (conflicts.rows.length) {
        throw gradeRejection(
          conflicts.rows.slice(0, MAX_PROBLEMS).map((c) => ({
            sheet: sheetName(c.sheet),
            row: c.row,
            column: null,
            message: `${rows.raters.values[c.rater - 1]}'s ${dims[c.dim - 1].name} of item ${rows.items.values[c.item - 1]} is already stored as ${c.old}: an imported grade is not overwritten`,
          })),
          conflicts.rows.length,
          conflicts.rows.length > MAX_PROBLEMS ? `more than ${MAX_PROBLEMS} grades differ from those already stored; nothing was imported` : undefined,
        );
      }
    }

    // Grades of new assignments cannot exist yet: a plain INSERT, in file order with ordered ids.
    // Those of assignments stored before, and files repeating a key, go through ON CONFLICT.
    await client.query(`CREATE TEMP SEQUENCE gi_seq`);
    const insert = (where: string, distinct: boolean) =>
      client.query(
        `INSERT INTO "Grade" (id, "assignmentId", rubric, dimension, repetition, criterion, score, category, na, comment, "updatedAt")
         SELECT ${distinct ? "DISTINCT ON (a.id, d.idx, g.repetition)" : ""} ${orderedId("nextval('gi_seq')")}, a.id, d.rubric, d.dimension, g.repetition, '', g.score, g.category, g.na, g.comment, now()
         FROM gi_grade g
         JOIN gi_asg a ON a.item = g.item AND a.model = g.model AND a.rater = g.rater
         JOIN gi_dim d ON d.idx = g.dim
         ${where}
         ${distinct ? "ORDER BY a.id, d.idx, g.repetition, g.sheet, g.row" : ""}
         ${distinct || where !== "WHERE a.fresh" ? "ON CONFLICT DO NOTHING" : ""}`,
      );
    let created = 0;
    if (!anyOld.rows.length) {
      await client.query("SAVEPOINT gi_plain");
      try {
        created = (await insert("WHERE a.fresh", false)).rowCount ?? 0;
      } catch (e) {
        if ((e as { code?: string }).code !== "23505") throw e;
        // The file repeats a key: roll back to find it (a problem if its values differ, else counted once).
        await client.query("ROLLBACK TO SAVEPOINT gi_plain");
        duplicates = await repeatedKeys();
        created = (await insert("", true)).rowCount ?? 0;
      }
    } else if (duplicates) created = (await insert("", true)).rowCount ?? 0;
    else created = ((await insert("WHERE a.fresh", false)).rowCount ?? 0) + ((await insert("WHERE NOT a.fresh", false)).rowCount ?? 0);
    // Imported grades are final as imported: a set they reach, with no grader of the study still at work on it,
    // takes the mean of its raters as its final scores (no escalation: the study that collected them had its own).
    await client.query(
      `UPDATE "ResponseSet" rs SET status = 'AGREED', "updatedAt" = now()
         FROM gi_set s
        WHERE rs.id = s.id AND rs.status = 'AWAITING_GRADES'
          AND NOT EXISTS (SELECT 1 FROM "Assignment" a WHERE a."responseSetId" = rs.id AND a.status IN ('PENDING', 'IN_PROGRESS'))`,
    );
    const grades = Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM gi_grade`)).rows[0].n) - duplicates;
    const result: GradeImportResult = {
      dryRun,
      items: rows.items.values.length,
      models: rows.models.values.length,
      raters: rows.raters.values.length,
      grades,
      created,
      unchanged: grades - created,
      new: { items: missingItems.rows.length, models: newModels.rowCount ?? 0, raters: newRaters.rowCount ?? 0, responseSets: newSets.rowCount ?? 0 },
      rows: rows.rows,
    };
    lap("merge");
    if (dryRun) {
      await client.query("ROLLBACK");
      open = false;
      return result;
    }
    if (created > 0) {
      await client.query(
        `INSERT INTO "AuditEvent" ("studyId", "actorId", action, "entityType", "entityId", after, "requestId")
         VALUES ($1::uuid, $2::uuid, 'grade.import', 'Study', $1::text, $3::jsonb, $4)`,
        [study, o.actorId, JSON.stringify(result), o.requestId ?? null],
      );
    }
    await client.query("COMMIT");
    open = false;
    lap("commit");
    return result;
  } finally {
    if (open) await client.query("ROLLBACK").catch(() => undefined);
    await client.end().catch(() => undefined);
  }
}
