import { auditInsertSql } from "@/lib/audit/record";
import type { SqlTx } from "@/lib/db/sql";
import { ApiError } from "@/lib/errors/api-error";
import { Prisma } from "@/lib/generated/prisma/client";
import { blockedByCalibrationSql, CALIBRATION_FIRST, graderWorkSql } from "./mine";
import type { GradeSubmission } from "./contract-schemas";
import { validateGrades } from "./validate";
import { storedCriteria } from "@/lib/rubrics/criteria";
import { storedRubrics } from "@/lib/rubrics/study-rubrics";
import { afterCalibrationSubmit } from "@/lib/quality-tasks/calibration";

/** Time on task: one save adds at most this, as for an assignment (lib/grading/service.ts). */
const MAX_ELAPSED_PER_SAVE_MS = 30 * 60_000;

interface TaskRow {
  id: string;
  studyId: string;
  purpose: "CALIBRATION" | "GOLD" | "REGRADE";
  round: number;
  status: "PENDING" | "IN_PROGRESS" | "SUBMITTED" | "CANCELLED";
  answerOrder: number[];
  harmFlag: boolean;
  harmComment: string | null;
  contradictionFlag: boolean;
  contradictionNote: string | null;
  sinceLastWriteMs: number;
  studyStatus: string;
  rubrics: unknown;
  repetitions: number;
  askContradictions: boolean;
  criteria: unknown;
  isMine: boolean;
}

/**
 * Saves a draft or submits a grader's quality task (calibration, gold, washout re-grade) with the
 * same body, checks and answers as an assignment, so the grader cannot tell them apart. Its grades
 * go to QualityGrade (stored under each answer's own repetition, whatever its place on the page);
 * no set state, escalation or result is touched. Null when the id is not a task of this grader's.
 * Runs in the caller's transaction; locks the task's row first.
 */
export async function saveQualityTask(
  tx: SqlTx,
  graderId: string,
  taskId: string,
  body: GradeSubmission,
  requestId?: string,
): Promise<{ status: "PENDING" | "IN_PROGRESS" | "SUBMITTED"; complete: boolean; changed: number } | null> {
  // The grader's membership first, then the task: two sets of one calibration round submitted at
  // once are judged in turn, so the last one sees the round complete (and the round is judged once).
  await tx.rows(Prisma.sql`SELECT 1 FROM "StudyMember" m WHERE m."userId" = ${graderId}::uuid
    AND m."studyId" = (SELECT "studyId" FROM "QualityTask" WHERE id = ${taskId}::uuid AND "graderId" = ${graderId}::uuid) FOR UPDATE`);
  const locked = await tx.rows<{ id: string }>(Prisma.sql`SELECT id FROM "QualityTask" WHERE id = ${taskId}::uuid AND "graderId" = ${graderId}::uuid FOR UPDATE`);
  if (!locked.length) return null;
  const [t] = await tx.rows<TaskRow>(Prisma.sql`
    WITH mine AS (${graderWorkSql(graderId)})
    SELECT t.id, t."studyId", t.purpose::text AS purpose, t.round, t.status::text AS status, t."answerOrder", t."harmFlag", t."harmComment",
           t."contradictionFlag", t."contradictionNote", (extract(epoch FROM now() - t."updatedAt") * 1000)::float8 AS "sinceLastWriteMs",
           st.status::text AS "studyStatus", st.rubrics, st.repetitions, (st.repetitions >= 2 AND st."askContradictions") AS "askContradictions",
           (SELECT q.criteria FROM "ResponseSet" rs JOIN "QaItem" q ON q.id = rs."itemId" WHERE rs.id = t."responseSetId") AS criteria,
           EXISTS (SELECT 1 FROM mine WHERE mine.id = t.id) AS "isMine"
    FROM "QualityTask" t JOIN "Study" st ON st.id = t."studyId"
    WHERE t.id = ${taskId}::uuid`);
  if (!t.isMine) {
    if ((await tx.rows<unknown>(blockedByCalibrationSql(graderId, taskId))).length) throw new ApiError(409, CALIBRATION_FIRST);
    throw new ApiError(404, "assignment not found");
  }
  if (t.studyStatus === "CLOSED") throw new ApiError(409, "the study is closed: grades can no longer be changed");
  const wasSubmitted = t.status === "SUBMITTED";
  if (wasSubmitted && !body.submit) throw new ApiError(409, "this assignment is already submitted: send the complete form with submit: true to revise it");

  const v = validateGrades(body, { rubrics: storedRubrics(t.rubrics), repetitions: t.repetitions, criteria: storedCriteria(t.criteria) ?? [] });
  if (body.contradiction?.flag && !t.askContradictions) {
    v.problems.push({ path: "contradiction.flag", message: t.repetitions < 2 ? "a set with one answer has nothing to contradict" : "this study does not ask graders about contradictions" });
  }
  if (v.problems.length) throw new ApiError(422, "invalid grades", { problems: v.problems });
  // The page shows a re-grade's answers in a new order: each cell is stored under the answer's own repetition.
  const cells = v.cells.map((c) => (c.repetition > 0 && t.answerOrder.length ? { ...c, repetition: t.answerOrder[c.repetition - 1] } : c));

  const harmFlag = body.harm?.flag ?? t.harmFlag;
  const harmComment = body.harm ? body.harm.comment?.trim() || null : t.harmComment;
  const contradictionFlag = body.contradiction?.flag ?? t.contradictionFlag;
  const contradictionNote = contradictionFlag ? (body.contradiction ? body.contradiction.note?.trim() || null : t.contradictionNote) : null;
  const elapsed = Math.round(Math.max(0, Math.min(body.elapsedMs ?? 0, t.sinceLastWriteMs, MAX_ELAPSED_PER_SAVE_MS)));
  const nextStatus = body.submit ? "SUBMITTED" : "IN_PROGRESS";

  // The form is the whole answer: the task's cells are replaced by the ones sent.
  const steps: Prisma.Sql[] = [];
  if (cells.length) {
    steps.push(Prisma.sql`written AS (
      INSERT INTO "QualityGrade" (id, "taskId", rubric, dimension, repetition, criterion, score, category, na, comment, "updatedAt")
      SELECT gen_random_uuid(), ${taskId}::uuid, w.rubric, w.dimension, w.repetition, w.criterion, w.score, w.category, w.na, w.comment, now()
      FROM unnest(${cells.map((c) => c.rubric)}::text[], ${cells.map((c) => c.dimension)}::text[], ${cells.map((c) => c.repetition)}::int[],
                  ${cells.map((c) => c.criterion)}::text[], ${cells.map((c) => c.score)}::int[], ${cells.map((c) => c.category)}::text[],
                  ${cells.map((c) => c.na)}::bool[], ${cells.map((c) => c.comment)}::text[])
           AS w(rubric, dimension, repetition, criterion, score, category, na, comment)
      RETURNING 1)`);
  }
  if (body.submit) {
    steps.push(Prisma.sql`audited AS (${auditInsertSql({
      actorId: graderId,
      action: wasSubmitted ? "quality.task.revise" : "quality.task.submit",
      entityType: "QualityTask",
      entityId: taskId,
      studyId: t.studyId,
      after: { purpose: t.purpose, round: t.round, scores: cells, harm: { flag: harmFlag, comment: harmComment }, contradiction: { flag: contradictionFlag, note: contradictionNote } },
      requestId,
    })} RETURNING 1)`);
  }
  // Deleting and inserting the same keys in one statement would clash: the delete runs first, on its own.
  const before = await tx.rows<OldCell>(Prisma.sql`DELETE FROM "QualityGrade" WHERE "taskId" = ${taskId}::uuid RETURNING rubric, dimension, repetition, criterion, score, category, na, comment`);
  await tx.rows(Prisma.sql`
    ${steps.length ? Prisma.sql`WITH ${Prisma.join(steps, ", ")}` : Prisma.empty}
    UPDATE "QualityTask" SET status = ${nextStatus}::"AssignmentStatus", "harmFlag" = ${harmFlag}, "harmComment" = ${harmComment},
      "contradictionFlag" = ${contradictionFlag}, "contradictionNote" = ${contradictionNote},
      "timeSpentMs" = "timeSpentMs" + ${elapsed}::bigint, "updatedAt" = now()
      ${t.status === "PENDING" ? Prisma.sql`, "startedAt" = now()` : Prisma.empty}
      ${body.submit && !wasSubmitted ? Prisma.sql`, "submittedAt" = now()` : Prisma.empty}
    WHERE id = ${taskId}::uuid`);
  if (t.purpose === "CALIBRATION" && body.submit && !wasSubmitted) await afterCalibrationSubmit(tx, graderId, t.studyId, t.round, requestId);
  // Counted as an assignment's save counts them (cells changed, harm, contradiction): a count of all cells sent would mark the task.
  const changed =
    changedCells(before, cells) +
    Number(harmFlag !== t.harmFlag || harmComment !== t.harmComment) +
    Number(contradictionFlag !== t.contradictionFlag || contradictionNote !== t.contradictionNote);
  return { status: nextStatus, complete: v.complete, changed };
}

type OldCell = { rubric: string; dimension: string; repetition: number; criterion: string; score: number | null; category: string | null; na: boolean; comment: string | null };

/** Cells written anew or changed, and cells dropped: what an assignment's save counts as its revisions. */
function changedCells(before: readonly OldCell[], after: readonly OldCell[]): number {
  const key = (c: OldCell) => `${c.rubric}/${c.dimension}/${c.repetition}/${c.criterion}`;
  const old = new Map(before.map((c) => [key(c), c]));
  const sent = new Set(after.map(key));
  let n = before.filter((c) => !sent.has(key(c))).length;
  for (const c of after) {
    const o = old.get(key(c));
    if (!o || o.score !== c.score || o.category !== c.category || o.na !== c.na || (o.comment ?? null) !== (c.comment ?? null)) n++;
  }
  return n;
}
