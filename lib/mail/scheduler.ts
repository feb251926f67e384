import { getDb } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";
import { graderFacingTitleSql } from "@/lib/blinding/grader-title";

/**
 * What is due to be sent today, queued straight into the outbox by one
 * INSERT ... SELECT per kind. Each message has a dedupe key naming what it is
 * for (the grader, the study, the deadline, the day or week), so any number of
 * instances running this at once, or again, queue each message once
 * (ON CONFLICT DO NOTHING on the unique key); the outbox then sends it once.
 *
 * - reminders: graders with open work in an open study, from `reminderDaysBefore`
 *   days before their deadline (their own, else the study's), once before and once on the day;
 * - the weekly digest: graders who chose it, with open work, once per ISO week;
 * - the lead's daily digest: each lead of an open study with a deadline, once per day.
 *
 * The worker runs this every minute, so each statement first drops what is
 * already queued (a lookup by the dedupe key's unique index) and aggregates
 * only what is still due: once the day's messages are queued, a pass reads
 * the due memberships and no assignment.
 */

const open = Prisma.sql`a.status IN ('PENDING', 'IN_PROGRESS')`;

export interface Scheduled {
  reminders: number;
  digests: number;
  leadDigests: number;
}

/** `today` is a UTC date (YYYY-MM-DD); tests pass one, the worker the current one. */
export async function scheduleDueMail(today: string = new Date().toISOString().slice(0, 10)): Promise<Scheduled> {
  const db = getDb();
  const day = Prisma.sql`${today}::date`;
  const title = graderFacingTitleSql("s");
  const reminders = await db.$executeRaw`
    WITH due AS (
      SELECT s.id AS "studyId", u.id AS "userId", u.email, u.name, ${title} AS title,
             coalesce(m.deadline, s.deadline) AS deadline, s."reminderDaysBefore" AS before,
             (SELECT count(*)::int FROM "Assignment" a WHERE a."studyId" = s.id AND a."graderId" = u.id AND ${open}) AS open
      FROM "StudyMember" m JOIN "Study" s ON s.id = m."studyId" JOIN "User" u ON u.id = m."userId"
      WHERE m.role = 'GRADER' AND m.active AND u.active AND s.status = 'OPEN'
        AND ${day} BETWEEN coalesce(m.deadline, s.deadline) - s."reminderDaysBefore" AND coalesce(m.deadline, s.deadline)
        AND NOT EXISTS (SELECT 1 FROM "MailMessage" q WHERE q."dedupeKey" = 'reminder:' || s.id || ':' || u.id || ':'
              || to_char(coalesce(m.deadline, s.deadline), 'YYYY-MM-DD') || ':' || CASE WHEN coalesce(m.deadline, s.deadline) = ${day} THEN 'due' ELSE 'before' END))
    INSERT INTO "MailMessage" (id, kind, "toEmail", "toUserId", "studyId", params, "dedupeKey")
    SELECT gen_random_uuid(), 'reminder', email, "userId", "studyId",
           jsonb_build_object('kind', 'reminder', 'name', name, 'title', title, 'deadline', to_char(deadline, 'YYYY-MM-DD'), 'open', open, 'today', deadline = ${day}),
           'reminder:' || "studyId" || ':' || "userId" || ':' || to_char(deadline, 'YYYY-MM-DD') || ':' || CASE WHEN deadline = ${day} THEN 'due' ELSE 'before' END
    FROM due
    WHERE open > 0 AND ${day} <= deadline AND ${day} >= deadline - before
    ON CONFLICT ("dedupeKey") DO NOTHING`;

  const digests = await db.$executeRaw`
    WITH per AS (
      SELECT u.id AS "userId", u.email, u.name, ${title} AS title, count(a.id)::int AS open,
             to_char(coalesce(m.deadline, s.deadline), 'YYYY-MM-DD') AS deadline
      FROM "User" u JOIN "StudyMember" m ON m."userId" = u.id AND m.role = 'GRADER' AND m.active
      JOIN "Study" s ON s.id = m."studyId" AND s.status = 'OPEN'
      JOIN "Assignment" a ON a."studyId" = s.id AND a."graderId" = u.id AND ${open}
      WHERE u."weeklyDigest" AND u.active
        AND NOT EXISTS (SELECT 1 FROM "MailMessage" q WHERE q."dedupeKey" = 'digest:' || u.id || ':' || to_char(${day}, 'IYYY-IW'))
      GROUP BY u.id, u.email, u.name, s.id, m.deadline)
    INSERT INTO "MailMessage" (id, kind, "toEmail", "toUserId", params, "dedupeKey")
    SELECT gen_random_uuid(), 'digest', email, "userId",
           jsonb_build_object('kind', 'digest', 'name', name, 'studies', jsonb_agg(jsonb_build_object('title', title, 'open', open, 'deadline', deadline) ORDER BY title)),
           'digest:' || "userId" || ':' || to_char(${day}, 'IYYY-IW')
    FROM per GROUP BY "userId", email, name
    ON CONFLICT ("dedupeKey") DO NOTHING`;

  const leadDigests = await db.$executeRaw`
    WITH st AS (
      SELECT s.id, ${title} AS title,
        (SELECT count(*) FILTER (WHERE a.status = 'SUBMITTED')::int FROM "Assignment" a WHERE a."studyId" = s.id) AS submitted,
        (SELECT count(*) FILTER (WHERE a.status <> 'CANCELLED')::int FROM "Assignment" a WHERE a."studyId" = s.id) AS assigned,
        (SELECT count(*)::int FROM "Escalation" e JOIN "ResponseSet" rs ON rs.id = e."responseSetId"
          WHERE rs."studyId" = s.id AND e.status IN ('NEEDS_GRADER', 'ASSIGNED')) AS escalations,
        (SELECT count(*)::int FROM "Assignment" a LEFT JOIN "HarmReview" h ON h."assignmentId" = a.id
          WHERE a."studyId" = s.id AND a."harmFlag" AND a.status = 'SUBMITTED' AND h."assignmentId" IS NULL) AS harm,
        (SELECT coalesce(jsonb_agg(DISTINCT u.name), '[]'::jsonb) FROM "StudyMember" m JOIN "User" u ON u.id = m."userId"
          WHERE m."studyId" = s.id AND m.role = 'GRADER' AND m.active AND coalesce(m.deadline, s.deadline) < ${day}
            AND EXISTS (SELECT 1 FROM "Assignment" a WHERE a."studyId" = s.id AND a."graderId" = u.id AND ${open})) AS overdue
      FROM "Study" s WHERE s.status = 'OPEN' AND s.deadline IS NOT NULL
        AND EXISTS (SELECT 1 FROM "StudyMember" l JOIN "User" lu ON lu.id = l."userId" AND lu.active
          WHERE l."studyId" = s.id AND l.role = 'LEAD' AND l.active
            AND NOT EXISTS (SELECT 1 FROM "MailMessage" q WHERE q."dedupeKey" = 'lead-digest:' || s.id || ':' || l."userId" || ':' || ${today})))
    INSERT INTO "MailMessage" (id, kind, "toEmail", "toUserId", "studyId", params, "dedupeKey")
    SELECT gen_random_uuid(), 'lead-digest', u.email, u.id, st.id,
           jsonb_build_object('kind', 'lead-digest', 'name', u.name, 'title', st.title,
             'progress', jsonb_build_object('submitted', st.submitted, 'assigned', st.assigned),
             'overdue', st.overdue, 'openEscalations', st.escalations, 'unreviewedHarmFlags', st.harm),
           'lead-digest:' || st.id || ':' || u.id || ':' || ${today}
    FROM st JOIN "StudyMember" m ON m."studyId" = st.id AND m.role = 'LEAD' AND m.active JOIN "User" u ON u.id = m."userId" AND u.active
    ON CONFLICT ("dedupeKey") DO NOTHING`;
  return { reminders, digests, leadDigests };
}
