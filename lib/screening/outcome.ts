import type { Tx } from "@/lib/db/client";
import { lockSetsSql } from "@/lib/db/set-lock";
import { Prisma } from "@/lib/generated/prisma/client";
import { screenedAnswersOfRunSql } from "./sql";

/**
 * What an exclude-mode run does to sets that already have graders, when it
 * becomes the study's screen (in the transaction that makes it so):
 * ungraded primary assignments of the excluded sets (pending, or drafts) are
 * withdrawn, so no grader starts or finishes an answer the lead screened out;
 * submitted ones stay, with their grades (a grade is never lost), and are
 * counted so the lead knows. An adjudication (opened only once every primary
 * grade is in) stays too: it settles grades already given.
 *
 * Lock order as everywhere (lib/db/set-lock.ts): the study's assignment lock
 * first (so an assignment run cannot hand out an excluded set it read before
 * this committed), then the sets' rows, then the state is read under them.
 */

export interface ScreenOutcome {
  withdrawn: { assignmentId: string; responseSetId: string; graderId: string; status: string }[];
  keptGraded: number;
}

export async function applyScreenOutcome(tx: Tx, run: { id: string; studyId: string; action: "WARN" | "EXCLUDE" }): Promise<ScreenOutcome> {
  if (run.action !== "EXCLUDE") return { withdrawn: [], keptGraded: 0 };
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${"assign:" + run.studyId}))`;
  const locked = await tx.$queryRaw<{ id: string }[]>(
    lockSetsSql(Prisma.sql`SELECT r."responseSetId" FROM "Response" r WHERE r.id IN ${screenedAnswersOfRunSql(Prisma.sql`${run.id}::uuid`)}`),
  );
  if (!locked.length) return { withdrawn: [], keptGraded: 0 };
  const sets = locked.map((s) => s.id);
  // Statements of their own, after the lock: a submission that committed while this waited is seen as submitted.
  const withdrawn = await tx.$queryRaw<ScreenOutcome["withdrawn"]>`
    WITH w AS (
      SELECT id, status::text AS status FROM "Assignment"
      WHERE "responseSetId" = ANY(${sets}::uuid[]) AND kind = 'PRIMARY' AND status IN ('PENDING', 'IN_PROGRESS'))
    UPDATE "Assignment" a SET status = 'CANCELLED', "updatedAt" = now() FROM w WHERE a.id = w.id
    RETURNING a.id AS "assignmentId", a."responseSetId", a."graderId", w.status`;
  const [kept] = await tx.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM "Assignment" WHERE "responseSetId" = ANY(${sets}::uuid[]) AND status = 'SUBMITTED'`;
  return { withdrawn, keptGraded: kept.n };
}
