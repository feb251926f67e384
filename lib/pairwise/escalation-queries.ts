import { recordAudit } from "@/lib/audit/record";
import { getDb, type Tx } from "@/lib/db/client";
import { prismaSql } from "@/lib/db/sql";
import { isUuid } from "@/lib/db/uuid";
import { ApiError } from "@/lib/errors/api-error";
import { Prisma } from "@/lib/generated/prisma/client";
import type { EscalationStatus } from "@/lib/generated/prisma/enums";
import { findDimension, storedRubrics } from "@/lib/rubrics/study-rubrics";
import { graderPseudonym } from "@/lib/users/pseudonym";
import { createComparisonAdjudicatorAssignment } from "./escalation";
import { lockComparisonsSql } from "./lock";
import type { AxisDisagreement } from "./votes";

/**
 * The lead's queue of comparison escalations, as lib/escalation/queries.ts is for response sets:
 * which axes disagreed, each grader's choice under a pseudonym (and as the model it names: the lead
 * sees models), the adjudicator; and the lead's hand assignment of an adjudicator.
 */
export interface ComparisonEscalationRow {
  id: string;
  comparisonId: string;
  externalId: string;
  specialty: string;
  left: string;
  right: string;
  status: EscalationStatus;
  comparisonStatus: string;
  axes: { rubric: string; axis: string; name: string; choices: { grader: string; choice: "left" | "right" | "tie"; model: string | null }[] }[];
  adjudicator: { id: string; name: string; status: string } | null;
  createdAt: string;
  ageHours: number;
}

export async function listComparisonEscalations(studyId: string, filter: { status?: EscalationStatus; specialty?: string } = {}): Promise<ComparisonEscalationRow[]> {
  const db = getDb();
  const rows = await db.comparisonEscalation.findMany({
    where: { comparison: { studyId, ...(filter.specialty ? { item: { specialty: { name: filter.specialty } } } : {}) }, ...(filter.status ? { status: filter.status } : {}) },
    orderBy: { createdAt: "asc" },
    select: {
      id: true,
      status: true,
      axes: true,
      createdAt: true,
      comparison: {
        select: {
          id: true,
          status: true,
          item: { select: { externalId: true, specialty: { select: { name: true } } } },
          leftSet: { select: { model: { select: { name: true } } } },
          rightSet: { select: { model: { select: { name: true } } } },
        },
      },
      adjudicatorAssignment: { select: { status: true, grader: { select: { id: true, name: true } } } },
    },
  });
  const study = await db.study.findUnique({ where: { id: studyId }, select: { rubrics: true } });
  const docs = storedRubrics(study?.rubrics);
  const now = Date.now();
  const assignments = await db.comparisonAssignment.findMany({ where: { comparisonId: { in: rows.map((r) => r.comparison.id) } }, select: { id: true, graderId: true } });
  const graderOf = new Map(assignments.map((a) => [a.id, a.graderId]));
  return rows.map((r) => {
    const left = r.comparison.leftSet.model.name;
    const right = r.comparison.rightSet.model.name;
    return {
      id: r.id,
      comparisonId: r.comparison.id,
      externalId: r.comparison.item.externalId,
      specialty: r.comparison.item.specialty.name,
      left,
      right,
      status: r.status,
      comparisonStatus: r.comparison.status,
      axes: (r.axes as unknown as AxisDisagreement[]).map((d) => ({
        rubric: d.rubric,
        axis: d.axis,
        name: findDimension(docs, d.rubric, d.axis)?.name ?? d.axis,
        choices: Object.entries(d.choices).map(([assignmentId, c]) => ({
          grader: graderPseudonym(studyId, graderOf.get(assignmentId) ?? assignmentId),
          choice: c === "LEFT" ? ("left" as const) : c === "RIGHT" ? ("right" as const) : ("tie" as const),
          model: c === "LEFT" ? left : c === "RIGHT" ? right : null,
        })),
      })),
      adjudicator: r.adjudicatorAssignment ? { id: r.adjudicatorAssignment.grader.id, name: r.adjudicatorAssignment.grader.name, status: r.adjudicatorAssignment.status } : null,
      createdAt: r.createdAt.toISOString(),
      ageHours: Math.round(((now - r.createdAt.getTime()) / 3_600_000) * 10) / 10,
    };
  });
}

/** The lead assigns an adjudicator by hand: for an escalation waiting for a grader, or to hand an unsubmitted adjudication to someone else. */
export async function assignComparisonEscalationByHand(escalationId: string, graderId: string, actorId: string, requestId?: string) {
  return getDb().$transaction(async (tx: Tx) => {
    // The comparison's lock first, then the escalation as it stands under it: an adjudication
    // submitted while this waited is seen, and is never cancelled.
    const locked = await tx.$queryRaw<{ id: string }[]>(lockComparisonsSql(Prisma.sql`SELECT "comparisonId" FROM "ComparisonEscalation" WHERE id = ${escalationId}::uuid`));
    if (locked.length === 0) throw new ApiError(404, "escalation not found");
    const esc = await tx.comparisonEscalation.findUnique({
      where: { id: escalationId },
      include: { adjudicatorAssignment: true, comparison: { select: { id: true, studyId: true, assignments: { select: { graderId: true, status: true } } } } },
    });
    if (!esc) throw new ApiError(404, "escalation not found");
    if (esc.status === "RESOLVED" || esc.status === "CANCELLED") throw new ApiError(409, `this escalation is ${esc.status.toLowerCase()}: there is nothing to assign`);
    if (esc.adjudicatorAssignment?.status === "SUBMITTED") throw new ApiError(409, "the adjudicator has already submitted");
    const studyId = esc.comparison.studyId;
    const member = await tx.studyMember.findUnique({ where: { studyId_userId: { studyId, userId: graderId } }, include: { user: true } });
    if (!member || member.role !== "GRADER" || !member.active || !member.user.active) throw new ApiError(422, "that person is not an active grader of this study");
    if (esc.comparison.assignments.some((a) => a.graderId === graderId && a.status !== "CANCELLED")) {
      throw new ApiError(409, "that grader already grades this comparison: the adjudicator must be a third grader");
    }
    if (esc.adjudicatorAssignment) await tx.comparisonAssignment.update({ where: { id: esc.adjudicatorAssignment.id }, data: { status: "CANCELLED" } });
    const assignmentId = await createComparisonAdjudicatorAssignment(prismaSql(tx), { id: esc.comparisonId, studyId }, graderId);
    await tx.comparisonEscalation.update({ where: { id: esc.id }, data: { status: "ASSIGNED", adjudicatorAssignmentId: assignmentId } });
    await recordAudit(tx, {
      actorId,
      action: "comparison_escalation.assign",
      entityType: "ComparisonEscalation",
      entityId: esc.id,
      studyId,
      before: { status: esc.status, adjudicatorId: esc.adjudicatorAssignment?.graderId ?? null },
      after: { status: "ASSIGNED", adjudicatorId: graderId },
      requestId,
    });
    return { escalationId: esc.id, assignmentId, status: "ASSIGNED" as const };
  });
}

export async function studyOfComparisonEscalation(escalationId: string): Promise<string | null> {
  if (!isUuid(escalationId)) return null;
  const e = await getDb().comparisonEscalation.findUnique({ where: { id: escalationId }, select: { comparison: { select: { studyId: true } } } });
  return e?.comparison.studyId ?? null;
}
