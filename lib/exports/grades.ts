import { peopleValuesSql, type People } from "./people";
import { copyCsv, COPY_JSON_LINES, csvExpr, jsonExpr, jsonSelectList, quoteIdent, uuidLiteral, type SqlColumn } from "./sql";
import type { ExportSession } from "./session";
import { jsonLinesToArray } from "./json";

/**
 * The `grades` dataset: one row per stored score (drafts included: filter on
 * assignment_status = submitted for final work), unblinded, written by
 * PostgreSQL itself with COPY ... TO STDOUT and streamed as it is read.
 */
type GradeColumn = SqlColumn & {
  /** "assignment": the same for all of an assignment's scores, computed (and formatted) once per assignment. */
  level: "assignment" | "grade";
};

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
  { name: "score", kind: "number", level: "grade", sql: `g.score` },
  { name: "comment", kind: "text", level: "grade", sql: `g.comment` },
  { name: "harm_flag", kind: "bool", level: "assignment", sql: `a."harmFlag"` },
  { name: "harm_comment", kind: "text", level: "assignment", sql: `a."harmComment"` },
  { name: "created_at", kind: "time", level: "grade", sql: `g."createdAt"` },
  { name: "updated_at", kind: "time", level: "grade", sql: `g."updatedAt"` },
];

export const GRADE_HEADER = GRADE_COLUMNS.map((c) => c.name);

/**
 * The SELECT behind the export (also what the benchmark hands to psql's \copy).
 * The study's assignments (thousands, not millions) come first, numbered in
 * the export's order (item, model, role, grader; byte order, whatever the
 * server's locale) with their columns already formatted; each one's scores
 * then follow through the Grade key index, so PostgreSQL only sorts the
 * handful of scores of one assignment at a time (an incremental sort), never
 * the whole file, and memory stays flat however large the study.
 */
export function gradesSelect(studyId: string, people: People, identities: boolean, format: "csv" | "json"): string {
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
   CROSS JOIN LATERAL (SELECT * FROM "Grade" g WHERE g."assignmentId" = a.id ORDER BY g.rubric, g.dimension, g.repetition) g
   ORDER BY a.ord, g.rubric, g.dimension, g.repetition`;
}

export async function* gradesChunks(session: ExportSession, studyId: string, people: People, identities: boolean, format: "csv" | "json"): AsyncGenerator<Uint8Array | string> {
  const select = gradesSelect(studyId, people, identities, format);
  if (format === "csv") yield* session.copy(select, copyCsv(GRADE_COLUMNS));
  else yield* jsonLinesToArray(session.copy(select, COPY_JSON_LINES));
}
