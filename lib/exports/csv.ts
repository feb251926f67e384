import { guardFormula } from "@/lib/csv/formula-guard";

/**
 * CSV writing for the exports: RFC 4180 quoting, UTF-8, an optional byte-order
 * mark, and the spreadsheet formula-injection guard. Pure: no I/O, so the
 * rules are unit-tested directly; the SQL side (lib/exports/sql.ts) applies
 * the same guard inside PostgreSQL for the streamed datasets.
 */

export type Cell = string | number | boolean | null | undefined;

/** The UTF-8 byte-order mark: with it, Excel opens accented text correctly. */
export const BOM_BYTES = new Uint8Array([0xef, 0xbb, 0xbf]);
export const BOM_TEXT = "\uFEFF";

// The formula guard lives in lib/csv (shared with the dashboard's table downloads); re-exported for the exports' callers.
export { FORMULA_LEADING_SPACE, FORMULA_QUOTES, FORMULA_TRIGGERS, guardFormula } from "@/lib/csv/formula-guard";

/**
 * RFC 4180: a field with a comma, a double quote, CR or LF is quoted, inner
 * quotes doubled. So is one with a semicolon or a tab, the separators other
 * spreadsheet locales split on: unquoted, `a;=1+1` would become a second cell
 * starting with =, which the guard (first character only) never saw.
 */
export function quoteField(text: string): string {
  return /[",\r\n;\t]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * One cell. null/undefined: an empty field; "": a quoted empty field (as
 * PostgreSQL's COPY writes it, so NULL and "" stay apart); numbers as JavaScript
 * prints them (full precision, never guarded: -1 stays -1); booleans true/false;
 * text guarded against formulas, then quoted as needed (see quoteField).
 */
export function csvCell(value: Cell): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (value === "") return '""';
  return quoteField(guardFormula(value));
}

/** One record, ending with LF (as PostgreSQL's COPY ends them; every CSV reader accepts it). */
export function csvRow(values: readonly Cell[]): string {
  return values.map(csvCell).join(",") + "\n";
}

/** A header row: column names are ours, but go through the same quoting (never the guard: they are fixed). */
export function csvHeader(columns: readonly string[]): string {
  return columns.map(quoteField).join(",") + "\n";
}
