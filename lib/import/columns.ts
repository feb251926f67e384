/**
 * The import file's columns, and how the kind of file is told from its header.
 *
 * One long table covers questions and answers at once (one row per answer,
 * the question repeated on each row); a questions-only file loads the items
 * first and an answers-only file adds generated answers to items already there.
 */

export type ImportKind = "full" | "questions" | "answers";

/** Columns that describe a question (QaItem). */
export const QUESTION_COLUMNS = ["specialty", "question", "reference_answer"] as const;
/** Columns that describe one generated answer (Response). */
export const ANSWER_COLUMNS = ["model", "repetition", "response"] as const;
/**
 * Optional wherever questions are: a question's own criteria (HealthBench), a JSON list; and
 * the part of the question the grader's queue shows (preview), else its last paragraph.
 */
export const OPTIONAL_QUESTION_COLUMNS = ["criteria", "preview"] as const;
/** Generation settings recorded on the LlmModel; optional wherever answers are. */
export const MODEL_SETTING_COLUMNS = ["model_version", "temperature", "top_p"] as const;

export type ColumnName =
  | "item_id"
  | (typeof QUESTION_COLUMNS)[number]
  | (typeof OPTIONAL_QUESTION_COLUMNS)[number]
  | (typeof ANSWER_COLUMNS)[number]
  | (typeof MODEL_SETTING_COLUMNS)[number];

export const ALL_COLUMNS: readonly ColumnName[] = ["item_id", ...QUESTION_COLUMNS, ...OPTIONAL_QUESTION_COLUMNS, ...ANSWER_COLUMNS, ...MODEL_SETTING_COLUMNS];

export const REQUIRED_COLUMNS: Record<ImportKind, readonly ColumnName[]> = {
  full: ["item_id", ...QUESTION_COLUMNS, ...ANSWER_COLUMNS],
  questions: ["item_id", ...QUESTION_COLUMNS],
  answers: ["item_id", ...ANSWER_COLUMNS],
};

export const KIND_LABEL: Record<ImportKind, string> = {
  full: "questions and answers",
  questions: "questions only",
  answers: "answers only",
};

/**
 * One problem in the file. `row` is the 1-based data row (the header is row 0,
 * the first row under it is row 1); `line` is the physical line of the file
 * where that row starts, which differs from row + 1 once an answer spans
 * several lines (CSV only).
 */
export interface RowError {
  row: number;
  line?: number;
  column: string | null;
  message: string;
}

/**
 * Header cells as spreadsheets write them ("Item ID", " question ") mapped to
 * the canonical snake_case names.
 */
export function normalizeColumnName(raw: string): string {
  return raw
    .replace(/^\uFEFF/, "")
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
}

export interface HeaderInfo {
  kind: ImportKind | null;
  /** Canonical name of each position; null for a nameless column (an Excel trailing delimiter). */
  columns: (ColumnName | null)[];
  errors: RowError[];
}

/**
 * Tells the kind of file from its header and checks the header: every
 * required column present, none unknown or repeated.
 */
export function detectHeader(rawNames: readonly string[]): HeaderInfo {
  const errors: RowError[] = [];
  const headerError = (column: string | null, message: string) => errors.push({ row: 0, line: 1, column, message });
  const names = rawNames.map(normalizeColumnName);
  const known = new Set<string>(ALL_COLUMNS);
  const columns: (ColumnName | null)[] = [];
  const seen = new Set<string>();
  names.forEach((name, i) => {
    if (name === "") {
      columns.push(null);
      return;
    }
    if (!known.has(name)) {
      headerError(name, `unknown column "${rawNames[i].trim()}"; the columns are ${ALL_COLUMNS.join(", ")}`);
      columns.push(null);
      return;
    }
    if (seen.has(name)) headerError(name, `column ${name} appears more than once in the header`);
    seen.add(name);
    columns.push(name as ColumnName);
  });

  const hasQuestion = [...QUESTION_COLUMNS, ...OPTIONAL_QUESTION_COLUMNS].some((c) => seen.has(c));
  const hasAnswer = [...ANSWER_COLUMNS, ...MODEL_SETTING_COLUMNS].some((c) => seen.has(c));
  const kind: ImportKind | null = hasQuestion && hasAnswer ? "full" : hasQuestion ? "questions" : hasAnswer ? "answers" : null;
  if (kind === null) {
    if (names.every((n) => n === "")) headerError(null, "the file has no header row");
    else
      headerError(
        null,
        `cannot tell what this file holds: the header needs item_id and either the question columns (${QUESTION_COLUMNS.join(", ")}) or the answer columns (${ANSWER_COLUMNS.join(", ")}), or both`,
      );
    return { kind, columns, errors };
  }
  for (const required of REQUIRED_COLUMNS[kind]) {
    if (!seen.has(required)) headerError(required, `missing required column ${required} (a file of ${KIND_LABEL[kind]} needs ${REQUIRED_COLUMNS[kind].join(", ")})`);
  }
  return { kind, columns, errors };
}
