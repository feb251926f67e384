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
      data: { deadline: date(input.deadline), ...(input.reminderDaysBefore !== undefined ? { reminderDaysBefore: input.reminderDaysBefore } : {}) },
      select: { deadline: true, reminderDaysBefore: true },
    });
    const graders: { userId: string; deadline: string | null }[] = [];
    for (const g of input.graders ?? []) {
      const { count } = await tx.studyMember.updateMany({ where: { studyId, userId: g.userId, role: "GRADER" }, data: { deadline: date(g.deadline) } });
      if (count === 0) throw new ApiError(422, "invalid input", [{ path: "graders", message: `${g.userId} is not a grader of this study` }]);
      graders.push(g);
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
