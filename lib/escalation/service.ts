import { auditInsertSql } from "@/lib/audit/record";
import type { Sql } from "@/lib/db/sql";
import { Prisma } from "@/lib/generated/prisma/client";
import type { EscalationStatus, SetStatus } from "@/lib/generated/prisma/enums";
import type { RubricDocument } from "@/lib/rubrics/document";
import { seededShuffle } from "@/lib/random/seeded";
import { findDisagreements, type GraderRubricValues } from "@/lib/scoring/escalation";
import { graderRubricValues, type StoredCell } from "@/lib/scoring/study-values";
import { storedEscalationRules, storedThresholds } from "@/lib/studies/thresholds";

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
  rubrics: RubricDocument[];
  repetitions: number;
  gradersPerSet: number;
  thresholds: Prisma.JsonValue;
  /** Study.escalationRules (lib/rubrics/escalation-rule.ts). */
  escalationRules: Prisma.JsonValue;
  matchSpecialty: boolean;
  assignmentSeed: string | null;
};

/** Each submitted assignment's dimension values, from the cells read with the set's state. */
function graderValuesOf(submitted: SetAssignment[], rubrics: RubricDocument[], n: number): Record<string, GraderRubricValues> {
  return Object.fromEntries(submitted.map((a) => [a.id, graderRubricValues(rubrics, a.grades ?? [], n)]));
}

/** Picks the adjudicator: eligible, not on the set, the study's design kept when possible, least open work; ties by the study's seed. */
export async function pickAdjudicator(tx: Sql, study: StudyForEscalation, setId: string): Promise<string | null> {
  // Eligible: an active grader of the study (and an active user), not already on the set, with the
  // item's specialty when the study matches specialties. A grader whose adjudication here was
  // cancelled may take it up again (their row is revived).
  // Under "one model per question" a grader who has seen another model's answers to the question
  // comes last (taken only when nobody else is eligible: the set must not wait forever).
  const candidates = await tx.rows<{ id: string; open: number; sawSibling: boolean }>(Prisma.sql`
    SELECT m."userId" AS id,
      (SELECT count(*)::int FROM "Assignment" a
        WHERE a."graderId" = m."userId" AND a."studyId" = ${study.id}::uuid AND a.status IN ('PENDING', 'IN_PROGRESS')) AS open,
      ((SELECT "assignmentDesign" FROM "Study" WHERE id = ${study.id}::uuid) = 'ONE_MODEL_PER_QUESTION'
        AND EXISTS (SELECT 1 FROM "Assignment" y JOIN "ResponseSet" ys ON ys.id = y."responseSetId"
                    WHERE y."graderId" = m."userId" AND y."responseSetId" <> ${setId}::uuid
                      AND ys."itemId" = (SELECT "itemId" FROM "ResponseSet" WHERE id = ${setId}::uuid))) AS "sawSibling"
    FROM "StudyMember" m JOIN "User" u ON u.id = m."userId"
    WHERE m."studyId" = ${study.id}::uuid AND m.role = 'GRADER' AND m.active AND u.active
      AND NOT EXISTS (SELECT 1 FROM "Assignment" x WHERE x."responseSetId" = ${setId}::uuid AND x."graderId" = m."userId" AND x.status <> 'CANCELLED')
      ${
        study.matchSpecialty
          ? Prisma.sql`AND EXISTS (SELECT 1 FROM "StudyMemberSpecialty" ms JOIN "QaItem" q ON q."specialtyId" = ms."specialtyId"
                                   JOIN "ResponseSet" rs ON rs."itemId" = q.id
                        WHERE rs.id = ${setId}::uuid AND ms."studyId" = m."studyId" AND ms."userId" = m."userId")`
          : Prisma.empty
      }`);
  if (candidates.length === 0) return null;
  const openOf = new Map(candidates.map((c) => [c.id, c.open]));
  const sawOf = new Map(candidates.map((c) => [c.id, c.sawSibling ? 1 : 0]));
  const eligible = candidates.map((c) => c.id);
  const rank = new Map(seededShuffle([...eligible].sort(), `${study.assignmentSeed ?? study.id}:adjudicator:${setId}`).map((id, i) => [id, i]));
  eligible.sort((a, b) => sawOf.get(a)! - sawOf.get(b)! || openOf.get(a)! - openOf.get(b)! || rank.get(a)! - rank.get(b)!);
  return eligible[0];
}

/**
 * Gives the set to its adjudicator, at the end of their queue. A grader whose earlier
 * adjudication of this set was cancelled gets it back, with what they had drafted.
 */
export async function createAdjudicatorAssignment(tx: Sql, set: { id: string; studyId: string }, graderId: string): Promise<string> {
  const [row] = await tx.rows<{ id: string }>(Prisma.sql`
    INSERT INTO "Assignment" (id, "responseSetId", "studyId", "graderId", kind, position, status, "updatedAt")
    VALUES (gen_random_uuid(), ${set.id}::uuid, ${set.studyId}::uuid, ${graderId}::uuid, 'ADJUDICATOR',
            (SELECT coalesce(max(position), -1) + 1 FROM "Assignment" WHERE "graderId" = ${graderId}::uuid), 'PENDING', now())
    ON CONFLICT ("graderId", "responseSetId")
    DO UPDATE SET status = 'PENDING', kind = 'ADJUDICATOR', position = EXCLUDED.position, "updatedAt" = now()
    RETURNING id`);
  return row.id;
}

/** One live (not cancelled) assignment of the set, with its cells once it is submitted. */
export interface SetAssignment {
  id: string;
  graderId: string;
  kind: "PRIMARY" | "ADJUDICATOR";
  status: string;
  grades: StoredCell[] | null;
}

/** What the escalation decides on: the set's status, its live assignments (submitted ones with their cells) and its escalation. */
export interface SetState {
  setStatus: SetStatus;
  assignments: SetAssignment[] | null;
  escalation: { id: string; status: EscalationStatus; dimensions: Prisma.JsonValue; adjudicatorAssignmentId: string | null } | null;
}

/**
 * The set's state as columns of one row, for a statement to select beside its own
 * (the submission reads it with the assignment's saved state: one round trip).
 * Read it after locking the set's row, so that no other submission changes it meanwhile.
 */
export function setStateSql(setId: string): Prisma.Sql {
  return Prisma.sql`
    SELECT rs.status::text AS "setStatus",
      (SELECT json_agg(json_build_object('id', a.id, 'graderId', a."graderId", 'kind', a.kind, 'status', a.status,
                 'grades', CASE WHEN a.status = 'SUBMITTED' THEN
                   (SELECT json_agg(json_build_object('rubric', g.rubric, 'dimension', g.dimension, 'repetition', g.repetition,
                                             'criterion', g.criterion, 'score', g.score, 'category', g.category, 'na', g.na))
                      FROM "Grade" g WHERE g."assignmentId" = a.id) END))
         FROM "Assignment" a WHERE a."responseSetId" = rs.id AND a.status <> 'CANCELLED') AS assignments,
      (SELECT json_build_object('id', e.id, 'status', e.status, 'dimensions', e.dimensions, 'adjudicatorAssignmentId', e."adjudicatorAssignmentId")
         FROM "Escalation" e WHERE e."responseSetId" = rs.id) AS escalation
    FROM "ResponseSet" rs WHERE rs.id = ${setId}::uuid`;
}

/**
 * Re-evaluates a set after a primary grade was submitted or revised, or an
 * adjudication submitted, and moves its status along:
 * awaiting_grades -> agreed | awaiting_adjudication -> adjudicated.
 * `state` is the set as it stands after the change (read under the set's lock,
 * with the change applied by the caller).
 */
export async function evaluateSet(tx: Sql, study: StudyForEscalation, setId: string, state: SetState, ctx: EvaluationContext): Promise<"created" | "reopened" | null> {
  const assignments = state.assignments ?? [];
  const escalation = state.escalation;
  const moveSetTo = async (status: SetStatus) => {
    if (status !== state.setStatus) await tx.rows(Prisma.sql`UPDATE "ResponseSet" SET status = ${status}::"SetStatus", "updatedAt" = now() WHERE id = ${setId}::uuid`);
  };
  const primaries = assignments.filter((a) => a.kind === "PRIMARY");
  const submitted = primaries.filter((a) => a.status === "SUBMITTED");
  // The adjudicator's assignment is on this set, so it is among those just read (a cancelled one is not, and is not submitted either).
  const adjudicated = assignments.some((a) => a.id === escalation?.adjudicatorAssignmentId && a.status === "SUBMITTED");

  if (adjudicated) {
    // Once the third grader has submitted, the set stays adjudicated (paper 001: "the average of all three").
    if (escalation!.status !== "RESOLVED") {
      await tx.rows(Prisma.sql`UPDATE "Escalation" SET status = 'RESOLVED', "resolvedAt" = now(), "updatedAt" = now() WHERE id = ${escalation!.id}::uuid`);
      await tx.rows(auditInsertSql({ actorId: ctx.actorId, action: "escalation.resolve", entityType: "Escalation", entityId: escalation!.id, studyId: study.id, requestId: ctx.requestId }));
    }
    await moveSetTo("ADJUDICATED");
    return null;
  }
  if (submitted.length < study.gradersPerSet) {
    await moveSetTo("AWAITING_GRADES");
    return null;
  }

  const values = graderValuesOf(submitted, study.rubrics, study.repetitions);
  const byGrader = Object.fromEntries(submitted.map((a) => [a.graderId, values[a.id]]));
  const disagreements = findDisagreements(byGrader, study.rubrics, storedThresholds(study.thresholds, study.rubrics), storedEscalationRules(study.escalationRules, study.rubrics));
  const dimensions = JSON.stringify(disagreements);

  if (disagreements.length === 0) {
    if (escalation && (escalation.status === "NEEDS_GRADER" || escalation.status === "ASSIGNED")) {
      // A revision removed the disagreement before the adjudicator submitted: cancel the adjudication.
      await tx.rows(Prisma.sql`UPDATE "Escalation" SET status = 'CANCELLED', "resolvedAt" = now(), "updatedAt" = now() WHERE id = ${escalation.id}::uuid`);
      if (escalation.adjudicatorAssignmentId) {
        await tx.rows(Prisma.sql`UPDATE "Assignment" SET status = 'CANCELLED', "updatedAt" = now() WHERE id = ${escalation.adjudicatorAssignmentId}::uuid`);
      }
      await tx.rows(auditInsertSql({
        actorId: ctx.actorId,
        action: "escalation.cancel",
        studyId: study.id,
        entityType: "Escalation",
        entityId: escalation.id,
        before: { status: escalation.status, dimensions: escalation.dimensions },
        after: { status: "CANCELLED", reason: "a revision removed the disagreement" },
        requestId: ctx.requestId,
      }));
    }
    await moveSetTo("AGREED");
    return null;
  }

  await moveSetTo("AWAITING_ADJUDICATION");
  if (escalation && (escalation.status === "NEEDS_GRADER" || escalation.status === "ASSIGNED")) {
    // Still disagreeing after a revision: keep the open escalation, refresh what disagrees.
    await tx.rows(Prisma.sql`UPDATE "Escalation" SET dimensions = ${dimensions}::jsonb, "updatedAt" = now() WHERE id = ${escalation.id}::uuid`);
    return null;
  }
  const graderId = await pickAdjudicator(tx, study, setId);
  const adjudicatorAssignmentId = graderId ? await createAdjudicatorAssignment(tx, { id: setId, studyId: study.id }, graderId) : null;
  const status = graderId ? "ASSIGNED" : "NEEDS_GRADER";
  // One escalation per set (its unique key): a reopened one is the same row.
  const [row] = await tx.rows<{ id: string }>(Prisma.sql`
    INSERT INTO "Escalation" (id, "responseSetId", status, dimensions, "adjudicatorAssignmentId", "updatedAt")
    VALUES (gen_random_uuid(), ${setId}::uuid, ${status}::"EscalationStatus", ${dimensions}::jsonb, ${adjudicatorAssignmentId}::uuid, now())
    ON CONFLICT ("responseSetId") DO UPDATE SET status = EXCLUDED.status, dimensions = EXCLUDED.dimensions,
      "adjudicatorAssignmentId" = EXCLUDED."adjudicatorAssignmentId", "resolvedAt" = NULL, "updatedAt" = now()
    RETURNING id`);
  await tx.rows(auditInsertSql({
    actorId: ctx.actorId,
    action: escalation ? "escalation.reopen" : "escalation.create",
    entityType: "Escalation",
    entityId: row.id,
    studyId: study.id,
    after: { status, dimensions: disagreements.map((d) => ({ rubric: d.rubric, dimension: d.dimension, spread: d.spread })), adjudicatorId: graderId },
    requestId: ctx.requestId,
  }));
  return escalation ? "reopened" : "created";
}
