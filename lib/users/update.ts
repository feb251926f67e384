import { recordAudit } from "@/lib/audit/record";
import { hashPassword } from "@/lib/auth/password";
import { revokeAllSessions } from "@/lib/auth/sessions";
import { getDb } from "@/lib/db/client";
import { ApiError } from "@/lib/errors/api-error";
import type { UpdateUserInput } from "./contract";
import { applyActive } from "./service";

/** Which study role each account role can hold: a grader grades, a lead or an admin leads. */
const HOLDS = { GRADER: ["GRADER"], LEAD: ["LEAD"], ADMIN: ["LEAD"] } as const;

/**
 * An administrator's change to an account: its name, its role, active or not,
 * a new password. One transaction under the user's row lock, each change
 * audited (the password never: only that it was reset). An administrator
 * cannot deactivate themselves nor change their own role (no one would be
 * left to undo it). Deactivating ends the user's sessions and API tokens;
 * a password reset ends their sessions too. A role the account's active study
 * memberships cannot hold (a grader still grading in a study made a lead) is
 * refused until they leave those studies.
 */
export async function updateUser(actorId: string, userId: string, input: UpdateUserInput) {
  if (userId === actorId && input.active === false) throw new ApiError(409, "you cannot deactivate your own account");
  const passwordHash = input.password === undefined ? undefined : await hashPassword(input.password);
  return getDb().$transaction(async (tx) => {
    const [user] = await tx.$queryRaw<{ name: string; role: "ADMIN" | "LEAD" | "GRADER"; active: boolean; external: boolean }[]>`
      SELECT name, role::text AS role, active, "externalStudyId" IS NOT NULL AS external FROM "User" WHERE id = ${userId}::uuid FOR UPDATE`;
    if (!user) throw new ApiError(404, "no such user");
    // A rater whose grades were imported is a pseudonym, not an account (lib/grade-import): it never signs in.
    if (user.external) throw new ApiError(409, "this is an external grader of imported grades, not an account: it cannot be edited, activated or given a password");
    if (input.role !== undefined && input.role !== user.role) {
      if (userId === actorId) throw new ApiError(409, "you cannot change your own role");
      const held = HOLDS[input.role] as readonly string[];
      const memberships = await tx.studyMember.findMany({ where: { userId, active: true }, select: { role: true } });
      const misfit = memberships.filter((m) => !held.includes(m.role)).length;
      if (misfit) {
        throw new ApiError(
          409,
          `this account is ${user.role === "GRADER" ? "a grader" : "a lead"} in ${misfit} stud${misfit === 1 ? "y" : "ies"}; remove it from ${misfit === 1 ? "that study" : "those studies"} before making it ${input.role.toLowerCase()}`,
          [{ path: "role", message: "the account's studies need this role" }],
        );
      }
    }
    const before: Record<string, unknown> = {};
    const after: Record<string, unknown> = {};
    if (input.name !== undefined && input.name !== user.name) [before.name, after.name] = [user.name, input.name];
    if (input.role !== undefined && input.role !== user.role) [before.role, after.role] = [user.role, input.role];
    if (Object.keys(after).length) {
      await tx.user.update({ where: { id: userId }, data: after });
      await recordAudit(tx, { actorId, action: "user.update", entityType: "User", entityId: userId, before, after });
    }
    if (passwordHash !== undefined) {
      await tx.user.update({ where: { id: userId }, data: { passwordHash } });
      await revokeAllSessions(userId, tx);
      await recordAudit(tx, { actorId, action: "user.password.reset", entityType: "User", entityId: userId, after: { passwordReset: true, sessionsEnded: true } });
    }
    const openWork = input.active !== undefined && input.active !== user.active ? await applyActive(tx, userId, user.active, input.active, actorId) : [];
    return {
      id: userId,
      name: (after.name as string | undefined) ?? user.name,
      role: (after.role as string | undefined) ?? user.role,
      active: input.active ?? user.active,
      passwordReset: passwordHash !== undefined,
      /** On deactivation: the unsubmitted work left behind, per study (its leads are told in the study's audit). */
      openWork,
    };
  });
}
