import { auditInsertSql } from "@/lib/audit/record";
import { sql, sqlTransaction } from "@/lib/db/sql";
import { isUuid } from "@/lib/db/uuid";
import { Prisma } from "@/lib/generated/prisma/client";
import { graderWorkSql, nextOpenSql } from "@/lib/grading/work-sql";
import { ApiError } from "@/lib/errors/api-error";
import { queueKeySql } from "@/lib/grading/queue-order";
import type { RubricDocument } from "@/lib/rubrics/document";
import { storedRubrics } from "@/lib/rubrics/study-rubrics";
import { answerScreenedSql } from "@/lib/screening/sql";
import { graderFacingTitleSql } from "@/lib/studies/grader-title";
import type { PreferenceForm } from "./contract-schemas";
import { comparisonStateSql, evaluateComparison, type ComparisonState, type StudyForComparison } from "./escalation";
import { lockComparisonsSql } from "./lock";
import { validatePreferences } from "./validate";

/**
 * A grader's own comparisons. Every read is filtered by the grader's id, so someone else's
 * comparison answers 404. Nothing returned names a model, a repetition, the study's own name or
 * another grader: the answers are "A" (left) and "B" (right), as planned.
 */
const MAX_ELAPSED_PER_SAVE_MS = 30 * 60_000;

type Status = "PENDING" | "IN_PROGRESS" | "SUBMITTED";
const SIDE = { LEFT: "a", RIGHT: "b", TIE: "tie" } as const;

// The grader's own comparisons and the next open one: scoring's queries over the comparison table.
const mineSql = (graderId: string) => graderWorkSql(graderId, "ComparisonAssignment");

export interface MyComparison {
  id: string;
  kind: "PRIMARY" | "ADJUDICATOR";
  status: Status;
  position: number;
  studyId: string;
  studyName: string;
  specialty: string;
  question: string;
  studyOpen: boolean;
}

/** The grader's comparisons, in their own order, in studies open or closed (read-only). */
export async function listMyComparisons(graderId: string): Promise<MyComparison[]> {
  return sql.rows<MyComparison>(Prisma.sql`
    WITH mine AS (${mineSql(graderId)})
    SELECT mine.id, mine.kind, mine.status, mine.position, mine."studyId", ${graderFacingTitleSql("st")} AS "studyName",
           sp.name AS specialty, q.question, mine.study_status = 'OPEN' AS "studyOpen"
    FROM mine
    JOIN "ComparisonAssignment" a ON a.id = mine.id
    JOIN "Study" st ON st.id = mine."studyId"
    JOIN "Comparison" c ON c.id = a."comparisonId"
    JOIN "QaItem" q ON q.id = c."itemId"
    JOIN "Specialty" sp ON sp.id = q."specialtyId"
    ORDER BY (mine.kind = 'ADJUDICATOR') DESC, mine.position, mine.id`);
}

export interface SavedPreference {
  rubric: string;
  axis: string;
  choice: "a" | "tie" | "b";
  strength: "slightly" | "clearly" | null;
  comment: string | null;
}

export interface BlindedComparison {
  id: string;
  kind: "PRIMARY" | "ADJUDICATOR";
  status: Status;
  readOnly: boolean;
  study: { name: string; rubricDocuments: RubricDocument[]; showReferenceAnswer: boolean };
  item: { specialty: string; question: string; referenceAnswer: string | null };
  answers: { a: { text: string; screened: boolean }; b: { text: string; screened: boolean } };
  preferences: SavedPreference[];
  harm: { a: { flag: boolean; comment: string | null }; b: { flag: boolean; comment: string | null } };
  timeSpentMs: number;
  submittedAt: string | null;
  progress: { done: number; total: number; position: number };
  nextAssignmentId: string | null;
}

interface StoredPreference {
  rubric: string;
  axis: string;
  choice: "LEFT" | "RIGHT" | "TIE";
  strength: "SLIGHTLY" | "CLEARLY" | null;
  comment: string | null;
}
const savedPreference = (p: StoredPreference): SavedPreference => ({
  rubric: p.rubric,
  axis: p.axis,
  choice: SIDE[p.choice],
  strength: p.strength === null ? null : p.strength === "SLIGHTLY" ? "slightly" : "clearly",
  comment: p.comment,
});
const preferenceJsonSql = Prisma.sql`json_build_object('rubric', p.rubric, 'axis', p.axis, 'choice', p.choice, 'strength', p.strength, 'comment', p.comment)`;

/** 404 unless the comparison is this grader's own (checked before a body is read). */
export async function assertOwnComparison(graderId: string, assignmentId: string): Promise<void> {
  if (!isUuid(assignmentId)) throw new ApiError(404, "comparison not found");
  const rows = await sql.rows<unknown>(Prisma.sql`WITH mine AS (${mineSql(graderId)}) SELECT 1 FROM mine WHERE id = ${assignmentId}::uuid`);
  if (rows.length === 0) throw new ApiError(404, "comparison not found");
}

interface ViewRow {
  id: string;
  kind: "PRIMARY" | "ADJUDICATOR";
  status: Status;
  harmLeft: boolean;
  harmLeftComment: string | null;
  harmRight: boolean;
  harmRightComment: string | null;
  timeSpentMs: number;
  submittedAt: Date | null;
  studyName: string;
  rubrics: unknown;
  showReferenceAnswer: boolean;
  studyStatus: string;
  question: string;
  referenceAnswer: string;
  specialty: string;
  left: { text: string; screened: boolean } | null;
  right: { text: string; screened: boolean } | null;
  preferences: StoredPreference[] | null;
  total: number;
  done: number;
  before: number;
  nextId: string | null;
}

/** The blinded comparison with the grader's own preferences and where it sits in their queue; one statement. */
export async function getComparisonForGrader(graderId: string, assignmentId: string): Promise<BlindedComparison> {
  if (!isUuid(assignmentId)) throw new ApiError(404, "comparison not found");
  const answer = (setCol: string, repCol: string) => Prisma.sql`
    (SELECT json_build_object('text', r.text, 'screened', ${answerScreenedSql(Prisma.sql`r.id`, Prisma.sql`this."studyId"`)})
       FROM "Response" r WHERE r."responseSetId" = this.${Prisma.raw(`"${setCol}"`)} AND r.repetition = this.${Prisma.raw(`"${repCol}"`)})`;
  const rows = await sql.rows<ViewRow>(Prisma.sql`
    WITH mine AS MATERIALIZED (${mineSql(graderId)}),
    this AS (
      SELECT a.id, a."studyId", a.kind::text AS kind, a.status::text AS status, a.position, a."harmLeft", a."harmLeftComment", a."harmRight", a."harmRightComment",
             a."timeSpentMs"::float8 AS "timeSpentMs", a."submittedAt", c."leftSetId", c."leftRepetition", c."rightSetId", c."rightRepetition",
             ${graderFacingTitleSql("st")} AS "studyName", st.rubrics, st."showReferenceAnswer", st.status::text AS "studyStatus",
             q.question, q."referenceAnswer", sp.name AS specialty
      FROM "ComparisonAssignment" a
      JOIN "Comparison" c ON c.id = a."comparisonId"
      JOIN "Study" st ON st.id = a."studyId"
      JOIN "QaItem" q ON q.id = c."itemId"
      JOIN "Specialty" sp ON sp.id = q."specialtyId"
      WHERE a.id = ${assignmentId}::uuid AND a.id IN (SELECT id FROM mine)
    )
    SELECT this.*, ${answer("leftSetId", "leftRepetition")} AS left, ${answer("rightSetId", "rightRepetition")} AS right,
      (SELECT json_agg(${preferenceJsonSql}) FROM "Preference" p WHERE p."assignmentId" = this.id) AS preferences,
      progress.total, progress.done, progress.before,
      (${nextOpenSql(assignmentId, Prisma.sql`this.position`, Prisma.sql`this."studyId"`)}) AS "nextId"
    FROM this
    CROSS JOIN LATERAL (
      SELECT count(*)::int AS total, (count(*) FILTER (WHERE mine.status = 'SUBMITTED'))::int AS done,
             (count(*) FILTER (WHERE ${queueKeySql("mine")} < ${queueKeySql("this")}))::int AS before
      FROM mine WHERE mine."studyId" = this."studyId") progress`);
  const a = rows[0];
  if (!a) throw new ApiError(404, "comparison not found");
  return {
    id: a.id,
    kind: a.kind,
    status: a.status,
    readOnly: a.studyStatus !== "OPEN",
    study: { name: a.studyName, rubricDocuments: storedRubrics(a.rubrics), showReferenceAnswer: a.showReferenceAnswer },
    item: { specialty: a.specialty, question: a.question, referenceAnswer: a.showReferenceAnswer ? a.referenceAnswer : null },
    answers: { a: a.left ?? { text: "", screened: false }, b: a.right ?? { text: "", screened: false } },
    preferences: (a.preferences ?? []).map(savedPreference),
    harm: { a: { flag: a.harmLeft, comment: a.harmLeftComment }, b: { flag: a.harmRight, comment: a.harmRightComment } },
    timeSpentMs: a.timeSpentMs,
    submittedAt: a.submittedAt?.toISOString() ?? null,
    progress: { done: a.done, total: a.total, position: a.before + 1 },
    nextAssignmentId: a.nextId,
  };
}

interface SaveStateRow {
  isMine: boolean;
  status: Status | "CANCELLED";
  comparisonId: string;
  harmLeft: boolean;
  harmLeftComment: string | null;
  harmRight: boolean;
  harmRightComment: string | null;
  sinceLastWriteMs: number;
  studyId: string;
  studyStatus: string;
  rubrics: unknown;
  gradersPerSet: number;
  tieDisagrees: boolean;
  matchSpecialty: boolean;
  pairSeed: string | null;
  preferences: (StoredPreference & { id: string })[] | null;
  cStatus: ComparisonState["status"];
  cAssignments: ComparisonState["assignments"];
  cEscalation: ComparisonState["escalation"];
}

export interface PreferenceSaveResult {
  status: Status;
  complete: boolean;
  nextAssignmentId: string | null;
}

const same = (a: { choice: string; strength: string | null; comment: string | null }, b: typeof a) => a.choice === b.choice && a.strength === b.strength && (a.comment ?? null) === (b.comment ?? null);

/**
 * Saves a draft (submit false) or submits / revises (submit true) the grader's whole form, all or
 * nothing. The comparison's row is locked first, then everything the save decides on is read in a
 * statement of its own: two primary graders submitting at once are evaluated one after the other,
 * so a disagreement calls exactly one adjudicator.
 */
export async function savePreferences(graderId: string, assignmentId: string, form: PreferenceForm, submit: boolean, requestId?: string): Promise<PreferenceSaveResult> {
  if (!isUuid(assignmentId)) throw new ApiError(404, "comparison not found");
  const saved = await sqlTransaction(async (tx) => {
    const locked = await tx.rows<{ id: string }>(
      lockComparisonsSql(Prisma.sql`SELECT "comparisonId" FROM "ComparisonAssignment" WHERE id = ${assignmentId}::uuid AND "graderId" = ${graderId}::uuid`),
    );
    if (locked.length === 0) throw new ApiError(404, "comparison not found");
    const [a] = await tx.rows<SaveStateRow>(Prisma.sql`
      WITH mine AS (${mineSql(graderId)})
      SELECT EXISTS (SELECT 1 FROM mine WHERE mine.id = a.id) AS "isMine", a.status::text AS status, a."comparisonId",
        a."harmLeft", a."harmLeftComment", a."harmRight", a."harmRightComment",
        (extract(epoch FROM now() - a."updatedAt") * 1000)::float8 AS "sinceLastWriteMs",
        st.id AS "studyId", st.status::text AS "studyStatus", st.rubrics, st."gradersPerSet", st."tieDisagrees", st."matchSpecialty", st."pairSeed",
        (SELECT json_agg(jsonb_build_object('id', p.id) || ${preferenceJsonSql}::jsonb) FROM "Preference" p WHERE p."assignmentId" = a.id) AS preferences,
        s.status AS "cStatus", s.assignments AS "cAssignments", s.escalation AS "cEscalation"
      FROM "ComparisonAssignment" a
      JOIN "Study" st ON st.id = a."studyId"
      CROSS JOIN (${comparisonStateSql(locked[0].id)}) s
      WHERE a.id = ${assignmentId}::uuid`);
    if (a?.status === "CANCELLED") throw new ApiError(409, "this comparison was withdrawn while you worked on it (the graders now agree): nothing was saved");
    if (!a?.isMine) throw new ApiError(404, "comparison not found");
    if (a.studyStatus === "CLOSED") throw new ApiError(409, "the study is closed: preferences can no longer be changed");
    const wasSubmitted = a.status === "SUBMITTED";
    if (wasSubmitted && !submit) throw new ApiError(409, "this comparison is already submitted: submit the complete form again to revise it");
    const study: StudyForComparison = {
      id: a.studyId,
      rubrics: storedRubrics(a.rubrics),
      gradersPerSet: a.gradersPerSet,
      tieDisagrees: a.tieDisagrees,
      matchSpecialty: a.matchSpecialty,
      pairSeed: a.pairSeed,
    };
    const v = validatePreferences(form, study.rubrics, submit);
    if (v.problems.length) throw new ApiError(422, "invalid preferences", { problems: v.problems });

    const existing = a.preferences ?? [];
    const byKey = new Map(existing.map((p) => [`${p.rubric}/${p.axis}`, p]));
    const incoming = new Set(v.cells.map((c) => `${c.rubric}/${c.axis}`));
    const writes = v.cells.filter((c) => {
      const old = byKey.get(`${c.rubric}/${c.axis}`);
      return !old || !same(old, c);
    });
    const dropped = existing.filter((p) => !incoming.has(`${p.rubric}/${p.axis}`));
    const harm = {
      left: form.harm?.a ? { flag: form.harm.a.flag, comment: form.harm.a.comment?.trim() || null } : { flag: a.harmLeft, comment: a.harmLeftComment },
      right: form.harm?.b ? { flag: form.harm.b.flag, comment: form.harm.b.comment?.trim() || null } : { flag: a.harmRight, comment: a.harmRightComment },
    };
    const harmChanged = harm.left.flag !== a.harmLeft || harm.left.comment !== a.harmLeftComment || harm.right.flag !== a.harmRight || harm.right.comment !== a.harmRightComment;
    const changed = writes.length + dropped.length + (harmChanged ? 1 : 0);
    const elapsed = Math.round(Math.max(0, Math.min(form.elapsedMs ?? 0, a.sinceLastWriteMs, MAX_ELAPSED_PER_SAVE_MS)));
    const nextStatus: Status = submit ? "SUBMITTED" : "IN_PROGRESS";
    const audit =
      submit && !wasSubmitted
        ? auditInsertSql({ actorId: graderId, action: "comparison.submit", entityType: "ComparisonAssignment", entityId: assignmentId, studyId: study.id, after: { preferences: v.cells, harm }, requestId })
        : wasSubmitted && changed > 0
          ? auditInsertSql({
              actorId: graderId,
              action: "preference.revise",
              entityType: "ComparisonAssignment",
              entityId: assignmentId,
              studyId: study.id,
              before: { preferences: existing.map(({ id: _id, ...p }) => p), harm: { left: { flag: a.harmLeft, comment: a.harmLeftComment }, right: { flag: a.harmRight, comment: a.harmRightComment } } },
              after: { preferences: v.cells, harm },
              requestId,
            })
          : null;
    const steps: Prisma.Sql[] = [];
    if (writes.length) {
      steps.push(Prisma.sql`written AS (
        INSERT INTO "Preference" (id, "assignmentId", rubric, axis, choice, strength, comment, "updatedAt")
        SELECT gen_random_uuid(), ${assignmentId}::uuid, w.rubric, w.axis, w.choice::"PreferenceChoice", w.strength::"PreferenceStrength", w.comment, now()
        FROM unnest(${writes.map((c) => c.rubric)}::text[], ${writes.map((c) => c.axis)}::text[], ${writes.map((c) => c.choice)}::text[],
                    ${writes.map((c) => c.strength)}::text[], ${writes.map((c) => c.comment)}::text[]) AS w(rubric, axis, choice, strength, comment)
        ON CONFLICT ("assignmentId", rubric, axis)
        DO UPDATE SET choice = EXCLUDED.choice, strength = EXCLUDED.strength, comment = EXCLUDED.comment, "updatedAt" = now()
        RETURNING 1)`);
    }
    if (dropped.length) steps.push(Prisma.sql`cleared AS (DELETE FROM "Preference" WHERE id = ANY(${dropped.map((p) => p.id)}::uuid[]) RETURNING 1)`);
    if (audit) steps.push(Prisma.sql`audited AS (${audit} RETURNING 1)`);
    await tx.rows(Prisma.sql`
      ${steps.length ? Prisma.sql`WITH ${Prisma.join(steps, ", ")}` : Prisma.empty}
      UPDATE "ComparisonAssignment" SET status = ${nextStatus}::"AssignmentStatus",
        "harmLeft" = ${harm.left.flag}, "harmLeftComment" = ${harm.left.comment}, "harmRight" = ${harm.right.flag}, "harmRightComment" = ${harm.right.comment},
        "timeSpentMs" = "timeSpentMs" + ${elapsed}::bigint, "updatedAt" = now()
        ${a.status === "PENDING" ? Prisma.sql`, "startedAt" = now()` : Prisma.empty}
        ${submit && !wasSubmitted ? Prisma.sql`, "submittedAt" = now()` : Prisma.empty}
      WHERE id = ${assignmentId}::uuid`);
    if (submit && (!wasSubmitted || changed > 0)) {
      const assignments = (a.cAssignments ?? []).map((x) =>
        x.id === assignmentId ? { ...x, status: "SUBMITTED", preferences: v.cells.map((c) => ({ rubric: c.rubric, axis: c.axis, choice: c.choice })) } : x,
      );
      await evaluateComparison(tx, study, a.comparisonId, { status: a.cStatus, assignments, escalation: a.cEscalation }, { actorId: graderId, requestId });
    }
    return { status: nextStatus, complete: v.complete };
  });
  const nextAssignmentId = submit ? await nextAfter(graderId, assignmentId) : null;
  return { ...saved, nextAssignmentId };
}

async function nextAfter(graderId: string, assignmentId: string): Promise<string | null> {
  const position = Prisma.sql`(SELECT position FROM "ComparisonAssignment" WHERE id = ${assignmentId}::uuid)`;
  const studyId = Prisma.sql`(SELECT "studyId" FROM "ComparisonAssignment" WHERE id = ${assignmentId}::uuid)`;
  const rows = await sql.rows<{ id: string }>(Prisma.sql`WITH mine AS (${mineSql(graderId)}) ${nextOpenSql(assignmentId, position, studyId)}`);
  return rows[0]?.id ?? null;
}
