/**
 * A grader the lead excluded from the analysis (StudyMember.excludedAt): their grades stay in the
 * database and in the grades' own exports, but no figure is computed from them. This predicate
 * is the one definition of "analysed work", read by both readers of final scores: the
 * dashboard's (lib/analytics/load.ts, which drops the graders' work in assemble.ts) and the sets'
 * (./sets.ts: results table, sets API, results exports).
 */

import { Prisma } from "@/lib/generated/prisma/client";

/** SQL (plain text) true when the assignment `alias` is the work of an excluded grader of its study. */
export const excludedWorkSql = (alias: string) =>
  `EXISTS (SELECT 1 FROM "StudyMember" xm WHERE xm."studyId" = ${alias}."studyId" AND xm."userId" = ${alias}."graderId" AND xm."excludedAt" IS NOT NULL)`;

/** SQL: the ids of the study's graders excluded from the analysis. */
export const excludedGradersSql = (studyId: string) =>
  Prisma.sql`SELECT "userId"::text AS id FROM "StudyMember" WHERE "studyId" = ${studyId}::uuid AND "excludedAt" IS NOT NULL`;
