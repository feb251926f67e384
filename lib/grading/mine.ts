import { Prisma } from "@/lib/generated/prisma/client";

/**
 * The grader's own work, as SQL: non-cancelled assignments and quality tasks (calibration, gold,
 * washout re-grade: lib/quality-tasks) in studies that are open or closed and of which the grader
 * is still an active member. The queue and the grading page read only this, so a quality task is
 * served exactly as an assignment (kind PRIMARY, same columns); results read "Assignment" alone
 * and never see one.
 *
 * Where the study requires calibration, a grader who has not passed it sees only their
 * calibration tasks (the block on real work is here, on the server, for every read and save);
 * once passed, calibration tasks leave the queue. A re-grade shows from the end of its washout.
 */
export const graderWorkSql = (graderId: string) => Prisma.sql`
  SELECT x.id, x."studyId", x."responseSetId", x.kind, x.status, x.position, st.status::text AS study_status
  FROM (
    SELECT a.id, a."studyId", a."responseSetId", a.kind::text AS kind, a.status::text AS status, a.position, false AS calibration
    FROM "Assignment" a WHERE a."graderId" = ${graderId}::uuid AND a.status <> 'CANCELLED'
    UNION ALL
    SELECT t.id, t."studyId", t."responseSetId", 'PRIMARY', t.status::text, t.position, t.purpose = 'CALIBRATION'
    FROM "QualityTask" t WHERE t."graderId" = ${graderId}::uuid AND t.status <> 'CANCELLED' AND t."availableAt" <= now()
  ) x
  JOIN "Study" st ON st.id = x."studyId"
  JOIN "StudyMember" m ON m."studyId" = st.id AND m."userId" = ${graderId}::uuid AND m.active
  WHERE st.status IN ('OPEN', 'CLOSED')
    AND x.calibration = (st."calibrationRequired" AND m."calibrationPassedAt" IS NULL)`;

/** Whether the grader's real work in the assignment's study waits for their calibration (to answer 409, not 404). */
export const blockedByCalibrationSql = (graderId: string, assignmentId: string) => Prisma.sql`
  SELECT 1 FROM "Assignment" a
  JOIN "Study" st ON st.id = a."studyId" AND st."calibrationRequired"
  JOIN "StudyMember" m ON m."studyId" = st.id AND m."userId" = ${graderId}::uuid AND m."calibrationPassedAt" IS NULL
  WHERE a.id = ${assignmentId}::uuid AND a."graderId" = ${graderId}::uuid
  UNION ALL
  SELECT 1 FROM "QualityTask" t
  JOIN "Study" st ON st.id = t."studyId" AND st."calibrationRequired"
  JOIN "StudyMember" m ON m."studyId" = st.id AND m."userId" = ${graderId}::uuid AND m."calibrationPassedAt" IS NULL
  WHERE t.id = ${assignmentId}::uuid AND t."graderId" = ${graderId}::uuid AND t.purpose <> 'CALIBRATION'`;

export const CALIBRATION_FIRST = "this study asks you to pass calibration before grading: finish your calibration sets in your queue first";
