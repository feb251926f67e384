import Papa from "papaparse";
import { sniffDialect } from "@/lib/import/csv";
import type { JudgeRowInput, JudgeRowProblem } from "./validate";

/**
 * A judge's scores as rows, from a long CSV (one judgment a line) or a JSON
 * array of the same rows. Cells are read as text and turned into numbers
 * here; whether a value is a level of the rubric is ./validate.ts's question.
 */

export const REQUIRED_COLUMNS = ["item_id", "model", "repetition", "dimension"] as const;
const OPTIONAL_COLUMNS = new Set(["score", "rubric", "confidence", "rationale", "samples"]);

export interface ReadRows {
  rows: JudgeRowInput[];
  /** Row number of each row for problems (CSV: the data row; JSON: the element). */
  rowNumbers: number[];
  /** CSV only: the line each row starts on. */
  lines: number[];
  problems: (JudgeRowProblem & { line?: number })[];
}

const empty = (v: unknown) => v === undefined || v === null || (typeof v === "string" && v.trim() === "");

/** A number from a cell, or a problem; empty cells are null. */
function numberCell(v: unknown, column: string, add: (c: string, m: string) => void): number | null {
  if (empty(v)) return null;
  const n = typeof v === "number" ? v : Number(String(v).trim());
  if (!Number.isFinite(n)) {
    add(column, `${column} must be a number, not ${JSON.stringify(String(v).slice(0, 40))}`);
    return null;
  }
  return n;
}

function toRow(record: Record<string, unknown>, add: (c: string, m: string) => void): JudgeRowInput {
  const text = (k: string) => (empty(record[k]) ? "" : String(record[k]).trim());
  for (const k of REQUIRED_COLUMNS) if (k !== "repetition" && text(k) === "") add(k, `${k} is empty`);
  const repetition = numberCell(record.repetition, "repetition", add);
  if (repetition !== null && !Number.isInteger(repetition)) add("repetition", "repetition must be an integer");
  let probabilities: Record<string, number> | null = null;
  if (record.probabilities && typeof record.probabilities === "object") probabilities = { ...(record.probabilities as Record<string, number>) };
  for (const [k, v] of Object.entries(record)) {
    if (!k.startsWith("p_")) continue;
    const p = numberCell(v, k, add);
    if (p !== null) (probabilities ??= {})[k.slice(2)] = p;
  }
  let samples: (number | string)[] | null = null;
  if (Array.isArray(record.samples)) samples = record.samples as (number | string)[];
  else if (!empty(record.samples)) samples = String(record.samples).split("|").map((s) => s.trim());
  const score = record.score;
  return {
    itemId: text("item_id"),
    model: text("model"),
    repetition,
    rubric: text("rubric") || null,
    dimension: text("dimension"),
    score: empty(score) ? null : typeof score === "number" ? score : String(score).trim(),
    probabilities,
    samples,
    confidence: numberCell(record.confidence, "confidence", add),
    rationale: empty(record.rationale) ? null : String(record.rationale),
  };
}

function headerProblems(columns: string[]): JudgeRowProblem[] {
  const problems: JudgeRowProblem[] = [];
  const seen = new Set<string>();
  for (const c of columns) {
    if (seen.has(c)) problems.push({ row: 0, column: c, message: `the column "${c}" appears twice` });
    seen.add(c);
    if (!REQUIRED_COLUMNS.includes(c as (typeof REQUIRED_COLUMNS)[number]) && !OPTIONAL_COLUMNS.has(c) && !/^p_[A-Za-z0-9_-]+$/.test(c)) {
      problems.push({ row: 0, column: c, message: `unknown column "${c}": expected ${REQUIRED_COLUMNS.join(", ")}, score, p_<level>..., confidence, rationale (optional rubric, samples)` });
    }
  }
  for (const c of REQUIRED_COLUMNS) if (!seen.has(c)) problems.push({ row: 0, column: c, message: `the column "${c}" is missing` });
  return problems;
}

export function readJudgeCsv(text: string): ReadRows {
  const body = text.replace(/^\uFEFF/, "");
  const out: ReadRows = { rows: [], rowNumbers: [], lines: [], problems: [] };
  if (body.trim() === "") {
    out.problems.push({ row: 0, column: null, message: "the file is empty: no header and no rows" });
    return out;
  }
  const { delimiter } = sniffDialect(body.slice(0, 4096));
  const parsed = Papa.parse<string[]>(body, { delimiter, skipEmptyLines: "greedy" });
  const [header, ...records] = parsed.data;
  const columns = header.map((h) => h.trim().toLowerCase());
  out.problems.push(...headerProblems(columns));
  if (out.problems.length) return out;
  for (const err of parsed.errors) {
    out.problems.push({ row: err.row ?? 0, column: null, message: `malformed CSV: ${err.message}` });
  }
  // Lines: papaparse does not give them; count the line breaks inside quoted fields as we go.
  let line = 2;
  records.forEach((fields, i) => {
    const row = i + 1;
    const add = (column: string, message: string) => out.problems.push({ row, line, column, message });
    if (fields.length !== columns.length) add("", `this row has ${fields.length} fields, the header ${columns.length}`);
    const record = Object.fromEntries(columns.map((c, j) => [c, fields[j] ?? ""]));
    out.rows.push(toRow(record, add));
    out.rowNumbers.push(row);
    out.lines.push(line);
    line += 1 + fields.reduce((n, f) => n + (f.match(/\r\n|\n|\r/g)?.length ?? 0), 0);
  });
  if (records.length === 0) out.problems.push({ row: 0, column: null, message: "no rows under the header" });
  return out;
}

export function readJudgeJson(value: unknown): ReadRows {
  const out: ReadRows = { rows: [], rowNumbers: [], lines: [], problems: [] };
  if (!Array.isArray(value)) {
    out.problems.push({ row: 0, column: null, message: "send a JSON array of rows" });
    return out;
  }
  value.forEach((el, i) => {
    const row = i + 1;
    const add = (column: string, message: string) => out.problems.push({ row, column, message });
    if (!el || typeof el !== "object" || Array.isArray(el)) return add("", "each element is an object: {item_id, model, repetition, dimension, score, ...}");
    const rec = el as Record<string, unknown>;
    for (const k of Object.keys(rec)) {
      if (k === "probabilities") {
        const p = rec[k];
        if (p !== null && (typeof p !== "object" || Array.isArray(p) || Object.values(p as object).some((x) => typeof x !== "number"))) add(k, "probabilities is an object of level -> number");
      } else if (k === "samples") {
        if (rec[k] !== null && (!Array.isArray(rec[k]) || (rec[k] as unknown[]).some((x) => typeof x !== "number" && typeof x !== "string"))) add(k, "samples is an array of levels");
      } else if (!REQUIRED_COLUMNS.includes(k as (typeof REQUIRED_COLUMNS)[number]) && !OPTIONAL_COLUMNS.has(k) && !k.startsWith("p_")) add(k, `unknown key "${k}"`);
      else if (rec[k] !== null && typeof rec[k] === "object") add(k, `${k} must be text or a number`);
    }
    for (const k of REQUIRED_COLUMNS) if (!(k in rec) && k !== "repetition") add(k, `${k} is missing`);
    out.rows.push(toRow({ ...rec, probabilities: rec.probabilities && typeof rec.probabilities === "object" && !Array.isArray(rec.probabilities) ? rec.probabilities : undefined, samples: Array.isArray(rec.samples) ? rec.samples : undefined }, add));
    out.rowNumbers.push(row);
  });
  if (value.length === 0) out.problems.push({ row: 0, column: null, message: "no rows: the array is empty" });
  return out;
}
