import { Prisma } from "@/lib/generated/prisma/client";

/**
 * The grader's own work, as SQL: non-cancelled assignments in studies that are open or closed and
 * of which the grader is still an active member, so someone else's assignment is simply not there.
 * A pairwise study's comparison assignments are read through it (lib/pairwise/grading.ts); a scoring
 * study's work also holds quality tasks, read through lib/grading/mine.ts under the same rule.
 */
export function graderWorkSql(graderId: string, table: "Assignment" | "ComparisonAssignment" = "Assignment", withSet = false): Prisma.Sql {
  return Prisma.sql`
  SELECT x.id, x."studyId",${withSet ? Prisma.sql` x."responseSetId",` : Prisma.empty} x.kind::text AS kind, x.status::text AS status, x.position, st.status::text AS study_status
  FROM ${Prisma.raw(`"${table}"`)} x
  JOIN "Study" st ON st.id = x."studyId"
  WHERE x."graderId" = ${graderId}::uuid AND x.status <> 'CANCELLED' AND st.status IN ('OPEN', 'CLOSED')
    AND EXISTS (SELECT 1 FROM "StudyMember" m WHERE m."studyId" = st.id AND m."userId" = ${graderId}::uuid AND m.active)`;
}

/**
 * The next unfinished assignment of an open study (SQL over `mine`, a graderWorkSql): a
 * third-grader one first (it holds up its final result), then the one after `position` in the
 * grader's order, in the same study before another, wrapping around.
 */
export const nextOpenSql = (assignmentId: string, position: number | Prisma.Sql, studyId: Prisma.Sql) => Prisma.sql`
  SELECT n.id FROM mine n
  WHERE n.study_status = 'OPEN' AND n.status IN ('PENDING', 'IN_PROGRESS') AND n.id <> ${assignmentId}::uuid
  ORDER BY (n.kind = 'ADJUDICATOR') DESC, n."studyId" <> ${studyId}, n.position < ${position}, n.position, n.id
  LIMIT 1`;
