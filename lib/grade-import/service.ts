import pg from "pg";
import { databaseUrl } from "@/lib/db/url";
import { storedRubrics } from "@/lib/rubrics/study-rubrics";
import { ApiError } from "@/lib/errors/api-error";
import { CsvRowTooLongError } from "@/lib/import/csv";
import type { GradeImportMapping } from "./mapping";
import { GradeRows, MAX_PROBLEMS, type GradeProblem } from "./rows";
import type { GradeTable } from "./tables";
import { GradeWriter, loadExisting, STAGING_DDL } from "./writer";
import { UploadLimitError } from "@/lib/uploads/limits";
import { XlsxError } from "./xlsx";
import { importPreferencesLocked, PREFERENCE_COLUMNS } from "./preferences";

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
 * checked in memory as they stream and written as they come (./writer.ts:
 * what is new goes straight to its table, grades with COPY); grades that may
 * meet grades stored before are staged, and set-based SQL at the end finds
 * differences from stored grades and inserts the rest (ON CONFLICT DO
 * NOTHING: a grade already stored with the same value is "unchanged"). Any
 * problem, or a dry run, rolls it all back, the writes made while streaming
 * with it.
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
  new: { items: number; models: number; raters: number; responseSets: number; comparisons?: number };
  /** Rows of the file (one per answer in the wide format, per grade in the long). */
  rows: number;
}

export interface GradeImportOptions {
  study: { id: string };
  actorId: string | null;
  requestId?: string | null;
  tables: AsyncIterable<GradeTable>;
  /** The grades' mapping; none for preferences. */
  mapping: GradeImportMapping | null;
  /** The file is the pairwise preference format (./preferences.ts): for a study of the pairwise design only. */
  preferences?: boolean;
  dryRun?: boolean;
  onPhase?: (phase: "read" | "merge" | "commit", ms: number) => void;
}

function plural(n: number, word: string): string {
  return `${n.toLocaleString("en")} ${word}${n === 1 ? "" : "s"}`;
}

export function gradeRejection(problems: GradeProblem[], total: number, message?: string): ApiError {
  const sorted = [...problems].slice(0, MAX_PROBLEMS);
  return new ApiError(422, message ?? `${plural(total, "problem")} in the file; nothing was imported`, { errors: sorted, total });
}

/** A limit, a broken workbook or an endless row as the 4xx that names it; anything else as it is. */
export function toApiError(e: unknown): unknown {
  if (e instanceof ApiError) return e;
  // Something of the study removed or added meanwhile by another writer (not an import: those wait for the lock).
  const code = (e as { code?: unknown } | null)?.code;
  if (code === "23505" || code === "23503") return new ApiError(409, "the study changed while the file was being imported; nothing was imported, please import it again");
  if (e instanceof UploadLimitError) return e.toApiError();
  if (e instanceof XlsxError) return new ApiError(422, e.message, { errors: [{ sheet: null, row: 0, column: null, message: e.message }], total: 1 });
  if (e instanceof CsvRowTooLongError) return gradeRejection([{ sheet: null, row: e.line, column: null, message: e.message }], 1);
  return e;
}

/** Reads, checks and writes or stages every grade of the file. */
async function stream(rows: GradeRows, tables: AsyncIterable<GradeTable>, writer: GradeWriter): Promise<void> {
  for await (const t of tables) {
    for await (const batch of rows.table(t)) {
      for (const g of batch) writer.take(g);
      if (writer.shouldFlush) await writer.flush();
    }
  }
  await writer.finish();
}

/**
 * The staged grades (./writer.ts) against the grades stored before: the
 * file's assignments of a stored rater and set are made where missing and
 * looked up once (gi_a), then one pass over the staged grades counts those
 * stored and those stored with another value. Another value is a 422; the
 * INSERT runs only when some grade is not stored yet (a re-import of the same
 * file reads the grades once and writes nothing). Returns the grades written.
 */
async function mergeStaged(client: pg.Client, study: string, rows: GradeRows): Promise<number> {
  const dims = rows.dimensions;
  const sheetName = (i: number) => rows.sheets[i - 1] ?? null;
  await client.query(
    `INSERT INTO "Assignment" (id, "responseSetId", "studyId", "graderId", kind, position, status, "submittedAt", "updatedAt")
     SELECT gen_random_uuid(), set_id, $1::uuid, grader_id, 'PRIMARY', 0, 'SUBMITTED', now(), now() FROM gi_asg
     ON CONFLICT ("graderId", "responseSetId") DO NOTHING`,
    [study],
  );
  await client.query(
    `CREATE TEMP TABLE gi_a ON COMMIT DROP AS
     SELECT s.asg, a.id FROM gi_asg s JOIN "Assignment" a ON a."graderId" = s.grader_id AND a."responseSetId" = s.set_id`,
  );
  await client.query(`CREATE UNIQUE INDEX ON gi_a (asg)`);
  await client.query(
    `CREATE TEMP TABLE gi_dim ON COMMIT DROP AS SELECT t.idx::int AS idx, t.rubric, t.dimension FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS t(rubric, dimension, idx)`,
    [dims.map((d) => d.rubric), dims.map((d) => d.key)],
  );
  await client.query(`ANALYZE gi_grade`);
  await client.query(`ANALYZE gi_a`);
  const joined = `FROM gi_grade g JOIN gi_a a ON a.asg = g.asg JOIN gi_dim d ON d.idx = g.dim`;
  const stored = `"Grade" x ON x."assignmentId" = a.id AND x.rubric = d.rubric AND x.dimension = d.dimension AND x.repetition = g.repetition AND x.criterion = ''`;
  const differs = `(x.score IS DISTINCT FROM g.score OR x.category IS DISTINCT FROM g.category OR x.na <> g.na)`;
  const { rows: tally } = await client.query<{ staged: number; stored: number; differ: number }>(
    `SELECT count(*)::int AS staged, count(x.id)::int AS stored, count(*) FILTER (WHERE x.id IS NOT NULL AND ${differs})::int AS differ ${joined} LEFT JOIN ${stored}`,
  );
  const { staged, stored: alreadyStored, differ } = tally[0];
  if (differ > 0) {
    // A grade already stored (an earlier import) with another value: the file does not overwrite it.
    const conflicts = await client.query<{ sheet: number; row: number; rater: number; dim: number; item: number; old: string }>(
      `SELECT g.sheet, g.row, g.rater, g.dim, g.item, coalesce(x.score::text, x.category, CASE WHEN x.na THEN 'N/A' END) AS old
       ${joined} JOIN ${stored}
       WHERE ${differs}
       ORDER BY g.sheet, g.row LIMIT ${MAX_PROBLEMS}`,
    );
    throw gradeRejection(
      conflicts.rows.map((c) => ({
        sheet: sheetName(c.sheet),
        row: c.row,
        column: null,
        message: `${rows.raters.values[c.rater - 1]}'s ${dims[c.dim - 1].name} of item ${rows.items.values[c.item - 1]} is already stored as ${c.old}: an imported grade is not overwritten`,
      })),
      differ,
      differ > MAX_PROBLEMS ? `more than ${MAX_PROBLEMS} grades differ from those already stored; nothing was imported` : undefined,
    );
  }
  if (alreadyStored === staged) return 0;
  const inserted = await client.query(
    `INSERT INTO "Grade" (id, "assignmentId", rubric, dimension, repetition, criterion, score, category, na, comment, "updatedAt")
     SELECT gen_random_uuid(), a.id, d.rubric, d.dimension, g.repetition, '', g.score, g.category, g.na, g.comment, now()
     ${joined}
     ON CONFLICT DO NOTHING`,
  );
  return inserted.rowCount ?? 0;
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
  let writer: GradeWriter | null = null;
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
    // Serialises imports into one study; everything below is read and decided under this lock.
    const { rows: locked } = await client.query<{ status: string; repetitions: number; rubrics: unknown; design: string; now: Date }>(
      `SELECT status::text, repetitions, rubrics, design::text, now() AS now FROM "Study" WHERE id = $1::uuid FOR UPDATE`,
      [o.study.id],
    );
    if (!locked.length) throw new ApiError(404, "study not found");
    if (locked[0].status === "CLOSED") throw new ApiError(409, "this study is closed: grades can no longer be imported");
    // A pairwise study's outside work is preferences (./preferences.ts), a scoring study's grades.
    if (locked[0].design === "PAIRWISE" || o.preferences) {
      const why =
        locked[0].design !== "PAIRWISE"
          ? "this file holds pairwise preferences (model_a, model_b, choice): a scoring study imports grades"
          : !o.preferences
            ? `a pairwise study imports preferences: a long CSV (text/csv) with the columns ${PREFERENCE_COLUMNS.join(",")}[,strength]`
            : null;
      if (why) throw gradeRejection([{ sheet: null, row: 1, column: null, message: why }], 1, why);
      const counts = await importPreferencesLocked(client, { id: o.study.id, rubrics: locked[0].rubrics, now: locked[0].now }, o.tables);
      const result: GradeImportResult = { dryRun, ...counts };
      if (!dryRun && counts.created > 0) {
        await client.query(
          `INSERT INTO "AuditEvent" ("studyId", "actorId", action, "entityType", "entityId", after, "requestId")
           VALUES ($1::uuid, $2::uuid, 'preference.import', 'Study', $1::text, $3::jsonb, $4)`,
          [o.study.id, o.actorId, JSON.stringify(result), o.requestId ?? null],
        );
      }
      await client.query(dryRun ? "ROLLBACK" : "COMMIT");
      open = false;
      return result;
    }
    if (!o.mapping) throw new ApiError(422, "send the mapping");
    const rows = new GradeRows(o.mapping, storedRubrics(locked[0].rubrics), locked[0].repetitions);
    if (rows.dimensions.length === 0) throw new ApiError(409, "the study's rubric has no dimension a file can grade (criteria and derived dimensions cannot be imported)");
    const study = o.study.id;
    const existing = await loadExisting(client, study);
    await client.query(STAGING_DDL);
    writer = new GradeWriter(client, study, rows, existing, !o.mapping.createItems && existing.items.size > 0, locked[0].now.toISOString());
    try {
      await stream(rows, o.tables, writer);
    } catch (e) {
      throw toApiError(e);
    }
    lap("read");
    if (process.env.GRADE_IMPORT_TRACE) for (const [sql, t] of writer.timings) console.error(`${t.ms.toFixed(0)} ms in ${t.n}  ${sql}`);
    if (rows.totalProblems) throw gradeRejection(rows.problems, rows.totalProblems);
    if (rows.sheets.length === 0 || rows.rows === 0) throw gradeRejection([{ sheet: null, row: 1, column: null, message: "the file has no rows of grades" }], 1);

    // Grades that may meet grades stored before: compared, then merged (a grade stored with the same value is "unchanged").
    let stagedCreated = 0;
    if (writer.counts.staged) stagedCreated = await mergeStaged(client, study, rows);
    // Imported grades are final as imported: a set stored before that they reach, with no grader of the study
    // still at work on it, takes the mean of its raters as its final scores (no escalation: the study that
    // collected them had its own). New sets were written final.
    if (writer.oldSets.length) {
      await client.query(
        `UPDATE "ResponseSet" rs SET status = 'AGREED', "updatedAt" = now()
          WHERE rs.id = ANY($1::uuid[]) AND rs.status = 'AWAITING_GRADES'
            AND NOT EXISTS (SELECT 1 FROM "Assignment" a WHERE a."responseSetId" = rs.id AND a.status IN ('PENDING', 'IN_PROGRESS'))`,
        [writer.oldSets],
      );
    }
    const c = writer.counts;
    const grades = c.direct + c.staged;
    const created = c.direct + stagedCreated;
    const result: GradeImportResult = {
      dryRun,
      items: rows.items.values.length,
      models: rows.models.values.length,
      raters: rows.raters.values.length,
      grades,
      created,
      unchanged: grades - created,
      new: { items: c.items, models: c.models, raters: c.raters, responseSets: c.sets },
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
  } catch (e) {
    await writer?.settle();
    throw toApiError(e);
  } finally {
    if (open) await client.query("ROLLBACK").catch(() => undefined);
    await client.end().catch(() => undefined);
  }
}
