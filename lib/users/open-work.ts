import type { Prisma } from "@/lib/generated/prisma/client";
import type { OpenWork } from "./open-work-text";

export { describeOpenWork, type OpenWork } from "./open-work-text";

type Db = Pick<Prisma.TransactionClient, "$queryRaw">;

/** Each user's pending or started assignments, counted per study (adjudications apart); a pairwise study's comparisons are its assignments. */
export async function openWorkOf(db: Db, userIds: string[]): Promise<Map<string, OpenWork[]>> {
  const out = new Map<string, OpenWork[]>();
  if (userIds.length === 0) return out;
  const rows = await db.$queryRaw<(OpenWork & { graderId: string })[]>`
    SELECT a."graderId", a."studyId", s.name AS "studyName", count(*)::int AS "openAssignments",
           count(*) FILTER (WHERE a.kind = 'ADJUDICATOR')::int AS "openAdjudications"
    FROM (SELECT "graderId", "studyId", kind, status FROM "Assignment"
          UNION ALL SELECT "graderId", "studyId", kind, status FROM "ComparisonAssignment") a
    JOIN "Study" s ON s.id = a."studyId"
    WHERE a."graderId" = ANY(${userIds}::uuid[]) AND a.status IN ('PENDING', 'IN_PROGRESS')
    GROUP BY a."graderId", a."studyId", s.name
    ORDER BY s.name`;

  for (const { graderId, ...w } of rows) out.set(graderId, [...(out.get(graderId) ?? []), w]);
  return out;
}
