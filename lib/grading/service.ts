import { auditInsertSql } from "@/lib/audit/record";
import { sql, sqlTransaction } from "@/lib/db/sql";
import { isUuid } from "@/lib/db/uuid";
import { Prisma } from "@/lib/generated/prisma/client";
import { nextOpenSql } from "./work-sql";
import { lockSetsSql } from "@/lib/db/set-lock";
import { graderFacingTitleSql } from "@/lib/studies/grader-title";
import { answerScreenedSql, setExcludedByScreenSql } from "@/lib/screening/sql";
import { evaluateSet, setStateSql, type SetState, type StudyForEscalation } from "@/lib/escalation/service";
import type { RubricDocument } from "@/lib/rubrics/document";
import { storedRubrics } from "@/lib/rubrics/study-rubrics";
import { storedCriteria } from "@/lib/rubrics/criteria";
import { queueKeySql } from "@/lib/grading/queue-order";
import { blockedByCalibrationSql, CALIBRATION_FIRST, graderWorkSql } from "@/lib/grading/mine";
import { saveQualityTask } from "./quality-save";
import { drawnForWashout, washoutAnswerOrder, washoutInsertSql } from "@/lib/quality-tasks/washout";
import { dealOwedQuality } from "@/lib/quality-tasks/deal";
import { ApiError } from "@/lib/errors/api-error";
import { metrics } from "@/lib/server/metrics";
import type { GradeSubmission } from "./contract-schemas";
import { validateGrades, type GradeCell } from "./validate";

/**
 * What a grader may see and do with their own assignments. Every read is
 * filtered by the grader's id, so someone else's assignment answers 404 (not
 * 403: its existence is not revealed). Nothing returned names a model, its
 * version or settings, nor another grader or their scores.
 */
/** Whether the form asks about contradictions between the set's answers: only with two answers or more, and where the study asks. */
const asksContradictions = (s: { repetitions: number; askContradictions: boolean }) => s.repetitions >= 2 && s.askContradictions;

/** Time on task: one save adds at most this (a longer gap is a grader who walked away). */
const MAX_ELAPSED_PER_SAVE_MS = 30 * 60_000;

/** The grader's own work (assignments and quality tasks, lib/grading/mine.ts): every read below goes through it, so someone else's work is simply not there. */
const mineSql = graderWorkSql;

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

/**
 * The set id a grader is shown: a quality task's is derived from the task's own id, so a re-grade
 * does not name the set graded before, nor a gold set the one other graders meet. Shaped as a
 * version-4 uuid (version nibble 4, variant 8..b), as every real set id is: a bare md5 would mark
 * the task as one.
 */
const taskSetIdSql = Prisma.sql`(SELECT (substr(h, 1, 12) || '4' || substr(h, 14, 3) || substr('89ab', 1 + (('x' || substr(h, 17, 1))::bit(4)::int % 4), 1) || substr(h, 18))::uuid
  FROM md5(mine.id::text || ':set') AS h)`;
const publicSetIdSql = Prisma.sql`CASE WHEN EXISTS (SELECT 1 FROM "Assignment" pa WHERE pa.id = mine.id) THEN mine."responseSetId" ELSE ${taskSetIdSql} END`;

/** The grader's queue: their own non-cancelled work, in their own order, in studies that are open or closed (read-only). */
export async function listMyAssignments(graderId: string): Promise<MyAssignment[]> {
  // A grader who joined after the quality settings, or whose queue grew, gets their calibration round and gold first.
  await dealOwedQuality(graderId);
  return sql.rows<MyAssignment>(Prisma.sql`
    WITH mine AS (${mineSql(graderId)})
    SELECT mine.id, ${publicSetIdSql} AS "responseSetId", mine.kind, mine.status,
           -- The place in the grader's order, not the stored position: a gold task shares an assignment's, which would mark it.
           (row_number() OVER (ORDER BY mine.position, mine.id))::int AS position, ${graderFacingTitleSql("st")} AS "studyName",
           sp.name AS specialty, q.question, mine.study_status = 'OPEN' AS "studyOpen"
    FROM mine
    JOIN "Study" st ON st.id = mine."studyId"
    JOIN "ResponseSet" rs ON rs.id = mine."responseSetId"
    JOIN "QaItem" q ON q.id = rs."itemId"
    JOIN "Specialty" sp ON sp.id = q."specialtyId"
    ORDER BY mine.position, mine.id`);
}

/** A grader's saved answer to one cell, as the API gives it back (repetition null = the whole set). */
export interface SavedGrade {
  rubric: string;
  dimension: string;
  repetition: number | null;
  /** Ordinal and criteria: a number; nominal: the level's string value; N/A or a comment alone: null. */
  score: number | string | null;
  na?: true;
  criterion?: string;
  comment: string | null;
}

type GradeRow = Pick<GradeCell, "rubric" | "dimension" | "repetition" | "criterion" | "score" | "category" | "na" | "comment">;

const gradeJsonSql = Prisma.sql`json_build_object('rubric', g.rubric, 'dimension', g.dimension, 'repetition', g.repetition, 'criterion', g.criterion,
  'score', g.score, 'category', g.category, 'na', g.na, 'comment', g.comment)`;

function savedGrade(g: GradeRow): SavedGrade {
  return {
    rubric: g.rubric,
    dimension: g.dimension,
    repetition: g.repetition === 0 ? null : g.repetition,
    score: g.score ?? g.category,
    ...(g.na ? { na: true as const } : {}),
    ...(g.criterion ? { criterion: g.criterion } : {}),
    comment: g.comment,
  };
}

export interface BlindedAssignment {
  id: string;
  kind: "PRIMARY" | "ADJUDICATOR";
  status: AssignmentStatusKey;
  readOnly: boolean;
  /** `rubrics`: the keys; `rubricDocuments`: the documents the form is built from. */
  study: { name: string; rubrics: string[]; rubricDocuments: RubricDocument[]; repetitions: number; showReferenceAnswer: boolean; askContradictions: boolean };
  /** `criteria`: the question's own criteria, for a criteria dimension (HealthBench); null without. */
  item: { specialty: string; question: string; referenceAnswer: string | null; criteria: { id: string; text: string; points: number }[] | null };
  /** Labelled by repetition only: "Answer 1..N". */
  answers: { repetition: number; text: string; screened: boolean }[];
  scores: SavedGrade[];
  harm: { flag: boolean; comment: string | null };
  /** The grader's own contradiction flag: another grader's is never read here. */
  contradiction: { flag: boolean; note: string | null };
  timeSpentMs: number;
  submittedAt: string | null;
  progress: { done: number; total: number; position: number };
  nextAssignmentId: string | null;
}

interface AssignmentViewRow {
  id: string;
  kind: "PRIMARY" | "ADJUDICATOR";
  status: AssignmentStatusKey;
  position: number;
  harmFlag: boolean;
  harmComment: string | null;
  contradictionFlag: boolean;
  contradictionNote: string | null;
  timeSpentMs: number;
  submittedAt: Date | null;
  studyName: string;
  rubrics: unknown;
  repetitions: number;
  showReferenceAnswer: boolean;
  askContradictions: boolean;
  studyStatus: string;
  question: string;
  referenceAnswer: string;
  criteria: unknown;
  specialty: string;
  answers: { repetition: number; text: string; screened: boolean }[] | null;
  grades: GradeRow[] | null;
  total: number;
  done: number;
  before: number;
  nextId: string | null;
}

/**
 * One assignment or quality task by id, with the same columns (a quality task reads as PRIMARY).
 * `answerOrder`: a re-grade's order of the answers on the page; empty: by repetition.
 */
const workRowSql = (id: string) => Prisma.sql`
  SELECT a.id, a."studyId", a.kind::text AS kind, a.status::text AS status, a.position, a."harmFlag", a."harmComment", a."contradictionFlag", a."contradictionNote",
         a."timeSpentMs", a."submittedAt", a."responseSetId", '{}'::int[] AS "answerOrder"
  FROM "Assignment" a WHERE a.id = ${id}::uuid
  UNION ALL
  SELECT t.id, t."studyId", 'PRIMARY', t.status::text, t.position, t."harmFlag", t."harmComment", t."contradictionFlag", t."contradictionNote",
         t."timeSpentMs", t."submittedAt", t."responseSetId", t."answerOrder"
  FROM "QualityTask" t WHERE t.id = ${id}::uuid`;

/** The repetition the page shows for an answer or a grade (alias with `repetition`; 0, the whole set, stays 0). */
const shownRepetitionSql = (alias: string) =>
  Prisma.raw(`(CASE WHEN ${alias}.repetition > 0 AND cardinality(this."answerOrder") > 0 THEN array_position(this."answerOrder", ${alias}.repetition) ELSE ${alias}.repetition END)`);

/** 404 unless the assignment is this grader's own (checked before the body is even read). */
export async function assertOwnAssignment(graderId: string, assignmentId: string): Promise<void> {
  if (!isUuid(assignmentId)) throw new ApiError(404, "assignment not found");
  const rows = await sql.rows<unknown>(Prisma.sql`WITH mine AS (${mineSql(graderId)}) SELECT 1 FROM mine WHERE id = ${assignmentId}::uuid`);
  if (rows.length === 0) {
    if ((await sql.rows<unknown>(blockedByCalibrationSql(graderId, assignmentId))).length) throw new ApiError(409, CALIBRATION_FIRST);
    // A grader whose open page names work the safety screen withdrew is told so, not "not found".
    const withdrawn = await sql.rows<unknown>(Prisma.sql`SELECT 1 FROM "Assignment" a WHERE a.id = ${assignmentId}::uuid AND a."graderId" = ${graderId}::uuid
      AND a.status = 'CANCELLED' AND ${setExcludedByScreenSql(Prisma.sql`a."responseSetId"`, Prisma.sql`a."studyId"`)}`);
    if (withdrawn.length) throw new ApiError(409, SCREEN_WITHDRAWN);
    throw new ApiError(404, "assignment not found");
  }
}

const SCREEN_WITHDRAWN = "this assignment was withdrawn: the study's safety screen excluded this answer set from grading, so nothing was saved (your other work is in your queue)";

/**
 * The blinded content of one of the grader's own assignments, with where it
 * sits in their queue (done / total, its position, the next one to grade).
 * One statement: this runs on every page view and every API read, so it costs
 * one round trip whatever the queue's size, and it selects nothing about
 * models or other graders.
 */
export async function getAssignmentForGrader(graderId: string, assignmentId: string): Promise<BlindedAssignment> {
  if (!isUuid(assignmentId)) throw new ApiError(404, "assignment not found");
  const rows = await sql.rows<AssignmentViewRow>(Prisma.sql`
    WITH mine AS MATERIALIZED (${mineSql(graderId)}),
    this AS (
      SELECT a.id, a."studyId", a.kind, a.status, a.position, a."harmFlag", a."harmComment", a."contradictionFlag", a."contradictionNote", a."timeSpentMs"::float8 AS "timeSpentMs", a."submittedAt",
             a."responseSetId", a."answerOrder", ${graderFacingTitleSql("st")} AS "studyName", st.rubrics, st.repetitions, st."showReferenceAnswer", st."askContradictions",
             st.status::text AS "studyStatus", q.question, q."referenceAnswer", q.criteria, sp.name AS specialty
      FROM (${workRowSql(assignmentId)}) a
      JOIN "ResponseSet" rs ON rs.id = a."responseSetId"
      JOIN "Study" st ON st.id = a."studyId"
      JOIN "QaItem" q ON q.id = rs."itemId"
      JOIN "Specialty" sp ON sp.id = q."specialtyId"
      WHERE a.id = ${assignmentId}::uuid AND a.id IN (SELECT id FROM mine)
    )
    SELECT this.*,
      (SELECT json_agg(json_build_object('repetition', ${shownRepetitionSql("r")}, 'text', r.text, 'screened', ${answerScreenedSql(Prisma.sql`r.id`, Prisma.sql`this."studyId"`)}) ORDER BY ${shownRepetitionSql("r")})
         FROM "Response" r WHERE r."responseSetId" = this."responseSetId" AND r.repetition <= this.repetitions) AS answers,
      (SELECT json_agg(json_build_object('rubric', g.rubric, 'dimension', g.dimension, 'repetition', ${shownRepetitionSql("g")}, 'criterion', g.criterion,
              'score', g.score, 'category', g.category, 'na', g.na, 'comment', g.comment))
         FROM (SELECT rubric, dimension, repetition, criterion, score, category, na, comment FROM "Grade" WHERE "assignmentId" = this.id
               UNION ALL SELECT rubric, dimension, repetition, criterion, score, category, na, comment FROM "QualityGrade" WHERE "taskId" = this.id) g) AS grades,
      progress.total, progress.done, progress.before,
      (${nextOpenSql(assignmentId, Prisma.sql`this.position`, Prisma.sql`this."studyId"`)}) AS "nextId"
    FROM this
    -- The three counts in one pass over the study's part of the queue, not one each; "before" in the queue's order.
    CROSS JOIN LATERAL (
      SELECT count(*)::int AS total, (count(*) FILTER (WHERE mine.status = 'SUBMITTED'))::int AS done,
             (count(*) FILTER (WHERE ${queueKeySql("mine")} < ${queueKeySql("this")}))::int AS before
      FROM mine WHERE mine."studyId" = this."studyId") progress`);
  const a = rows[0];
  if (!a) {
    if ((await sql.rows<unknown>(blockedByCalibrationSql(graderId, assignmentId))).length) throw new ApiError(409, CALIBRATION_FIRST);
    throw new ApiError(404, "assignment not found");
  }
  const rubrics = storedRubrics(a.rubrics);
  return {
    id: a.id,
    kind: a.kind,
    status: a.status,
    readOnly: a.studyStatus !== "OPEN",
    study: {
      name: a.studyName,
      rubrics: rubrics.map((r) => r.key),
      rubricDocuments: rubrics,
      repetitions: a.repetitions,
      showReferenceAnswer: a.showReferenceAnswer,
      askContradictions: asksContradictions(a),
    },
    item: { specialty: a.specialty, question: a.question, referenceAnswer: a.showReferenceAnswer ? a.referenceAnswer : null, criteria: storedCriteria(a.criteria) },
    answers: a.answers ?? [],
    scores: (a.grades ?? []).map(savedGrade),
    harm: { flag: a.harmFlag, comment: a.harmComment },
    contradiction: { flag: a.contradictionFlag, note: a.contradictionNote },
    timeSpentMs: a.timeSpentMs,
    submittedAt: a.submittedAt?.toISOString() ?? null,
    progress: { done: a.done, total: a.total, position: a.before + 1 },
    nextAssignmentId: a.nextId,
  };
}

/** The next assignment to grade after this one (the first unfinished one after it in the grader's order, wrapping around). */
async function nextAssignmentAfter(graderId: string, assignmentId: string): Promise<string | null> {
  // A quality task's place too (workRowSql): read from assignments alone, a gold task's "next" was the queue's first open set, a tell.
  const position = Prisma.sql`(SELECT w.position FROM (${workRowSql(assignmentId)}) w)`;
  const studyId = Prisma.sql`(SELECT w."studyId" FROM (${workRowSql(assignmentId)}) w)`;
  const rows = await sql.rows<{ id: string }>(Prisma.sql`WITH mine AS (${mineSql(graderId)}) ${nextOpenSql(assignmentId, position, studyId)}`);
  return rows[0]?.id ?? null;
}

/** The assignment being saved, what of its study the save and the escalation need, and its set's state. */
interface SavedStateRow extends Omit<StudyForEscalation, "id" | "rubrics"> {
  studyId: string;
  rubrics: unknown;
  criteria: unknown;
  studyStatus: string;
  responseSetId: string;
  /** Server time since the assignment's row was last written (a save, its creation or revival). */
  sinceLastWriteMs: number;
  isMine: boolean;
  status: AssignmentStatusKey | "CANCELLED";
  /** The study's safety screen excludes the set (what withdrew an assignment of it, if it was withdrawn). */
  excludedByScreen: boolean;
  harmFlag: boolean;
  harmComment: string | null;
  contradictionFlag: boolean;
  contradictionNote: string | null;
  askContradictions: boolean;
  grades: (GradeRow & { id: string })[] | null;
  setStatus: SetState["setStatus"];
  setAssignments: SetState["assignments"];
  escalation: SetState["escalation"];
  kind: "PRIMARY" | "ADJUDICATOR";
  washoutShare: number;
  washoutSeed: string | null;
}

export interface SaveResult {
  status: AssignmentStatusKey;
  complete: boolean;
  changed: number;
  nextAssignmentId: string | null;
}

const cellKey = (c: { rubric: string; dimension: string; repetition: number; criterion: string }) =>
  `${c.rubric}/${c.dimension}/${c.repetition}${c.criterion ? `/${c.criterion}` : ""}`;
/** What a cell holds, for the audit's before and after. */
const held = (c: GradeRow) => ({ score: c.score ?? c.category, ...(c.na ? { na: true } : {}), comment: c.comment });
const sameCell = (a: GradeRow, b: GradeRow) =>
  a.score === b.score && a.category === b.category && a.na === b.na && (a.comment ?? null) === (b.comment ?? null);

/**
 * Saves a draft or submits (all or nothing). The body is the whole form, so the
 * same request twice stores one grade. A submitted assignment may be revised
 * while the study is open; every revised score is audited with old and new
 * values. Submitting or revising a primary grade re-evaluates the set for
 * escalation in the same transaction, under a lock on the set's row.
 */
export async function saveGrades(graderId: string, assignmentId: string, body: GradeSubmission, requestId?: string): Promise<SaveResult> {
  if (!isUuid(assignmentId)) throw new ApiError(404, "assignment not found");
  // Where to go next does not depend on this save (it never names this assignment),
  // so it is read on another connection while the transaction runs.
  const next = body.submit ? nextAssignmentAfter(graderId, assignmentId) : Promise.resolve(null);
  // Set by the transaction, and counted only once it has committed.
  let firstSubmit = false;
  let escalation: "created" | "reopened" | null = null;
  const saved = sqlTransaction(
    async (tx) => {
      escalation = null;
      // Serialise every write on this set (the last two primary grades, a revision,
      // an adjudication, a lead's reassignment, the same request sent twice): lock
      // the set's row first, then read everything the save decides on.
      const locked = await tx.rows<{ id: string }>(
        lockSetsSql(Prisma.sql`SELECT "responseSetId" FROM "Assignment" WHERE id = ${assignmentId}::uuid AND "graderId" = ${graderId}::uuid`),
      );
      if (locked.length === 0) {
        // Not an assignment: the grader's quality task (calibration, gold, re-grade), if it is one. Looked for only
        // after the miss, so a real save pays nothing for it; it writes QualityGrade and never touches the set's state.
        const task = await saveQualityTask(tx, graderId, assignmentId, body, requestId);
        if (task) return task;
        throw new ApiError(404, "assignment not found");
      }

      // In a statement of its own, after the lock: a save, a cancellation or a
      // reassignment that committed while this one waited is seen (whether the
      // assignment is still the grader's, its grades, the set and its escalation).
      const [a] = await tx.rows<SavedStateRow>(Prisma.sql`
        WITH mine AS (${mineSql(graderId)})
        SELECT EXISTS (SELECT 1 FROM mine WHERE mine.id = a.id) AS "isMine", a.status::text AS status,
          -- Only a withdrawn assignment needs to know why: saves of live work skip the screen.
          CASE WHEN a.status = 'CANCELLED' THEN ${setExcludedByScreenSql(Prisma.sql`a."responseSetId"`, Prisma.sql`a."studyId"`)} ELSE false END AS "excludedByScreen", a."harmFlag", a."harmComment", a."contradictionFlag", a."contradictionNote", a."responseSetId",
          (extract(epoch FROM now() - a."updatedAt") * 1000)::float8 AS "sinceLastWriteMs",
          st.id AS "studyId", st.status::text AS "studyStatus", st.rubrics, st.repetitions, st."gradersPerSet",
          st.thresholds, st."escalationRules", st."matchSpecialty", st."assignmentSeed", st."askContradictions", a.kind::text AS kind, st."washoutShare", st."washoutSeed",
          (SELECT q.criteria FROM "ResponseSet" rs JOIN "QaItem" q ON q.id = rs."itemId" WHERE rs.id = a."responseSetId") AS criteria,
          (SELECT json_agg(jsonb_build_object('id', g.id) || ${gradeJsonSql}::jsonb) FROM "Grade" g WHERE g."assignmentId" = a.id) AS grades,
          s."setStatus", s.assignments AS "setAssignments", s.escalation
        FROM "Assignment" a
        JOIN "Study" st ON st.id = a."studyId"
        CROSS JOIN (${setStateSql(locked[0].id)}) s
        WHERE a.id = ${assignmentId}::uuid`);
      if (a?.status === "CANCELLED" && a.excludedByScreen) {
        throw new ApiError(409, SCREEN_WITHDRAWN);
      }
      if (a?.status === "CANCELLED") {
        throw new ApiError(409, "this assignment was withdrawn while you graded it (the graders now agree, or the lead gave it to someone else): nothing was saved");
      }
      if (!a?.isMine) {
        if ((await tx.rows<unknown>(blockedByCalibrationSql(graderId, assignmentId))).length) throw new ApiError(409, CALIBRATION_FIRST);
        throw new ApiError(404, "assignment not found");
      }
      if (a.studyStatus === "CLOSED") throw new ApiError(409, "the study is closed: grades can no longer be changed");
      const study: StudyForEscalation = {
        id: a.studyId,
        rubrics: storedRubrics(a.rubrics),
        repetitions: a.repetitions,
        gradersPerSet: a.gradersPerSet,
        thresholds: a.thresholds,
        escalationRules: a.escalationRules,
        matchSpecialty: a.matchSpecialty,
        assignmentSeed: a.assignmentSeed,
      };

      const wasSubmitted = a.status === "SUBMITTED";
      if (wasSubmitted && !body.submit) {
        throw new ApiError(409, "this assignment is already submitted: send the complete form with submit: true to revise it");
      }
      const v = validateGrades(body, { ...study, criteria: storedCriteria(a.criteria) ?? [] });
      if (body.contradiction?.flag && !asksContradictions(a)) {
        v.problems.push({
          path: "contradiction.flag",
          message: a.repetitions < 2 ? "a set with one answer has nothing to contradict" : "this study does not ask graders about contradictions",
        });
      }
      if (v.problems.length) throw new ApiError(422, "invalid grades", { problems: v.problems });

      const existing = a.grades ?? [];
      const byKey = new Map(existing.map((g) => [cellKey(g), g]));
      const incoming = new Map(v.cells.map((c) => [cellKey(c), c]));
      type Held = ReturnType<typeof held>;
      const revisions: { cell: string; before: Held | null; after: Held | null }[] = [];
      const writes: typeof v.cells = [];
      for (const [key, c] of incoming) {
        const old = byKey.get(key);
        if (old && sameCell(old, c)) continue;
        writes.push(c);
        revisions.push({ cell: key, before: old ? held(old) : null, after: held(c) });
      }
      // A draft may clear a score the grader took back; a submitted form is complete, so nothing is dropped then.
      const dropped = existing.filter((g) => !incoming.has(cellKey(g)));
      for (const g of dropped) revisions.push({ cell: cellKey(g), before: held(g), after: null });

      const harmFlag = body.harm?.flag ?? a.harmFlag;
      // Without the flag, a comment is the grader's reason why a score across the harm line is not a harm.
      const harmComment = body.harm ? body.harm.comment?.trim() || null : a.harmComment;
      const harmChanged = harmFlag !== a.harmFlag || harmComment !== a.harmComment;
      // Like the harm flag, part of the grader's submission: absent leaves it as saved; the note goes with the flag.
      const contradictionFlag = body.contradiction?.flag ?? a.contradictionFlag;
      const contradictionNote = contradictionFlag ? (body.contradiction ? body.contradiction.note?.trim() || null : a.contradictionNote) : null;
      const contradictionChanged = contradictionFlag !== a.contradictionFlag || contradictionNote !== a.contradictionNote;
      const contradiction = { flag: contradictionFlag, note: contradictionNote };
      const contradictionBefore = { flag: a.contradictionFlag, note: a.contradictionNote };
      // The page's visible time since its last save, never more than the server saw pass
      // since the row was last written, nor more than one interval's cap.
      const elapsed = Math.round(Math.max(0, Math.min(body.elapsedMs ?? 0, a.sinceLastWriteMs, MAX_ELAPSED_PER_SAVE_MS)));
      const nextStatus = body.submit ? "SUBMITTED" : "IN_PROGRESS";
      const changed = revisions.length + (harmChanged ? 1 : 0) + (contradictionChanged ? 1 : 0);
      const audit =
        body.submit && !wasSubmitted
          ? auditInsertSql({
              actorId: graderId,
              action: "assignment.submit",
              entityType: "Assignment",
              entityId: assignmentId,
              studyId: study.id,
              after: { scores: v.cells, harm: { flag: harmFlag, comment: harmComment }, contradiction },
              requestId,
            })
          : wasSubmitted && changed > 0
            ? auditInsertSql({
                actorId: graderId,
                action: "grade.revise",
                entityType: "Assignment",
                entityId: assignmentId,
                studyId: study.id,
                before: { scores: revisions.map((r) => ({ cell: r.cell, ...r.before })), harm: { flag: a.harmFlag, comment: a.harmComment }, contradiction: contradictionBefore },
                after: { scores: revisions.map((r) => ({ cell: r.cell, ...r.after })), harm: { flag: harmFlag, comment: harmComment }, contradiction },
                requestId,
              })
            : null;

      // The grades, the assignment and its audit event in one statement (data-modifying
      // CTEs all run, referenced or not): one round trip however many cells changed.
      // The unique key on the cell makes a replayed insert an update, never a second row.
      const steps: Prisma.Sql[] = [];
      if (writes.length) {
        steps.push(Prisma.sql`written AS (
          INSERT INTO "Grade" (id, "assignmentId", rubric, dimension, repetition, criterion, score, category, na, comment, "updatedAt")
          SELECT gen_random_uuid(), ${assignmentId}::uuid, w.rubric, w.dimension, w.repetition, w.criterion, w.score, w.category, w.na, w.comment, now()
          FROM unnest(${writes.map((c) => c.rubric)}::text[], ${writes.map((c) => c.dimension)}::text[], ${writes.map((c) => c.repetition)}::int[],
                      ${writes.map((c) => c.criterion)}::text[], ${writes.map((c) => c.score)}::int[], ${writes.map((c) => c.category)}::text[],
                      ${writes.map((c) => c.na)}::bool[], ${writes.map((c) => c.comment)}::text[])
               AS w(rubric, dimension, repetition, criterion, score, category, na, comment)
          ON CONFLICT ("assignmentId", rubric, dimension, repetition, criterion)
          DO UPDATE SET score = EXCLUDED.score, category = EXCLUDED.category, na = EXCLUDED.na, comment = EXCLUDED.comment, "updatedAt" = now()
          RETURNING 1)`);
      }
      if (dropped.length) {
        steps.push(Prisma.sql`cleared AS (DELETE FROM "Grade" WHERE id = ANY(${dropped.map((g) => g.id)}::uuid[]) RETURNING 1)`);
      }
      if (audit) steps.push(Prisma.sql`audited AS (${audit} RETURNING 1)`);
      // A first primary submission may be drawn for a washout re-grade (lib/quality-tasks/washout.ts); skipped unless the study asks.
      if (body.submit && !wasSubmitted && a.kind === "PRIMARY" && drawnForWashout(a.washoutSeed, assignmentId, a.washoutShare)) {
        steps.push(Prisma.sql`washout AS (${washoutInsertSql(assignmentId, washoutAnswerOrder(a.washoutSeed, assignmentId, a.repetitions))} RETURNING 1)`);
      }
      await tx.rows(Prisma.sql`
        ${steps.length ? Prisma.sql`WITH ${Prisma.join(steps, ", ")}` : Prisma.empty}
        UPDATE "Assignment" SET
          status = ${nextStatus}::"AssignmentStatus", "harmFlag" = ${harmFlag}, "harmComment" = ${harmComment},
          "contradictionFlag" = ${contradictionFlag}, "contradictionNote" = ${contradictionNote},
          "timeSpentMs" = "timeSpentMs" + ${elapsed}::bigint, "updatedAt" = now()
          ${a.status === "PENDING" ? Prisma.sql`, "startedAt" = now()` : Prisma.empty}
          ${body.submit && !wasSubmitted ? Prisma.sql`, "submittedAt" = now()` : Prisma.empty}
        WHERE id = ${assignmentId}::uuid`);

      if (body.submit && (!wasSubmitted || changed > 0)) {
        // The set as it now stands: what was read under the lock, with this submission applied.
        const assignments = (a.setAssignments ?? []).map((x) =>
          x.id === assignmentId ? { ...x, status: nextStatus, grades: v.cells } : x,
        );
        escalation = await evaluateSet(tx, study, a.responseSetId, { setStatus: a.setStatus, assignments, escalation: a.escalation }, { actorId: graderId, requestId });
      }
      firstSubmit = body.submit && !wasSubmitted;
      return { status: nextStatus as AssignmentStatusKey, complete: v.complete, changed };
    },
  );
  const [result, nextAssignmentId] = await Promise.all([saved, next]);
  if (firstSubmit) metrics().gradesSubmitted.inc();
  if (escalation) metrics().escalationsOpened.inc({ kind: escalation });
  return { ...result, nextAssignmentId };
}
