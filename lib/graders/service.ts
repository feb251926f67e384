import { recordAudit } from "@/lib/audit/record";
import { hashPassword } from "@/lib/auth/password";
import { getDb, type Tx } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";
import { ApiError } from "@/lib/errors/api-error";
import { mailEnabled } from "@/lib/mail/config";
import { tellLeadsOfDeparture } from "@/lib/mail/departure";
import { createInvitation } from "@/lib/mail/invitations";
import { generateInitialPassword } from "./initial-password";
import type { AddGraderInput, SetGraderSpecialtiesInput } from "./schema";
import { copyAccountSpecialties, setStudySpecialties, studySpecialtyNames } from "./specialties";

export interface Actor {
  id: string;
  requestId?: string | null;
}

export interface AddGraderResult {
  userId: string;
  /** A new account was created (false: an existing grader account joined the study). */
  accountCreated: boolean;
  /** An earlier, deactivated membership of this study was turned back on. */
  reactivated: boolean;
  /** Only when it was generated here with e-mail off: shown once, never stored in plain text. */
  initialPassword?: string;
  /** With e-mail on, a new account without a given password: the invitation sent to set one. */
  invitationId?: string;
}

/**
 * The one answer to an email that cannot be added as it is, whatever the reason
 * (no account yet and no name to create one, another role, deactivated): the lead
 * learns nothing about the accounts they may not see (grader accounts they may
 * list), so nobody can sort emails into "no account" and "someone else's".
 */
export const CANNOT_ADD =
  "no grader account with this email can be added: it does not exist yet or cannot be a grader here. Give the grader's name to create a new grader account, or ask an administrator to create or change the account";

const alreadyMember = (email: string) => new ApiError(409, `${email} is already a grader of this study`, { email });

/**
 * Adds a grader to a study: creates the account when the email is new
 * (with the given or a generated initial password), or adds the existing
 * grader account; a grader may belong to several studies. The specialties
 * given are the grader's in this study only (see ./specialties). Account,
 * membership, specialties and their audit events land in one transaction.
 */
/**
 * A new grader account made a member of the study, with its specialties there, and
 * both steps audited: the one way an account is created for a study (one grader or many).
 */
export async function createGraderAccount(
  tx: Tx,
  actor: Actor,
  studyId: string,
  input: { email: string; name: string; passwordHash: string; specialties: string[]; passwordGenerated: boolean; invite?: boolean },
): Promise<{ user: { id: string; email: string; name: string }; specialties: string[]; invitationId?: string }> {
  const user = await tx.user.create({ data: { email: input.email, name: input.name, role: "GRADER", passwordHash: input.passwordHash } });
  await tx.studyMember.create({ data: { studyId, userId: user.id, role: "GRADER" } });
  const specialties = await setStudySpecialties(tx, studyId, user.id, input.specialties);
  await recordAudit(tx, {
    actorId: actor.id,
    action: "user.create",
    entityType: "User",
    entityId: user.id,
    studyId,
    after: { email: user.email, name: user.name, role: "GRADER", passwordGenerated: input.passwordGenerated },
    requestId: actor.requestId,
  });
  await recordAudit(tx, {
    actorId: actor.id,
    action: "study.grader.add",
    entityType: "StudyMember",
    entityId: user.id,
    studyId,
    after: { userId: user.id, email: user.email, role: "GRADER", active: true, specialties },
    requestId: actor.requestId,
  });
  if (!input.invite) return { user, specialties };
  const invitation = await createInvitation(tx, actor, { userId: user.id, email: user.email, name: user.name, studyId });
  return { user, specialties, invitationId: invitation.id };
}

export async function addGrader(actor: Actor, studyId: string, input: AddGraderInput): Promise<AddGraderResult> {
  const existing = await getDb().user.findUnique({ where: { email: input.email }, select: { id: true } });
  // No account and no name: the same answer as an account that cannot join (see CANNOT_ADD), after the
  // same statements (the account's check finds no row), so the time does not tell them apart either.
  if (!existing && !input.name?.trim()) return addExistingAccount(actor, studyId, null, input);
  return existing ? addExistingAccount(actor, studyId, existing.id, input) : addNewAccount(actor, studyId, input);
}

async function addExistingAccount(actor: Actor, studyId: string, accountId: string | null, input: AddGraderInput): Promise<AddGraderResult> {
  let userId = "";
  const reactivated = await getDb()
    .$transaction(async (tx) => {
      // The account's row is held until the end, so an administrator cannot deactivate it while it joins.
      const [account] = await tx.$queryRaw<{ role: string; active: boolean }[]>`SELECT role::text, active FROM "User" WHERE id = ${accountId}::uuid FOR SHARE`;
      // Every refusal is one query and one answer, so neither the body, the status nor the time tells them apart.
      if (!accountId || !account || account.role !== "GRADER" || !account.active) throw new ApiError(409, CANNOT_ADD);
      userId = accountId;
      if (input.password !== undefined) {
        throw new ApiError(422, "invalid input", [
          { path: "password", message: "this email already has an account; its password is not changed here (leave password empty)" },
        ]);
      }
      const membership = await tx.studyMember.findUnique({ where: { studyId_userId: { studyId, userId } }, select: { active: true } });
      if (membership) {
        // Conditional, so two requests cannot both reactivate (and audit) it.
        const { count } = await tx.studyMember.updateMany({ where: { studyId, userId, role: "GRADER", active: false }, data: { active: true } });
        if (count === 0) throw alreadyMember(input.email);
      } else {
        await tx.studyMember.create({ data: { studyId, userId, role: "GRADER" } });
      }
      let specialties: string[];
      if (input.specialties) specialties = await setStudySpecialties(tx, studyId, userId, input.specialties);
      else {
        if (!membership) await copyAccountSpecialties(tx, studyId, [userId]);
        specialties = await studySpecialtyNames(tx, studyId, userId);
      }
      await recordAudit(tx, {
        actorId: actor.id,
        action: membership ? "study.grader.reactivate" : "study.grader.add",
        entityType: "StudyMember",
        entityId: userId,
        studyId,
        before: membership ? { active: false } : null,
        after: { userId, email: input.email, role: "GRADER", active: true, specialties },
        requestId: actor.requestId,
      });
      return Boolean(membership);
    })
    .catch((err: unknown) => {
      // The same grader was added by another request between our read and our insert.
      if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") throw alreadyMember(input.email);
      throw err;
    });
  return { userId, accountCreated: false, reactivated };
}

async function addNewAccount(actor: Actor, studyId: string, input: AddGraderInput): Promise<AddGraderResult> {
  const name = input.name?.trim();
  if (!name) throw new ApiError(409, CANNOT_ADD);
  const generated = input.password === undefined ? generateInitialPassword() : undefined;
  // With e-mail on, the grader chooses their own password from an invitation: the generated one is never shown (nor usable by anyone).
  const invite = generated !== undefined && mailEnabled();
  const passwordHash = await hashPassword(input.password ?? generated!);
  try {
    const { userId, invitationId } = await getDb().$transaction(async (tx) => {
      const { user, invitationId } = await createGraderAccount(tx, actor, studyId, {
        email: input.email,
        name,
        passwordHash,
        specialties: input.specialties ?? [],
        passwordGenerated: Boolean(generated),
        invite,
      });
      return { userId: user.id, invitationId };
    });
    return { userId, accountCreated: true, reactivated: false, ...(invitationId ? { invitationId } : generated ? { initialPassword: generated } : {}) };
  } catch (err) {
    // Someone created an account with this email between our read and our insert.
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") {
      throw new ApiError(409, `an account with email ${input.email} was just created; try again to add it`, { email: input.email });
    }
    throw err;
  }
}

/**
 * Replaces a grader's specialties in this study (a removed grader's too, for
 * when they come back); their account and other studies are untouched.
 */
export async function setGraderSpecialties(
  actor: Actor,
  studyId: string,
  userId: string,
  input: SetGraderSpecialtiesInput,
): Promise<{ userId: string; specialties: string[] }> {
  return getDb().$transaction(async (tx) => {
    // The membership's row is locked first, so two changes apply one after the other.
    const [member] = await tx.$queryRaw<{ role: string }[]>`
      SELECT role::text FROM "StudyMember" WHERE "studyId" = ${studyId}::uuid AND "userId" = ${userId}::uuid FOR UPDATE`;
    if (!member || member.role !== "GRADER") throw new ApiError(404, "no grader with that id in this study");
    const before = await studySpecialtyNames(tx, studyId, userId);
    const specialties = await setStudySpecialties(tx, studyId, userId, input.specialties);
    if (JSON.stringify(before) !== JSON.stringify(specialties)) {
      await recordAudit(tx, {
        actorId: actor.id,
        action: "study.grader.specialties",
        entityType: "StudyMember",
        entityId: userId,
        studyId,
        before: { specialties: before },
        after: { specialties },
        requestId: actor.requestId,
      });
    }
    return { userId, specialties };
  });
}

/**
 * Takes a grader off a study: the membership stays, inactive, so their
 * submitted grades keep their grader. Their account and other studies are
 * untouched (an admin deactivates an account with setUserActive). Calling it
 * again is a no-op.
 */
export interface DeactivatedGrader {
  userId: string;
  active: false;
  changed: boolean;
  /** The unsubmitted work they hold in this study, for the lead to move (each lead is e-mailed about it when mail is on). */
  openAssignments: number;
  openAdjudications: number;
}

export async function deactivateGrader(actor: Actor, studyId: string, userId: string): Promise<DeactivatedGrader> {
  const db = getDb();
  return db.$transaction(async (tx) => {
    // A conditional update, so two concurrent calls cannot both record a deactivation.
    const { count } = await tx.studyMember.updateMany({ where: { studyId, userId, role: "GRADER", active: true }, data: { active: false } });
    if (count === 0) {
      const membership = await tx.studyMember.findUnique({ where: { studyId_userId: { studyId, userId } }, select: { role: true } });
      if (!membership || membership.role !== "GRADER") throw new ApiError(404, "no grader with that id in this study");
      return { userId, active: false as const, changed: false, ...(await openWorkIn(tx, studyId, userId)) };
    }
    const open = await openWorkIn(tx, studyId, userId);
    await recordAudit(tx, {
      actorId: actor.id,
      action: "study.grader.deactivate",
      entityType: "StudyMember",
      entityId: userId,
      studyId,
      before: { active: true },
      after: { active: false, ...open },
      requestId: actor.requestId,
    });
    await tellLeadsOfDeparture(tx, { studyId, graderId: userId, open: open.openAssignments, adjudications: open.openAdjudications, reason: "removed" });
    return { userId, active: false as const, changed: true, ...open };
  });
}

/** Scoring assignments and a pairwise study's comparisons alike. */
async function openWorkIn(tx: Tx, studyId: string, userId: string): Promise<{ openAssignments: number; openAdjudications: number }> {
  const [row] = await tx.$queryRaw<{ openAssignments: number; openAdjudications: number }[]>`
    SELECT count(*)::int AS "openAssignments", count(*) FILTER (WHERE kind = 'ADJUDICATOR')::int AS "openAdjudications"
    FROM (SELECT kind, status, "studyId", "graderId" FROM "Assignment" UNION ALL SELECT kind, status, "studyId", "graderId" FROM "ComparisonAssignment") a
    WHERE "studyId" = ${studyId}::uuid AND "graderId" = ${userId}::uuid AND status IN ('PENDING', 'IN_PROGRESS')`;
  return row;
}
