import { ApiError } from "@/lib/errors/api-error";
import type { RowError } from "./columns";
import { ALL_COLUMNS, detectHeader, normalizeColumnName, type HeaderInfo } from "./columns";
import { csvRecords, type CsvRecord } from "./csv";
import { jsonArrayElements } from "./json";
import type { ImportFormat } from "./source";
import type { SourceRow } from "./validate";

/**
 * Turns the decoded text of a CSV file or a JSON array into numbered rows
 * keyed by column name, and reads the header (CSV: its first line; JSON: the
 * keys of the first object) to tell the kind of file.
 */

export interface RowStream {
  header: HeaderInfo;
  batches: AsyncGenerator<SourceRow[]>;
}

/** The file cannot be read as rows at all (no header, a row that never ends). */
export class ImportFileError extends Error {
  constructor(readonly errors: RowError[]) {
    super(errors[0]?.message ?? "the file cannot be read");
    this.name = "ImportFileError";
  }
}

function fieldCountProblem(record: CsvRecord, width: number, columns: HeaderInfo["columns"]): string | undefined {
  const n = record.fields.length;
  if (n < width) return `this row has ${n} field${n === 1 ? "" : "s"} but the header has ${width} (a missing separator, or a line break outside quotes?)`;
  for (let i = 0; i < n; i++) {
    const f = record.fields[i];
    if (i >= width) {
      if (f.trim() !== "") return `this row has ${n} fields but the header has ${width}`;
    } else if (columns[i] === null && f.trim() !== "") {
      return `a value in column ${i + 1}, which has no name in the header`;
    }
  }
  return undefined;
}

async function* csvRows(
  first: CsvRecord[],
  rest: AsyncIterator<CsvRecord[]>,
  header: HeaderInfo,
): AsyncGenerator<SourceRow[]> {
  const width = header.columns.length;
  const named = header.columns.map((c, i) => [c, i] as const).filter((p): p is readonly [NonNullable<(typeof p)[0]>, number] => p[0] !== null);
  let row = 0;
  const convert = (records: CsvRecord[]): SourceRow[] =>
    records.map((r) => {
      row++;
      const problem = r.problem ?? fieldCountProblem(r, width, header.columns);
      if (problem) return { row, line: r.line, values: {}, problems: [problem] };
      const values: Record<string, unknown> = {};
      for (const [name, i] of named) values[name] = r.fields[i];
      return { row, line: r.line, values };
    });
  if (first.length) yield convert(first);
  for (;;) {
    const next = await rest.next();
    if (next.done) return;
    yield convert(next.value);
  }
}

async function openCsv(text: AsyncIterable<string>): Promise<RowStream | null> {
  const records = csvRecords(text)[Symbol.asyncIterator]();
  let first: CsvRecord[] = [];
  while (first.length === 0) {
    const next = await records.next();
    if (next.done) return null;
    first = next.value;
  }
  const headerRecord = first[0];
  if (headerRecord.problem) throw new ImportFileError([{ row: 0, line: headerRecord.line, column: null, message: `header: ${headerRecord.problem}` }]);
  const header = detectHeader(headerRecord.fields);
  return { header, batches: csvRows(first.slice(1), records, header) };
}

const KNOWN = new Set<string>(ALL_COLUMNS);

async function* jsonRows(first: unknown[], rest: AsyncIterator<unknown[]>): AsyncGenerator<SourceRow[]> {
  let row = 0;
  const convert = (elements: unknown[]): SourceRow[] =>
    elements.map((e) => {
      row++;
      if (e === null || typeof e !== "object" || Array.isArray(e)) {
        return { row, values: {}, problems: [`row ${row} must be an object with the column names as keys, not ${Array.isArray(e) ? "an array" : e === null ? "null" : typeof e}`] };
      }
      const values: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(e)) values[KNOWN.has(k) ? k : normalizeColumnName(k)] = v;
      return { row, values };
    });
  if (first.length) yield convert(first);
  for (;;) {
    const next = await rest.next();
    if (next.done) return;
    yield convert(next.value);
  }
}

async function openJson(text: AsyncIterable<string>): Promise<RowStream | null> {
  const elements = jsonArrayElements(text)[Symbol.asyncIterator]();
  let first: unknown[] = [];
  while (first.length === 0) {
    const next = await elements.next();
    if (next.done) return null;
    first = next.value;
  }
  const head = first.find((e) => e !== null && typeof e === "object" && !Array.isArray(e)) as Record<string, unknown> | undefined;
  const header = detectHeader(head ? Object.keys(head) : []);
  // Keys get the same normalisation as a CSV header ("Item ID" is item_id).
  return { header, batches: jsonRows(first, elements) };
}

/** Opens the rows of a file; null when the file holds no rows at all (not even a header). */
export async function openRows(format: ImportFormat, text: AsyncIterable<string>): Promise<RowStream | null> {
  if (format === "csv") return openCsv(text);
  return openJson(text);
}

export function emptyFileError(): ApiError {
  return new ApiError(422, "the file is empty", { errors: [{ row: 0, column: null, message: "the file is empty: no header and no rows" }], total: 1 });
}
