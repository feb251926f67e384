/**
 * The spreadsheet formula-injection guard of every CSV the app writes (the
 * exports, in JS and in PostgreSQL through lib/exports/sql.ts, and the
 * dashboard's table downloads). Pure, no imports: any feature may use it.
 */

/**
 * Characters that make a spreadsheet treat a text cell as a formula (or that
 * some spreadsheets strip in front of one): = + - @ tab carriage-return, and
 * the fullwidth = + - @ that some spreadsheets (and IMEs) fold into them.
 */
export const FORMULA_TRIGGERS = ["=", "+", "-", "@", "\t", "\r", "\uFF1D", "\uFF0B", "\uFF0D", "\uFF20"] as const;
/** Skipped before the trigger: spreadsheets trim leading spaces (also no-break and ideographic ones) before parsing a formula. */
export const FORMULA_LEADING_SPACE = [" ", "\n", "\u000B", "\f", "\u00A0", "\u3000", "\uFEFF"] as const;
/** A quote in front of a trigger: `"=1+1` is read as `=1+1` by spreadsheets that strip a stray quote. Fullwidth too. */
export const FORMULA_QUOTES = ['"', "\uFF02"] as const;

const cls = (chars: readonly string[]) => `[${chars.map((c) => (c === "-" ? "\\-" : c)).join("")}]`;
const FORMULA_START = new RegExp(`^${cls(FORMULA_LEADING_SPACE)}*(?:${cls(FORMULA_QUOTES)}${cls(FORMULA_LEADING_SPACE)}*)?${cls(FORMULA_TRIGGERS)}`);

/**
 * A text cell that a spreadsheet would read as a formula gets a leading
 * apostrophe: its first non-space character is a trigger, or a double quote
 * followed by one. Numbers are never passed here (-1 in a numeric column stays -1).
 */
export function guardFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}
