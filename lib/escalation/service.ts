import { recordAudit } from "@/lib/audit/record";
import type { Tx } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { EscalationStatus, SetStatus } from "@/lib/generated/prisma/enums";
import type { RubricKey } from "@/lib/rubrics/definitions";
import { seededShuffle } from "@/lib/assignment/plan";
import { findDisagreements, type GraderRubricValues } from "@/lib/scoring/escalation";
import { graderDimensionValues, type ScoreCell } from "@/lib/scoring/grader-values";
import { storedThresholds } from "@/lib/studies/settings";

/**
 * Third-grader escalation, run inside the transaction that submits or revises a
 * grade, after that transaction has locked the response set's row (so two
 * graders submitting the last two grades at once are evaluated one after the
 * other). The unique key on Escalation.responseSetId makes "one escalation per
 * set" a database guarantee as well.
 */
export interface EvaluationContext {
  actorId: string | null;
  requestId?: string | null;
}

export type StudyForEscalation = {
  id: string;
  rubrics: RubricKey[];
  repetitions: number;
  gradersPerSet: number;
  thresholds: Prisma.JsonValue;
  matchSpecialty: boolean;
  assignmentSeed: string | null;
};

export async function loadGraderValues(tx: Tx, assignmentIds: string[], rubrics: RubricKey[], n: number) {
  const grades = await tx.grade.findMany({
    where: { assignmentId: { in: assignmentIds } },
    select: { assignmentId: true, rubric: true, dimension: true, repetition: true, score: true },
  });
  const out: Record<string, GraderRubricValues> = {};
  for (const id of assignmentIds) {
    const cells = grades.filter((g) => g.assignmentId === id) as unknown as ScoreCell[];
    out[id] = Object.fromEntries(rubrics.map((r) => [r, graderDimensionValues(r, cells, n)]));
  }
  return out;
}

/** Picks the adjudicator: eligible, not on the set, least open work; ties by the study's seed. */
export async function pickAdjudicator(tx: Tx, study: StudyForEscalation, setId: string): Promise<string | null> {
  const set = await tx.responseSet.findUniqueOrThrow({
    where: { id: setId },
    // A grader whose adjudication here was cancelled may take it up again (their row is revived).
    select: { item: { select: { specialtyId: true } }, assignments: { where: { status: { not: "CANCELLED" } }, select: { graderId: true } } },
  });
  const onSet = new Set(set.assignments.map((a) => a.graderId));
  const members = await tx.studyMember.findMany({
    where: {
      studyId: study.id,
      role: "GRADER",
      active: true,
      user: { active: true, ...(study.matchSpecialty ? { specialties: { some: { specialtyId: set.item.specialtyId } } } : {}) },
    },
    select: { userId: true },
  });
  const eligible = members.map((m) => m.userId).filter((id) => !onSet.has(id));
  if (eligible.length === 0) return null;
  const open = await tx.assignment.groupBy({
    by: ["graderId"],
    where: { graderId: { in: eligible }, status: { in: ["PENDING", "IN_PROGRESS"] }, studyId: study.id },
    _count: { _all: true },
  });
  const openOf = new Map(open.map((o) => [o.graderId, o._count._all]));
  const rank = new Map(seededShuffle([...eligible].sort(), `${study.assignmentSeed ?? study.id}:adjudicator:${setId}`).map((id, i) => [id, i]));
  eligible.sort((a, b) => (openOf.get(a) ?? 0) - (openOf.get(b) ?? 0) || rank.get(a)! - rank.get(b)!);
  return eligible[0];
}

export async function createAdjudicatorAssignment(tx: Tx, set: { id: string; studyId: string }, graderId: string): Promise<string> {
  const setId = set.id;
  const last = await tx.assignment.aggregate({ where: { graderId }, _max: { position: true } });
  const position = (last._max.position ?? -1) + 1;
  const existing = await tx.assignment.findUnique({ where: { graderId_responseSetId: { graderId, responseSetId: setId } } });
  if (existing) {
    // A grader whose earlier adjudication of this set was cancelled gets it back, with what they had drafted.
    const revived = await tx.assignment.update({ where: { id: existing.id }, data: { status: "PENDING", kind: "ADJUDICATOR", position } });
    return revived.id;
  }
  const a = await tx.assignment.create({ data: { responseSetId: setId, studyId: set.studyId, graderId, kind: "ADJUDICATOR", position } });
  return a.id;
}

/**
 * Re-evaluates a set after a primary grade was submitted or revised, or an
 * adjudication submitted, and moves its status along:
 * awaiting_grades -> agreed | awaiting_adjudication -> adjudicated.
 */
interface SetStateRow {
  setStatus: SetStatus;
  assignments: { id: string; graderId: string; kind: "PRIMARY" | "ADJUDICATOR"; status: string }[] | null;
  escalation: { id: string; status: EscalationStatus; dimensions: Prisma.JsonValue; adjudicatorAssignmentId: string | null } | null;
}


export async function evaluateSet(tx: Tx, study: StudyForEscalation, setId: string, ctx: EvaluationContext): Promise<void> {
  // The set's status, its live assignments and its escalation, in one read: this runs inside every submission.
  const [state] = await tx.$queryRaw<SetStateRow[]>`
    SELECT rs.status::text AS "setStatus",
      (SELECT json_agg(json_build_object('id', a.id, 'graderId', a."graderId", 'kind', a.kind, 'status', a.status))
         FROM "Assignment" a WHERE a."responseSetId" = rs.id AND a.status <> 'CANCELLED') AS assignments,
      (SELECT json_build_object('id', e.id, 'status', e.status, 'dimensions', e.dimensions, 'adjudicatorAssignmentId', e."adjudicatorAssignmentId")
         FROM "Escalation" e WHERE e."responseSetId" = rs.id) AS escalation
    FROM "ResponseSet" rs WHERE rs.id = ${setId}::uuid`;
  const assignments = state.assignments ?? [];
  const escalation = state.escalation;
  const moveSetTo = async (status: SetStatus) => {
    if (status !== state.setStatus) await tx.responseSet.update({ where: { id: setId }, data: { status } });
  };
  const primaries = assignments.filter((a) => a.kind === "PRIMARY");
  const submitted = primaries.filter((a) => a.status === "SUBMITTED");
  // The adjudicator's assignment is on this set, so it is among those just read (a cancelled one is not, and is not submitted either).
  const adjudicated = assignments.some((a) => a.id === escalation?.adjudicatorAssignmentId && a.status === "SUBMITTED");

  if (adjudicated) {
    // Once the third grader has submitted, the set stays adjudicated (paper 001: "the average of all three").
    if (escalation!.status !== "RESOLVED") {
      await tx.escalation.update({ where: { id: escalation!.id }, data: { status: "RESOLVED", resolvedAt: new Date() } });
      await recordAudit(tx, { actorId: ctx.actorId, action: "escalation.resolve", entityType: "Escalation", entityId: escalation!.id, studyId: study.id, requestId: ctx.requestId });
    }
    await moveSetTo("ADJUDICATED");
    return;
  }
  if (submitted.length < study.gradersPerSet) {
    await moveSetTo("AWAITING_GRADES");
    return;
  }

  const values = await loadGraderValues(tx, submitted.map((a) => a.id), study.rubrics, study.repetitions);
  const byGrader = Object.fromEntries(submitted.map((a) => [a.graderId, values[a.id]]));
  const disagreements = findDisagreements(byGrader, study.rubrics, storedThresholds(study.thresholds));
  const dimensions = JSON.parse(JSON.stringify(disagreements)) as Prisma.InputJsonValue;

  if (disagreements.length === 0) {
    if (escalation && (escalation.status === "NEEDS_GRADER" || escalation.status === "ASSIGNED")) {
      // A revision removed the disagreement before the adjudicator submitted: cancel the adjudication.
      await tx.escalation.update({ where: { id: escalation.id }, data: { status: "CANCELLED", resolvedAt: new Date() } });
      if (escalation.adjudicatorAssignmentId) {
        await tx.assignment.update({ where: { id: escalation.adjudicatorAssignmentId }, data: { status: "CANCELLED" } });
      }
      await recordAudit(tx, {
        actorId: ctx.actorId,
        action: "escalation.cancel",
        studyId: study.id,
        entityType: "Escalation",
        entityId: escalation.id,
        before: { status: escalation.status, dimensions: escalation.dimensions },
        after: { status: "CANCELLED", reason: "a revision removed the disagreement" },
        requestId: ctx.requestId,
      });
    }
    await moveSetTo("AGREED");
    return;
  }

  await moveSetTo("AWAITING_ADJUDICATION");
  if (escalation && (escalation.status === "NEEDS_GRADER" || escalation.status === "ASSIGNED")) {
    // Still disagreeing after a revision: keep the open escalation, refresh what disagrees.
    await tx.escalation.update({ where: { id: escalation.id }, data: { dimensions } });
    return;
  }
  const graderId = await pickAdjudicator(tx, study, setId);
  const adjudicatorAssignmentId = graderId ? await createAdjudicatorAssignment(tx, { id: setId, studyId: study.id }, graderId) : null;
  const status = graderId ? "ASSIGNED" : "NEEDS_GRADER";
  const row = escalation
    ? await tx.escalation.update({ where: { id: escalation.id }, data: { status, dimensions, adjudicatorAssignmentId, resolvedAt: null } })
    : await tx.escalation.create({ data: { responseSetId: setId, status, dimensions, adjudicatorAssignmentId } });
  await recordAudit(tx, {
    actorId: ctx.actorId,
    action: escalation ? "escalation.reopen" : "escalation.create",
    entityType: "Escalation",
    entityId: row.id,
    studyId: study.id,
    after: { status, dimensions: disagreements.map((d) => ({ rubric: d.rubric, dimension: d.dimension, spread: d.spread })), adjudicatorId: graderId },
    requestId: ctx.requestId,
  });
}
