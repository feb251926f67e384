import { Prisma } from "@/lib/generated/prisma/client";
import { seededShuffle, seedToUint32 } from "@/lib/random/seeded";

/**
 * Washout re-grades (issue #35, item 3): a share of each grader's first submissions of primary
 * sets comes back to the same grader after the study's washout, as a new task (QualityTask,
 * purpose REGRADE) with the answers in a new order. Drawn per assignment from the study's seed,
 * so the draw is reproducible from the seed and the assignment id; the task's unique source
 * assignment means a set comes back at most once, and only its first grading counts in results.
 */

/** Whether this first submission is drawn for a re-grade: a uniform draw from (seed, assignment) below the share. */
export function drawnForWashout(seed: string | null, assignmentId: string, share: number): boolean {
  if (!(share > 0)) return false;
  return seedToUint32(`${seed ?? ""}:washout:${assignmentId}`) / 2 ** 32 < share;
}

/** The answers' new order (shown answer i is repetition order[i-1]): seeded, and never the first order when there are two answers or more. */
export function washoutAnswerOrder(seed: string | null, assignmentId: string, repetitions: number): number[] {
  const first = Array.from({ length: repetitions }, (_, i) => i + 1);
  const order = seededShuffle(first, `${seed ?? ""}:order:${assignmentId}`);
  // The one draw equal to the order graded first is turned by one place: always a new order.
  return repetitions > 1 && order.every((r, i) => r === first[i]) ? [...order.slice(1), order[0]] : order;
}

/**
 * The re-grade task of a primary assignment, as an INSERT (used inside the submission's statement):
 * the same grader and set, available after the study's washout, last in the grader's order (as new
 * work); nothing when the assignment already has one.
 */
export const washoutInsertSql = (assignmentId: string, order: number[]) => Prisma.sql`
  INSERT INTO "QualityTask" (id, "studyId", "graderId", "responseSetId", purpose, position, "answerOrder", "sourceAssignmentId", "availableAt", "updatedAt")
  SELECT gen_random_uuid(), a."studyId", a."graderId", a."responseSetId", 'REGRADE', 1 + greatest(
           (SELECT coalesce(max(x.position), 0) FROM "Assignment" x WHERE x."graderId" = a."graderId"),
           (SELECT coalesce(max(t.position), 0) FROM "QualityTask" t WHERE t."graderId" = a."graderId")),
         ${order}::int[], a.id, now() + make_interval(days => st."washoutDays"), now()
  FROM "Assignment" a JOIN "Study" st ON st.id = a."studyId"
  WHERE a.id = ${assignmentId}::uuid
  ON CONFLICT DO NOTHING`;
