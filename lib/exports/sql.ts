import { escapeLiteral } from "pg";
import { isUuid } from "@/lib/db/uuid";
import { FORMULA_LEADING_SPACE, FORMULA_QUOTES, FORMULA_TRIGGERS } from "./csv";

/**
 * SQL for the datasets PostgreSQL writes itself (COPY ... TO STDOUT): each
 * column is declared once with its kind, and the CSV and JSON selects are
 * generated from that, so both formats carry the same columns. The CSV select
 * applies the same formula guard as csvCell() (lib/exports/csv.ts) to every
 * free-text column, formats times as ISO 8601 in UTC like Date.toISOString(),
 * and booleans as true/false; COPY's CSV mode then does the RFC 4180 quoting
 * (copyCsv).
 */
export type ColumnKind =
  /** Free text a person typed (guarded against formulas in CSV). */
  | "text"
  /** Text from a fixed vocabulary (enum values, slugs): nothing to guard. */
  | "enum"
  | "number"
  | "bool"
  | "time";

export interface SqlColumn {
  name: string;
  kind: ColumnKind;
  sql: string;
  /** The JSON format's expression when it differs (a value that is a number or a text). */
  jsonSql?: string;
}

/** A bracket expression of PostgreSQL's regular expressions: every character as a \uXXXX escape, a hyphen last (literal there). */
const bracket = (chars: readonly string[]) =>
  `[${chars
    .filter((c) => c !== "-")
    .map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
    .join("")}${chars.includes("-") ? "-" : ""}]`;
const space = bracket(FORMULA_LEADING_SPACE);
/** guardFormula()'s rule (lib/exports/csv.ts) as a PostgreSQL regular expression, built from the same character lists. */
export const FORMULA_START_SQL = escapeLiteral(`^${space}*(${bracket(FORMULA_QUOTES)}${space}*)?${bracket(FORMULA_TRIGGERS)}`);

/** The formula guard in SQL: a text whose first non-space character is a trigger (or a quote, then a trigger) gets an apostrophe. */
export function sqlGuard(expr: string): string {
  return `CASE WHEN ${expr} ~ ${FORMULA_START_SQL} THEN '''' || ${expr} ELSE ${expr} END`;
}

/** A timestamptz as 2026-01-31T12:00:00.000Z (the columns hold milliseconds). */
export function sqlIso(expr: string): string {
  return `to_char(${expr} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

export function csvExpr(c: SqlColumn): string {
  switch (c.kind) {
    case "text":
      return sqlGuard(`(${c.sql})`);
    case "bool":
      return `CASE WHEN ${c.sql} THEN 'true' WHEN NOT ${c.sql} THEN 'false' END`;
    case "time":
      return sqlIso(c.sql);
    default:
      return c.sql;
  }
}

export function jsonExpr(c: SqlColumn): string {
  return c.kind === "time" ? sqlIso(c.sql) : (c.jsonSql ?? c.sql);
}

export const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** SELECT list for CSV: one output column per declared column, named as the header. */
export function csvSelectList(columns: readonly SqlColumn[]): string {
  return columns.map((c) => `${csvExpr(c)} AS ${quoteIdent(c.name)}`).join(",\n       ");
}

/** SELECT list for JSON: one text column holding the row as a JSON object, keys in column order. */
export function jsonSelectList(columns: readonly SqlColumn[], expr: (c: SqlColumn) => string = jsonExpr): string {
  if (columns.length > 50) throw new Error("json_build_object takes at most 50 key/value pairs");
  return `json_build_object(${columns.map((c) => `${escapeLiteral(c.name)}, ${expr(c)}`).join(", ")})::text AS row`;
}

/**
 * COPY options: CSV with a header row. COPY quotes only for commas, quotes and
 * line breaks and cannot also do it for a semicolon or a tab (quoteField), so
 * every free-text value is quoted.
 */
export function copyCsv(columns: readonly SqlColumn[]): string {
  const text = columns.filter((c) => c.kind === "text").map((c) => quoteIdent(c.name));
  return `FORMAT csv, HEADER true${text.length ? `, FORCE_QUOTE (${text.join(", ")})` : ""}`;
}
/**
 * COPY options that pass a one-column JSON text through untouched, one row per
 * line: CSV mode quotes a value only if it holds the quote or delimiter
 * character or a line break, and JSON text holds none of those (JSON escapes
 * every control character, so \x01, \x02, CR and LF never appear raw).
 */
export const COPY_JSON_LINES = "FORMAT csv, DELIMITER E'\\x02', QUOTE E'\\x01'";

/** A uuid as a SQL literal (COPY takes no bind parameters): refuses anything that is not a uuid. */
export function uuidLiteral(id: string): string {
  if (!isUuid(id)) throw new Error(`not a uuid: ${id}`);
  return `'${id.toLowerCase()}'::uuid`;
}
