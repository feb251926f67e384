import { randomUUID } from "node:crypto";
import { scanModelMentions, type ModelMentions } from "./model-mentions";
import { mentionTerms } from "@/lib/blinding/terms";
import { modelNamesInGraderText } from "@/lib/blinding/grader-text";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { databaseUrl } from "@/lib/db/url";
import { ApiError } from "@/lib/errors/api-error";
import type { ImportKind, RowError } from "./columns";
import { completeSetSql } from "./completeness";
import { CsvRowTooLongError } from "./csv";
import { oneStatement, orderedIds, Pieces, WritePipeline, type StatementPart } from "./pipeline";
import { emptyFileError, ImportFileError, openRows, type RowStream } from "./read";
import { chunksOf, coalesce, decodeUtf8, formatFromContentType, limitBytes, maxImportBytes, tooLarge } from "./source";
import { ImportValidator, MAX_ERRORS, splitSetKey, type FileItem, type ModelSettings, type StagedAnswer } from "./validate";
import { SPECIALTY_NAMES_LOCK } from "@/lib/specialties/lock";
import { storedRubrics } from "@/lib/rubrics/study-rubrics";
import type { RubricDocument } from "@/lib/rubrics/document";
import { copyFields, ReferenceCache } from "@/lib/reference-metrics/compute";
import { pgQuery, refreshReferenceMetrics } from "@/lib/reference-metrics/refresh";

/**
 * The import of questions and model answers into a study.
 *
 * All in one transaction on one connection, under a lock on the study row:
 * the file is read as a stream and checked row by row in memory (compact
 * maps; answers' texts are never all held); as it streams, new questions,
 * models, sets and their answers are written in batches (INSERT from arrays,
 * COPY for the answers) while answers touching what the study held before
 * are staged with COPY in a temporary table. At the end set-based SQL
 * compares the staged rows with the study (changes to graded answers,
 * repeated keys with different texts) and merges them. Any problem, or a dry
 * run, rolls the whole transaction back: a file is imported entirely or not
 * at all, and the writes made while streaming vanish with it.
 *
 * It runs on its own pg connection rather than Prisma's: COPY is not
 * available through Prisma, and a temporary table lives on one connection.
 * Ids of new sets and answers increase in file order (orderedIds); the rest
 * are random UUIDs (crypto.randomUUID, gen_random_uuid).
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
  /** Words that would unblind graders, besides the study's model names and versions. */
  mentionTerms?: readonly string[];
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
  /** The study's answers (after this import) that name a model, its version or a word the lead gave. */
  modelMentions: ModelMentions;
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

/** What the study holds already, read once under the study lock. */
interface Existing {
  items: Map<string, string>;
  /** Item id -> reference answer, for the metrics of answers-only rows (lib/reference-metrics). */
  references: Map<string, string>;
  models: Map<string, { id: string; version: string; temperature: number | null; topP: number | null }>;
  /** `${itemId}|${modelId}` -> response set id. */
  sets: Map<string, string>;
  /** Lower-cased name -> id (the first in alphabetical order when two names differ only in case). */
  specialties: Map<string, string>;
}

async function loadExisting(client: pg.Client, studyId: string): Promise<Existing> {
  const items = await client.query<{ id: string; external_id: string; reference: string }>(
    `SELECT id, "externalId" AS external_id, "referenceAnswer" AS reference FROM "QaItem" WHERE "studyId" = $1::uuid`,
    [studyId],
  );
  const models = await client.query<{ id: string; name: string; version: string; temperature: number | null; topP: number | null }>(
    `SELECT id, name, version, temperature, "topP" FROM "LlmModel" WHERE "studyId" = $1::uuid`,
    [studyId],
  );
  const sets = await client.query<{ id: string; item_id: string; model_id: string }>(
    `SELECT id, "itemId" AS item_id, "modelId" AS model_id FROM "ResponseSet" WHERE "studyId" = $1::uuid`,
    [studyId],
  );
  const specialties = await client.query<{ id: string; key: string }>(`SELECT DISTINCT ON (lower(name)) lower(name) AS key, id FROM "Specialty" ORDER BY lower(name), name`);
  return {
    items: new Map(items.rows.map((r) => [r.external_id, r.id])),
    references: new Map(items.rows.map((r) => [r.id, r.reference])),
    models: new Map(models.rows.map((r) => [r.name, r])),
    sets: new Map(sets.rows.map((r) => [`${r.item_id}|${r.model_id}`, r.id])),
    specialties: new Map(specialties.rows.map((r) => [r.key, r.id])),
  };
}

// imp_answer holds the answers that cannot go straight into Response: those
// of sets that existed before (compared and merged at the end) and repeats of
// a key already seen (first_row; their texts are compared at the end).
const STAGING_DDL = `CREATE TEMP TABLE imp_answer (
  row int NOT NULL,
  line int,
  set_key bigint NOT NULL,
  set_id uuid NOT NULL,
  set_new boolean NOT NULL,
  repetition int NOT NULL,
  response text NOT NULL,
  first_row int,
  bleu float8,
  rouge1 float8,
  rouge_l float8,
  bleu_stats int[]
) ON COMMIT DROP`;

const COPY_STAGED = `COPY imp_answer (row, line, set_key, set_id, set_new, repetition, response, first_row, bleu, rouge1, rouge_l, bleu_stats) FROM STDIN (FORMAT csv)`;
const COPY_RESPONSES = `COPY "Response" (id, "responseSetId", repetition, text, "updatedAt", bleu, rouge1, "rougeL", "bleuStats") FROM STDIN (FORMAT csv)`;

// The answer is quoted, so a text holding commas, quotes, line breaks or a
// lone "\." line reaches PostgreSQL unchanged; an empty unquoted field is NULL.
function quoted(text: string): string {
  return `"${text.includes('"') ? text.replaceAll('"', '""') : text}"`;
}

/** Pending work is sent once this many characters of answers have gathered. */
const FLUSH_CHARS = 1024 * 1024;

interface SetRef {
  id: string;
  isNew: boolean;
}

/**
 * Writes as the file streams in. New questions, models, sets and the answers
 * of new sets go straight to their tables in batches (multi-row INSERTs from
 * arrays, COPY for the answers), queued on the connection so PostgreSQL
 * works while the next rows are parsed. Everything else is staged. Once the
 * file shows a problem nothing more is written: the transaction will be
 * rolled back, and only what the final checks need is still staged.
 */
class StreamWriter {
  private readonly itemIds: (string | null)[] = [];
  private readonly itemIsNew: boolean[] = [];
  private readonly modelIds: string[] = [];
  readonly sets = new Map<number, SetRef>();
  private nextItem = 0;
  private nextModel = 0;

  private newSpecialties = new Map<string, string>();
  private newModels: { id: string; name: string; version: string; temperature: number | null; topP: number | null }[] = [];
  private newItems: { id: string; externalId: string; specialtyKey: string; question: string; reference: string; criteria: string | null; preview: string | null }[] = [];
  private newSets: { id: string; itemId: string; modelId: string }[] = [];
  private direct = new Pieces();
  private staged = new Pieces();

  private readonly pipe: WritePipeline;
  /** Prepared reference answers by item index: an item's answers share one. */
  private readonly references = new ReferenceCache();
  private readonly setId = orderedIds();
  private readonly responseId = orderedIds();

  readonly counts = { itemsCreated: 0, modelsCreated: 0, setsCreated: 0, answersCreated: 0, specialtiesCreated: 0, staged: 0 };

  constructor(
    private readonly client: pg.Client,
    private readonly studyId: string,
    private readonly kind: ImportKind,
    private readonly validator: ImportValidator,
    private readonly existing: Existing,
    private readonly timestamp: string,
  ) {
    this.pipe = new WritePipeline(client);
  }

  /** True for a question that was already in the study before this import. */
  itemExisted(index: number): boolean {
    return this.itemIds[index] !== null && !this.itemIsNew[index];
  }

  private get writing(): boolean {
    return !this.validator.hasErrors;
  }

  /** Picks up the items and models the validator met since the last call. */
  private catchUp(): void {
    for (; this.nextItem < this.validator.itemCount; this.nextItem++) {
      const item = this.validator.itemAt(this.nextItem);
      const existing = this.existing.items.get(item.externalId);
      // A question's specialty may be new to the instance, also for a question moved to it.
      const key = item.first?.specialtyKey;
      if (key !== undefined && !this.existing.specialties.has(key) && !this.newSpecialties.has(key)) {
        this.newSpecialties.set(key, this.validator.specialties.get(key) ?? key);
      }
      if (existing) {
        this.itemIds.push(existing);
        this.itemIsNew.push(false);
      } else if (this.kind === "answers" || !item.first || key === undefined) {
        this.itemIds.push(null);
        this.itemIsNew.push(false);
      } else {
        const id = randomUUID();
        this.itemIds.push(id);
        this.itemIsNew.push(true);
        this.newItems.push({ id, externalId: item.externalId, specialtyKey: key, question: item.first.question, reference: item.first.referenceAnswer, criteria: item.first.criteria ?? null, preview: item.first.preview ?? null });
        this.counts.itemsCreated++;
      }
    }
    for (; this.nextModel < this.validator.modelCount; this.nextModel++) {
      const m = this.validator.modelAt(this.nextModel);
      const existing = this.existing.models.get(m.name);
      if (existing) {
        this.modelIds.push(existing.id);
      } else {
        const id = randomUUID();
        this.modelIds.push(id);
        this.newModels.push({ id, name: m.name, version: m.version, temperature: m.temperature, topP: m.topP });
        this.counts.modelsCreated++;
      }
    }
  }

  /** Takes one checked row: `answer` is what the validator made of it (null: no answer to store). */
  take(src: { row: number; line?: number }, answer: StagedAnswer | null): void {
    this.catchUp();
    if (!answer) return;
    const { item, model } = splitSetKey(answer.setKey);
    const itemId = this.itemIds[item];
    if (itemId === null) {
      this.validator.addError({
        row: src.row,
        ...(src.line === undefined ? {} : { line: src.line }),
        column: "item_id",
        message: `unknown item ${this.validator.itemAt(item).externalId}: this study has no question with that item_id; import the question first`,
      });
      return;
    }
    let set = this.sets.get(answer.setKey);
    if (!set) {
      const modelId = this.modelIds[model];
      const existing = this.itemIsNew[item] ? undefined : this.existing.sets.get(`${itemId}|${modelId}`);
      set = existing ? { id: existing, isNew: false } : { id: this.setId(this.counts.setsCreated), isNew: true };
      this.sets.set(answer.setKey, set);
      if (set.isNew) {
        this.newSets.push({ id: set.id, itemId, modelId });
        this.counts.setsCreated++;
      }
    }
    // Metrics against the reference as this file leaves it: the file's own for a question it
    // states, else the stored one. Repeats (firstRow) and a failed file are never stored.
    const metrics = answer.firstRow === undefined && this.writing ? copyFields(this.references.score(item, this.referenceOf(item, itemId), answer.text)) : ",,,";
    if (set.isNew && answer.firstRow === undefined && this.writing) {
      this.direct.add(`${this.responseId(this.counts.answersCreated)},${set.id},${answer.repetition},${quoted(answer.text)},${this.timestamp},${metrics}\n`);
      this.counts.answersCreated++;
    } else {
      this.staged.add(
        `${answer.row},${answer.line ?? ""},${answer.setKey},${set.id},${set.isNew ? "t" : "f"},${answer.repetition},${quoted(answer.text)},${answer.firstRow ?? ""},${metrics}\n`,
      );
      this.counts.staged++;
    }
  }

  private referenceOf(item: number, itemId: string): string | undefined {
    const first = this.validator.itemAt(item).first;
    return first ? first.referenceAnswer : this.existing.references.get(itemId);
  }

  get shouldFlush(): boolean {
    return this.direct.size + this.staged.size >= FLUSH_CHARS;
  }

  /** Sends what has gathered; waits only when too much is already on its way. */
  async flush(): Promise<void> {
    this.catchUp();
    const work: Promise<void>[] = [];
    if (this.writing) {
      if (this.newSpecialties.size) {
        // Specialty names are shared by all studies; an import elsewhere may
        // add the same one meanwhile, hence ON CONFLICT ... RETURNING.
        let entries = [...this.newSpecialties];
        this.newSpecialties = new Map();
        await this.pipe.drain();
        // Under the lock every creator of specialty names takes (lib/specialties), look again:
        // a grader may have been registered with one of these names, in another case, since
        // this import read them.
        await this.client.query(SPECIALTY_NAMES_LOCK);
        const found = await this.client.query<{ id: string; key: string }>(
          `SELECT DISTINCT ON (lower(name)) lower(name) AS key, id FROM "Specialty" WHERE lower(name) = ANY($1::text[]) ORDER BY lower(name), name`,
          [entries.map(([key]) => key)],
        );
        for (const r of found.rows) this.existing.specialties.set(r.key, r.id);
        entries = entries.filter(([key]) => !this.existing.specialties.has(key));
        const { rows } = await this.client.query<{ id: string; key: string; inserted: boolean }>(
          `INSERT INTO "Specialty" (id, name) SELECT gen_random_uuid(), n FROM unnest($1::text[]) AS n
           ON CONFLICT ((lower(name))) DO UPDATE SET name = "Specialty".name RETURNING id, lower(name) AS key, (xmax = 0) AS inserted`,
          [entries.map(([, name]) => name)],
        );
        for (const r of rows) {
          this.existing.specialties.set(r.key, r.id);
          if (r.inserted) this.counts.specialtiesCreated++;
        }
      }
      // New models, questions and sets in one statement (one round trip): each
      // INSERT is a CTE of the next, and the foreign keys, checked at the end
      // of the statement, see the rows of the CTEs before them.
      const parts: StatementPart[] = [];
      if (this.newModels.length) {
        const m = this.newModels;
        parts.push({
          sql: (p) => `INSERT INTO "LlmModel" (id, "studyId", name, version, temperature, "topP")
            SELECT u.id, ${p(1)}::uuid, u.name, u.version, u.temperature, u.top_p
              FROM unnest(${p(2)}::uuid[], ${p(3)}::text[], ${p(4)}::text[], ${p(5)}::float8[], ${p(6)}::float8[]) AS u(id, name, version, temperature, top_p)`,
          values: [this.studyId, m.map((x) => x.id), m.map((x) => x.name), m.map((x) => x.version), m.map((x) => x.temperature), m.map((x) => x.topP)],
        });
      }
      if (this.newItems.length) {
        const i = this.newItems;
        parts.push({
          sql: (p) => `INSERT INTO "QaItem" (id, "studyId", "externalId", question, "referenceAnswer", "specialtyId", "updatedAt", criteria, preview)
            SELECT u.id, ${p(1)}::uuid, u.external_id, u.question, u.reference, u.specialty_id, ${p(7)}::timestamptz, u.criteria::jsonb, u.preview
              FROM unnest(${p(2)}::uuid[], ${p(3)}::text[], ${p(4)}::text[], ${p(5)}::text[], ${p(6)}::uuid[], ${p(8)}::text[], ${p(9)}::text[])
                AS u(id, external_id, question, reference, specialty_id, criteria, preview)`,
          values: [
            this.studyId,
            i.map((x) => x.id),
            i.map((x) => x.externalId),
            i.map((x) => x.question),
            i.map((x) => x.reference),
            i.map((x) => this.existing.specialties.get(x.specialtyKey) as string),
            this.timestamp,
            i.map((x) => x.criteria),
            i.map((x) => x.preview),
          ],
        });
      }
      if (this.newSets.length) {
        const x = this.newSets;
        parts.push({
          sql: (p) => `INSERT INTO "ResponseSet" (id, "studyId", "itemId", "modelId", "updatedAt")
            SELECT u.id, ${p(1)}::uuid, u.item_id, u.model_id, ${p(5)}::timestamptz FROM unnest(${p(2)}::uuid[], ${p(3)}::uuid[], ${p(4)}::uuid[]) AS u(id, item_id, model_id)`,
          values: [this.studyId, x.map((y) => y.id), x.map((y) => y.itemId), x.map((y) => y.modelId), this.timestamp],
        });
      }
      if (parts.length) {
        const { text, values } = oneStatement(parts);
        work.push(this.pipe.query(text, values));
      }
      if (this.direct.size) work.push(this.pipe.copy(COPY_RESPONSES, this.direct));
    }
    if (this.staged.size) work.push(this.pipe.copy(COPY_STAGED, this.staged));
    // Once the file has a problem, new rows are no longer written (see `writing`).
    this.newModels = [];
    this.newItems = [];
    this.newSets = [];
    this.direct.take();
    await this.pipe.bound(work[work.length - 1]);
  }

  /** Sends the rest and waits for all of it. */
  async finish(): Promise<void> {
    await this.flush();
    await this.pipe.drain();
  }

  /** Waits until nothing sent is still running (before a rollback on the same connection). */
  settle(): Promise<void> {
    return this.pipe.settle();
  }
}

/** Reads, validates and writes or stages every row. Returns false when reading had to stop early. */
async function stream(batches: RowStream["batches"], validator: ImportValidator, writer: StreamWriter): Promise<boolean> {
  let complete = true;
  try {
    for await (const batch of batches) {
      for (const src of batch) writer.take(src, validator.accept(src));
      if (writer.shouldFlush) await writer.flush();
    }
  } catch (e) {
    if (!(e instanceof CsvRowTooLongError)) throw e;
    validator.addError({ row: validator.summary().rows + 1, line: e.line, column: null, message: e.message });
    complete = false;
  }
  await writer.finish();
  return complete;
}

/**
 * True when the response set has been scored: by a clinician (Grade) or by an
 * automated judge (JudgeScore). Either score belongs to the text it was given,
 * so that text may no longer change.
 */
const GRADED_SET = (set: string) => `(EXISTS (SELECT 1 FROM "Assignment" ga JOIN "Grade" g ON g."assignmentId" = ga.id WHERE ga."responseSetId" = ${set})
  OR EXISTS (SELECT 1 FROM "JudgeScore" js WHERE js."responseSetId" = ${set}))`;

/** "Rubric › dimension" of the study's first criteria dimension (HealthBench), or null. */
function criteriaDimension(rubrics: readonly RubricDocument[]): string | null {
  for (const doc of rubrics) for (const d of doc.dimensions) if (d.scale.kind === "criteria") return `${doc.name} › ${d.name}`;
  return null;
}

interface Ctx {
  client: pg.Client;
  study: ImportStudy & { criteriaDimension: string | null };
  kind: ImportKind;
  validator: ImportValidator;
  writer: StreamWriter;
  existing: Existing;
}

interface Check {
  errors: RowError[];
  total: number;
  /** Every error is a change refused because of grades or recorded settings (409), none a fault of the file alone. */
  conflictsOnly: boolean;
  duplicateRows: number;
  questions: { created: number; unchanged: number; updated: number };
  answers: { created: number; unchanged: number; updated: number };
  /** Questions (item_id) stored before whose reference answer this file changes. */
  referenceChanged: string[];
}

type Located = { row: number; line: number | null };

/** Names an item x model x repetition of the file for a message. */
function describe(validator: ImportValidator, setKey: string | number, repetition: number): string {
  const { item, model } = splitSetKey(Number(setKey));
  return `item ${validator.itemAt(item).externalId}, model ${validator.modelAt(model).name}, repetition ${repetition}`;
}

/** Compares what the file changes with what the study holds, and repeated rows with each other. Writes only temporary tables. */
async function check({ client, study, kind, validator, writer, existing }: Ctx): Promise<Check> {
  const errors: RowError[] = [];
  let total = 0;
  let conflicts = 0;
  const out: Check = {
    errors,
    total: 0,
    conflictsOnly: false,
    duplicateRows: validator.summary().duplicateRows,
    questions: { created: writer.counts.itemsCreated, unchanged: 0, updated: 0 },
    answers: { created: writer.counts.answersCreated, unchanged: 0, updated: 0 },
    referenceChanged: [],
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
  if (writer.counts.staged > 0) await client.query("ANALYZE imp_answer");

  if (kind !== "answers" && study.criteriaDimension) {
    // Graders cannot mark criteria a question does not have.
    for (let i = 0; i < validator.itemCount; i++) {
      const first = validator.itemAt(i).first;
      if (!first || first.criteria || (first.criteria === undefined && writer.itemExisted(i))) continue;
      add(
        {
          row: first.row,
          ...(first.line === undefined ? {} : { line: first.line }),
          column: "criteria",
          message: `item ${first.externalId} has no criteria, but this study grades each question's own criteria (${study.criteriaDimension}); give them as a JSON list of {id, text, points}`,
        },
        false,
      );
    }
  }

  if (kind !== "answers") {
    // Questions that were in the study already: the same text is fine, a new one only while ungraded.
    const items: FileItem[] = [];
    for (let i = 0; i < validator.itemCount; i++) {
      const first = validator.itemAt(i).first;
      if (first && writer.itemExisted(i)) items.push(first);
    }
    await client.query(
      `CREATE TEMP TABLE imp_item ON COMMIT DROP AS
       SELECT t.row, t.line, t.external_id, t.specialty, t.question, t.reference, t.criteria::jsonb AS criteria, t.criteria_stated, t.preview, t.preview_stated
         FROM unnest($1::int[], $2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::bool[], $9::text[], $10::bool[])
           AS t(row, line, external_id, specialty, question, reference, criteria, criteria_stated, preview, preview_stated)`,
      [
        items.map((i) => i.row),
        items.map((i) => i.line ?? null),
        items.map((i) => i.externalId),
        items.map((i) => i.specialtyKey),
        items.map((i) => i.question),
        items.map((i) => i.referenceAnswer),
        items.map((i) => i.criteria ?? null),
        items.map((i) => i.criteria !== undefined),
        items.map((i) => i.preview ?? null),
        items.map((i) => i.preview !== undefined),
      ],
    );
    const criteriaChanged = `(i.criteria_stated AND q.criteria IS DISTINCT FROM i.criteria)`;
    // Only what the queue shows: it may change after grading began.
    const previewChanged = `(i.preview_stated AND q.preview IS DISTINCT FROM i.preview)`;
    const { rows } = await client.query<
      Located & { external_id: string; question_changed: boolean; reference_changed: boolean; specialty_changed: boolean; criteria_changed: boolean; graded: boolean }
    >(
      `SELECT i.row, i.line, i.external_id,
              q.question <> i.question AS question_changed,
              q."referenceAnswer" <> i.reference AS reference_changed,
              lower(s.name) <> i.specialty AS specialty_changed,
              ${criteriaChanged} AS criteria_changed,
              EXISTS (SELECT 1 FROM "ResponseSet" rs WHERE rs."itemId" = q.id AND ${GRADED_SET("rs.id")}) AS graded
         FROM imp_item i
         JOIN "QaItem" q ON q."studyId" = $1::uuid AND q."externalId" = i.external_id
         JOIN "Specialty" s ON s.id = q."specialtyId"
        WHERE q.question <> i.question OR q."referenceAnswer" <> i.reference OR lower(s.name) <> i.specialty OR ${criteriaChanged} OR ${previewChanged}
        ORDER BY i.row`,
      [study.id],
    );
    out.referenceChanged = rows.filter((r) => r.reference_changed).map((r) => r.external_id);
    for (const r of rows) {
      if (!r.graded) continue;
      const what = [r.question_changed && "question", r.specialty_changed && "specialty", r.reference_changed && "reference_answer", r.criteria_changed && "criteria"].filter(
        (x): x is string => typeof x === "string",
      );
      if (what.length === 0) continue;
      add(
        {
          ...at(r),
          column: what[0] ?? "question",
          message: `item ${r.external_id} already has grades, so its ${what.join(" and ")} cannot be changed; keep the text as imported before`,
        },
        true,
      );
    }
    out.questions.updated = rows.length;
    out.questions.unchanged = items.length - rows.length;
  }

  if (kind === "questions") {
    out.total = total;
    out.conflictsOnly = total > 0 && conflicts === total;
    return out;
  }

  if (validator.repeatedAnswerRows > 0) {
    // The same item, model and repetition twice: fine when the texts agree (counted once), an error otherwise.
    // The first of the two is staged, or (a new set's) already in Response.
    const repeated = `FROM imp_answer d
      LEFT JOIN imp_answer f ON f.row = d.first_row
      LEFT JOIN "Response" r ON d.set_new AND r."responseSetId" = d.set_id AND r.repetition = d.repetition
     WHERE d.first_row IS NOT NULL`;
    const first = `(CASE WHEN f.row IS NOT NULL THEN f.response WHEN d.set_new THEN r.text END)`;
    const { rows: same } = await client.query<{ n: string }>(`SELECT count(*) AS n ${repeated} AND ${first} = d.response`);
    out.duplicateRows += Number(same[0].n);
    const { rows } = await client.query<Located & { first_row: number; set_key: string; repetition: number; total: string }>(
      `SELECT d.row, d.line, d.first_row, d.set_key, d.repetition, count(*) OVER () AS total ${repeated} AND ${first} <> d.response ORDER BY d.row LIMIT ${MAX_ERRORS}`,
    );
    for (const r of rows) {
      add({ ...at(r), column: "response", message: `${describe(validator, r.set_key, r.repetition)} already has a different response in row ${r.first_row}` }, false);
    }
    addUnlisted(Number(rows[0]?.total ?? 0) - rows.length, false);
  }

  // Recorded model settings: a blank one may be filled in, a different one is a conflict.
  for (const m of validator.modelSettings()) {
    const e = existing.models.get(m.name);
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

  // Answers of sets that existed before: new, the same, or changed (refused when graded).
  const oldSets = `FROM imp_answer a LEFT JOIN "Response" r ON r."responseSetId" = a.set_id AND r.repetition = a.repetition
     WHERE NOT a.set_new AND a.first_row IS NULL`;
  const { rows: counts } = await client.query<{ created: string; unchanged: string; updated: string }>(
    `SELECT count(*) FILTER (WHERE r.id IS NULL) AS created, count(*) FILTER (WHERE r.text = a.response) AS unchanged,
            count(*) FILTER (WHERE r.text <> a.response) AS updated ${oldSets}`,
  );
  out.answers.created += Number(counts[0].created);
  out.answers.unchanged = Number(counts[0].unchanged);
  out.answers.updated = Number(counts[0].updated);
  if (out.answers.updated > 0) {
    const { rows } = await client.query<Located & { set_key: string; repetition: number; total: string }>(
      `SELECT a.row, a.line, a.set_key, a.repetition, count(*) OVER () AS total ${oldSets} AND r.text <> a.response AND ${GRADED_SET("a.set_id")}
        ORDER BY a.row LIMIT ${MAX_ERRORS}`,
    );
    for (const r of rows) {
      add(
        {
          ...at(r),
          column: "response",
          message: `the answer of ${describe(validator, r.set_key, r.repetition)} already has grades and cannot be changed; keep the text as imported before`,
        },
        true,
      );
    }
    addUnlisted(Number(rows[0]?.total ?? 0) - rows.length, true);
  }
  out.total = total;
  out.conflictsOnly = total > 0 && conflicts === total;
  return out;
}

/** Applies what check() cleared: changed questions, filled-in model settings, changed or added answers of existing sets. Returns the incomplete sets. */
async function apply({ client, study, kind, validator, writer }: Ctx): Promise<ImportResult["incompleteSets"]> {
  if (kind !== "answers") {
    await client.query(
      `UPDATE "QaItem" q SET question = i.question, "referenceAnswer" = i.reference, "specialtyId" = s.id, "updatedAt" = now(),
              criteria = CASE WHEN i.criteria_stated THEN i.criteria ELSE q.criteria END,
              preview = CASE WHEN i.preview_stated THEN i.preview ELSE q.preview END
         FROM imp_item i, "Specialty" s
        WHERE q."studyId" = $1::uuid AND q."externalId" = i.external_id
          AND s.id = (SELECT s2.id FROM "Specialty" s2 WHERE lower(s2.name) = i.specialty ORDER BY s2.name LIMIT 1)
          AND ((q.question, q."referenceAnswer", q."specialtyId") IS DISTINCT FROM (i.question, i.reference, s.id)
               OR (i.criteria_stated AND q.criteria IS DISTINCT FROM i.criteria)
               OR (i.preview_stated AND q.preview IS DISTINCT FROM i.preview))`,
      [study.id],
    );
  }
  if (kind === "questions") return { count: 0, examples: [] };

  // Settings stated further down the file than a model's first row fill in what was blank.
  const models = validator.modelSettings();
  await client.query(
    `UPDATE "LlmModel" m
        SET version = CASE WHEN m.version = '' THEN u.version ELSE m.version END,
            temperature = COALESCE(m.temperature, u.temperature),
            "topP" = COALESCE(m."topP", u.top_p)
       FROM unnest($2::text[], $3::text[], $4::float8[], $5::float8[]) AS u(name, version, temperature, top_p)
      WHERE m."studyId" = $1::uuid AND m.name = u.name
        AND ((m.version = '' AND u.version <> '') OR (m.temperature IS NULL AND u.temperature IS NOT NULL) OR (m."topP" IS NULL AND u.top_p IS NOT NULL))`,
    [study.id, models.map((m) => m.name), models.map((m) => m.version), models.map((m) => m.temperature), models.map((m) => m.topP)],
  );

  // Changed answers of graded sets were refused by check(); what remains may be
  // replaced. Only new and changed answers are sent to the upsert: a re-import
  // of the same file then writes nothing at all.
  if (writer.counts.staged > 0) {
    await client.query(
      `INSERT INTO "Response" (id, "responseSetId", repetition, text, "updatedAt", bleu, rouge1, "rougeL", "bleuStats")
       SELECT gen_random_uuid(), a.set_id, a.repetition, a.response, now(), a.bleu, a.rouge1, a.rouge_l, a.bleu_stats
         FROM imp_answer a LEFT JOIN "Response" r ON r."responseSetId" = a.set_id AND r.repetition = a.repetition
        WHERE NOT a.set_new AND a.first_row IS NULL AND (r.id IS NULL OR r.text <> a.response)
       ON CONFLICT ("responseSetId", repetition) DO UPDATE SET text = EXCLUDED.text, "updatedAt" = now(),
          bleu = EXCLUDED.bleu, rouge1 = EXCLUDED.rouge1, "rougeL" = EXCLUDED."rougeL", "bleuStats" = EXCLUDED."bleuStats",
          "embeddingSimilarity" = NULL, "embeddingRunId" = NULL
        WHERE "Response".text IS DISTINCT FROM EXCLUDED.text`,
    );
  }

  const keys = [...writer.sets.keys()];
  const { rows } = await client.query<{ key: string; repetitions: number[] }>(
    `SELECT u.key, ARRAY(SELECT r.repetition FROM "Response" r WHERE r."responseSetId" = rs.id AND r.repetition BETWEEN 1 AND st.repetitions ORDER BY 1) AS repetitions
       FROM unnest($1::uuid[], $2::bigint[]) AS u(id, key)
       JOIN "ResponseSet" rs ON rs.id = u.id
       JOIN "Study" st ON st.id = rs."studyId"
      WHERE NOT (${completeSetSql("rs", "st")})`,
    [keys.map((k) => (writer.sets.get(k) as SetRef).id), keys],
  );
  const examples = rows
    .map((r) => {
      const { item, model } = splitSetKey(Number(r.key));
      return { itemId: validator.itemAt(item).externalId, model: validator.modelAt(model).name, repetitions: r.repetitions };
    })
    .sort((a, b) => a.itemId.localeCompare(b.itemId, "en", { numeric: true }) || a.model.localeCompare(b.model))
    .slice(0, EXAMPLES);
  return { count: rows.length, examples };
}

function toApiError(e: unknown): unknown {
  if (e instanceof ImportFileError) return rejection(422, e.errors, e.errors.length);
  // The study's questions are edited elsewhere too (one at a time); a clash
  // with such an edit made during the import is a conflict, not a crash.
  const code = (e as { code?: unknown } | null)?.code;
  if (code === "23505" || code === "23503") return new ApiError(409, "the study changed while the file was being imported; nothing was imported, please import it again");
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

  const client = new pg.Client({ connectionString: databaseUrl(), application_name: "clingrade-import" });
  // A connection killed from outside (database restart) must not crash the process.
  client.on("error", () => undefined);
  await client.connect();
  let open = false;
  let writer: StreamWriter | null = null;
  try {
    // Staging lives in this session's memory rather than in temp files where
    // it fits (settable only before the session first touches a temp table).
    await client.query("SET temp_buffers = '128MB'");
    await client.query("BEGIN");
    open = true;
    await client.query("SET LOCAL work_mem = '64MB'");
    // Serialises imports into one study, and a status change waits for the import.
    const { rows: locked } = await client.query<{ status: ImportStudy["status"]; repetitions: number; rubrics: unknown; graderTitle: string; now: Date }>(
      `SELECT status, repetitions, rubrics, "graderTitle", now() AS now FROM "Study" WHERE id = $1::uuid FOR UPDATE`,
      [o.study.id],
    );
    if (!locked.length) throw new ApiError(404, "study not found");
    const study = { id: o.study.id, status: locked[0].status, repetitions: locked[0].repetitions, criteriaDimension: criteriaDimension(storedRubrics(locked[0].rubrics)) };
    if (study.status === "CLOSED") throw new ApiError(409, "this study is closed: questions and answers can no longer be imported");
    await client.query(STAGING_DDL);
    const existing = await loadExisting(client, study.id);

    let t = performance.now();
    const lap = (phase: "read" | "check" | "write" | "commit") => {
      const now = performance.now();
      o.onPhase?.(phase, now - t);
      t = now;
    };
    const validator = new ImportValidator(kind, study.repetitions);
    writer = new StreamWriter(client, study.id, kind, validator, existing, locked[0].now.toISOString());
    const complete = await stream(rows.batches, validator, writer);
    lap("read");
    const summary = validator.summary();
    if (summary.rows === 0 && !validator.hasErrors) throw rejection(422, [{ row: 1, column: null, message: "the file has a header but no rows" }], 1);
    if (!complete) throw rejection(422, validator.errors, validator.totalErrors);

    const ctx: Ctx = { client, study, kind, validator, writer, existing };
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

    const incompleteSets = await apply(ctx);
    // A changed reference answer changes the metrics of every answer to that question.
    if (checked.referenceChanged.length) await refreshReferenceMetrics(pgQuery(client), { studyId: study.id, externalIds: checked.referenceChanged });
    // A model new to the study may be named in the text graders read (lib/studies/blinding.ts).
    const { rows: models } = await client.query<{ name: string; version: string | null }>(`SELECT name, version FROM "LlmModel" WHERE "studyId" = $1::uuid`, [study.id]);
    const named = modelNamesInGraderText(storedRubrics(locked[0].rubrics), locked[0].graderTitle, mentionTerms(models));
    if (named.length) {
      throw rejection(
        422,
        named.map((p) => ({ row: 0, column: "model", message: `the study's ${p.path} ${p.message.replace("which graders would read; reword it", "which graders would read; reword the study's text")}` })),
        named.length,
      );
    }
    const modelMentions = await scanModelMentions((text, values) => client.query(text, values), study.id, o.mentionTerms);
    lap("write");
    const result: ImportResult = {
      kind,
      dryRun,
      items: summary.items,
      responses: summary.responses,
      responseSets: summary.responseSets,
      ...checked.answers,
      questions: checked.questions,
      responseSetsCreated: writer.counts.setsCreated,
      modelsCreated: writer.counts.modelsCreated,
      specialtiesCreated: writer.counts.specialtiesCreated,
      duplicateRows: checked.duplicateRows,
      incompleteSets,
      modelMentions,
      repetitions: study.repetitions,
    };
    if (dryRun) {
      await client.query("ROLLBACK");
    } else {
      // The audit keeps the counts, not the file. Written here rather than with
      // recordAudit (Prisma) because it must share this connection's transaction.
      const { incompleteSets: incomplete, modelMentions: mentions, ...counts } = result;
      await client.query(
        `INSERT INTO "AuditEvent" ("studyId", "actorId", action, "entityType", "entityId", after, "requestId")
         VALUES ($1::uuid, $2::uuid, 'study.import', 'Study', $1::text, $3::jsonb, $4)`,
        [study.id, o.actorId, JSON.stringify({ ...counts, incompleteSets: incomplete.count, modelMentions: mentions.answers, rows: summary.rows }), o.requestId ?? null],
      );
      await client.query("COMMIT");
    }
    lap("commit");
    open = false;
    return result;
  } catch (e) {
    await writer?.settle();
    if (open) await client.query("ROLLBACK").catch(() => undefined);
    throw toApiError(e);
  } finally {
    await rows.batches.return(undefined).catch(() => undefined);
    await client.end().catch(() => undefined);
  }
}
