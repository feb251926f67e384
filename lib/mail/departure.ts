import type { Tx } from "@/lib/db/client";
import { graderFacingTitle } from "@/lib/blinding/grader-title";
import { mailEnabled } from "./config";
import { enqueueMail } from "./outbox";

/**
 * A grader left a study (removed from it, or their account deactivated)
 * holding unsubmitted work: each active lead of the study is e-mailed, in the
 * transaction of the change, so the work is moved rather than found weeks
 * later. The study page says it too (components/assignment/left-work-notice).
 */
export async function tellLeadsOfDeparture(
  tx: Tx,
  input: { studyId: string; graderId: string; open: number; adjudications: number; reason: "removed" | "deactivated" },
): Promise<number> {
  if (input.open <= 0 || !mailEnabled()) return 0;
  const study = await tx.study.findUniqueOrThrow({ where: { id: input.studyId }, select: { id: true, graderTitle: true } });
  const grader = await tx.user.findUniqueOrThrow({ where: { id: input.graderId }, select: { name: true } });
  const leads = await tx.studyMember.findMany({
    where: { studyId: input.studyId, role: "LEAD", active: true, user: { active: true } },
    select: { user: { select: { id: true, email: true, name: true } } },
  });
  for (const { user } of leads) {
    await enqueueMail(tx, {
      params: { kind: "departure", name: user.name, title: graderFacingTitle(study), studyId: study.id, grader: grader.name, open: input.open, adjudications: input.adjudications, reason: input.reason },
      toEmail: user.email,
      toUserId: user.id,
      studyId: study.id,
    });
  }
  return leads.length;
}
