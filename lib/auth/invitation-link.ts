import { recordAudit } from "@/lib/audit/record";
import type { Tx } from "@/lib/db/client";
import { hashLinkToken, LINK_TOKEN_PATTERN } from "./link-token";
import { revokeAllSessions } from "./sessions";

/**
 * An invitation (lib/mail/invitations.ts) accepted by a single sign-on
 * through its link: here, with sign-in, so that lib/auth needs nothing of
 * lib/mail (which needs sign-in's passwords, sessions and throttle).
 */
export interface LockedInvitation {
  id: string;
  userId: string;
  studyId: string | null;
}

/**
 * A usable invitation by its link's token, locked until the caller's
 * transaction ends (a single sign-on through the link, lib/auth/sso.ts), or
 * null. Locked before the account's row, as the password's acceptance does.
 */
export async function lockInvitationByLink(tx: Tx, token: string): Promise<LockedInvitation | null> {
  const hash = hashLinkToken(LINK_TOKEN_PATTERN.test(token) ? token : "");
  const [inv] = await tx.$queryRaw<LockedInvitation[]>`
    SELECT id, "userId", "studyId" FROM "Invitation"
    WHERE "tokenHash" = ${hash} AND "acceptedAt" IS NULL AND "revokedAt" IS NULL AND "expiresAt" > now()
    FOR UPDATE`;
  return inv ?? null;
}

/** Spends a locked invitation for the account that signed in through it: as the password's acceptance, earlier sessions end. */
export async function acceptLockedInvitation(tx: Tx, inv: LockedInvitation, via: "sso"): Promise<void> {
  await tx.$executeRaw`UPDATE "Invitation" SET "acceptedAt" = now(), "tokenHash" = NULL, "openedAt" = coalesce("openedAt", now()) WHERE id = ${inv.id}::uuid`;
  await revokeAllSessions(inv.userId, tx);
  await recordAudit(tx, { actorId: inv.userId, action: "invitation.accept", entityType: "Invitation", entityId: inv.id, studyId: inv.studyId, after: { userId: inv.userId, via } });
}
