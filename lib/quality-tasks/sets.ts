import { sql } from "@/lib/db/sql";
import { Prisma } from "@/lib/generated/prisma/client";
import { storedExpected, type ExpectedCell } from "./expected";

/** One set for the lead's quality-set pages: its question and model (the lead is unblinded), and its mark if any. */
export interface QualitySetRow {
  id: string;
  externalId: string;
  question: string;
  model: string;
  assigned: boolean;
  purpose: "CALIBRATION" | "GOLD" | null;
  tolerance: number | null;
  cells: number;
  tasks: number;
}

const rowsSql = (studyId: string, where: Prisma.Sql, limit: number) => Prisma.sql`
  SELECT rs.id, i."externalId", i.question, m.name AS model,
         EXISTS (SELECT 1 FROM "Assignment" a WHERE a."responseSetId" = rs.id AND a.status <> 'CANCELLED') AS assigned,
         qs.purpose::text AS purpose, qs.tolerance, coalesce(jsonb_array_length(qs.expected), 0)::int AS cells,
         (SELECT count(*)::int FROM "QualityTask" t WHERE t."responseSetId" = rs.id) AS tasks
  FROM "ResponseSet" rs JOIN "QaItem" i ON i.id = rs."itemId" JOIN "LlmModel" m ON m.id = rs."modelId"
  LEFT JOIN "QualitySet" qs ON qs."responseSetId" = rs.id
  WHERE rs."studyId" = ${studyId}::uuid AND ${where}
  ORDER BY i."externalId", m.name LIMIT ${limit}`;

/** The study's marked sets, and up to `limit` sets nobody was given that could be (matching `q` in the question's id or text). */
export async function qualitySetLists(studyId: string, q: string, limit = 50) {
  const marked = await sql.rows<QualitySetRow>(rowsSql(studyId, Prisma.sql`qs.id IS NOT NULL`, 5000));
  const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const candidates = await sql.rows<QualitySetRow>(
    rowsSql(
      studyId,
      Prisma.sql`qs.id IS NULL AND NOT EXISTS (SELECT 1 FROM "Assignment" a WHERE a."responseSetId" = rs.id AND a.status <> 'CANCELLED')
        AND (${q} = '' OR i."externalId" ILIKE ${like} OR i.question ILIKE ${like})`,
      limit + 1,
    ),
  );
  return { marked, candidates: candidates.slice(0, limit), more: candidates.length > limit };
}

/** One set with its answers and mark, for the marking page; null when not the study's. */
export async function qualitySetDetail(studyId: string, setId: string) {
  const [row] = await sql.rows<QualitySetRow & { answers: { repetition: number; text: string }[] | null; expected: unknown; rationale: string | null }>(Prisma.sql`
    SELECT x.*, (SELECT json_agg(json_build_object('repetition', r.repetition, 'text', r.text) ORDER BY r.repetition) FROM "Response" r WHERE r."responseSetId" = x.id) AS answers,
           (SELECT qs.expected FROM "QualitySet" qs WHERE qs."responseSetId" = x.id) AS expected,
           (SELECT qs.rationale FROM "QualitySet" qs WHERE qs."responseSetId" = x.id) AS rationale
    FROM (${rowsSql(studyId, Prisma.sql`rs.id = ${setId}::uuid`, 1)}) x`);
  if (!row) return null;
  return { ...row, answers: row.answers ?? [], expected: storedExpected(row.expected) as ExpectedCell[], rationale: row.rationale ?? "" };
}

/** How many sets of the study are marked for each purpose. */
export async function markedSetCounts(studyId: string): Promise<{ calibration: number; gold: number }> {
  const [c] = await sql.rows<{ calibration: number; gold: number }>(Prisma.sql`
    SELECT count(*) FILTER (WHERE purpose = 'CALIBRATION')::int AS calibration, count(*) FILTER (WHERE purpose = 'GOLD')::int AS gold
    FROM "QualitySet" WHERE "studyId" = ${studyId}::uuid`);
  return c;
}
