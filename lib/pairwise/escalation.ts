import { auditInsertSql } from "@/lib/audit/record";
import type { Sql } from "@/lib/db/sql";
import { Prisma } from "@/lib/generated/prisma/client";
import type { EscalationStatus, SetStatus } from "@/lib/generated/prisma/enums";
import { seededShuffle } from "@/lib/random/seeded";
import type { RubricDocument } from "@/lib/rubrics/document";
import { preferenceAxes } from "@/lib/rubrics/preference";
import { comparisonDisagreements, type Choice } from "./votes";

/**
 * A comparison's adjudication, as lib/escalation/service.ts is a response set's: run inside the
 * transaction that submits or revises preferences, after it has locked the comparison's row
 * (lib/pairwise/lock.ts), on the state it read under that lock. The unique key on
 * ComparisonEscalation.comparisonId makes "one escalation per comparison" a database guarantee too.
 */
export interface StudyForComparison {
  id: string;
  rubrics: RubricDocument[];
  gradersPerSet: number;
  tieDisagrees: boolean;
  matchSpecialty: boolean;
  pairSeed: string | null;
}

export interface ComparisonAssignmentState {
  id: string;
  graderId: string;
  kind: "PRIMARY" | "ADJUDICATOR";
  status: string;
  preferences: { rubric: string; axis: string; choice: Choice }[] | null;
}

export interface ComparisonState {
  status: SetStatus;
  assignments: ComparisonAssignmentState[] | null;
  escalation: { id: string; status: EscalationStatus; axes: Prisma.JsonValue; adjudicatorAssignmentId: string | null } | null;
}

/** The comparison's state as one row; read it after locking the comparison. */
export function comparisonStateSql(comparisonId: string): Prisma.Sql {
  return Prisma.sql`
    SELECT c.status::text AS "status",
      (SELECT json_agg(json_build_object('id', a.id, 'graderId', a."graderId", 'kind', a.kind, 'status', a.status,
                 'preferences', CASE WHEN a.status = 'SUBMITTED' THEN
                   (SELECT json_agg(json_build_object('rubric', p.rubric, 'axis', p.axis, 'choice', p.choice)) FROM "Preference" p WHERE p."assignmentId" = a.id) END))
         FROM "ComparisonAssignment" a WHERE a."comparisonId" = c.id AND a.status <> 'CANCELLED') AS assignments,
      (SELECT json_build_object('id', e.id, 'status', e.status, 'axes', e.axes, 'adjudicatorAssignmentId', e."adjudicatorAssignmentId")
         FROM "ComparisonEscalation" e WHERE e."comparisonId" = c.id) AS escalation
    FROM "Comparison" c WHERE c.id = ${comparisonId}::uuid`;
}

/** The adjudicator: an active grader of the study not on the comparison (of its question's specialty when matching), least open comparisons, ties by the seed. */
export async function pickComparisonAdjudicator(tx: Sql, study: StudyForComparison, comparisonId: string): Promise<string | null> {
  const candidates = await tx.rows<{ id: string; open: number }>(Prisma.sql`
    SELECT m."userId" AS id,
      (SELECT count(*)::int FROM "ComparisonAssignment" a
        WHERE a."graderId" = m."userId" AND a."studyId" = ${study.id}::uuid AND a.status IN ('PENDING', 'IN_PROGRESS')) AS open
    FROM "StudyMember" m JOIN "User" u ON u.id = m."userId"
    WHERE m."studyId" = ${study.id}::uuid AND m.role = 'GRADER' AND m.active AND u.active
      AND NOT EXISTS (SELECT 1 FROM "ComparisonAssignment" x WHERE x."comparisonId" = ${comparisonId}::uuid AND x."graderId" = m."userId" AND x.status <> 'CANCELLED')
      ${
        study.matchSpecialty
          ? Prisma.sql`AND EXISTS (SELECT 1 FROM "StudyMemberSpecialty" ms JOIN "QaItem" q ON q."specialtyId" = ms."specialtyId"
                                   JOIN "Comparison" c ON c."itemId" = q.id
                        WHERE c.id = ${comparisonId}::uuid AND ms."studyId" = m."studyId" AND ms."userId" = m."userId")`
          : Prisma.empty
      }`);
  if (candidates.length === 0) return null;
  const open = new Map(candidates.map((c) => [c.id, c.open]));
  const ids = candidates.map((c) => c.id).sort();
  const rank = new Map(seededShuffle(ids, `${study.pairSeed ?? study.id}:adjudicator:${comparisonId}`).map((id, i) => [id, i]));
  ids.sort((a, b) => open.get(a)! - open.get(b)! || rank.get(a)! - rank.get(b)!);
  return ids[0];
}

/** Gives the comparison to its adjudicator at the end of their queue (a cancelled earlier adjudication of theirs comes back, with its draft). */
export async function createComparisonAdjudicatorAssignment(tx: Sql, comparison: { id: string; studyId: string }, graderId: string): Promise<string> {
  const [row] = await tx.rows<{ id: string }>(Prisma.sql`
    INSERT INTO "ComparisonAssignment" (id, "comparisonId", "studyId", "graderId", kind, position, status, "updatedAt")
    VALUES (gen_random_uuid(), ${comparison.id}::uuid, ${comparison.studyId}::uuid, ${graderId}::uuid, 'ADJUDICATOR',
            (SELECT coalesce(max(position), -1) + 1 FROM "ComparisonAssignment" WHERE "graderId" = ${graderId}::uuid), 'PENDING', now())
    ON CONFLICT ("graderId", "comparisonId")
    DO UPDATE SET status = 'PENDING', kind = 'ADJUDICATOR', position = EXCLUDED.position, "updatedAt" = now()
    RETURNING id`);
  return row.id;
}

/**
 * Re-evaluates a comparison after a primary grader submitted or revised, or the adjudicator
 * submitted: awaiting grades -> agreed | awaiting adjudication -> adjudicated. `state` is the
 * comparison as it stands after the change (read under its lock, with the change applied).
 */
export async function evaluateComparison(
  tx: Sql,
  study: StudyForComparison,
  comparisonId: string,
  state: ComparisonState,
  ctx: { actorId: string | null; requestId?: string | null },
): Promise<"created" | "reopened" | null> {
  const assignments = state.assignments ?? [];
  const escalation = state.escalation;
  const moveTo = async (status: SetStatus) => {
    if (status !== state.status) await tx.rows(Prisma.sql`UPDATE "Comparison" SET status = ${status}::"SetStatus", "updatedAt" = now() WHERE id = ${comparisonId}::uuid`);
  };
  const submitted = assignments.filter((a) => a.kind === "PRIMARY" && a.status === "SUBMITTED");
  const adjudicated = assignments.some((a) => a.id === escalation?.adjudicatorAssignmentId && a.status === "SUBMITTED");
  if (adjudicated) {
    if (escalation!.status !== "RESOLVED") {
      await tx.rows(Prisma.sql`UPDATE "ComparisonEscalation" SET status = 'RESOLVED', "resolvedAt" = now(), "updatedAt" = now() WHERE id = ${escalation!.id}::uuid`);
      await tx.rows(auditInsertSql({ actorId: ctx.actorId, action: "comparison_escalation.resolve", entityType: "ComparisonEscalation", entityId: escalation!.id, studyId: study.id, requestId: ctx.requestId }));
    }
    await moveTo("ADJUDICATED");
    return null;
  }
  if (submitted.length < study.gradersPerSet) {
    await moveTo("AWAITING_GRADES");
    return null;
  }
  const axes = preferenceAxes(study.rubrics).map(({ rubric, axis }) => ({ rubric, axis: axis.key, escalates: axis.escalation?.rule !== "never" }));
  const disagreements = comparisonDisagreements(axes, Object.fromEntries(submitted.map((a) => [a.id, a.preferences ?? []])), study.tieDisagrees);
  const axesJson = JSON.stringify(disagreements);
  if (disagreements.length === 0) {
    if (escalation && (escalation.status === "NEEDS_GRADER" || escalation.status === "ASSIGNED")) {
      // A revision removed the disagreement before the adjudicator submitted: their work is withdrawn.
      await tx.rows(Prisma.sql`UPDATE "ComparisonEscalation" SET status = 'CANCELLED', "resolvedAt" = now(), "updatedAt" = now() WHERE id = ${escalation.id}::uuid`);
      if (escalation.adjudicatorAssignmentId) {
        await tx.rows(Prisma.sql`UPDATE "ComparisonAssignment" SET status = 'CANCELLED', "updatedAt" = now() WHERE id = ${escalation.adjudicatorAssignmentId}::uuid`);
      }
      await tx.rows(auditInsertSql({
        actorId: ctx.actorId,
        action: "comparison_escalation.cancel",
        entityType: "ComparisonEscalation",
        entityId: escalation.id,
        studyId: study.id,
        before: { status: escalation.status, axes: escalation.axes },
        after: { status: "CANCELLED", reason: "a revision removed the disagreement" },
        requestId: ctx.requestId,
      }));
    }
    await moveTo("AGREED");
    return null;
  }
  await moveTo("AWAITING_ADJUDICATION");
  if (escalation && (escalation.status === "NEEDS_GRADER" || escalation.status === "ASSIGNED")) {
    await tx.rows(Prisma.sql`UPDATE "ComparisonEscalation" SET axes = ${axesJson}::jsonb, "updatedAt" = now() WHERE id = ${escalation.id}::uuid`);
    return null;
  }
  const graderId = await pickComparisonAdjudicator(tx, study, comparisonId);
  const adjudicatorAssignmentId = graderId ? await createComparisonAdjudicatorAssignment(tx, { id: comparisonId, studyId: study.id }, graderId) : null;
  const status = graderId ? "ASSIGNED" : "NEEDS_GRADER";
  const [row] = await tx.rows<{ id: string }>(Prisma.sql`
    INSERT INTO "ComparisonEscalation" (id, "comparisonId", status, axes, "adjudicatorAssignmentId", "updatedAt")
    VALUES (gen_random_uuid(), ${comparisonId}::uuid, ${status}::"EscalationStatus", ${axesJson}::jsonb, ${adjudicatorAssignmentId}::uuid, now())
    ON CONFLICT ("comparisonId") DO UPDATE SET status = EXCLUDED.status, axes = EXCLUDED.axes,
      "adjudicatorAssignmentId" = EXCLUDED."adjudicatorAssignmentId", "resolvedAt" = NULL, "updatedAt" = now()
    RETURNING id`);
  await tx.rows(auditInsertSql({
    actorId: ctx.actorId,
    action: escalation ? "comparison_escalation.reopen" : "comparison_escalation.create",
    entityType: "ComparisonEscalation",
    entityId: row.id,
    studyId: study.id,
    after: { status, axes: disagreements.map((d) => ({ rubric: d.rubric, axis: d.axis })), adjudicatorId: graderId },
    requestId: ctx.requestId,
  }));
  return escalation ? "reopened" : "created";
}
