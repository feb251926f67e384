import { Prisma } from "@/lib/generated/prisma/client";

/**
 * What other features read of the screen, as SQL: the study's latest run is
 * its screen (an earlier run's hits no longer count once the lead runs again).
 */

/** The id of the study's latest screen run (NULL when never screened), `action` limiting it to runs of that action. */
export function latestScreenRunSql(studyId: Prisma.Sql, action?: "WARN" | "EXCLUDE"): Prisma.Sql {
  return Prisma.sql`(SELECT sr.id FROM "ScreenRun" sr WHERE sr."studyId" = ${studyId}
    ${action ? Prisma.sql`AND sr.action = ${action}::"ScreenAction"` : Prisma.empty}
    AND sr.id = (SELECT s2.id FROM "ScreenRun" s2 WHERE s2."studyId" = ${studyId} ORDER BY s2."createdAt" DESC, s2.id DESC LIMIT 1))`;
}

/** True when the study's latest screen excludes the set: one of its answers was screened out by a run in exclude mode. */
export function setExcludedByScreenSql(setId: Prisma.Sql, studyId: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`EXISTS (SELECT 1 FROM "ScreenHit" h JOIN "Response" hr ON hr.id = h."responseId"
    WHERE hr."responseSetId" = ${setId} AND h."runId" = ${latestScreenRunSql(studyId, "EXCLUDE")})`;
}

/** True when the study's latest screen screened out the answer (either mode). */
export function answerScreenedSql(responseId: Prisma.Sql, studyId: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`EXISTS (SELECT 1 FROM "ScreenHit" h WHERE h."responseId" = ${responseId} AND h."runId" = ${latestScreenRunSql(studyId)})`;
}
