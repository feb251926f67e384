import { auditInsertSql } from "@/lib/audit/record";
import { sqlTransaction } from "@/lib/db/sql";
import { Prisma } from "@/lib/generated/prisma/client";
import { ApiError } from "@/lib/errors/api-error";
import type { RedactionInput, RedactionResultBody } from "./contract";
import { termPattern, wordRegExp } from "@/lib/blinding/terms";
import { excerptOf } from "./model-mentions";
import { refreshReferenceMetrics } from "@/lib/reference-metrics/refresh";

/**
 * Find-and-replace over a study's answers, to take out what names a model
 * (lib/import/model-mentions.ts finds it) before graders read them. Whole
 * words in any case, as the scan matches; audited with what was replaced. An
 * answer already graded is never changed: its graders scored the text as it was.
 */

// PostgreSQL's replacement text treats backslash as an escape (\1, \&): a literal one is doubled.
const literalReplacement = (s: string) => s.replace(/\\/g, "\\\\");

export async function redactAnswers(studyId: string, input: RedactionInput, actor: { id: string; requestId?: string | null }): Promise<RedactionResultBody> {
  const pattern = termPattern(input.find);
  return sqlTransaction(async (tx) => {
    // The study's row, as imports take it: answers do not change under a running import.
    const [study] = await tx.rows<{ status: string }>(Prisma.sql`SELECT status::text AS status FROM "Study" WHERE id = ${studyId}::uuid FOR UPDATE`);
    if (!study) throw new ApiError(404, "study not found");
    if (study.status === "CLOSED") throw new ApiError(409, "the study is closed: its answers can no longer change");
    const hits = await tx.rows<{ id: string; itemId: string; model: string; repetition: number; text: string; graded: boolean }>(Prisma.sql`
      SELECT r.id, q."externalId" AS "itemId", m.name AS model, r.repetition, r.text,
             EXISTS (SELECT 1 FROM "Grade" g JOIN "Assignment" a ON a.id = g."assignmentId" WHERE a."responseSetId" = rs.id) AS graded
      FROM "Response" r
      JOIN "ResponseSet" rs ON rs.id = r."responseSetId"
      JOIN "QaItem" q ON q.id = rs."itemId"
      JOIN "LlmModel" m ON m.id = rs."modelId"
      WHERE rs."studyId" = ${studyId}::uuid AND r.text ~* ${pattern}
        ${input.model ? Prisma.sql`AND m.name = ${input.model}` : Prisma.empty}
      ORDER BY q."externalId", m.name, r.repetition`);
    const graded = hits.filter((h) => h.graded);
    if (graded.length) {
      throw new ApiError(409, `${graded.length} of the ${hits.length} answers naming "${input.find}" are already graded: their graders scored the text as it was, so nothing was changed`, {
        graded: graded.slice(0, 20).map((h) => ({ itemId: h.itemId, model: h.model, repetition: h.repetition })),
      });
    }
    const examples = hits.slice(0, 3).map((h) => {
      const after = h.text.replace(wordRegExp(input.find, "giu"), () => input.replace);
      return { itemId: h.itemId, model: h.model, repetition: h.repetition, before: excerptOf(h.text, [input.find])?.excerpt ?? "", after: excerptOf(after, [input.replace])?.excerpt ?? after.slice(0, 140) };
    });
    if (!input.dryRun && hits.length) {
      await tx.rows(Prisma.sql`
        WITH audited AS (${auditInsertSql({
          actorId: actor.id,
          action: "study.redact",
          entityType: "Study",
          entityId: studyId,
          studyId,
          after: { find: input.find, replace: input.replace, model: input.model ?? null, answers: hits.length },
          requestId: actor.requestId,
        })} RETURNING 1)
        UPDATE "Response" SET text = regexp_replace(text, ${pattern}, ${literalReplacement(input.replace)}, 'gi')
        WHERE id = ANY(${hits.map((h) => h.id)}::uuid[])
        RETURNING 1`);
      // Its statements as Prisma.Sql: each placeholder appears once, in order (refresh.ts).
      const query = async (text: string, values: unknown[]) => ({ rows: await tx.rows<unknown>(Prisma.sql(text.split(/\$\d+/), ...values)) });
      await refreshReferenceMetrics(query, { studyId, responseIds: hits.map((h) => h.id) });
    }
    return { dryRun: input.dryRun, answers: hits.length, examples };
  });
}
