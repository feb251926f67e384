import { csvHeader, csvRow, type Cell } from "./csv";
import { jsonArray } from "./json";
import type { People } from "./people";
import type { ExportSession } from "./session";

/**
 * The `comparisons` dataset of a pairwise study (lib/pairwise): one row per preference, long,
 * drafts included (filter on assignment_status = submitted). Unblinded: the models on each side
 * and the repetition shown, and the choice twice: relative to the sides (left / right / tie) and
 * as the model preferred (its name, or "tie"). Graders by pseudonym unless identities are asked for.
 */
export const COMPARISONS_HEADER = [
  "comparison_id",
  "item_id",
  "question",
  "model_left",
  "model_right",
  "repetition_left",
  "repetition_right",
  "comparison_status",
  "grader",
  "grader_name",
  "grader_email",
  "role",
  "assignment_status",
  "rubric",
  "axis",
  "choice",
  "choice_model",
  "strength",
  "comment",
  "harm_left",
  "harm_left_comment",
  "harm_right",
  "harm_right_comment",
  "created_at",
  "updated_at",
  "submitted_at",
] as const;

type Row = Record<(typeof COMPARISONS_HEADER)[number], Cell>;
interface DbRow extends Omit<Row, "grader" | "grader_name" | "grader_email" | "created_at" | "updated_at" | "submitted_at"> {
  grader_id: string;
  created_at: Date;
  updated_at: Date;
  submitted_at: Date | null;
}

const SQL = `
SELECT c.id AS comparison_id, q."externalId" AS item_id, q.question, ml.name AS model_left, mr.name AS model_right,
       c."leftRepetition" AS repetition_left, c."rightRepetition" AS repetition_right, lower(c.status::text) AS comparison_status,
       a."graderId" AS grader_id, lower(a.kind::text) AS role, lower(a.status::text) AS assignment_status,
       p.rubric, p.axis, lower(p.choice::text) AS choice,
       CASE p.choice WHEN 'LEFT' THEN ml.name WHEN 'RIGHT' THEN mr.name ELSE 'tie' END AS choice_model,
       lower(p.strength::text) AS strength, p.comment,
       a."harmLeft" AS harm_left, a."harmLeftComment" AS harm_left_comment, a."harmRight" AS harm_right, a."harmRightComment" AS harm_right_comment,
       p."createdAt" AS created_at, p."updatedAt" AS updated_at, a."submittedAt" AS submitted_at
FROM "Comparison" c
JOIN "QaItem" q ON q.id = c."itemId"
JOIN "ResponseSet" l ON l.id = c."leftSetId" JOIN "LlmModel" ml ON ml.id = l."modelId"
JOIN "ResponseSet" r ON r.id = c."rightSetId" JOIN "LlmModel" mr ON mr.id = r."modelId"
JOIN "ComparisonAssignment" a ON a."comparisonId" = c.id AND a.status <> 'CANCELLED'
JOIN "Preference" p ON p."assignmentId" = a.id
WHERE c."studyId" = $1::uuid
ORDER BY q."externalId" COLLATE "C", c.id, a.kind, a.id, p.rubric, p.axis`;

async function* rows(session: ExportSession, studyId: string, people: People, identities: boolean): AsyncGenerator<Row[]> {
  for await (const batch of session.cursor<DbRow & Record<string, unknown>>(SQL, [studyId])) {
    yield batch.map(({ grader_id, created_at, updated_at, submitted_at, ...r }) => {
      const who = people.get(grader_id);
      return {
        ...r,
        grader: who?.pseudonym ?? null,
        grader_name: identities ? (who?.name ?? null) : null,
        grader_email: identities ? (who?.email ?? null) : null,
        created_at: created_at.toISOString(),
        updated_at: updated_at.toISOString(),
        submitted_at: submitted_at?.toISOString() ?? null,
      };
    });
  }
}

export async function* comparisonsChunks(session: ExportSession, studyId: string, people: People, identities: boolean, format: "csv" | "json"): AsyncGenerator<string> {
  const ordered = async function* () {
    for await (const batch of rows(session, studyId, people, identities)) yield batch.map((r) => Object.fromEntries(COMPARISONS_HEADER.map((k) => [k, r[k] ?? null])) as Row);
  };
  if (format === "json") return yield* jsonArray(ordered());
  yield csvHeader(COMPARISONS_HEADER);
  for await (const batch of ordered()) {
    if (batch.length) yield batch.map((r) => csvRow(COMPARISONS_HEADER.map((k) => r[k]))).join("");
  }
}
