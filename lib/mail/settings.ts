import type { z } from "zod";
import { recordAudit } from "@/lib/audit/record";
import { getDb } from "@/lib/db/client";
import { ApiError } from "@/lib/errors/api-error";
import type { SetDeadlinesBody } from "./contract";
import { verifyUnsubscribe } from "./tokens";

const day = (d: Date | null) => (d ? d.toISOString().slice(0, 10) : null);
const date = (s: string | null) => (s ? new Date(`${s}T00:00:00Z`) : null);

/** The study's deadline and reminder lead time, and graders' own deadlines, in one audited transaction. */
export async function setDeadlines(actor: { id: string; requestId?: string | null }, studyId: string, input: z.output<typeof SetDeadlinesBody>) {
  return getDb().$transaction(async (tx) => {
    const before = await tx.study.findUniqueOrThrow({ where: { id: studyId }, select: { deadline: true, reminderDaysBefore: true } });
    const study = await tx.study.update({
      where: { id: studyId },
      data: {
        ...(input.deadline !== undefined ? { deadline: date(input.deadline) } : {}),
        ...(input.reminderDaysBefore !== undefined ? { reminderDaysBefore: input.reminderDaysBefore } : {}),
      },
      select: { deadline: true, reminderDaysBefore: true },
    });
    const graders = input.graders ?? [];
    const ids = graders.map((g) => g.userId);
    const twice = ids.find((id, i) => ids.indexOf(id) !== i);
    if (twice) throw new ApiError(422, "invalid input", [{ path: "graders", message: `${twice} is listed twice` }]);
    if (graders.length) {
      // One statement for the whole list, whatever its length.
      const updated = await tx.$queryRaw<{ userId: string }[]>`
        UPDATE "StudyMember" m SET deadline = v.deadline::date
        FROM unnest(${ids}::uuid[], ${graders.map((g) => g.deadline)}::text[]) AS v("userId", deadline)
        WHERE m."studyId" = ${studyId}::uuid AND m."userId" = v."userId" AND m.role = 'GRADER'
        RETURNING m."userId"`;
      const found = new Set(updated.map((u) => u.userId));
      const missing = ids.find((id) => !found.has(id));
      // Thrown inside the transaction: the study's own change is rolled back with it.
      if (missing) throw new ApiError(422, "invalid input", [{ path: "graders", message: `${missing} is not a grader of this study` }]);
    }
    await recordAudit(tx, {
      actorId: actor.id,
      action: "study.deadlines",
      entityType: "Study",
      entityId: studyId,
      studyId,
      before: { deadline: day(before.deadline), reminderDaysBefore: before.reminderDaysBefore },
      after: { deadline: day(study.deadline), reminderDaysBefore: study.reminderDaysBefore, graders },
      requestId: actor.requestId,
    });
    return { deadline: day(study.deadline), reminderDaysBefore: study.reminderDaysBefore, graders };
  });
}

/** A user's own choice of the weekly digest (audited). */
export async function setWeeklyDigest(userId: string, weeklyDigest: boolean, via: "settings" | "unsubscribe-link", requestId?: string | null) {
  await getDb().$transaction(async (tx) => {
    const { count } = await tx.user.updateMany({ where: { id: userId, externalStudyId: null }, data: { weeklyDigest } });
    if (count === 0) throw new ApiError(404, "this unsubscribe link is not valid");
    await recordAudit(tx, { actorId: userId, action: "user.mail-settings", entityType: "User", entityId: userId, after: { weeklyDigest, via }, requestId });
  });
  return { weeklyDigest };
}

/** The unsubscribe link: its signature names the account and the one setting it turns off. */
export async function unsubscribe(token: string, requestId?: string | null) {
  const parsed = verifyUnsubscribe(token);
  if (!parsed) throw new ApiError(404, "this unsubscribe link is not valid");
  await setWeeklyDigest(parsed.userId, false, "unsubscribe-link", requestId);
  return { weeklyDigest: false as const };
}
