import { z } from "zod";
import { recordAudit } from "@/lib/audit/record";
import { getDb, type Tx } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";
import type { Role } from "@/lib/generated/prisma/enums";
import { textProblem } from "@/lib/validation/text";
import { normaliseEmail } from "./login";
import { acceptLockedInvitation, lockInvitationByLink } from "./invitation-link";
import { createSession } from "./sessions";
import { trimIssuer, type SsoConfig } from "./sso-config";

/**
 * What a single sign-on may do: sign a person into the account an
 * administrator or study lead already made for them (their invitation), never
 * create an account or give a role. The first sign-in finds the account by the
 * provider's *verified* email and links the provider's subject to it
 * (OidcIdentity); later sign-ins find it by issuer and subject. The id token's
 * signature, audience, expiry and nonce are checked by openid-client before
 * this runs; the issuer is checked here too, against OIDC_ISSUER, because
 * openid-client believes whatever issuer the discovery document names.
 *
 * Refusals: "issuer" (not the configured provider), "unverified" (no email, or
 * one the provider has not verified), "domain" (not an allowed domain),
 * "not_invited" (no active account has this email), "conflict" (the account is
 * linked to another subject of this provider), "role" (OIDC_ROLE_MAP is set and
 * the role claim does not cover the account's role), "invalid" (claims
 * missing or malformed), "invitation" (signing in through an invitation link
 * that cannot be used, or is another account's: nothing is linked then).
 * Each outcome is audited.
 *
 * Through an invitation link (opts.invitationToken, from the invitation
 * page's cookie: lib/auth/invitation-cookie.ts) the sign-in also accepts the
 * invitation, in its transaction: once, and only for the account it invites.
 */
export type SsoRefusal = "issuer" | "unverified" | "domain" | "not_invited" | "conflict" | "role" | "invalid" | "invitation";
export type SsoResult = { ok: true; userId: string; sessionId: string; linked: boolean } | { ok: false; reason: SsoRefusal };

// Text PostgreSQL can store and a person can read (lib/validation/text.ts); the subject is compared as sent, untrimmed.
const line = (max: number) => z.string().min(1).max(max).refine((s) => textProblem(s, "line") === null);
const claimsSchema = z.object({
  iss: line(2000),
  sub: line(255),
  email: line(320).optional(),
  email_verified: z.unknown().optional(),
});

export function emailDomain(email: string): string {
  return email.slice(email.lastIndexOf("@") + 1).toLowerCase();
}

/** The roles the role claim grants under OIDC_ROLE_MAP: a string or an array of strings; anything else grants none. */
export function rolesFromClaim(claim: unknown, map: ReadonlyMap<string, Role>): Set<Role> {
  const values = typeof claim === "string" ? [claim] : Array.isArray(claim) ? claim.filter((v): v is string => typeof v === "string") : [];
  const roles = new Set<Role>();
  for (const v of values) {
    const role = map.get(v);
    if (role) roles.add(role);
  }
  return roles;
}

class Refused extends Error {
  constructor(
    readonly reason: SsoRefusal,
    readonly userId: string | null = null,
  ) {
    super(reason);
  }
}

interface Meta {
  ip?: string;
  userAgent?: string;
  /** The invitation link's token, when the sign-in started from the invitation page. */
  invitationToken?: string;
}

/** Checks the claims of a verified id token and signs the person into their invited account, or says why not. */
export async function signInWithOidc(rawClaims: unknown, config: SsoConfig, meta: Meta = {}): Promise<SsoResult> {
  const parsed = claimsSchema.safeParse(rawClaims);
  if (!parsed.success) return refuse(new Refused("invalid"), null);
  const claims = parsed.data;
  const who = { issuer: claims.iss.slice(0, 300), subject: claims.sub, email: claims.email?.slice(0, 320) ?? null };

  if (trimIssuer(claims.iss) !== config.issuer) return refuse(new Refused("issuer"), who);
  // Only a boolean true: "true" as a string, or a missing claim, is not a verification.
  const email = claims.email === undefined ? "" : normaliseEmail(claims.email);
  if (claims.email_verified !== true || !z.email().safeParse(email).success) return refuse(new Refused("unverified"), who);
  if (config.allowedDomains && !config.allowedDomains.includes(emailDomain(email))) return refuse(new Refused("domain"), who);

  for (let attempt = 1; ; attempt++) {
    try {
      return await getDb().$transaction((tx) => link(tx, config, { ...who, email }, rawClaims as Record<string, unknown>, meta));
    } catch (err) {
      if (err instanceof Refused) return refuse(err, who);
      // Two first sign-ins of one person at once: the other linked first; look again.
      if (attempt < 3 && err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") continue;
      throw err;
    }
  }
}

async function link(
  tx: Tx,
  config: SsoConfig,
  who: { issuer: string; subject: string; email: string },
  claims: Record<string, unknown>,
  meta: Meta,
): Promise<SsoResult> {
  const issuer = config.issuer;
  // The invitation first, then the account: the order the password's acceptance locks them in.
  const invitation = meta.invitationToken === undefined ? undefined : await lockInvitationByLink(tx, meta.invitationToken);
  let identity = await tx.oidcIdentity.findUnique({ where: { issuer_subject: { issuer, subject: who.subject } }, select: { userId: true } });
  // The user's row is locked until the end (as the sign-in's own update of it would lock it), so two sign-ins
  // of one person link one after the other, and a deactivation waits for this one (and then ends its session).
  const lookup = identity
    ? tx.$queryRaw<AccountRow[]>`SELECT id, role::text AS role, active FROM "User" WHERE id = ${identity.userId}::uuid FOR NO KEY UPDATE`
    : tx.$queryRaw<AccountRow[]>`SELECT id, role::text AS role, active FROM "User" WHERE email = ${who.email} FOR NO KEY UPDATE`;
  const [user] = await lookup;
  if (!user || !user.active) throw new Refused("not_invited", user?.id ?? null);

  if (!identity) {
    const linked = await tx.oidcIdentity.findUnique({ where: { userId_issuer: { userId: user.id, issuer } }, select: { subject: true } });
    // The same subject: another sign-in of this person linked it a moment ago.
    if (linked?.subject === who.subject) identity = { userId: user.id };
    else if (linked) throw new Refused("conflict", user.id);
  }
  if (config.roleClaim && !rolesFromClaim(claims[config.roleClaim.name], config.roleClaim.map).has(user.role)) {
    throw new Refused("role", user.id);
  }

  if (invitation !== undefined) {
    if (!invitation || invitation.userId !== user.id) throw new Refused("invitation", user.id);
    await acceptLockedInvitation(tx, invitation, "sso");
  }

  const now = new Date();
  if (identity) {
    await tx.oidcIdentity.update({ where: { issuer_subject: { issuer, subject: who.subject } }, data: { lastLoginAt: now } });
  } else {
    await tx.oidcIdentity.create({ data: { issuer, subject: who.subject, userId: user.id, email: who.email, lastLoginAt: now } });
    await recordAudit(tx, {
      actorId: user.id,
      action: "auth.sso.link",
      entityType: "User",
      entityId: user.id,
      after: { issuer, subject: who.subject, email: who.email },
    });
  }
  const sessionId = await createSession(user.id, meta, tx);
  await tx.user.update({ where: { id: user.id }, data: { lastLoginAt: now } });
  await recordAudit(tx, {
    actorId: user.id,
    action: "auth.sso.signin",
    entityType: "User",
    entityId: user.id,
    after: { issuer, subject: who.subject, email: who.email, firstSignIn: !identity, ip: meta.ip ?? null },
  });
  return { ok: true, userId: user.id, sessionId, linked: !identity };
}

interface AccountRow {
  id: string;
  role: Role;
  active: boolean;
}

async function refuse(refusal: Refused, who: { issuer: string; subject: string; email: string | null } | null): Promise<SsoResult> {
  await recordAudit(getDb(), {
    actorId: null,
    action: "auth.sso.refuse",
    entityType: "User",
    entityId: refusal.userId,
    after: { reason: refusal.reason, ...(who ?? {}) },
  });
  return { ok: false, reason: refusal.reason };
}
