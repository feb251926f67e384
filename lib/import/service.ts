import { once } from "node:events";
import { performance } from "node:perf_hooks";
import { finished } from "node:stream/promises";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { databaseUrl } from "@/lib/db/client";
import { ApiError } from "@/lib/server/errors";
import type { ImportKind, RowError } from "./columns";
import { completeSetSql } from "./completeness";
import { CsvRowTooLongError } from "./csv";
import { emptyFileError, ImportFileError, openRows, type RowStream } from "./read";
import { chunksOf, coalesce, decodeUtf8, formatFromContentType, limitBytes, maxImportBytes, tooLarge } from "./source";
import { ImportValidator, MAX_ERRORS, type ModelSettings, type StagedRow } from "./validate";

/**
 * The import of questions and model answers into a study.
 *
 * The file is read as a stream and checked row by row in memory (compact
 * maps, no texts kept); each valid row is streamed at once with COPY into a
 * temporary table inside one transaction. Then set-based SQL compares the
 * staged rows with the study (unknown items, changes to graded answers) and,
 * if nothing is wrong, merges them with a few INSERT ... SELECT ... ON
 * CONFLICT statements. Any problem, or a dry run, rolls the whole
 * transaction back: a file is imported entirely or not at all.
 *
 * It runs on its own pg connection rather than Prisma's: COPY is not
 * available through Prisma, and a temporary table lives on one connection.
 */

export interface ImportStudy {
  id: string;
  status: "DRAFT" | "OPEN" | "CLOSED";
  repetitions: number;
}

export interface ImportOptions {
  study: ImportStudy;
  actorId: string | null;
  requestId?: string | null;
  contentType: string | null;
  contentLength?: number | null;
  body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array> | null;
  dryRun?: boolean;
  /** Defaults to IMPORT_MAX_BYTES (50 MB). */
  maxBytes?: number;
  /** Told how long each phase took (read, check, write, commit), for logs and the benchmark. */
  onPhase?: (phase: "read" | "check" | "write" | "commit", ms: number) => void;
}

export interface IncompleteSet {
  itemId: string;
  model: string;
  /** Repetitions present, within 1..N. */
  repetitions: number[];
}

export interface ImportResult {
  kind: ImportKind;
  dryRun: boolean;
  /** Distinct questions, answers and item x model sets in the file. */
  items: number;
  responses: number;
  responseSets: number;
  /** Answers written now, already present with the same text, and replaced (ungraded only). */
  created: number;
  unchanged: number;
  updated: number;
  questions: { created: number; unchanged: number; updated: number };
  responseSetsCreated: number;
  modelsCreated: number;
  specialtiesCreated: number;
  /** Rows that repeat an earlier row exactly, counted once. */
  duplicateRows: number;
  /** Sets of this file that still lack some of the N answers: not offered for grading until completed. */
  incompleteSets: { count: number; examples: IncompleteSet[] };
  repetitions: number;
}

const EXAMPLES = 10;

function plural(n: number, word: string): string {
  return `${n.toLocaleString("en")} ${word}${n === 1 ? "" : "s"}`;
}

/** The 422 (or 409) that lists the file's problems. */
export function rejection(status: 409 | 422, errors: RowError[], total: number, message?: string): ApiError {
  const sorted = [...errors].sort((a, b) => a.row - b.row).slice(0, MAX_ERRORS);
  return new ApiError(status, message ?? `${plural(total, "problem")} in the file; nothing was imported`, { errors: sorted, total });
}

// Every text column is quoted, so an answer holding commas, quotes, line breaks
// or a lone "\." line reaches PostgreSQL unchanged; an empty unquoted field is NULL.
function q(s: string | undefined): string {
  if (s === undefined) return "";
  return `"${s.includes('"') ? s.replaceAll('"', '""') : s}"`;
}

function copyLine(r: StagedRow): string {
  const externalId = r.item?.externalId ?? r.answer?.externalId;
  return (
    `${r.row},${r.line ?? ""},${q(externalId)},${q(r.item?.specialtyKey)},${q(r.item?.question)},${q(r.item?.referenceAnswer)},` +
    `${q(r.answer?.model)},${r.answer?.repetition ?? ""},${q(r.answer?.text)}\n`
  );
}

const STAGING_DDL = `CREATE TEMP TABLE imp_row (
  row int NOT NULL,
  line int,
  external_id text NOT NULL,
  specialty text,
  question text,
  reference text,
  model text,
  repetition int,
  response text
) ON COMMIT DROP`;

const COPY_SQL = `COPY imp_row (row, line, external_id, specialty, question, reference, model, repetition, response) FROM STDIN (FORMAT csv)`;

/** Reads, validates and stages every row. Returns false when reading had to stop early. */
async function stage(client: pg.Client, batches: RowStream["batches"], validator: ImportValidator): Promise<boolean> {
  const copy = client.query(copyFrom(COPY_SQL));
  let copyError: Error | null = null;
  copy.on("error", (e: Error) => {
    copyError = e;
  });
  let parts: string[] = [];
  let size = 0;
  const flush = async () => {
    if (copyError) throw copyError;
    if (size === 0) return;
    const ok = copy.write(parts.join(""));
    parts = [];
    size = 0;
    if (!ok) await once(copy, "drain");
  };
  let complete = true;
  try {
    try {
      for await (const batch of batches) {
        for (const src of batch) {
          const staged = validator.accept(src);
          if (!staged) continue;
          const line = copyLine(staged);
          parts.push(line);
          size += line.length;
        }
        if (size >= 1 << 20) await flush();
      }
    } catch (e) {
      if (!(e instanceof CsvRowTooLongError)) throw e;
      validator.addError({ row: validator.summary().rows + 1, line: e.line, column: null, message: e.message });
      complete = false;
    }
    await flush();
    copy.end();
    await finished(copy);
  } catch (e) {
    if (!copy.destroyed) copy.destroy(e instanceof Error ? e : new Error(String(e)));
    throw e;
  }
  return complete;
}

interface Ctx {
  client: pg.Client;
  study: ImportStudy;
  kind: ImportKind;
  validator: ImportValidator;
}

/**
 * True when the response set has been scored: by a clinician (Grade) or by an
 * automated judge (JudgeScore). Either score belongs to the text it was given,
 * so that text may no longer change.
 */
const GRADED_SET = (set: string) => `(EXISTS (SELECT 1 FROM "Assignment" ga JOIN "Grade" g ON g."assignmentId" = ga.id WHERE ga."responseSetId" = ${set})
  OR EXISTS (SELECT 1 FROM "JudgeScore" js WHERE js."responseSetId" = ${set}))`;

/** Specialties by lower-cased name; the oldest spelling wins when the table holds two. */
async function specialtyIds(client: pg.Client, keys: string[]): Promise<Map<string, string>> {
  const { rows } = await client.query<{ key: string; id: string }>(
    `SELECT DISTINCT ON (lower(name)) lower(name) AS key, id::text AS id FROM "Specialty" WHERE lower(name) = ANY($1::text[]) ORDER BY lower(name), name`,
    [keys],
  );
  return new Map(rows.map((r) => [r.key, r.id]));
}

interface Check {
  errors: RowError[];
  total: number;
  /** All of the errors are changes refused because of grades or recorded settings (409), none a fault of the file alone. */
  conflictsOnly: boolean;
  questions: { created: number; unchanged: number; updated: number };
  answers: { created: number; unchanged: number; updated: number };
}

/** Compares the staged rows with the study. Reads only. */
async function check({ client, study, kind, validator }: Ctx): Promise<Check> {
  const errors: RowError[] = [];
  let total = 0;
  let conflicts = 0;
  const out: Check = {
    errors,
    total: 0,
    conflictsOnly: false,
    questions: { created: 0, unchanged: 0, updated: 0 },
    answers: { created: 0, unchanged: 0, updated: 0 },
  };
  const add = (e: RowError, conflict: boolean) => {
    total++;
    if (conflict) conflicts++;
    if (errors.length < MAX_ERRORS) errors.push(e);
  };
  const at = (r: { row: number; line: number | null }) => ({ row: r.row, ...(r.line === null ? {} : { line: r.line }) });

  if (kind !== "answers") {
    const { rows } = await client.query<{
      row: number;
      line: number | null;
      external_id: string;
      existing: boolean;
      question_changed: boolean;
      reference_changed: boolean;
      specialty_changed: boolean;
      graded: boolean;
    }>(
      `SELECT i.row, i.line, i.external_id, q.id IS NOT NULL AS existing,
              q.question <> i.question AS question_changed,
              q."referenceAnswer" <> i.reference AS reference_changed,
              lower(s.name) <> i.specialty AS specialty_changed,
              q.id IS NOT NULL AND EXISTS (SELECT 1 FROM "ResponseSet" rs WHERE rs."itemId" = q.id AND ${GRADED_SET("rs.id")}) AS graded
         FROM imp_row i
         LEFT JOIN "QaItem" q ON q."studyId" = $1::uuid AND q."externalId" = i.external_id
         LEFT JOIN "Specialty" s ON s.id = q."specialtyId"
        WHERE i.question IS NOT NULL
          AND (q.id IS NULL OR q.question <> i.question OR q."referenceAnswer" <> i.reference OR lower(s.name) <> i.specialty)
        ORDER BY i.row`,
      [study.id],
    );
    let created = 0;
    let updated = 0;
    for (const r of rows) {
      if (!r.existing) {
        created++;
        continue;
      }
      updated++;
      if (!r.graded) continue;
      const what = [r.question_changed && "question", r.specialty_changed && "specialty", r.reference_changed && "reference_answer"].filter(
        (x): x is string => typeof x === "string",
      );
      add(
        {
          ...at(r),
          column: what[0] ?? "question",
          message: `item ${r.external_id} already has grades, so its ${what.join(" and ")} cannot be changed; keep the text as imported before`,
        },
        true,
      );
    }
    const staged = validator.summary().items;
    out.questions = { created, updated, unchanged: staged - created - updated };
  }

  if (kind === "answers") {
    const { rows } = await client.query<{ row: number; line: number | null; external_id: string; total: string }>(
      `SELECT a.row, a.line, a.external_id, count(*) OVER () AS total
         FROM imp_row a
        WHERE NOT EXISTS (SELECT 1 FROM "QaItem" q WHERE q."studyId" = $1::uuid AND q."externalId" = a.external_id)
        ORDER BY a.row LIMIT ${MAX_ERRORS}`,
      [study.id],
    );
    for (const r of rows) {
      add({ ...at(r), column: "item_id", message: `unknown item ${r.external_id}: this study has no question with that item_id; import the question first` }, false);
    }
    const missing = rows.length ? Number(rows[0].total) : 0;
    total += missing - rows.length;
  }

  if (kind !== "questions") {
    // Recorded model settings: a blank one may be filled in, a different one is a conflict.
    const models = validator.modelSettings();
    const { rows: existing } = await client.query<{ name: string; version: string; temperature: number | null; topP: number | null }>(
      `SELECT name, version, temperature, "topP" FROM "LlmModel" WHERE "studyId" = $1::uuid AND name = ANY($2::text[])`,
      [study.id, models.map((m) => m.name)],
    );
    const byName = new Map(existing.map((m) => [m.name, m]));
    for (const m of models) {
      const e = byName.get(m.name);
      if (!e) continue;
      const pairs: [keyof ModelSettings["rows"], string, unknown, unknown][] = [
        ["version", "model_version", e.version === "" ? null : e.version, m.version === "" ? null : m.version],
        ["temperature", "temperature", e.temperature, m.temperature],
        ["topP", "top_p", e.topP, m.topP],
      ];
      for (const [key, column, recorded, stated] of pairs) {
        if (recorded === null || stated === null || recorded === stated) continue;
        add(
          {
            row: m.rows[key] ?? m.rows.first,
            column,
            message: `model ${m.name} is recorded in this study with ${column} "${recorded}", the file says "${stated}"; import it under another model name or fix the file`,
          },
          true,
        );
      }
    }

    const staged = validator.summary().responses;
    const { rows: any } = await client.query<{ any: boolean }>(`SELECT EXISTS (SELECT 1 FROM "ResponseSet" WHERE "studyId" = $1::uuid) AS any`, [study.id]);
    if (!any[0].any) {
      // A first import: nothing to compare with.
      out.answers = { created: staged, unchanged: 0, updated: 0 };
    } else {
      const { rows: counts } = await client.query<{ created: string; unchanged: string; updated: string }>(
        `SELECT count(*) FILTER (WHERE r.id IS NULL) AS created,
                count(*) FILTER (WHERE r.text = a.response) AS unchanged,
                count(*) FILTER (WHERE r.text <> a.response) AS updated
           FROM imp_row a
           LEFT JOIN "QaItem" q ON q."studyId" = $1::uuid AND q."externalId" = a.external_id
           LEFT JOIN "LlmModel" m ON m."studyId" = $1::uuid AND m.name = a.model
           LEFT JOIN "ResponseSet" rs ON rs."itemId" = q.id AND rs."modelId" = m.id
           LEFT JOIN "Response" r ON r."responseSetId" = rs.id AND r.repetition = a.repetition
          WHERE a.model IS NOT NULL`,
        [study.id],
      );
      out.answers = { created: Number(counts[0].created), unchanged: Number(counts[0].unchanged), updated: Number(counts[0].updated) };
      if (out.answers.updated > 0) {
        const { rows } = await client.query<{ row: number; line: number | null; external_id: string; model: string; repetition: number; total: string }>(
          `SELECT a.row, a.line, a.external_id, a.model, a.repetition, count(*) OVER () AS total
             FROM imp_row a
             JOIN "QaItem" q ON q."studyId" = $1::uuid AND q."externalId" = a.external_id
             JOIN "LlmModel" m ON m."studyId" = $1::uuid AND m.name = a.model
             JOIN "ResponseSet" rs ON rs."itemId" = q.id AND rs."modelId" = m.id
             JOIN "Response" r ON r."responseSetId" = rs.id AND r.repetition = a.repetition
            WHERE a.model IS NOT NULL AND r.text <> a.response AND ${GRADED_SET("rs.id")}
            ORDER BY a.row LIMIT ${MAX_ERRORS}`,
          [study.id],
        );
        for (const r of rows) {
          add(
            {
              ...at(r),
              column: "response",
              message: `the answer of item ${r.external_id}, model ${r.model}, repetition ${r.repetition} already has grades and cannot be changed; keep the text as imported before`,
            },
            true,
          );
        }
        const graded = rows.length ? Number(rows[0].total) : 0;
        total += graded - rows.length;
        conflicts += graded - rows.length;
      }
    }
  }
  out.total = total;
  out.conflictsOnly = total > 0 && conflicts === total;
  return out;
}

interface Written {
  specialtiesCreated: number;
  modelsCreated: number;
  responseSetsCreated: number;
  incompleteSets: ImportResult["incompleteSets"];
}

/** Merges the staged rows into the study. */
async function write({ client, study, kind, validator }: Ctx): Promise<Written> {
  const out: Written = { specialtiesCreated: 0, modelsCreated: 0, responseSetsCreated: 0, incompleteSets: { count: 0, examples: [] } };

  if (kind !== "answers") {
    const keys = [...validator.specialties.keys()];
    let ids = await specialtyIds(client, keys);
    const missing = keys.filter((k) => !ids.has(k));
    if (missing.length) {
      // Specialty is shared by all studies: ON CONFLICT covers another import creating the same name meanwhile.
      const created = await client.query(`INSERT INTO "Specialty" (id, name) SELECT gen_random_uuid(), n FROM unnest($1::text[]) AS n ON CONFLICT (name) DO NOTHING`, [
        missing.map((k) => validator.specialties.get(k) as string),
      ]);
      out.specialtiesCreated = created.rowCount ?? 0;
      ids = await specialtyIds(client, keys);
    }
    await client.query(
      `INSERT INTO "QaItem" (id, "studyId", "externalId", question, "referenceAnswer", "specialtyId", "updatedAt")
       SELECT gen_random_uuid(), $1::uuid, i.external_id, i.question, i.reference, s.id, now()
         FROM imp_row i JOIN unnest($2::text[], $3::uuid[]) AS s(key, id) ON s.key = i.specialty
        WHERE i.question IS NOT NULL
       ON CONFLICT ("studyId", "externalId") DO UPDATE
          SET question = EXCLUDED.question, "referenceAnswer" = EXCLUDED."referenceAnswer", "specialtyId" = EXCLUDED."specialtyId", "updatedAt" = now()
        WHERE ("QaItem".question, "QaItem"."referenceAnswer", "QaItem"."specialtyId")
              IS DISTINCT FROM (EXCLUDED.question, EXCLUDED."referenceAnswer", EXCLUDED."specialtyId")`,
      [study.id, [...ids.keys()], [...ids.values()]],
    );
  }

  if (kind === "questions") return out;

  const models = validator.modelSettings();
  const { rows: modelRows } = await client.query<{ inserted: boolean }>(
    `INSERT INTO "LlmModel" (id, "studyId", name, version, temperature, "topP")
     SELECT gen_random_uuid(), $1::uuid, u.name, u.version, u.temperature, u.top_p
       FROM unnest($2::text[], $3::text[], $4::float8[], $5::float8[]) AS u(name, version, temperature, top_p)
     ON CONFLICT ("studyId", name) DO UPDATE
        SET version = CASE WHEN "LlmModel".version = '' THEN EXCLUDED.version ELSE "LlmModel".version END,
            temperature = COALESCE("LlmModel".temperature, EXCLUDED.temperature),
            "topP" = COALESCE("LlmModel"."topP", EXCLUDED."topP")
     RETURNING (xmax = 0) AS inserted`,
    [study.id, models.map((m) => m.name), models.map((m) => m.version), models.map((m) => m.temperature), models.map((m) => m.topP)],
  );
  out.modelsCreated = modelRows.filter((r) => r.inserted).length;

  const sets = await client.query(
    `INSERT INTO "ResponseSet" (id, "studyId", "itemId", "modelId", "updatedAt")
     SELECT gen_random_uuid(), $1::uuid, q.id, m.id, now()
       FROM (SELECT DISTINCT external_id, model FROM imp_row WHERE model IS NOT NULL) a
       JOIN "QaItem" q ON q."studyId" = $1::uuid AND q."externalId" = a.external_id
       JOIN "LlmModel" m ON m."studyId" = $1::uuid AND m.name = a.model
     ON CONFLICT ("itemId", "modelId") DO NOTHING`,
    [study.id],
  );
  out.responseSetsCreated = sets.rowCount ?? 0;

  // Changed answers of graded sets were refused by check(); what remains may be replaced.
  await client.query(
    `INSERT INTO "Response" (id, "responseSetId", repetition, text, "updatedAt")
     SELECT gen_random_uuid(), rs.id, a.repetition, a.response, now()
       FROM imp_row a
       JOIN "QaItem" q ON q."studyId" = $1::uuid AND q."externalId" = a.external_id
       JOIN "LlmModel" m ON m."studyId" = $1::uuid AND m.name = a.model
       JOIN "ResponseSet" rs ON rs."itemId" = q.id AND rs."modelId" = m.id
      WHERE a.model IS NOT NULL
     ON CONFLICT ("responseSetId", repetition) DO UPDATE SET text = EXCLUDED.text, "updatedAt" = now()
      WHERE "Response".text IS DISTINCT FROM EXCLUDED.text`,
    [study.id],
  );

  const { rows: incomplete } = await client.query<{ item_id: string; model: string; repetitions: number[] | null; total: string }>(
    `SELECT a.external_id AS item_id, a.model,
            ARRAY(SELECT r.repetition FROM "Response" r WHERE r."responseSetId" = rs.id AND r.repetition BETWEEN 1 AND s.repetitions ORDER BY 1) AS repetitions,
            count(*) OVER () AS total
       FROM (SELECT DISTINCT external_id, model FROM imp_row WHERE model IS NOT NULL) a
       JOIN "QaItem" q ON q."studyId" = $1::uuid AND q."externalId" = a.external_id
       JOIN "LlmModel" m ON m."studyId" = $1::uuid AND m.name = a.model
       JOIN "ResponseSet" rs ON rs."itemId" = q.id AND rs."modelId" = m.id
       JOIN "Study" s ON s.id = rs."studyId"
      WHERE NOT (${completeSetSql("rs", "s")})
      ORDER BY a.external_id, a.model
      LIMIT ${EXAMPLES}`,
    [study.id],
  );
  out.incompleteSets = {
    count: incomplete.length ? Number(incomplete[0].total) : 0,
    examples: incomplete.map((r) => ({ itemId: r.item_id, model: r.model, repetitions: r.repetitions ?? [] })),
  };
  return out;
}

function toApiError(e: unknown): unknown {
  if (e instanceof ImportFileError) return rejection(422, e.errors, e.errors.length);
  if (e instanceof CsvRowTooLongError) return rejection(422, [{ row: 1, line: e.line, column: null, message: e.message }], 1);
  return e;
}

/**
 * Imports a file into a study, or with `dryRun` checks it and reports what an
 * import would do, writing nothing. Throws ApiError: 409 closed study or
 * graded answers changed, 413 too large, 415 wrong content type, 400 not
 * readable, 422 listing every problem in the file.
 */
export async function importIntoStudy(o: ImportOptions): Promise<ImportResult> {
  if (o.study.status === "CLOSED") throw new ApiError(409, "this study is closed: questions and answers can no longer be imported");
  const format = formatFromContentType(o.contentType);
  const maxBytes = o.maxBytes ?? maxImportBytes();
  if (o.contentLength != null && o.contentLength > maxBytes) throw tooLarge(maxBytes);
  if (!o.body) throw emptyFileError();
  const dryRun = o.dryRun ?? false;

  const text = coalesce(decodeUtf8(limitBytes(chunksOf(o.body), maxBytes, o.contentLength)));
  let rows: RowStream | null;
  try {
    rows = await openRows(format, text);
  } catch (e) {
    throw toApiError(e);
  }
  if (!rows) throw emptyFileError();
  const { kind } = rows.header;
  if (rows.header.errors.length || !kind) {
    await rows.batches.return(undefined);
    throw rejection(422, rows.header.errors, rows.header.errors.length, "the header of the file is not right; nothing was imported");
  }

  const validator = new ImportValidator(kind, o.study.repetitions);
  const client = new pg.Client({ connectionString: databaseUrl(), application_name: "clingrade-import" });
  // A connection killed from outside (database restart) must not crash the process.
  client.on("error", () => undefined);
  await client.connect();
  let open = false;
  try {
    // Staging lives in session memory rather than temp files where it fits (set before the first temp table use).
    await client.query("SET temp_buffers = '64MB'");
    await client.query("BEGIN");
    open = true;
    await client.query(STAGING_DDL);
    let t = performance.now();
    const lap = (phase: "read" | "check" | "write" | "commit") => {
      const now = performance.now();
      o.onPhase?.(phase, now - t);
      t = now;
    };
    const complete = await stage(client, rows.batches, validator);
    lap("read");
    const summary = validator.summary();
    if (summary.rows === 0 && !validator.hasErrors) throw rejection(422, [{ row: 1, column: null, message: "the file has a header but no rows" }], 1);
    if (!complete) throw rejection(422, validator.errors, validator.totalErrors);

    // Serialises imports into one study and waits for a status change in flight.
    const { rows: locked } = await client.query<{ status: ImportStudy["status"]; repetitions: number }>(
      `SELECT status, repetitions FROM "Study" WHERE id = $1::uuid FOR UPDATE`,
      [o.study.id],
    );
    if (!locked.length) throw new ApiError(404, "study not found");
    const study = { id: o.study.id, status: locked[0].status, repetitions: locked[0].repetitions };
    if (study.status === "CLOSED") throw new ApiError(409, "this study was closed during the import: nothing was imported");
    if (summary.maxRepetition > study.repetitions) {
      throw new ApiError(409, `the study's number of answers per question (N) changed to ${study.repetitions} during the import; import the file again`);
    }
    await client.query("ANALYZE imp_row");

    const ctx: Ctx = { client, study, kind, validator };
    const checked = await check(ctx);
    lap("check");
    const total = validator.totalErrors + checked.total;
    if (total > 0) {
      const all = [...validator.errors, ...checked.errors];
      if (!validator.hasErrors && checked.conflictsOnly) {
        throw rejection(409, all, total, `${plural(total, "row")} would change what graders have already scored; nothing was imported`);
      }
      throw rejection(422, all, total);
    }

    const written = await write(ctx);
    lap("write");
    const result: ImportResult = {
      kind,
      dryRun,
      items: summary.items,
      responses: summary.responses,
      responseSets: summary.responseSets,
      ...checked.answers,
      questions: checked.questions,
      responseSetsCreated: written.responseSetsCreated,
      modelsCreated: written.modelsCreated,
      specialtiesCreated: written.specialtiesCreated,
      duplicateRows: summary.duplicateRows,
      incompleteSets: written.incompleteSets,
      repetitions: study.repetitions,
    };
    if (dryRun) {
      await client.query("ROLLBACK");
    } else {
      // The audit keeps the counts, not the file.
      const { incompleteSets, ...counts } = result;
      await client.query(
        `INSERT INTO "AuditEvent" ("studyId", "actorId", action, "entityType", "entityId", after, "requestId")
         VALUES ($1::uuid, $2::uuid, 'study.import', 'Study', $1::text, $3::jsonb, $4)`,
        [study.id, o.actorId, JSON.stringify({ ...counts, incompleteSets: incompleteSets.count, rows: summary.rows }), o.requestId ?? null],
      );
      await client.query("COMMIT");
    }
    lap("commit");
    open = false;
    return result;
  } catch (e) {
    if (open) await client.query("ROLLBACK").catch(() => undefined);
    throw toApiError(e);
  } finally {
    await rows.batches.return(undefined).catch(() => undefined);
    await client.end().catch(() => undefined);
  }
}
