import { z } from "zod";
import { textProblem } from "@/lib/validation/text";
import { CriteriaSchema } from "@/lib/rubrics/criteria";
import { ALL_COLUMNS, type ColumnName, type ImportKind, type RowError } from "./columns";
import { detach } from "./detach";

/**
 * Row validation for the import. Each row is checked on its own with zod
 * (empty question, repetition outside 1..N, temperature not a number, ...)
 * and then against the rows before it (the same item with a different
 * question, the same item x model x repetition with a different answer, one
 * model with two versions). Only compact maps are kept: each question once,
 * and for each answer the row that gave it, never the answer's text, so a
 * file of 90,000 answers validates in a few megabytes.
 */

export const MAX_ERRORS = 1000;
export const MAX_NAME = 200;
export const MAX_TEXT = 1_000_000;
/** Models per file; bounds the numeric key of an item x model x repetition. */
const MAX_MODELS = 65_536;

/** A row as read from the file: column name -> raw value (strings from CSV; any JSON value). */
export interface SourceRow {
  row: number;
  line?: number;
  values: Record<string, unknown>;
  /** Problems the reader found before any column was looked at (wrong field count, bad quotes). */
  problems?: string[];
}

/**
 * One answer to stage. `setKey` numbers the item x model pair within this file
 * (item index x 65,536 + model index); `firstRow` is set when an earlier row
 * gave the same item, model and repetition.
 */
export interface StagedAnswer {
  row: number;
  line?: number;
  setKey: number;
  repetition: number;
  text: string;
  firstRow?: number;
}

export interface ModelSettings {
  name: string;
  version: string;
  temperature: number | null;
  topP: number | null;
  /** First row that stated each setting, to name it if the database disagrees. */
  rows: { first: number; version?: number; temperature?: number; topP?: number };
}

export interface ValidationSummary {
  rows: number;
  items: number;
  responses: number;
  responseSets: number;
  duplicateRows: number;
  maxRepetition: number;
}

// ───────────────────────────── per-row schema (zod) ─────────────────────────────

/** Spreadsheet line endings become \n and outer whitespace goes, so CRLF and LF files compare equal. */
export function cleanText(s: string): string {
  return (s.includes("\r") ? s.replace(/\r\n?/g, "\n") : s).trim();
}

/** Names (item ids, models, specialties): trimmed, inner runs of whitespace made single. */
export function cleanName(s: string): string {
  const t = s.trim();
  return /\s{2}|[\t\n\r]/.test(t) ? t.replace(/\s+/g, " ") : t;
}

/** JSON rows may carry numbers (item_id 17, repetition 2); CSV cells are always strings. */
function asString(v: unknown): string | undefined {
  if (v === undefined || v === null) return "";
  if (typeof v === "string") return v;
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  return undefined;
}

type Ctx = z.core.$RefinementCtx<unknown>;

function issue(ctx: Ctx, message: string): never {
  ctx.addIssue({ code: "custom", message });
  return z.NEVER;
}

/** The cell as a string, or undefined after recording why it cannot be one. */
function str(column: string, v: unknown, ctx: Ctx): string | undefined {
  const s = asString(v);
  if (s === undefined) {
    ctx.addIssue({ code: "custom", message: `${column} must be text, not ${Array.isArray(v) ? "a list" : typeof v}` });
    return undefined;
  }
  // Listed as the row's problem here rather than failing the whole write (NUL) or storing changed text.
  const problem = textProblem(s);
  if (problem) {
    ctx.addIssue({ code: "custom", message: `${column} ${problem}` });
    return undefined;
  }
  return s;
}

const name = (column: string, required = true) =>
  z
    .unknown()
    .optional()
    .transform((v, ctx) => {
    const s = str(column, v, ctx);
    if (s === undefined) return z.NEVER;
    const t = cleanName(s);
    if (required && t === "") return issue(ctx, `${column} is empty`);
    if (t.length > MAX_NAME) return issue(ctx, `${column} is longer than ${MAX_NAME} characters`);
    return t;
  });

const text = (column: string, required: boolean) =>
  z
    .unknown()
    .optional()
    .transform((v, ctx) => {
    const s = str(column, v, ctx);
    if (s === undefined) return z.NEVER;
    const t = cleanText(s);
    if (required && t === "") return issue(ctx, `${column} is empty`);
    if (t.length > MAX_TEXT) return issue(ctx, `${column} is longer than ${MAX_TEXT.toLocaleString("en")} characters`);
    return t;
  });

const repetition = (n: number) =>
  z
    .unknown()
    .optional()
    .transform((v, ctx) => {
    const s = str("repetition", v, ctx);
    if (s === undefined) return z.NEVER;
    const t = s.trim();
    if (t === "") return issue(ctx, "repetition is empty");
    if (!/^[0-9]+$/.test(t)) return issue(ctx, `repetition must be a whole number from 1 to ${n}, not "${t}"`);
    const r = Number(t);
    if (r < 1 || r > n) return issue(ctx, `repetition ${r} is outside 1..${n} (this study's N, answers per question and model)`);
    return r;
  });

// Decimal comma accepted: Excel in many European locales writes 0,7 in ;-separated files.
const NUMBER = /^[+-]?(\d+([.,]\d*)?|[.,]\d+)([eE][+-]?\d+)?$/;

const optionalNumber = (column: string, min: number, max: number) =>
  z
    .unknown()
    .optional()
    .transform((v, ctx) => {
    const s = str(column, v, ctx);
    if (s === undefined) return z.NEVER;
    const t = s.trim();
    if (t === "") return null;
    const x = NUMBER.test(t) ? Number(t.replace(",", ".")) : NaN;
    if (!Number.isFinite(x)) return issue(ctx, `${column} must be a number, not "${t}"`);
    if (x < min || x > max) return issue(ctx, `${column} ${x} is outside ${min}..${max}`);
    return x;
  });

/**
 * A question's HealthBench criteria: a JSON list of {id, text, points} (CSV: the cell's text; JSON:
 * the list itself or its text). Out: the list's canonical JSON, null for a blank cell (no
 * criteria), undefined when the row does not state them (the stored ones are kept).
 */
const criteria = () =>
  z
    .unknown()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return undefined;
      let list: unknown = v;
      if (v === null) return null;
      if (typeof v === "string") {
        if (v.trim() === "") return null;
        try {
          list = JSON.parse(v);
        } catch {
          return issue(ctx, 'criteria must be a JSON list such as [{"id": "c1", "text": "Advises urgent care", "points": 5}]; this cell is not valid JSON');
        }
      }
      const parsed = CriteriaSchema.safeParse(list);
      if (!parsed.success) {
        for (const i of parsed.error.issues) ctx.addIssue({ code: "custom", message: `criteria${i.path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("")}: ${i.message}` });
        return z.NEVER;
      }
      const ids = new Set<string>();
      for (const c of parsed.data) {
        if (ids.has(c.id)) return issue(ctx, `criteria: the id "${c.id}" is used twice; each criterion of a question needs its own id`);
        ids.add(c.id);
      }
      if (!parsed.data.some((c) => c.points > 0)) return issue(ctx, "criteria: at least one criterion must be worth positive points (the score is met points over the positive total)");
      return JSON.stringify(parsed.data);
    });

/** The queue's preview of a question: one line of text; null for a blank cell, undefined when not stated (kept as stored). */
export const MAX_PREVIEW = 500;
const preview = () =>
  z
    .unknown()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return undefined;
      const s = str("preview", v, ctx);
      if (s === undefined) return z.NEVER;
      const t = cleanName(s);
      if (t === "") return null;
      if (t.length > MAX_PREVIEW) return issue(ctx, `preview is longer than ${MAX_PREVIEW} characters; it is the line the graders' queue shows, give a shorter part of the question`);
      return t;
    });

/** The zod schema of one row of a file of this kind, for a study with N = `repetitions`. */
export function rowSchema(kind: ImportKind, repetitions: number) {
  const question = {
    specialty: name("specialty"),
    question: text("question", true),
    reference_answer: text("reference_answer", false),
    criteria: criteria(),
    preview: preview(),
  };
  const answer = {
    model: name("model"),
    repetition: repetition(repetitions),
    response: text("response", true),
    model_version: name("model_version", false),
    temperature: optionalNumber("temperature", 0, 10),
    top_p: optionalNumber("top_p", 0, 1),
  };
  const itemId = { item_id: name("item_id") };
  if (kind === "questions") return z.object({ ...itemId, ...question });
  if (kind === "answers") return z.object({ ...itemId, ...answer });
  return z.object({ ...itemId, ...question, ...answer });
}

type FullRow = z.output<ReturnType<typeof rowSchema>> & Partial<Record<ColumnName, string | number | null>>;

// ─────────────────────────────── across rows ───────────────────────────────

/** A question as first seen in the file (files of questions only, or of both). */
export interface FileItem {
  row: number;
  line?: number;
  externalId: string;
  /** Lower-cased specialty name: specialties match case-insensitively. */
  specialtyKey: string;
  question: string;
  referenceAnswer: string;
  /** Canonical JSON of the question's criteria; null: none; undefined: not stated (kept as stored). */
  criteria?: string | null;
  /** The queue's preview; null: none (the last paragraph shows); undefined: not stated (kept as stored). */
  preview?: string | null;
}

/** One item x model pair of the file, numbered by `key` (see StagedAnswer.setKey). */
export interface FileSet {
  key: number;
  externalId: string;
  model: string;
}

export interface ItemInfo {
  index: number;
  externalId: string;
  /** Set when the file carries questions. */
  first?: FileItem;
}

/** The item and model indexes within the file that a set key (StagedAnswer.setKey) stands for. */
export function splitSetKey(setKey: number): { item: number; model: number } {
  return { item: Math.floor(setKey / MAX_MODELS), model: setKey % MAX_MODELS };
}

const KNOWN = new Set<string>(ALL_COLUMNS);

export class ImportValidator {
  readonly errors: RowError[] = [];
  totalErrors = 0;
  private readonly schema;
  private readonly items = new Map<string, ItemInfo>();
  private readonly itemList: ItemInfo[] = [];
  private readonly models = new Map<string, ModelSettings & { index: number }>();
  private readonly modelList: ModelSettings[] = [];
  /** Lower-cased name -> first spelling seen in the file. */
  readonly specialties = new Map<string, string>();
  /** Answer key -> the row that first gave it. */
  private readonly answers = new Map<number, number>();
  private readonly sets = new Set<number>();
  private rows = 0;
  private duplicateRows = 0;
  private repeatedAnswers = 0;
  private maxRepetition = 0;

  constructor(
    readonly kind: ImportKind,
    readonly repetitions: number,
    private readonly maxErrors = MAX_ERRORS,
  ) {
    this.schema = rowSchema(kind, repetitions);
  }

  get hasErrors(): boolean {
    return this.totalErrors > 0;
  }

  addError(e: RowError): void {
    this.totalErrors++;
    if (this.errors.length < this.maxErrors) this.errors.push(e);
  }

  /** The models named in the file with the settings it states for them. */
  modelSettings(): ModelSettings[] {
    return [...this.models.values()].map(({ index: _index, ...m }) => m);
  }

  /** The questions of the file, each as on its first row. */
  fileItems(): FileItem[] {
    const out: FileItem[] = [];
    for (const i of this.items.values()) if (i.first) out.push(i.first);
    return out;
  }

  /** Items and models in order of first appearance: index i is the i-th new one. */
  get itemCount(): number {
    return this.itemList.length;
  }
  itemAt(index: number): ItemInfo {
    return this.itemList[index];
  }
  get modelCount(): number {
    return this.modelList.length;
  }
  /** The model's settings as stated so far (a later row may fill in a blank one). */
  modelAt(index: number): ModelSettings {
    return this.modelList[index];
  }

  /** The item x model sets of the file. */
  fileSets(): FileSet[] {
    return [...this.sets].map((key) => {
      const { item, model } = splitSetKey(key);
      return { key, externalId: this.itemList[item].externalId, model: this.modelList[model].name };
    });
  }

  /** Answers given twice under one key; whether their texts agree is for the caller to find out. */
  get repeatedAnswerRows(): number {
    return this.repeatedAnswers;
  }

  summary(): ValidationSummary {
    return {
      rows: this.rows,
      items: this.items.size,
      responses: this.answers.size,
      responseSets: this.sets.size,
      duplicateRows: this.duplicateRows,
      maxRepetition: this.maxRepetition,
    };
  }

  /**
   * Checks one row. Returns the answer it adds (to be staged), or null when it
   * is wrong (its problems are in `errors`) or carries no answer. A repeated
   * answer key is returned too, marked `firstRow`: the texts are compared in
   * the database, so the file's answers never have to be held in memory.
   */
  accept(src: SourceRow): StagedAnswer | null {
    this.rows++;
    const at = { row: src.row, ...(src.line === undefined ? {} : { line: src.line }) };
    const fail = (column: string | null, message: string) => {
      this.addError({ ...at, column, message });
      return null;
    };
    if (src.problems?.length) {
      for (const p of src.problems) fail(null, p);
      return null;
    }
    let unknown = false;
    for (const key of Object.keys(src.values)) {
      if (!KNOWN.has(key)) {
        fail(key, `unknown column "${key}"; the columns are ${ALL_COLUMNS.join(", ")}`);
        unknown = true;
      }
    }
    const parsed = this.schema.safeParse(src.values);
    if (!parsed.success) {
      for (const i of parsed.error.issues) fail(i.path.length ? String(i.path[0]) : null, i.message);
      return null;
    }
    if (unknown) return null;
    const r = parsed.data as FullRow;
    const externalId = r.item_id;
    const errorsBefore = this.totalErrors;

    let item = this.items.get(externalId);
    if (!item) {
      const id = detach(externalId);
      item = { index: this.itemList.length, externalId: id };
      this.itemList.push(item);
      this.items.set(id, item);
    }
    if (this.kind !== "answers") {
      const specialty = r.specialty as string;
      const specialtyKey = specialty.toLowerCase();
      const question = r.question as string;
      const reference = r.reference_answer as string;
      const stated = r.criteria as string | null | undefined;
      const statedPreview = r.preview as string | null | undefined;
      const first = item.first;
      if (!first) {
        if (!this.specialties.has(specialtyKey)) this.specialties.set(detach(specialtyKey), detach(specialty));
        item.first = {
          ...at,
          externalId: item.externalId,
          specialtyKey: detach(specialtyKey),
          question: detach(question),
          referenceAnswer: detach(reference),
          ...(stated === undefined ? {} : { criteria: stated }),
          ...(statedPreview === undefined ? {} : { preview: statedPreview === null ? null : detach(statedPreview) }),
        };
      } else {
        if (first.specialtyKey !== specialtyKey)
          fail("specialty", `item ${externalId} has specialty "${specialty}" here but "${this.specialties.get(first.specialtyKey)}" in row ${first.row}`);
        if (first.question !== question) fail("question", `item ${externalId} has a different question than in row ${first.row}`);
        if (first.referenceAnswer !== reference) fail("reference_answer", `item ${externalId} has a different reference_answer than in row ${first.row}`);
        if (stated !== undefined) {
          if (first.criteria === undefined) first.criteria = stated;
          else if (first.criteria !== stated) fail("criteria", `item ${externalId} has different criteria than in row ${first.row}`);
        }
        if (statedPreview !== undefined) {
          if (first.preview === undefined) first.preview = statedPreview === null ? null : detach(statedPreview);
          else if (first.preview !== statedPreview) fail("preview", `item ${externalId} has a different preview than in row ${first.row}`);
        }
        if (this.kind === "questions" && this.totalErrors === errorsBefore) this.duplicateRows++;
      }
    }
    if (this.kind === "questions") return null;

    const model = this.model(r, at, fail);
    if (!model || this.totalErrors !== errorsBefore) return null;
    const repetition = r.repetition as number;
    const setKey = item.index * MAX_MODELS + model.index;
    const key = setKey * 32 + repetition;
    const firstRow = this.answers.get(key);
    if (firstRow !== undefined) {
      this.repeatedAnswers++;
      return { ...at, setKey, repetition, text: r.response as string, firstRow };
    }
    this.answers.set(key, src.row);
    this.sets.add(setKey);
    if (repetition > this.maxRepetition) this.maxRepetition = repetition;
    return { ...at, setKey, repetition, text: r.response as string };
  }

  /** Finds or records the row's model and checks that its settings agree with the earlier rows. */
  private model(
    r: FullRow,
    at: { row: number; line?: number },
    fail: (column: string, message: string) => null,
  ): (ModelSettings & { index: number }) | null {
    const name = r.model as string;
    const version = (r.model_version as string | undefined) ?? "";
    const temperature = (r.temperature as number | null | undefined) ?? null;
    const topP = (r.top_p as number | null | undefined) ?? null;
    let m = this.models.get(name);
    if (!m) {
      if (this.models.size >= MAX_MODELS) return fail("model", `more than ${MAX_MODELS} models in one file`);
      m = { index: this.models.size, name: detach(name), version: "", temperature: null, topP: null, rows: { first: at.row } };
      this.models.set(m.name, m);
      this.modelList.push(m);
    }
    // A blank setting says nothing; two different stated values are a conflict.
    const ok = [
      this.setting(m, "version", "model_version", version === "" ? null : version, at, fail),
      this.setting(m, "temperature", "temperature", temperature, at, fail),
      this.setting(m, "topP", "top_p", topP, at, fail),
    ].every(Boolean);
    return ok ? m : null;
  }

  private setting<K extends "version" | "temperature" | "topP">(
    m: ModelSettings,
    key: K,
    column: string,
    value: ModelSettings[K] | null,
    at: { row: number },
    fail: (column: string, message: string) => null,
  ): boolean {
    if (value === null) return true;
    const current = m[key];
    const stated = m.rows[key];
    if (stated === undefined) {
      m[key] = (typeof value === "string" ? detach(value) : value) as ModelSettings[K];
      m.rows[key] = at.row;
      return true;
    }
    if (current === value) return true;
    fail(column, `model ${m.name} has ${column} "${value}" here but "${current}" in row ${stated}; one model name must have one ${column}`);
    return false;
  }
}
