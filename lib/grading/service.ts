import { recordAudit } from "@/lib/audit/record";
import { getDb, type Tx } from "@/lib/db/client";
import { evaluateSet } from "@/lib/escalation/service";
import type { RubricKey } from "@/lib/rubrics/definitions";
import { ApiError } from "@/lib/server/errors";
import type { GradeSubmission } from "./contract-schemas";
import { validateGrades } from "./validate";

/**
 * What a grader may see and do with their own assignments. Every read is
 * filtered by the grader's id, so someone else's assignment answers 404 (not
 * 403: its existence is not revealed). Nothing returned names a model, its
 * version or settings, nor another grader or their scores.
 */
/**
 * Studies whose work a grader may see: open or closed (read-only), and only
 * while they are an active member; a grader removed from a study loses its
 * queue at once, before any reassignment run.
 */
function activeStudyOf(graderId: string) {
  return { status: { in: ["OPEN" as const, "CLOSED" as const] }, members: { some: { userId: graderId, active: true } } };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Time on task is added from the page's own clock; one save cannot add more than this. */
const MAX_ELAPSED_PER_SAVE_MS = 30 * 60_000;

export type AssignmentStatusKey = "PENDING" | "IN_PROGRESS" | "SUBMITTED";

export interface MyAssignment {
  id: string;
  responseSetId: string;
  kind: "PRIMARY" | "ADJUDICATOR";
  status: AssignmentStatusKey;
  position: number;
  studyName: string;
  specialty: string;
  question: string;
  studyOpen: boolean;
}

/** The grader's queue: their own non-cancelled work, in their own order, in studies that are open or closed (read-only). */
export async function listMyAssignments(graderId: string): Promise<MyAssignment[]> {
  const rows = await getDb().assignment.findMany({
    where: { graderId, status: { not: "CANCELLED" }, responseSet: { study: activeStudyOf(graderId) } },
    orderBy: [{ position: "asc" }, { id: "asc" }],
    select: {
      id: true,
      responseSetId: true,
      kind: true,
      status: true,
      position: true,
      responseSet: {
        select: {
          study: { select: { name: true, status: true } },
          item: { select: { question: true, specialty: { select: { name: true } } } },
        },
      },
    },
  });
  return rows.map((r) => ({
    id: r.id,
    responseSetId: r.responseSetId,
    kind: r.kind,
    status: r.status as AssignmentStatusKey,
    position: r.position,
    studyName: r.responseSet.study.name,
    specialty: r.responseSet.item.specialty.name,
    question: r.responseSet.item.question,
    studyOpen: r.responseSet.study.status === "OPEN",
  }));
}

export interface BlindedAssignment {
  id: string;
  kind: "PRIMARY" | "ADJUDICATOR";
  status: AssignmentStatusKey;
  readOnly: boolean;
  study: { name: string; rubrics: RubricKey[]; repetitions: number; showReferenceAnswer: boolean };
  item: { specialty: string; question: string; referenceAnswer: string | null };
  /** Labelled by repetition only: "Answer 1..N". */
  answers: { repetition: number; text: string }[];
  scores: { rubric: RubricKey; dimension: string; repetition: number | null; score: number; comment: string | null }[];
  harm: { flag: boolean; comment: string | null };
  timeSpentMs: number;
  submittedAt: string | null;
  progress: { done: number; total: number; position: number };
  nextAssignmentId: string | null;
}

async function ownAssignment(graderId: string, assignmentId: string) {
  if (!UUID.test(assignmentId)) throw new ApiError(404, "assignment not found");
  const a = await getDb().assignment.findFirst({
    where: { id: assignmentId, graderId, status: { not: "CANCELLED" }, responseSet: { study: activeStudyOf(graderId) } },
    select: {
      id: true,
      kind: true,
      status: true,
      position: true,
      harmFlag: true,
      harmComment: true,
      timeSpentMs: true,
      submittedAt: true,
      responseSet: {
        select: {
          study: { select: { name: true, rubrics: true, repetitions: true, showReferenceAnswer: true, status: true } },
          item: { select: { question: true, referenceAnswer: true, specialty: { select: { name: true } } } },
          responses: { select: { repetition: true, text: true }, orderBy: { repetition: "asc" } },
        },
      },
      grades: { select: { rubric: true, dimension: true, repetition: true, score: true, comment: true } },
    },
  });
  if (!a) throw new ApiError(404, "assignment not found");
  return a;
}

/** 404 unless the assignment is this grader's own (checked before the body is even read). */
export async function assertOwnAssignment(graderId: string, assignmentId: string): Promise<void> {
  if (!UUID.test(assignmentId)) throw new ApiError(404, "assignment not found");
  const n = await getDb().assignment.count({ where: { id: assignmentId, graderId, status: { not: "CANCELLED" }, responseSet: { study: activeStudyOf(graderId) } } });
  if (n === 0) throw new ApiError(404, "assignment not found");
}

/**
 * Where this assignment sits in the grader's queue, and the next one to grade
 * (the first unfinished one after it, wrapping around), from counts and one
 * indexed lookup rather than the whole queue: this runs on every page view.
 */
async function queueContext(graderId: string, assignmentId: string, position: number) {
  const db = getDb();
  const mine = { graderId, status: { not: "CANCELLED" as const }, responseSet: { study: activeStudyOf(graderId) } };
  const open = { graderId, status: { in: ["PENDING" as const, "IN_PROGRESS" as const] }, id: { not: assignmentId }, responseSet: { study: { status: "OPEN" as const, members: { some: { userId: graderId, active: true } } } } };
  const [total, done, before, after, first] = await Promise.all([
    db.assignment.count({ where: mine }),
    db.assignment.count({ where: { ...mine, status: "SUBMITTED" } }),
    db.assignment.count({ where: { ...mine, position: { lt: position } } }),
    db.assignment.findFirst({ where: { ...open, position: { gte: position } }, orderBy: [{ position: "asc" }, { id: "asc" }], select: { id: true } }),
    db.assignment.findFirst({ where: { ...open, position: { lt: position } }, orderBy: [{ position: "asc" }, { id: "asc" }], select: { id: true } }),
  ]);
  return { progress: { done, total, position: before + 1 }, nextAssignmentId: after?.id ?? first?.id ?? null };
}

export async function getAssignmentForGrader(graderId: string, assignmentId: string): Promise<BlindedAssignment> {
  const a = await ownAssignment(graderId, assignmentId);
  const { progress, nextAssignmentId } = await queueContext(graderId, a.id, a.position);
  const study = a.responseSet.study;
  return {
    id: a.id,
    kind: a.kind,
    status: a.status as AssignmentStatusKey,
    readOnly: study.status !== "OPEN",
    study: { name: study.name, rubrics: study.rubrics, repetitions: study.repetitions, showReferenceAnswer: study.showReferenceAnswer },
    item: {
      specialty: a.responseSet.item.specialty.name,
      question: a.responseSet.item.question,
      referenceAnswer: study.showReferenceAnswer ? a.responseSet.item.referenceAnswer : null,
    },
    answers: a.responseSet.responses.filter((r) => r.repetition <= study.repetitions),
    scores: a.grades.map((g) => ({ ...g, repetition: g.repetition === 0 ? null : g.repetition })),
    harm: { flag: a.harmFlag, comment: a.harmComment },
    timeSpentMs: a.timeSpentMs,
    submittedAt: a.submittedAt?.toISOString() ?? null,
    progress,
    nextAssignmentId,
  };
}

export interface SaveResult {
  status: AssignmentStatusKey;
  complete: boolean;
  changed: number;
  nextAssignmentId: string | null;
}

const cellKey = (c: { rubric: string; dimension: string; repetition: number }) => `${c.rubric}/${c.dimension}/${c.repetition}`;

/**
 * Saves a draft or submits (all or nothing). The body is the whole form, so the
 * same request twice stores one grade. A submitted assignment may be revised
 * while the study is open; every revised score is audited with old and new
 * values. Submitting or revising a primary grade re-evaluates the set for
 * escalation in the same transaction, under a lock on the set's row.
 */
export async function saveGrades(graderId: string, assignmentId: string, body: GradeSubmission, requestId?: string): Promise<SaveResult> {
  if (!UUID.test(assignmentId)) throw new ApiError(404, "assignment not found");
  const db = getDb();
  const result = await db.$transaction(
    async (tx: Tx) => {
      const a = await tx.assignment.findFirst({
        where: { id: assignmentId, graderId, status: { not: "CANCELLED" }, responseSet: { study: { members: { some: { userId: graderId, active: true } } } } },
        select: {
          id: true,
          kind: true,
          status: true,
          position: true,
          responseSetId: true,
          harmFlag: true,
          harmComment: true,
          responseSet: {
            select: {
              study: {
                select: {
                  id: true,
                  status: true,
                  rubrics: true,
                  repetitions: true,
                  gradersPerSet: true,
                  thresholds: true,
                  matchSpecialty: true,
                  assignmentSeed: true,
                },
              },
            },
          },
        },
      });
      if (!a) throw new ApiError(404, "assignment not found");
      const study = a.responseSet.study;
      if (study.status === "DRAFT") throw new ApiError(404, "assignment not found");
      if (study.status === "CLOSED") throw new ApiError(409, "the study is closed: grades can no longer be changed");
      if (a.status === "SUBMITTED" && !body.submit) {
        throw new ApiError(409, "this assignment is already submitted: send the complete form with submit: true to revise it");
      }
      const v = validateGrades(body, study);
      if (v.problems.length) throw new ApiError(422, "invalid grades", { problems: v.problems });

      // Serialise every write on this set (the last two primary grades, a revision, an adjudication).
      await tx.$queryRaw`SELECT id FROM "ResponseSet" WHERE id = ${a.responseSetId}::uuid FOR UPDATE`;
      const current = await tx.assignment.findUniqueOrThrow({ where: { id: a.id }, select: { status: true } });
      const wasSubmitted = current.status === "SUBMITTED";

      const existing = await tx.grade.findMany({ where: { assignmentId: a.id } });
      const byKey = new Map(existing.map((g) => [cellKey(g), g]));
      const incoming = new Map(v.cells.map((c) => [cellKey(c), c]));
      const revisions: { cell: string; before: { score: number; comment: string | null } | null; after: { score: number; comment: string | null } | null }[] = [];
      for (const [key, c] of incoming) {
        const old = byKey.get(key);
        if (old && old.score === c.score && (old.comment ?? null) === c.comment) continue;
        if (old) {
          await tx.grade.update({ where: { id: old.id }, data: { score: c.score, comment: c.comment } });
        } else {
          await tx.grade.create({ data: { assignmentId: a.id, rubric: c.rubric, dimension: c.dimension, repetition: c.repetition, score: c.score, comment: c.comment } });
        }
        revisions.push({ cell: key, before: old ? { score: old.score, comment: old.comment } : null, after: { score: c.score, comment: c.comment } });
      }
      // A draft may clear a score the grader took back; a submitted form is complete, so nothing is dropped then.
      const dropped = existing.filter((g) => !incoming.has(cellKey(g)));
      if (dropped.length) {
        await tx.grade.deleteMany({ where: { id: { in: dropped.map((g) => g.id) } } });
        for (const g of dropped) revisions.push({ cell: cellKey(g), before: { score: g.score, comment: g.comment }, after: null });
      }

      const harmFlag = body.harm?.flag ?? a.harmFlag;
      const harmComment = body.harm ? (body.harm.flag ? body.harm.comment!.trim() : null) : a.harmComment;
      const harmChanged = harmFlag !== a.harmFlag || harmComment !== a.harmComment;
      const elapsed = Math.min(body.elapsedMs ?? 0, MAX_ELAPSED_PER_SAVE_MS);
      const nextStatus = body.submit ? "SUBMITTED" : "IN_PROGRESS";
      await tx.assignment.update({
        where: { id: a.id },
        data: {
          status: nextStatus,
          harmFlag,
          harmComment,
          timeSpentMs: { increment: elapsed },
          ...(current.status === "PENDING" ? { startedAt: new Date() } : {}),
          ...(body.submit && !wasSubmitted ? { submittedAt: new Date() } : {}),
        },
      });

      const changed = revisions.length + (harmChanged ? 1 : 0);
      if (body.submit && !wasSubmitted) {
        await recordAudit(tx, {
          actorId: graderId,
          action: "assignment.submit",
          entityType: "Assignment",
          entityId: a.id,
          studyId: study.id,
          after: { scores: v.cells, harm: { flag: harmFlag, comment: harmComment } },
          requestId,
        });
      } else if (wasSubmitted && changed > 0) {
        await recordAudit(tx, {
          actorId: graderId,
          action: "grade.revise",
          entityType: "Assignment",
          entityId: a.id,
          studyId: study.id,
          before: { scores: revisions.map((r) => ({ cell: r.cell, ...r.before })), harm: { flag: a.harmFlag, comment: a.harmComment } },
          after: { scores: revisions.map((r) => ({ cell: r.cell, ...r.after })), harm: { flag: harmFlag, comment: harmComment } },
          requestId,
        });
      }
      if (body.submit && (!wasSubmitted || changed > 0)) {
        await evaluateSet(tx, study, a.responseSetId, { actorId: graderId, requestId });
      }
      return { status: nextStatus as AssignmentStatusKey, complete: v.complete, changed, position: a.position };
    },
    { timeout: 20_000, maxWait: 10_000 },
  );
  const next = body.submit ? (await queueContext(graderId, assignmentId, result.position)).nextAssignmentId : null;
  const { position: _position, ...rest } = result;
  return { ...rest, nextAssignmentId: next };
}
