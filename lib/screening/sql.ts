import { Prisma } from "@/lib/generated/prisma/client";

/**
 * What other features read of the screen, as SQL: the study's latest finished
 * run is its screen (an earlier run's hits no longer count once the lead runs
 * again; a run whose judge is still working counts only once it is done).
 * An answer is screened out by a rule's hit or by the judge's flag.
 */

/** The id of the study's latest finished screen run (NULL when never screened), `action` limiting it to runs of that action. */
export function latestScreenRunSql(studyId: Prisma.Sql, action?: "WARN" | "EXCLUDE"): Prisma.Sql {
  return Prisma.sql`(SELECT sr.id FROM "ScreenRun" sr WHERE sr."studyId" = ${studyId}
    ${action ? Prisma.sql`AND sr.action = ${action}::"ScreenAction"` : Prisma.empty}
    AND sr.id = (SELECT s2.id FROM "ScreenRun" s2 WHERE s2."studyId" = ${studyId} AND s2.status = 'DONE' ORDER BY s2."createdAt" DESC, s2.id DESC LIMIT 1))`;
}

/** The answers a run screened out: its rules' hits and its judge's flags. */
export function screenedAnswersOfRunSql(runId: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(SELECT h."responseId" FROM "ScreenHit" h WHERE h."runId" = ${runId}
    UNION SELECT v."responseId" FROM "ScreenVerdict" v WHERE v."runId" = ${runId} AND v.flagged)`;
}

/**
 * True when the run screened out the answer. Two primary-key probes rather than `IN (a UNION)`,
 * which the planner cannot key on the outer answer and rebuilds per row.
 */
function screenedByRunSql(responseId: Prisma.Sql, runId: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(EXISTS (SELECT 1 FROM "ScreenHit" h WHERE h."runId" = ${runId} AND h."responseId" = ${responseId})
    OR EXISTS (SELECT 1 FROM "ScreenVerdict" v WHERE v."runId" = ${runId} AND v."responseId" = ${responseId} AND v.flagged))`;
}

/** True when the study's latest screen excludes the set: one of its answers was screened out by a run in exclude mode. */
export function setExcludedByScreenSql(setId: Prisma.Sql, studyId: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`EXISTS (SELECT 1 FROM "Response" hr WHERE hr."responseSetId" = ${setId}
    AND ${screenedByRunSql(Prisma.sql`hr.id`, latestScreenRunSql(studyId, "EXCLUDE"))})`;
}

/** True when the study's latest screen screened out the answer (either mode). */
export function answerScreenedSql(responseId: Prisma.Sql, studyId: Prisma.Sql): Prisma.Sql {
  return screenedByRunSql(responseId, latestScreenRunSql(studyId));
}
