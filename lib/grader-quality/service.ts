import { recordAudit } from "@/lib/audit/record";
import { getDb } from "@/lib/db/client";
import { sqlTransaction } from "@/lib/db/sql";
import { ApiError } from "@/lib/errors/api-error";
import { Prisma } from "@/lib/generated/prisma/client";
import { graderQualityReport } from "./compute";
import type { GraderExclusion, GraderQualityReport } from "./contract";
import { loadQuality } from "./load";

export interface Actor {
  id: string;
  requestId?: string | null;
}

/** The study's grader-quality report (null when the study does not exist): one snapshot read, then pure code (compute.ts). */
export async function graderQuality(studyId: string): Promise<GraderQualityReport | null> {
  const loaded = await sqlTransaction(
    async (tx) => {
      // As the dashboard's read: JIT compilation costs more than this scan runs.
      await tx.rows(Prisma.sql`SET LOCAL jit = off`);
      return loadQuality(tx, studyId);
    },
    { snapshot: true },
  );
  return loaded && graderQualityReport(studyId, loaded.layout, loaded.graders, loaded.work, loaded.tasks);
}

const NO_GRADER = "no grader with that id in this study";

/**
 * Excludes a grader from the analysis (or brings them back): one conditional update of their
 * membership and its audit event in one transaction, so two concurrent calls cannot both record
 * a change. Grades are never touched.
 */
export async function setGraderExclusion(actor: Actor, studyId: string, userId: string, exclude: { reason: string } | null): Promise<GraderExclusion> {
  return getDb().$transaction(async (tx) => {
    const member = await tx.studyMember.findUnique({ where: { studyId_userId: { studyId, userId } }, select: { role: true, excludedAt: true, excludedById: true, excludedReason: true } });
    if (!member || member.role !== "GRADER") throw new ApiError(404, NO_GRADER);
    const before = member.excludedAt ? { excludedAt: member.excludedAt.toISOString(), excludedBy: member.excludedById, reason: member.excludedReason } : { excludedAt: null };
    const { count } = exclude
      ? await tx.studyMember.updateMany({ where: { studyId, userId, role: "GRADER", excludedAt: null }, data: { excludedAt: new Date(), excludedById: actor.id, excludedReason: exclude.reason } })
      : await tx.studyMember.updateMany({ where: { studyId, userId, role: "GRADER", excludedAt: { not: null } }, data: { excludedAt: null, excludedById: null, excludedReason: null } });
    const row = await tx.studyMember.findUniqueOrThrow({ where: { studyId_userId: { studyId, userId } }, select: { excludedAt: true, excludedById: true, excludedReason: true } });
    const excluded = row.excludedAt ? { at: row.excludedAt.toISOString(), by: row.excludedById, byName: null, reason: row.excludedReason } : null;
    if (count > 0)
      await recordAudit(tx, {
        actorId: actor.id,
        action: exclude ? "study.grader.exclude" : "study.grader.include",
        entityType: "StudyMember",
        entityId: userId,
        studyId,
        before,
        after: excluded ? { excludedAt: excluded.at, excludedBy: excluded.by, reason: excluded.reason } : { excludedAt: null },
        requestId: actor.requestId ?? null,
      });
    return { userId, excluded, changed: count > 0 };
  });
}
