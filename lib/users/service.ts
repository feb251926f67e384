import { randomBytes } from "node:crypto";
import { z } from "zod";
import { openWorkOf, type OpenWork } from "./open-work";
import { recordAudit } from "@/lib/audit/record";
import { mailEnabled } from "@/lib/mail/config";
import { tellLeadsOfDeparture } from "@/lib/mail/departure";
import { createInvitation } from "@/lib/mail/invitations";
import { MIN_PASSWORD_LENGTH, hashPassword } from "@/lib/auth/password";
import { normaliseEmail } from "@/lib/auth/login";
import { clearLoginFailures } from "@/lib/auth/login-throttle";
import { revokeAllSessions } from "@/lib/auth/sessions";
import { revokeUserTokens } from "@/lib/auth/tokens";
import { getDb } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";
import { Role } from "@/lib/generated/prisma/enums";
import { specialtyIdsFor } from "@/lib/specialties/names";
import { lineText, multilineText } from "@/lib/validation/text";

export class UserError extends Error {
  constructor(
    message: string,
    readonly code: "invalid" | "conflict" | "not_found",
    /** For "invalid": each field's problem. */
    readonly issues?: { path: string; message: string }[],
  ) {
    super(message);
    this.name = "UserError";
  }
}

export const createUserSchema = z.object({
  email: lineText().toLowerCase().pipe(z.email({ message: "email is not a valid address" })),
  name: lineText().min(1, "name is required").max(200, "name is longer than 200 characters"),
  role: z.enum(Role, { message: "role must be ADMIN, LEAD or GRADER" }),
  password: multilineText()
    .min(MIN_PASSWORD_LENGTH, `password must have at least ${MIN_PASSWORD_LENGTH} characters`)
    .max(256, "password is longer than 256 characters")
    .optional(),
  specialties: z.array(lineText().min(1).max(100)).default([]),
});
export type CreateUserInput = z.input<typeof createUserSchema>;

export function formatZodIssues(error: z.ZodError): string {
  return error.issues.map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message)).join("; ");
}

export async function createUser(input: CreateUserInput, actorId: string | null = null) {
  const parsed = createUserSchema.safeParse(input);
  if (!parsed.success) {
    throw new UserError(formatZodIssues(parsed.error), "invalid", parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })));
  }
  const { email, name, role, password, specialties } = parsed.data;
  // No password: with e-mail on, the person chooses their own from an invitation; the random one made here is never shown.
  const invite = password === undefined;
  if (invite && (!mailEnabled() || !actorId)) {
    const why = mailEnabled() ? "password is required here" : "password is required: e-mail is off on this server, so no invitation can be sent";
    throw new UserError(why, "invalid", [{ path: "password", message: why }]);
  }
  const passwordHash = await hashPassword(password ?? randomBytes(32).toString("base64url"));
  const db = getDb();
  try {
    return await db.$transaction(async (tx) => {
      const user = await tx.user.create({ data: { email: normaliseEmail(email), name, role, passwordHash } });
      const specialtyIds = await specialtyIdsFor(tx, specialties);
      if (specialtyIds.size) await tx.userSpecialty.createMany({ data: [...specialtyIds.values()].map((specialtyId) => ({ userId: user.id, specialtyId })) });
      await recordAudit(tx, {
        actorId,
        action: "user.create",
        entityType: "User",
        entityId: user.id,
        after: { email: user.email, name, role, specialties, ...(invite ? { invited: true } : {}) },
      });
      const invitation = invite ? await createInvitation(tx, { id: actorId! }, { userId: user.id, email: user.email, name, studyId: null }) : null;
      return { id: user.id, email: user.email, name: user.name, role: user.role, ...(invitation ? { invitationId: invitation.id } : {}) };
    });
  } catch (err) {
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") {
      throw new UserError(`a user with email ${email} already exists`, "conflict");
    }
    throw err;
  }
}

/**
 * Deactivating an account ends its sessions and revokes its API tokens (each
 * audited), in one transaction under the user's row lock; reactivating it
 * restores neither: the person signs in again and an admin issues new tokens.
 */
export async function setUserActive(userId: string, active: boolean, actorId: string | null = null) {
  if (!z.uuid().safeParse(userId).success) throw new UserError("no such user", "not_found");
  await getDb().$transaction(async (tx) => {
    const [before] = await tx.$queryRaw<{ active: boolean }[]>`SELECT active FROM "User" WHERE id = ${userId}::uuid FOR UPDATE`;
    if (!before) throw new UserError("no such user", "not_found");
    await applyActive(tx, userId, before.active, active, actorId);
  });
}

/**
 * Sets `active` on a user whose row the caller has locked, audited; a
 * deactivation also ends the user's sessions and revokes their API tokens.
 */
export async function applyActive(tx: Prisma.TransactionClient, userId: string, was: boolean, active: boolean, actorId: string | null): Promise<OpenWork[]> {
  await tx.user.update({ where: { id: userId }, data: { active } });
  await recordAudit(tx, {
    actorId,
    action: active ? "user.activate" : "user.deactivate",
    entityType: "User",
    entityId: userId,
    before: { active: was },
    after: { active },
  });
  if (active) return [];
  // The work they leave: told to each study's leads through the study's audit (and its
  // progress page), so someone runs "Assign graders" to move it.
  const openWork = (await openWorkOf(tx, [userId])).get(userId) ?? [];
  for (const w of openWork) {
    await recordAudit(tx, {
      actorId,
      action: "grader.deactivated_with_open_work",
      entityType: "User",
      entityId: userId,
      studyId: w.studyId,
      after: { graderId: userId, openAssignments: w.openAssignments, openAdjudications: w.openAdjudications },
    });
    await tellLeadsOfDeparture(tx, { studyId: w.studyId, graderId: userId, open: w.openAssignments, adjudications: w.openAdjudications, reason: "deactivated" });
  }
  await revokeAllSessions(userId, tx);
  for (const token of await revokeUserTokens(tx, userId)) {
    await recordAudit(tx, {
      actorId,
      action: "token.revoke",
      entityType: "ApiToken",
      entityId: token.id,
      before: { userId, prefix: token.prefix, name: token.name },
      after: { revoked: true, reason: "user.deactivate" },
    });
  }
  return openWork;
}

export async function findUserByEmail(email: string) {
  return getDb().user.findUnique({ where: { email: normaliseEmail(email) } });
}

/**
 * Unlinks an account from its single sign-on identities (all, or the one
 * issuer's), audited, and ends its sessions: a wrong link (an IdP account
 * re-assigned to someone else) stops working at once. The next SSO sign-in
 * links again only as an invitation would (by verified email). Returns the
 * identities removed, as "issuer subject".
 */
export async function unlinkSso(userId: string, issuer: string | null, actorId: string | null = null): Promise<string[]> {
  return getDb().$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM "User" WHERE id = ${userId}::uuid FOR UPDATE`;
    const identities = await tx.oidcIdentity.findMany({ where: { userId, ...(issuer ? { issuer } : {}) }, select: { issuer: true, subject: true, email: true } });
    if (identities.length === 0) return [];
    await tx.oidcIdentity.deleteMany({ where: { userId, ...(issuer ? { issuer } : {}) } });
    await revokeAllSessions(userId, tx);
    await recordAudit(tx, { actorId, action: "user.sso_unlink", entityType: "User", entityId: userId, before: { identities }, after: { identities: [] } });
    return identities.map((i) => `${i.issuer} ${i.subject}`);
  });
}

/**
 * Clears an account's sign-in throttling (its failed attempts from every
 * address), audited, for a user an attacker has slowed down. Returns how many
 * attempts were forgotten.
 */
export async function unlockUser(userId: string, actorId: string | null = null): Promise<number> {
  return getDb().$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { id: userId }, select: { email: true } });
    if (!user) throw new UserError("no such user", "not_found");
    const cleared = await clearLoginFailures(tx, user.email);
    await recordAudit(tx, { actorId, action: "user.unlock", entityType: "User", entityId: userId, before: { failedSignIns: cleared }, after: { failedSignIns: 0 } });
    return cleared;
  });
}
