import Papa from "papaparse";

/**
 * Streaming CSV records on top of papaparse's core parser, fed one piece of
 * text at a time: only the unfinished last row of a piece is carried over,
 * so memory stays at one piece plus one row whatever the file's size.
 *
 * Handles what spreadsheets write: CRLF or LF, quoted fields that span lines,
 * quotes doubled inside quotes (Excel), `;` or tab as separator (Excel in
 * locales with a decimal comma), blank lines and rows of bare separators.
 */

export interface CsvDialect {
  delimiter: "," | ";" | "\t";
  newline: "\n" | "\r\n" | "\r";
}

export interface CsvRecord {
  fields: string[];
  /** Line of the file where the record starts (the header is line 1). */
  line: number;
  /** Set when the record's quoting is broken. */
  problem?: string;
}

/** A row that never ends: a quote opened and not closed, or a runaway field. Stops the read. */
export class CsvRowTooLongError extends Error {
  constructor(
    readonly line: number,
    readonly limit: number,
  ) {
    super(
      `the row starting on line ${line} is longer than ${limit.toLocaleString("en")} characters: most likely a quote (") opens a field and is never closed`,
    );
    this.name = "CsvRowTooLongError";
  }
}

export const MAX_ROW_CHARS = 4_000_000;

/**
 * The separator and line ending, read from the header line: the header names
 * hold no separators of their own, so the character that occurs most there is
 * the separator (ties and none: comma).
 */
export function sniffDialect(start: string): CsvDialect {
  const m = /\r\n|\n|\r/.exec(start);
  const headerLine = m ? start.slice(0, m.index) : start;
  const newline = (m?.[0] ?? "\n") as CsvDialect["newline"];
  const count = (ch: string) => headerLine.split(ch).length - 1;
  const candidates: CsvDialect["delimiter"][] = [",", ";", "\t"];
  let delimiter: CsvDialect["delimiter"] = ",";
  let best = 0;
  for (const d of candidates) {
    const n = count(d);
    if (n > best) {
      best = n;
      delimiter = d;
    }
  }
  return { delimiter, newline };
}

/** True once `start` holds the whole first line (its ending may be \r\n split over two pieces). */
function headerLineComplete(start: string): boolean {
  const i = start.search(/[\r\n]/);
  return i !== -1 && i < start.length - 1;
}

interface PapaError {
  code: string;
  row: number;
}

function quoteProblem(code: string, delimiter: string): string {
  if (code === "MissingQuotes") return 'a quoted field is never closed: a closing quote (") is missing';
  const sep = delimiter === "\t" ? "a tab" : `"${delimiter}"`;
  return `malformed quotes: a quoted field must end with a quote followed by ${sep} or the end of the line; inside a quoted field write a quote as two quotes ("")`;
}

function isBlank(fields: string[]): boolean {
  for (const f of fields) if (f.trim() !== "") return false;
  return true;
}

function countChar(s: string, ch: string): number {
  let n = 0;
  for (let i = s.indexOf(ch); i !== -1; i = s.indexOf(ch, i + 1)) n++;
  return n;
}

/**
 * CSV records, in batches (one per piece of text), blank lines skipped. The
 * first record is the header.
 */
export async function* csvRecords(text: AsyncIterable<string>, maxRowChars = MAX_ROW_CHARS): AsyncGenerator<CsvRecord[]> {
  let dialect: CsvDialect | null = null;
  let parser: Papa.Parser | null = null;
  let partial = "";
  let line = 1;

  const run = (input: string, last: boolean): CsvRecord[] => {
    if (!dialect || !parser) {
      dialect = sniffDialect(input);
      parser = new Papa.Parser({ delimiter: dialect.delimiter, newline: dialect.newline, quoteChar: '"' });
    }
    const result = parser.parse(input, 0, !last) as { data: string[][]; errors: PapaError[]; meta: { cursor: number } };
    partial = last ? "" : input.slice(result.meta.cursor);
    if (partial.length > maxRowChars) throw new CsvRowTooLongError(line, maxRowChars);
    const problems = new Map<number, string>();
    // Errors about the unfinished last row are not final: it is parsed again with the next piece.
    for (const e of result.errors) if (e.row < result.data.length && !problems.has(e.row)) problems.set(e.row, quoteProblem(e.code, dialect.delimiter));
    const lineBreak = dialect.newline === "\r" ? "\r" : "\n";
    const out: CsvRecord[] = [];
    result.data.forEach((fields, i) => {
      const start = line;
      line += 1;
      for (const f of fields) if (f.length > 0 && f.includes(lineBreak)) line += countChar(f, lineBreak);
      const problem = problems.get(i);
      if (problem) out.push({ fields, line: start, problem });
      else if (!isBlank(fields)) out.push({ fields, line: start });
    });
    return out;
  };

  for await (const piece of text) {
    if (!dialect) {
      partial += piece;
      if (!headerLineComplete(partial) && partial.length <= maxRowChars) continue;
    } else {
      partial += piece;
    }
    const batch = run(partial, false);
    if (batch.length) yield batch;
  }
  if (partial !== "") {
    const batch = run(partial, true);
    if (batch.length) yield batch;
  }
}
