import { recordAudit } from "@/lib/audit/record";
import { reserveAttempt, settleAttempt } from "@/lib/auth/login-throttle";
import { hashPassword } from "@/lib/auth/password";
import { revokeAllSessions } from "@/lib/auth/sessions";
import { passwordsEnabled, ssoConfigFromEnv } from "@/lib/auth/sso-config";
import { throttleConfigFromEnv } from "@/lib/auth/throttle-policy";
import { getDb, type Tx } from "@/lib/db/client";
import { ApiError } from "@/lib/errors/api-error";
import { graderFacingTitle } from "@/lib/blinding/grader-title";
import { mailConfigFromEnv } from "./config";
import { enqueueMail } from "./outbox";
import { hashLinkToken, LINK_TOKEN_PATTERN, newLinkToken } from "./tokens";

/**
 * Invitations: a new account's owner chooses their own password from a
 * one-time link, so no lead ever sees or passes on a password. The link's
 * token is minted when the message leaves (mintInvitationToken) and only its
 * SHA-256 is stored; it works once, until expiresAt, unless revoked or
 * replaced by a re-send. Every link that cannot be used (unknown, used,
 * expired, revoked, replaced) gets the same answer, after the same work, and
 * guesses are throttled per address as sign-ins are (lib/auth/login-throttle).
 */

export type InvitationState = "queued" | "sent" | "opened" | "accepted" | "expired" | "revoked" | "bounced";

export interface InvitationTimes {
  expiresAt: Date;
  sentAt: Date | null;
  openedAt: Date | null;
  acceptedAt: Date | null;
  revokedAt: Date | null;
  bouncedAt: Date | null;
}

export function invitationState(i: InvitationTimes, now = new Date()): InvitationState {
  if (i.acceptedAt) return "accepted";
  if (i.revokedAt) return "revoked";
  if (i.bouncedAt) return "bounced";
  if (i.expiresAt <= now) return "expired";
  if (i.openedAt) return "opened";
  return i.sentAt ? "sent" : "queued";
}

/** The one answer to a link that cannot be used, whatever the reason. */
export const LINK_UNUSABLE = "this invitation link cannot be used: it may have expired, been used already, or been replaced by a newer one. Ask the study's lead to send a new invitation";

const daysFromNow = (days: number) => new Date(Date.now() + days * 86_400_000);

/** Queues an invitation for an account (in the caller's transaction, with the change that made it). */
export async function createInvitation(
  tx: Tx,
  actor: { id: string; requestId?: string | null },
  input: { userId: string; email: string; name: string; studyId: string | null },
): Promise<{ id: string }> {
  const config = mailConfigFromEnv();
  if (!config) throw new Error("createInvitation needs e-mail to be on");
  const invitation = await tx.invitation.create({
    data: { userId: input.userId, studyId: input.studyId, createdById: actor.id, expiresAt: daysFromNow(config.invitationDays) },
  });
  await queueInvitationMail(tx, invitation.id, input, invitation.expiresAt);
  await recordAudit(tx, {
    actorId: actor.id,
    action: "invitation.create",
    entityType: "Invitation",
    entityId: invitation.id,
    studyId: input.studyId,
    after: { userId: input.userId, email: input.email, expiresAt: invitation.expiresAt },
    requestId: actor.requestId,
  });
  return { id: invitation.id };
}

async function queueInvitationMail(tx: Tx, invitationId: string, input: { userId: string; email: string; name: string; studyId: string | null }, expiresAt: Date) {
  const study = input.studyId ? await tx.study.findUnique({ where: { id: input.studyId }, select: { id: true, graderTitle: true } }) : null;
  const sso = ssoConfigFromEnv();
  await enqueueMail(tx, {
    params: { kind: "invitation", name: input.name, title: study ? graderFacingTitle(study) : null, expiresAt: expiresAt.toISOString(), sso: sso ? sso.label : null },
    toEmail: input.email,
    toUserId: input.userId,
    studyId: input.studyId,
    invitationId,
  });
}

/**
 * A fresh token for an invitation about to be sent, or null when it may no
 * longer be (accepted, revoked or expired meanwhile). The older link stops working.
 */
export async function mintInvitationToken(invitationId: string): Promise<string | null> {
  const token = newLinkToken();
  const n = await getDb().$executeRaw`UPDATE "Invitation" SET "tokenHash" = ${hashLinkToken(token)}
    WHERE id = ${invitationId}::uuid AND "acceptedAt" IS NULL AND "revokedAt" IS NULL AND "expiresAt" > now()`;
  return n === 1 ? token : null;
}

type Throttled = { ok: false; reason: "throttled"; retryAfterMs: number };
type Unusable = { ok: false; reason: "unusable" };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Guesses are counted per address as failed sign-ins are: refused past the login limits, slowed before. */
async function throttled<T extends { ok: boolean }>(ip: string, run: () => Promise<T>): Promise<T | Throttled> {
  const key = `invitation-link:${ip}`;
  const reservation = await reserveAttempt(key, ip, throttleConfigFromEnv());
  if (reservation.action === "refuse") return { ok: false, reason: "throttled", retryAfterMs: reservation.retryAfterMs };
  if (reservation.delayMs > 0) await sleep(reservation.delayMs);
  const result = await run();
  await settleAttempt(reservation.attemptId, result.ok, key, ip);
  return result;
}

/** Opening the link's page: marks the invitation opened and says how its owner may sign in. */
export async function openInvitation(token: string, ip: string): Promise<{ ok: true; passwords: boolean; sso: string | null } | Unusable | Throttled> {
  return throttled(ip, async () => {
    const hash = hashLinkToken(LINK_TOKEN_PATTERN.test(token) ? token : "");
    const n = await getDb().$executeRaw`UPDATE "Invitation" SET "openedAt" = coalesce("openedAt", now())
      WHERE "tokenHash" = ${hash} AND "acceptedAt" IS NULL AND "revokedAt" IS NULL AND "expiresAt" > now()`;
    if (n !== 1) return { ok: false, reason: "unusable" } as const;
    const sso = ssoConfigFromEnv();
    return { ok: true, passwords: passwordsEnabled(), sso: sso ? sso.label : null } as const;
  });
}

/**
 * Sets the account's password from the link, once: the invitation is locked,
 * checked and spent in one transaction, so two submissions of one link set
 * one password. The password is hashed first whatever the link, so a bad
 * link takes as long as a good one.
 */
export async function acceptInvitation(token: string, password: string, ip: string): Promise<{ ok: true; email: string } | Unusable | Throttled> {
  if (!passwordsEnabled()) throw new ApiError(409, "password sign-in is off here: sign in with single sign-on instead");
  const passwordHash = await hashPassword(password);
  return throttled(ip, async () => {
    const hash = hashLinkToken(LINK_TOKEN_PATTERN.test(token) ? token : "");
    return getDb().$transaction(async (tx) => {
      const [inv] = await tx.$queryRaw<{ id: string; userId: string; studyId: string | null; email: string }[]>`
        SELECT i.id, i."userId", i."studyId", u.email FROM "Invitation" i JOIN "User" u ON u.id = i."userId"
        WHERE i."tokenHash" = ${hash} AND i."acceptedAt" IS NULL AND i."revokedAt" IS NULL AND i."expiresAt" > now() AND u.active
        FOR UPDATE OF i`;
      if (!inv) return { ok: false, reason: "unusable" } as const;
      await tx.$executeRaw`UPDATE "Invitation" SET "acceptedAt" = now(), "tokenHash" = NULL, "openedAt" = coalesce("openedAt", now()) WHERE id = ${inv.id}::uuid`;
      await tx.user.update({ where: { id: inv.userId }, data: { passwordHash } });
      // Whoever held a session of this account before it had an owner's password loses it.
      await revokeAllSessions(inv.userId, tx);
      await recordAudit(tx, { actorId: inv.userId, action: "invitation.accept", entityType: "Invitation", entityId: inv.id, studyId: inv.studyId, after: { userId: inv.userId } });
      return { ok: true, email: inv.email } as const;
    });
  });
}

/** The invitation page's "sign in with single sign-on": the link must work now; the sign-in then accepts it (lib/auth/invitation-link.ts). */
export async function checkInvitationForSso(token: string, ip: string): Promise<{ ok: true } | Unusable | Throttled> {
  if (!ssoConfigFromEnv()) throw new ApiError(409, "single sign-on is not on here: choose a password instead");
  return throttled(ip, async () => {
    const hash = hashLinkToken(LINK_TOKEN_PATTERN.test(token) ? token : "");
    const n = await getDb().$executeRaw`UPDATE "Invitation" SET "openedAt" = coalesce("openedAt", now())
      WHERE "tokenHash" = ${hash} AND "acceptedAt" IS NULL AND "revokedAt" IS NULL AND "expiresAt" > now()`;
    return n === 1 ? ({ ok: true } as const) : ({ ok: false, reason: "unusable" } as const);
  });
}

async function lockStudyInvitation(tx: Tx, studyId: string, invitationId: string) {
  const [inv] = await tx.$queryRaw<(InvitationTimes & { id: string; userId: string; email: string; name: string })[]>`
    SELECT i.id, i."userId", u.email, u.name, i."expiresAt", i."sentAt", i."openedAt", i."acceptedAt", i."revokedAt", i."bouncedAt"
    FROM "Invitation" i JOIN "User" u ON u.id = i."userId"
    WHERE i.id = ${invitationId}::uuid AND i."studyId" = ${studyId}::uuid FOR UPDATE OF i`;
  if (!inv) throw new ApiError(404, "no invitation with that id in this study");
  return inv;
}

/** The lead takes an invitation back: its link stops working at once. */
export async function revokeInvitation(actor: { id: string; requestId?: string | null }, studyId: string, invitationId: string): Promise<{ id: string; state: InvitationState }> {
  return getDb().$transaction(async (tx) => {
    const inv = await lockStudyInvitation(tx, studyId, invitationId);
    if (inv.acceptedAt) throw new ApiError(409, "this invitation was accepted already: the grader has an account (remove them from the study instead)");
    if (!inv.revokedAt) {
      const revokedAt = new Date();
      await tx.invitation.update({ where: { id: inv.id }, data: { revokedAt, tokenHash: null } });
      await recordAudit(tx, { actorId: actor.id, action: "invitation.revoke", entityType: "Invitation", entityId: inv.id, studyId, after: { revokedAt }, requestId: actor.requestId });
      inv.revokedAt = revokedAt;
    }
    return { id: inv.id, state: invitationState(inv) };
  });
}

/** Sends an invitation again with a fresh link and a fresh expiry (a revoked, expired or bounced one too); the older link stops working. */
export async function resendInvitation(actor: { id: string; requestId?: string | null }, studyId: string, invitationId: string): Promise<{ id: string; state: InvitationState }> {
  const config = mailConfigFromEnv();
  if (!config) throw new ApiError(409, "e-mail is off on this server (no SMTP settings): invitations cannot be sent");
  return getDb().$transaction(async (tx) => {
    const inv = await lockStudyInvitation(tx, studyId, invitationId);
    if (inv.acceptedAt) throw new ApiError(409, "this invitation was accepted already: the grader has an account");
    const expiresAt = daysFromNow(config.invitationDays);
    await tx.invitation.update({
      where: { id: inv.id },
      data: { tokenHash: null, expiresAt, sentAt: null, openedAt: null, revokedAt: null, bouncedAt: null },
    });
    await queueInvitationMail(tx, inv.id, { userId: inv.userId, email: inv.email, name: inv.name, studyId }, expiresAt);
    await recordAudit(tx, { actorId: actor.id, action: "invitation.resend", entityType: "Invitation", entityId: inv.id, studyId, after: { expiresAt }, requestId: actor.requestId });
    return { id: inv.id, state: "queued" as const };
  });
}

export interface InvitationRow {
  id: string;
  userId: string;
  name: string;
  email: string;
  state: InvitationState;
  createdAt: string;
  expiresAt: string;
  sentAt: string | null;
}

/** A study's invitations, newest first, each with its state. */
export async function listInvitations(studyId: string): Promise<InvitationRow[]> {
  const rows = await getDb().invitation.findMany({
    where: { studyId },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    take: 500,
    include: { user: { select: { name: true, email: true } } },
  });
  return rows.map((r) => ({
    id: r.id,
    userId: r.userId,
    name: r.user.name,
    email: r.user.email,
    state: invitationState(r),
    createdAt: r.createdAt.toISOString(),
    expiresAt: r.expiresAt.toISOString(),
    sentAt: r.sentAt?.toISOString() ?? null,
  }));
}
