import { recordAudit } from "@/lib/audit/record";
import { hashPassword } from "@/lib/auth/password";
import { getDb, type Tx } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";
import { ApiError } from "@/lib/server/errors";
import { generateInitialPassword } from "./initial-password";
import type { AddGraderInput } from "./schema";
import { specialtyIdsFor, specialtyKey } from "@/lib/specialties/names";

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
  /** Only when it was generated here: shown once, never stored in plain text. */
  initialPassword?: string;
}

async function addSpecialties(tx: Tx, userId: string, names: readonly string[]): Promise<string[]> {
  const ids = await specialtyIdsFor(tx, names);
  const added: string[] = [];
  for (const name of new Set(names.map((n) => n.trim()))) {
    const specialtyId = ids.get(specialtyKey(name));
    if (!specialtyId) continue;
    const { count } = await tx.userSpecialty.createMany({ data: [{ userId, specialtyId }], skipDuplicates: true });
    if (count) added.push(name);
  }
  return added;
}

/**
 * Adds a grader to a study: creates the account when the email is new
 * (with the given or a generated initial password), or adds the existing
 * grader account; a grader may belong to several studies. Account, specialties,
 * membership and their audit events land in one transaction.
 */
export async function addGrader(actor: Actor, studyId: string, input: AddGraderInput): Promise<AddGraderResult> {
  const db = getDb();
  const existing = await db.user.findUnique({
    where: { email: input.email },
    select: { id: true, role: true, active: true, memberships: { where: { studyId }, select: { active: true, role: true } } },
  });

  if (existing) {
    if (existing.role !== "GRADER") {
      throw new ApiError(409, `${input.email} belongs to a ${existing.role} account, not a grader; use another email for the grader account`, {
        email: input.email,
        role: existing.role,
      });
    }
    if (!existing.active) {
      throw new ApiError(409, `the account ${input.email} is deactivated; an administrator must reactivate it first`, { email: input.email });
    }
    if (input.password !== undefined) {
      throw new ApiError(422, "invalid input", [
        { path: "password", message: "this email already has an account; its password is not changed here (leave password empty)" },
      ]);
    }
    const membership = existing.memberships[0];
    if (membership?.active) throw new ApiError(409, `${input.email} is already a grader of this study`, { email: input.email });

    await db
      .$transaction(async (tx) => {
      const added = await addSpecialties(tx, existing.id, input.specialties);
      if (membership) {
        await tx.studyMember.update({ where: { studyId_userId: { studyId, userId: existing.id } }, data: { active: true } });
      } else {
        await tx.studyMember.create({ data: { studyId, userId: existing.id, role: "GRADER" } });
      }
      await recordAudit(tx, {
        actorId: actor.id,
        action: membership ? "study.grader.reactivate" : "study.grader.add",
        entityType: "StudyMember",
        entityId: existing.id,
        studyId,
        before: membership ? { active: false } : null,
        after: { userId: existing.id, email: input.email, role: "GRADER", active: true, specialtiesAdded: added },
        requestId: actor.requestId,
      });
    })
      .catch((err: unknown) => {
        // The same grader was added by another request between our read and our insert.
        if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") {
          throw new ApiError(409, `${input.email} is already a grader of this study`, { email: input.email });
        }
        throw err;
      });
    return { userId: existing.id, accountCreated: false, reactivated: Boolean(membership) };
  }

  const generated = input.password === undefined ? generateInitialPassword() : undefined;
  const passwordHash = await hashPassword(input.password ?? generated!);
  try {
    const userId = await db.$transaction(async (tx) => {
      const user = await tx.user.create({ data: { email: input.email, name: input.name, role: "GRADER", passwordHash } });
      const added = await addSpecialties(tx, user.id, input.specialties);
      await tx.studyMember.create({ data: { studyId, userId: user.id, role: "GRADER" } });
      await recordAudit(tx, {
        actorId: actor.id,
        action: "user.create",
        entityType: "User",
        entityId: user.id,
        studyId,
        after: { email: user.email, name: user.name, role: "GRADER", specialties: added, passwordGenerated: Boolean(generated) },
        requestId: actor.requestId,
      });
      await recordAudit(tx, {
        actorId: actor.id,
        action: "study.grader.add",
        entityType: "StudyMember",
        entityId: user.id,
        studyId,
        after: { userId: user.id, email: user.email, role: "GRADER", active: true },
        requestId: actor.requestId,
      });
      return user.id;
    });
    return { userId, accountCreated: true, reactivated: false, ...(generated ? { initialPassword: generated } : {}) };
  } catch (err) {
    // Someone created an account with this email between our read and our insert.
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") {
      throw new ApiError(409, `an account with email ${input.email} was just created; try again to add it`, { email: input.email });
    }
    throw err;
  }
}

/**
 * Takes a grader off a study: the membership stays, inactive, so their
 * submitted grades keep their grader. Their account and other studies are
 * untouched (an admin deactivates an account with setUserActive). Calling it
 * again is a no-op.
 */
export async function deactivateGrader(actor: Actor, studyId: string, userId: string): Promise<{ userId: string; active: false; changed: boolean }> {
  const db = getDb();
  return db.$transaction(async (tx) => {
    // A conditional update, so two concurrent calls cannot both record a deactivation.
    const { count } = await tx.studyMember.updateMany({ where: { studyId, userId, role: "GRADER", active: true }, data: { active: false } });
    if (count === 0) {
      const membership = await tx.studyMember.findUnique({ where: { studyId_userId: { studyId, userId } }, select: { role: true } });
      if (!membership || membership.role !== "GRADER") throw new ApiError(404, "no grader with that id in this study");
      return { userId, active: false as const, changed: false };
    }
    await recordAudit(tx, {
      actorId: actor.id,
      action: "study.grader.deactivate",
      entityType: "StudyMember",
      entityId: userId,
      studyId,
      before: { active: true },
      after: { active: false },
      requestId: actor.requestId,
    });
    return { userId, active: false as const, changed: true };
  });
}
