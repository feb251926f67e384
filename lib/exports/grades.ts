import { escapeLiteral } from "pg";
import type { RubricDocument } from "@/lib/rubrics/document";
import { peopleValuesSql, type People } from "./people";
import { copyCsv, COPY_JSON_LINES, csvExpr, jsonExpr, jsonSelectList, quoteIdent, uuidLiteral, type SqlColumn } from "./sql";
import type { ExportSession } from "./session";
import { jsonLinesToArray } from "./json";

/**
 * The `grades` dataset: one row per stored score (drafts included: filter on
 * assignment_status = submitted for final work), unblinded, written by
 * PostgreSQL itself with COPY ... TO STDOUT and streamed as it is read.
 *
 * What a grader gave is in `value` (an ordinal number, a nominal level's
 * value, a criterion's 1 met / 0 not met) with `na` (true: the grader said
 * "not applicable", value empty) and the level's `label` from the study's
 * rubric documents; so N/A (na true), a nominal value (value is text) and
 * nothing given (value empty, na false) never look alike. `score` stays, the
 * numeric part only, for the readers written against it.
 */
type GradeColumn = SqlColumn & {
  /** "assignment": the same for all of an assignment's scores, computed (and formatted) once per assignment. */
  level: "assignment" | "grade";
};

/** The label a row shows for N/A: the words on the grader's form. */
export const NA_LABEL = "Not applicable";
/** Labels of a criterion's marks (criteria come with each question, not with the document). */
export const CRITERION_LABELS = { 1: "Met", 0: "Not met" } as const;

export const GRADE_COLUMNS: readonly GradeColumn[] = [
  { name: "study", kind: "enum", level: "assignment", sql: `s.slug` },
  { name: "specialty", kind: "text", level: "assignment", sql: `sp.name` },
  { name: "item_id", kind: "text", level: "assignment", sql: `qi."externalId"` },
  { name: "model", kind: "text", level: "assignment", sql: `m.name` },
  { name: "model_version", kind: "text", level: "assignment", sql: `m.version` },
  { name: "repetition", kind: "number", level: "grade", sql: `NULLIF(g.repetition, 0)` },
  { name: "set_status", kind: "enum", level: "assignment", sql: `lower(rs.status::text)` },
  { name: "grader", kind: "text", level: "assignment", sql: `people.pseudonym` },
  { name: "grader_name", kind: "text", level: "assignment", sql: `people.name` },
  { name: "grader_email", kind: "text", level: "assignment", sql: `people.email` },
  { name: "role", kind: "enum", level: "assignment", sql: `lower(a.kind::text)` },
  { name: "assignment_status", kind: "enum", level: "assignment", sql: `lower(a.status::text)` },
  { name: "rubric", kind: "enum", level: "grade", sql: `g.rubric::text` },
  { name: "dimension", kind: "enum", level: "grade", sql: `g.dimension::text` },
  // Criterion ids come from the imported questions and may start with "-": guarded like any text.
  { name: "criterion", kind: "text", level: "grade", sql: `NULLIF(g.criterion, '')` },
  { name: "score", kind: "number", level: "grade", sql: `g.score` },
  // A number or a nominal level's value (a key: starts with a letter, nothing to guard); JSON keeps the number a number.
  {
    name: "value",
    kind: "enum",
    level: "grade",
    sql: `CASE WHEN NOT g.na THEN coalesce(g.category, g.score::text) END`,
    jsonSql: `CASE WHEN NOT g.na THEN coalesce(to_json(g.score), to_json(g.category)) END`,
  },
  { name: "na", kind: "bool", level: "grade", sql: `g.na` },
  { name: "label", kind: "text", level: "grade", sql: `CASE WHEN g.na THEN ${escapeLiteral(NA_LABEL)} ELSE g.label END` },
  { name: "comment", kind: "text", level: "grade", sql: `g.comment` },
  { name: "harm_flag", kind: "bool", level: "assignment", sql: `a."harmFlag"` },
  { name: "harm_comment", kind: "text", level: "assignment", sql: `a."harmComment"` },
  // The grader's own statement that the set's answers contradict each other (sets with N >= 2), with their note.
  { name: "contradiction", kind: "bool", level: "assignment", sql: `a."contradictionFlag"` },
  { name: "contradiction_note", kind: "text", level: "assignment", sql: `a."contradictionNote"` },
  { name: "created_at", kind: "time", level: "grade", sql: `g."createdAt"` },
  { name: "updated_at", kind: "time", level: "grade", sql: `g."updatedAt"` },
];

export const GRADE_HEADER = GRADE_COLUMNS.map((c) => c.name);

/**
 * Every level label of the study's documents as one jsonb constant,
 * rubric -> dimension -> value (as text: a nominal level's value, a number's
 * digits) -> label. COPY takes no bind parameters, so it is a quoted literal
 * (as peopleValuesSql passes names); PostgreSQL folds the cast once, and each
 * row's lookup is a binary search in it, in the scores' order (a join to a
 * labels table would be a hash join, which PostgreSQL does not keep ordered).
 */
export function labelsJsonSql(rubrics: readonly RubricDocument[]): string {
  const labels: Record<string, Record<string, Record<string, string>>> = {};
  for (const r of rubrics) {
    const byDimension: Record<string, Record<string, string>> = (labels[r.key] = {});
    for (const d of r.dimensions) {
      byDimension[d.key] =
        d.scale.kind === "criteria" ? { ...CRITERION_LABELS } : Object.fromEntries((d.scale.levels ?? []).map((l) => [String(l.value), l.label]));
    }
  }
  return `${escapeLiteral(JSON.stringify(labels))}::jsonb`;
}

/**
 * The SELECT behind the export (also what the benchmark hands to psql's \copy).
 * The study's assignments (thousands, not millions) come first, numbered in
 * the export's order (item, model, role, grader; byte order, whatever the
 * server's locale) with their columns already formatted; each one's scores
 * then follow through the Grade key index, so PostgreSQL only sorts the
 * handful of scores of one assignment at a time (an incremental sort), never
 * the whole file, and memory stays flat however large the study. Level labels
 * come from labelsJsonSql().
 */
export function gradesSelect(studyId: string, people: People, identities: boolean, format: "csv" | "json", rubrics: readonly RubricDocument[]): string {
  const formatted = format === "csv" ? csvExpr : jsonExpr;
  const perAssignment = GRADE_COLUMNS.filter((c) => c.level === "assignment");
  const outer = (c: SqlColumn) => (GRADE_COLUMNS.find((x) => x.name === c.name)!.level === "assignment" ? `a.${quoteIdent(c.name)}` : formatted(c));
  const list =
    format === "csv" ? GRADE_COLUMNS.map((c) => `${outer(c)} AS ${quoteIdent(c.name)}`).join(",\n         ") : jsonSelectList(GRADE_COLUMNS, outer);
  return `WITH a AS MATERIALIZED (
    SELECT a.id, ${perAssignment.map((c) => `${formatted(c)} AS ${quoteIdent(c.name)}`).join(",\n           ")},
           row_number() OVER (ORDER BY qi."externalId" COLLATE "C", m.name COLLATE "C", a.kind, people.pseudonym COLLATE "C", a.id) AS ord
      FROM "Assignment" a
      JOIN "ResponseSet" rs ON rs.id = a."responseSetId"
      JOIN "Study" s ON s.id = rs."studyId"
      JOIN "QaItem" qi ON qi.id = rs."itemId"
      JOIN "Specialty" sp ON sp.id = qi."specialtyId"
      JOIN "LlmModel" m ON m.id = rs."modelId"
      LEFT JOIN ${peopleValuesSql(people, identities)} ON people.id = a."graderId"
     WHERE rs."studyId" = ${uuidLiteral(studyId)})
  SELECT ${list}
    FROM (SELECT * FROM a ORDER BY a.ord) a
   CROSS JOIN LATERAL (SELECT g.*, ${labelsJsonSql(rubrics)} -> g.rubric -> g.dimension ->> coalesce(g.category, g.score::text) AS label
                         FROM "Grade" g WHERE g."assignmentId" = a.id ORDER BY g.rubric, g.dimension, g.repetition, g.criterion) g
   ORDER BY a.ord, g.rubric, g.dimension, g.repetition, g.criterion`;
}

export async function* gradesChunks(
  session: ExportSession,
  studyId: string,
  people: People,
  identities: boolean,
  format: "csv" | "json",
  rubrics: readonly RubricDocument[],
): AsyncGenerator<Uint8Array | string> {
  const select = gradesSelect(studyId, people, identities, format, rubrics);
  // Each assignment's scores through the Grade key index in its order, rather than a bitmap scan that
  // PostgreSQL then sorts again: about 10% of a 10,000-set study's export (bench/README.md, "report").
  await session.query("SET LOCAL enable_bitmapscan = off");
  if (format === "csv") yield* session.copy(select, copyCsv(GRADE_COLUMNS));
  else yield* jsonLinesToArray(session.copy(select, COPY_JSON_LINES));
  await session.query("SET LOCAL enable_bitmapscan = on");
}
