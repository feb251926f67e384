import { peopleValuesSql, type People } from "./people";
import { COPY_CSV, COPY_JSON_LINES, csvSelectList, jsonSelectList, uuidLiteral, type SqlColumn } from "./sql";
import type { ExportSession } from "./session";
import { jsonLinesToArray } from "./json";

/**
 * The `grades` dataset: one row per stored score (drafts included: filter on
 * assignment_status = submitted for final work), unblinded, written by
 * PostgreSQL itself with COPY ... TO STDOUT and streamed as it is read.
 */
export const GRADE_COLUMNS: readonly SqlColumn[] = [
  { name: "study", kind: "enum", sql: `s.slug` },
  { name: "specialty", kind: "text", sql: `sp.name` },
  { name: "item_id", kind: "text", sql: `qi."externalId"` },
  { name: "model", kind: "text", sql: `m.name` },
  { name: "model_version", kind: "text", sql: `m.version` },
  { name: "repetition", kind: "number", sql: `NULLIF(g.repetition, 0)` },
  { name: "set_status", kind: "enum", sql: `lower(rs.status::text)` },
  { name: "grader", kind: "text", sql: `people.pseudonym` },
  { name: "grader_name", kind: "text", sql: `people.name` },
  { name: "grader_email", kind: "text", sql: `people.email` },
  { name: "role", kind: "enum", sql: `lower(a.kind::text)` },
  { name: "assignment_status", kind: "enum", sql: `lower(a.status::text)` },
  { name: "rubric", kind: "enum", sql: `g.rubric::text` },
  { name: "dimension", kind: "enum", sql: `g.dimension::text` },
  { name: "score", kind: "number", sql: `g.score` },
  { name: "comment", kind: "text", sql: `g.comment` },
  { name: "harm_flag", kind: "bool", sql: `a."harmFlag"` },
  { name: "harm_comment", kind: "text", sql: `a."harmComment"` },
  { name: "created_at", kind: "time", sql: `g."createdAt"` },
  { name: "updated_at", kind: "time", sql: `g."updatedAt"` },
];

export const GRADE_HEADER = GRADE_COLUMNS.map((c) => c.name);

/** The SELECT behind the export (also what the benchmark hands to psql's \copy). */
export function gradesSelect(studyId: string, people: People, identities: boolean, format: "csv" | "json"): string {
  return `SELECT ${format === "csv" ? csvSelectList(GRADE_COLUMNS) : jsonSelectList(GRADE_COLUMNS)}
  FROM "Grade" g
  JOIN "Assignment" a ON a.id = g."assignmentId"
  JOIN "ResponseSet" rs ON rs.id = a."responseSetId"
  JOIN "Study" s ON s.id = rs."studyId"
  JOIN "QaItem" qi ON qi.id = rs."itemId"
  JOIN "Specialty" sp ON sp.id = qi."specialtyId"
  JOIN "LlmModel" m ON m.id = rs."modelId"
  LEFT JOIN ${peopleValuesSql(people, identities)} ON people.id = a."graderId"
  WHERE rs."studyId" = ${uuidLiteral(studyId)}
  ORDER BY qi."externalId", m.name, a.kind, people.pseudonym, g.rubric, g.dimension, g.repetition`;
}

export async function* gradesChunks(session: ExportSession, studyId: string, people: People, identities: boolean, format: "csv" | "json"): AsyncGenerator<Uint8Array | string> {
  const select = gradesSelect(studyId, people, identities, format);
  if (format === "csv") yield* session.copy(select, COPY_CSV);
  else yield* jsonLinesToArray(session.copy(select, COPY_JSON_LINES));
}
