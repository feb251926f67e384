import { recordAudit } from "@/lib/audit/record";
import { getDb, type Tx } from "@/lib/db/client";
import { isUuid } from "@/lib/db/uuid";
import type { EscalationStatus } from "@/lib/generated/prisma/enums";
import { ApiError } from "@/lib/errors/api-error";
import { disagreementInWords, type Disagreement } from "@/lib/scoring/escalation";
import { graderPseudonym } from "@/lib/users/pseudonym";
import { prismaSql } from "@/lib/db/sql";
import { lockSetsSql } from "@/lib/db/set-lock";
import { Prisma } from "@/lib/generated/prisma/client";
import type { RubricDocument } from "@/lib/rubrics/document";
import { findDimension, storedRubrics } from "@/lib/rubrics/study-rubrics";
import { createAdjudicatorAssignment } from "./service";

export interface EscalationRow {
  id: string;
  responseSetId: string;
  externalId: string;
  specialty: string;
  model: string;
  status: EscalationStatus;
  setStatus: string;
  dimensions: {
    rubric: string;
    dimension: string;
    /** The dimension's name in the study's rubric document. */
    name: string;
    spread: number | null;
    threshold: number | null;
    /** Why it escalated, in words ("N/A against a value", "a spread of 2, at least 2", "different values"). */
    reason: string;
    /** Each grader's value, with the level's label where the scale has one. */
    values: { grader: string; value: number | string; label: string | null }[];
  }[];
  adjudicator: { id: string; name: string; status: string } | null;
  createdAt: string;
  ageHours: number;
}

/** The lead's escalation queue: what disagreed, by how much, each grader's value under a pseudonym. */
export async function listEscalations(studyId: string, filter: { status?: EscalationStatus; specialty?: string } = {}): Promise<EscalationRow[]> {
  const rows = await getDb().escalation.findMany({
    where: {
      responseSet: { studyId, ...(filter.specialty ? { item: { specialty: { name: filter.specialty } } } : {}) },
      ...(filter.status ? { status: filter.status } : {}),
    },
    orderBy: { createdAt: "asc" },
    select: {
      id: true,
      status: true,
      dimensions: true,
      createdAt: true,
      responseSet: { select: { id: true, status: true, item: { select: { externalId: true, specialty: { select: { name: true } } } }, model: { select: { name: true } } } },
      adjudicatorAssignment: { select: { status: true, grader: { select: { id: true, name: true } } } },
    },
  });
  const now = Date.now();
  const study = await getDb().study.findUnique({ where: { id: studyId }, select: { rubrics: true } });
  const docs = storedRubrics(study?.rubrics);
  return rows.map((r) => ({
    id: r.id,
    responseSetId: r.responseSet.id,
    externalId: r.responseSet.item.externalId,
    specialty: r.responseSet.item.specialty.name,
    model: r.responseSet.model.name,
    status: r.status,
    setStatus: r.responseSet.status,
    dimensions: (r.dimensions as unknown as Disagreement[]).map((d) => {
      const dim = findDimension(docs, d.rubric, d.dimension);
      return {
        rubric: d.rubric,
        dimension: d.dimension,
        name: dim?.name ?? d.dimension,
        spread: d.spread,
        threshold: d.threshold,
        reason: disagreementInWords(d),
        values: Object.entries(d.values).map(([graderId, value]) => ({ grader: graderPseudonym(studyId, graderId), value, label: levelLabel(dim, value) })),
      };
    }),
    adjudicator: r.adjudicatorAssignment
      ? { id: r.adjudicatorAssignment.grader.id, name: r.adjudicatorAssignment.grader.name, status: r.adjudicatorAssignment.status }
      : null,
    createdAt: r.createdAt.toISOString(),
    ageHours: Math.round(((now - r.createdAt.getTime()) / 3_600_000) * 10) / 10,
  }));
}

/** A level's label for a value (a mean between levels, N/A and criteria have none). */
function levelLabel(d: RubricDocument["dimensions"][number] | undefined, value: number | string): string | null {
  return d?.scale.levels?.find((l) => l.value === value)?.label ?? null;
}

/**
 * The lead assigns an adjudicator by hand: for an escalation waiting for a
 * grader, or to hand an unsubmitted adjudication to someone else.
 */
export async function assignEscalationByHand(escalationId: string, graderId: string, actorId: string, requestId?: string) {
  return getDb().$transaction(async (tx: Tx) => {
    // The set's lock first, then the escalation as it stands under it: an adjudication
    // submitted while this waited is seen, and is never cancelled.
    const locked = await tx.$queryRaw<{ id: string }[]>(lockSetsSql(Prisma.sql`SELECT "responseSetId" FROM "Escalation" WHERE id = ${escalationId}::uuid`));
    if (locked.length === 0) throw new ApiError(404, "escalation not found");
    const esc = await tx.escalation.findUnique({
      where: { id: escalationId },
      include: { adjudicatorAssignment: true, responseSet: { select: { id: true, studyId: true, assignments: { select: { graderId: true, status: true } } } } },
    });
    if (!esc) throw new ApiError(404, "escalation not found");
    if (esc.status === "RESOLVED" || esc.status === "CANCELLED") throw new ApiError(409, `this escalation is ${esc.status.toLowerCase()}: there is nothing to assign`);
    if (esc.adjudicatorAssignment?.status === "SUBMITTED") throw new ApiError(409, "the adjudicator has already submitted");
    const member = await tx.studyMember.findUnique({ where: { studyId_userId: { studyId: esc.responseSet.studyId, userId: graderId } }, include: { user: true } });
    if (!member || member.role !== "GRADER" || !member.active || !member.user.active) {
      throw new ApiError(422, "that person is not an active grader of this study");
    }
    const onSet = esc.responseSet.assignments.some((a) => a.graderId === graderId && a.status !== "CANCELLED");
    if (onSet) throw new ApiError(409, "that grader already grades this set: the adjudicator must be a third grader");
    if (esc.adjudicatorAssignment) await tx.assignment.update({ where: { id: esc.adjudicatorAssignment.id }, data: { status: "CANCELLED" } });
    const assignmentId = await createAdjudicatorAssignment(prismaSql(tx), { id: esc.responseSetId, studyId: esc.responseSet.studyId }, graderId);
    await tx.escalation.update({ where: { id: esc.id }, data: { status: "ASSIGNED", adjudicatorAssignmentId: assignmentId } });
    await recordAudit(tx, {
      actorId,
      action: "escalation.assign",
      entityType: "Escalation",
      entityId: esc.id,
      studyId: esc.responseSet.studyId,
      before: { status: esc.status, adjudicatorId: esc.adjudicatorAssignment?.graderId ?? null },
      after: { status: "ASSIGNED", adjudicatorId: graderId },
      requestId,
    });
    return { escalationId: esc.id, assignmentId, status: "ASSIGNED" as const, studyId: esc.responseSet.studyId };
  });
}

export async function studyOfEscalation(escalationId: string): Promise<string | null> {
  if (!isUuid(escalationId)) return null;
  const e = await getDb().escalation.findUnique({ where: { id: escalationId }, select: { responseSet: { select: { studyId: true } } } });
  return e?.responseSet.studyId ?? null;
}
