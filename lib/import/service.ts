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
import { ImportValidator, MAX_ERRORS, type ModelSettings, type StagedAnswer } from "./validate";

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

// The answer is quoted, so a text holding commas, quotes, line breaks or a lone
// "\." line reaches PostgreSQL unchanged; an empty unquoted field is NULL.
function copyLine(a: StagedAnswer): string {
  const t = a.text.includes('"') ? a.text.replaceAll('"', '""') : a.text;
  return `${a.row},${a.line ?? ""},${a.setKey},${a.repetition},"${t}",${a.firstRow ?? ""}\n`;
}

// imp_answer: every answer row of the file (a repeated key too, marked with
// first_row), streamed in with COPY. imp_set and imp_item: the file's item x
// model pairs and questions, small, loaded from the validator's maps.
const STAGING_DDL = `CREATE TEMP TABLE imp_answer (
  row int NOT NULL,
  line int,
  set_key bigint NOT NULL,
  repetition int NOT NULL,
  response text NOT NULL,
  first_row int
) ON COMMIT DROP`;

const COPY_SQL = `COPY imp_answer (row, line, set_key, repetition, response, first_row) FROM STDIN (FORMAT csv)`;

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
          const answer = validator.accept(src);
          if (!answer) continue;
          const line = copyLine(answer);
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

/** Loads the file's questions and sets (held by the validator) next to the staged answers. */
async function loadFileTables(client: pg.Client, kind: ImportKind, validator: ImportValidator): Promise<void> {
  if (kind !== "answers") {
    const items = validator.fileItems();
    await client.query(
      `CREATE TEMP TABLE imp_item ON COMMIT DROP AS
       SELECT * FROM unnest($1::int[], $2::int[], $3::text[], $4::text[], $5::text[], $6::text[]) AS t(row, line, external_id, specialty, question, reference)`,
      [
        items.map((i) => i.row),
        items.map((i) => i.line ?? null),
        items.map((i) => i.externalId),
        items.map((i) => i.specialtyKey),
        items.map((i) => i.question),
        items.map((i) => i.referenceAnswer),
      ],
    );
    await client.query("ANALYZE imp_item");
  }
  if (kind !== "questions") {
    const sets = validator.fileSets();
    await client.query(
      `CREATE TEMP TABLE imp_set ON COMMIT DROP AS
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[]) AS t(set_key, external_id, model)`,
      [sets.map((s) => s.key), sets.map((s) => s.externalId), sets.map((s) => s.model)],
    );
    await client.query("ANALYZE imp_set");
  }
  await client.query("ANALYZE imp_answer");
}

interface Ctx {
  client: pg.Client;
  study: ImportStudy;
  kind: ImportKind;
  validator: ImportValidator;
  /** The study had no response sets before this import: every answer is new. */
  fresh: boolean;
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
  /** Every error is a change refused because of grades or recorded settings (409), none a fault of the file alone. */
  conflictsOnly: boolean;
  duplicateRows: number;
  questions: { created: number; unchanged: number; updated: number };
  answers: { created: number; unchanged: number; updated: number };
}

type Located = { row: number; line: number | null };

/** Compares the staged rows with each other and with the study. Reads only. */
async function check({ client, study, kind, validator, fresh }: Ctx): Promise<Check> {
  const errors: RowError[] = [];
  let total = 0;
  let conflicts = 0;
  const out: Check = {
    errors,
    total: 0,
    conflictsOnly: false,
    duplicateRows: validator.summary().duplicateRows,
    questions: { created: 0, unchanged: 0, updated: 0 },
    answers: { created: 0, unchanged: 0, updated: 0 },
  };
  const add = (e: RowError, conflict: boolean) => {
    total++;
    if (conflict) conflicts++;
    if (errors.length < MAX_ERRORS) errors.push(e);
  };
  /** Errors beyond the rows a capped query returned still count. */
  const addUnlisted = (n: number, conflict: boolean) => {
    total += n;
    if (conflict) conflicts += n;
  };
  const at = (r: Located) => ({ row: r.row, ...(r.line === null ? {} : { line: r.line }) });

  if (kind !== "answers") {
    const { rows } = await client.query<
      Located & { external_id: string; existing: boolean; question_changed: boolean; reference_changed: boolean; specialty_changed: boolean; graded: boolean }
    >(
      `SELECT i.row, i.line, i.external_id, q.id IS NOT NULL AS existing,
              q.question <> i.question AS question_changed,
              q."referenceAnswer" <> i.reference AS reference_changed,
              lower(s.name) <> i.specialty AS specialty_changed,
              q.id IS NOT NULL AND EXISTS (SELECT 1 FROM "ResponseSet" rs WHERE rs."itemId" = q.id AND ${GRADED_SET("rs.id")}) AS graded
         FROM imp_item i
         LEFT JOIN "QaItem" q ON q."studyId" = $1::uuid AND q."externalId" = i.external_id
         LEFT JOIN "Specialty" s ON s.id = q."specialtyId"
        WHERE q.id IS NULL OR q.question <> i.question OR q."referenceAnswer" <> i.reference OR lower(s.name) <> i.specialty
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
    out.questions = { created, updated, unchanged: validator.fileItems().length - created - updated };
  }

  if (kind === "questions") {
    out.total = total;
    out.conflictsOnly = total > 0 && conflicts === total;
    return out;
  }

  if (kind === "answers") {
    const { rows: unknownSets } = await client.query<{ n: string }>(
      `SELECT count(*) AS n FROM imp_set s WHERE NOT EXISTS (SELECT 1 FROM "QaItem" q WHERE q."studyId" = $1::uuid AND q."externalId" = s.external_id)`,
      [study.id],
    );
    if (Number(unknownSets[0].n) > 0) {
      const { rows } = await client.query<Located & { external_id: string; total: string }>(
        `SELECT a.row, a.line, s.external_id, count(*) OVER () AS total
           FROM imp_answer a JOIN imp_set s USING (set_key)
          WHERE NOT EXISTS (SELECT 1 FROM "QaItem" q WHERE q."studyId" = $1::uuid AND q."externalId" = s.external_id)
          ORDER BY a.row LIMIT ${MAX_ERRORS}`,
        [study.id],
      );
      for (const r of rows) {
        add({ ...at(r), column: "item_id", message: `unknown item ${r.external_id}: this study has no question with that item_id; import the question first` }, false);
      }
      addUnlisted(Number(rows[0]?.total ?? 0) - rows.length, false);
    }
  }

  if (validator.repeatedAnswerRows > 0) {
    // The same item, model and repetition twice: fine when the texts agree (counted once), an error otherwise.
    const { rows: same } = await client.query<{ n: string }>(
      `SELECT count(*) AS n FROM imp_answer d JOIN imp_answer f ON f.row = d.first_row WHERE d.first_row IS NOT NULL AND d.response = f.response`,
    );
    out.duplicateRows += Number(same[0].n);
    const { rows } = await client.query<Located & { first_row: number; external_id: string; model: string; repetition: number; total: string }>(
      `SELECT d.row, d.line, d.first_row, s.external_id, s.model, d.repetition, count(*) OVER () AS total
         FROM imp_answer d JOIN imp_answer f ON f.row = d.first_row JOIN imp_set s ON s.set_key = d.set_key
        WHERE d.first_row IS NOT NULL AND d.response <> f.response
        ORDER BY d.row LIMIT ${MAX_ERRORS}`,
    );
    for (const r of rows) {
      add(
        {
          ...at(r),
          column: "response",
          message: `item ${r.external_id}, model ${r.model}, repetition ${r.repetition} already has a different response in row ${r.first_row}`,
        },
        false,
      );
    }
    addUnlisted(Number(rows[0]?.total ?? 0) - rows.length, false);
  }

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
  if (fresh) {
    out.answers = { created: staged, unchanged: 0, updated: 0 };
  } else {
    await client.query(
      `CREATE TEMP TABLE imp_set_x ON COMMIT DROP AS
       SELECT s.set_key, rs.id AS set_id, rs.id IS NOT NULL AND ${GRADED_SET("rs.id")} AS graded
         FROM imp_set s
         LEFT JOIN "QaItem" q ON q."studyId" = $1::uuid AND q."externalId" = s.external_id
         LEFT JOIN "LlmModel" m ON m."studyId" = $1::uuid AND m.name = s.model
         LEFT JOIN "ResponseSet" rs ON rs."itemId" = q.id AND rs."modelId" = m.id`,
      [study.id],
    );
    await client.query("ANALYZE imp_set_x");
    const { rows: counts } = await client.query<{ created: string; unchanged: string; updated: string; refused: string }>(
      `SELECT count(*) FILTER (WHERE r.id IS NULL) AS created,
              count(*) FILTER (WHERE r.text = a.response) AS unchanged,
              count(*) FILTER (WHERE r.text <> a.response) AS updated,
              count(*) FILTER (WHERE r.text <> a.response AND x.graded) AS refused
         FROM imp_answer a JOIN imp_set_x x USING (set_key)
         LEFT JOIN "Response" r ON r."responseSetId" = x.set_id AND r.repetition = a.repetition
        WHERE a.first_row IS NULL`,
    );
    const c = counts[0];
    out.answers = { created: Number(c.created), unchanged: Number(c.unchanged), updated: Number(c.updated) };
    if (Number(c.refused) > 0) {
      const { rows } = await client.query<Located & { external_id: string; model: string; repetition: number }>(
        `SELECT a.row, a.line, s.external_id, s.model, a.repetition
           FROM imp_answer a JOIN imp_set_x x USING (set_key) JOIN imp_set s USING (set_key)
           JOIN "Response" r ON r."responseSetId" = x.set_id AND r.repetition = a.repetition
          WHERE a.first_row IS NULL AND x.graded AND r.text <> a.response
          ORDER BY a.row LIMIT ${MAX_ERRORS}`,
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
      addUnlisted(Number(c.refused) - rows.length, true);
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
async function write({ client, study, kind, validator, fresh }: Ctx): Promise<Written> {
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
         FROM imp_item i JOIN unnest($2::text[], $3::uuid[]) AS s(key, id) ON s.key = i.specialty
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
       FROM imp_set s
       JOIN "QaItem" q ON q."studyId" = $1::uuid AND q."externalId" = s.external_id
       JOIN "LlmModel" m ON m."studyId" = $1::uuid AND m.name = s.model
     ON CONFLICT ("itemId", "modelId") DO NOTHING`,
    [study.id],
  );
  out.responseSetsCreated = sets.rowCount ?? 0;
  await client.query(
    `CREATE TEMP TABLE imp_set_id ON COMMIT DROP AS
     SELECT s.set_key, rs.id AS set_id
       FROM imp_set s
       JOIN "QaItem" q ON q."studyId" = $1::uuid AND q."externalId" = s.external_id
       JOIN "LlmModel" m ON m."studyId" = $1::uuid AND m.name = s.model
       JOIN "ResponseSet" rs ON rs."itemId" = q.id AND rs."modelId" = m.id`,
    [study.id],
  );
  await client.query("ANALYZE imp_set_id");

  // Changed answers of graded sets were refused by check(); what remains may be replaced.
  const insert = `INSERT INTO "Response" (id, "responseSetId", repetition, text, "updatedAt")
     SELECT gen_random_uuid(), i.set_id, a.repetition, a.response, now()
       FROM imp_answer a JOIN imp_set_id i USING (set_key)
      WHERE a.first_row IS NULL`;
  await client.query(
    fresh
      ? insert
      : `${insert}
     ON CONFLICT ("responseSetId", repetition) DO UPDATE SET text = EXCLUDED.text, "updatedAt" = now()
      WHERE "Response".text IS DISTINCT FROM EXCLUDED.text`,
  );

  const { rows: incomplete } = await client.query<{ item_id: string; model: string; repetitions: number[] | null; total: string }>(
    `SELECT s.external_id AS item_id, s.model,
            ARRAY(SELECT r.repetition FROM "Response" r WHERE r."responseSetId" = rs.id AND r.repetition BETWEEN 1 AND st.repetitions ORDER BY 1) AS repetitions,
            count(*) OVER () AS total
       FROM imp_set_id i
       JOIN imp_set s USING (set_key)
       JOIN "ResponseSet" rs ON rs.id = i.set_id
       JOIN "Study" st ON st.id = rs."studyId"
      WHERE NOT (${completeSetSql("rs", "st")})
      ORDER BY s.external_id, s.model
      LIMIT ${EXAMPLES}`,
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

  const text = decodeUtf8(coalesce(limitBytes(chunksOf(o.body), maxBytes, o.contentLength)));
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
    // Staging lives in this session's memory rather than in temp files where
    // it fits (settable only before the session first touches a temp table).
    await client.query("SET temp_buffers = '256MB'");
    await client.query("BEGIN");
    open = true;
    await client.query("SET LOCAL work_mem = '64MB'");
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
    await loadFileTables(client, kind, validator);
    const { rows: any } = await client.query<{ any: boolean }>(`SELECT EXISTS (SELECT 1 FROM "ResponseSet" WHERE "studyId" = $1::uuid) AS any`, [study.id]);
    const ctx: Ctx = { client, study, kind, validator, fresh: !any[0].any };
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
      duplicateRows: checked.duplicateRows,
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
