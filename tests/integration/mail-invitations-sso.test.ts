import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as acceptRoute } from "@/app/api/v1/invitations/accept/route";
import { POST as openRoute } from "@/app/api/v1/invitations/open/route";
import { POST as ssoRoute } from "@/app/api/v1/invitations/sso/route";
import { POST as addGraderRoute } from "@/app/api/v1/studies/[id]/graders/route";
import { GET as listRoute } from "@/app/api/v1/studies/[id]/invitations/route";
import { POST as revokeRoute } from "@/app/api/v1/studies/[id]/invitations/[invitationId]/revoke/route";
import { authOptionsFor } from "@/lib/auth/options";
import { createSession } from "@/lib/auth/sessions";
import { signInWithOidc } from "@/lib/auth/sso";
import { ssoConfigFromEnv } from "@/lib/auth/sso-config";
import { getDb } from "@/lib/db/client";
import { mailConfigFromEnv } from "@/lib/mail/config";
import { sendDueMail } from "@/lib/mail/sender";
import { bearer, call } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";
import { restoreEnv, startSmtpCatcher, tokenIn } from "./helpers/smtp-catcher";
import { makeGradableStudy } from "./helpers/study-fixture";

/**
 * An invitation accepted by single sign-on: the link's page checks the link
 * (POST /api/v1/invitations/sso, which sets the invitation cookie) and the
 * sign-in's callback (next-auth's signIn callback, as the provider's redirect
 * reaches it, with the id token's claims) accepts it, once, for its account.
 */
useIsolatedDatabase();

const ISSUER = "https://idp.test.clingrade.org/realms/clinic";
const SSO_ENV = { OIDC_ISSUER: ISSUER, OIDC_CLIENT_ID: "clingrade", OIDC_CLIENT_SECRET: "s3cret", OIDC_NAME: "Hospital login" };
const saved = Object.fromEntries(["SMTP_URL", "MAIL_FROM", "NEXTAUTH_URL", "CLINGRADE_PEER_HEADER", ...Object.keys(SSO_ENV)].map((k) => [k, process.env[k]]));

let smtp: Awaited<ReturnType<typeof startSmtpCatcher>>;
let f: Awaited<ReturnType<typeof makeGradableStudy>>;

beforeAll(async () => {
  smtp = await startSmtpCatcher();
  Object.assign(process.env, { SMTP_URL: smtp.url, MAIL_FROM: "Clingrade <grading@test.clingrade.org>", NEXTAUTH_URL: "http://clingrade.test", CLINGRADE_PEER_HEADER: "x-test-peer" }, SSO_ENV);
  f = await makeGradableStudy({ items: 1, models: 2, graders: 1 });
});
afterAll(async () => {
  restoreEnv(saved);
  await smtp.close();
});

const db = () => getDb();
const json = (body: unknown): RequestInit => ({ method: "POST", headers: { "content-type": "application/json", "x-test-peer": "203.0.113.40" }, body: JSON.stringify(body) });
const ssoLink = (token: string) => call(ssoRoute, "/api/v1/invitations/sso", json({ token }));

/** One subject at the provider per person. */
const claimsFor = (email: string) => ({ iss: ISSUER, sub: `subject-of-${email}`, aud: "clingrade", email, email_verified: true });
const oidcAccount = { provider: "oidc", type: "oauth" as const, providerAccountId: "x" };

/** The provider's redirect reaching next-auth's callback, with (or without) the invitation cookie. */
async function callback(claims: ReturnType<typeof claimsFor>, token?: string) {
  const headers = new Headers({ "user-agent": "browser", ...(token ? { cookie: `next-auth.state=x; clingrade-invitation=${token}` } : {}) });
  const options = authOptionsFor({ headers });
  return options.callbacks!.signIn!({ user: { id: claims.sub }, account: oidcAccount, profile: claims });
}

async function invite(email: string, name: string) {
  const res = await call(addGraderRoute, "/x", bearer(f.lead.token, json({ email, name })), { id: f.study.id });
  expect(res.status).toBe(201);
  await sendDueMail(mailConfigFromEnv()!);
  const mail = smtp.to(email).at(-1)!;
  return { userId: res.body.userId as string, invitationId: res.body.invitationId as string, token: tokenIn(mail.text), mail };
}

async function stateOf(invitationId: string) {
  const res = await call(listRoute, "/x", bearer(f.lead.token), { id: f.study.id });
  return (res.body.invitations as { id: string; state: string }[]).find((i) => i.id === invitationId)?.state;
}

const liveSessions = (userId: string) => db().authSession.count({ where: { userId, revokedAt: null } });

describe("an invitation accepted by single sign-on", () => {
  it("the link offers single sign-on; signing in through it accepts the invitation, once", async () => {
    const ana = await invite("ana@hospital.example", "Ana Ruiz");
    expect(ana.mail.text).toContain("sign in with Hospital login");
    const opened = await call(openRoute, "/x", json({ token: ana.token }));
    expect(opened.body).toEqual({ passwords: true, sso: "Hospital login" });

    // Someone holding a session of the account before its owner came: it ends, as with a password.
    const earlier = await createSession(ana.userId);

    const started = await ssoLink(ana.token);
    expect(started.status).toBe(200);
    expect(started.body).toEqual({ sso: true });
    const cookie = started.headers.get("set-cookie")!;
    expect(cookie).toContain(`clingrade-invitation=${ana.token};`);
    for (const attr of ["Path=/api/auth", "Max-Age=600", "HttpOnly", "SameSite=Lax"]) expect(cookie).toContain(attr);
    expect(await stateOf(ana.invitationId)).toBe("opened");

    const claims = claimsFor("ana@hospital.example");
    expect(await callback(claims, ana.token)).toBe(true);
    expect(await stateOf(ana.invitationId)).toBe("accepted");
    expect((await db().authSession.findUniqueOrThrow({ where: { id: earlier } })).revokedAt).not.toBeNull();
    expect(await liveSessions(ana.userId)).toBe(1);
    const accepted = await db().auditEvent.findMany({ where: { action: "invitation.accept", entityId: ana.invitationId } });
    expect(accepted.map((e) => e.after)).toEqual([{ userId: ana.userId, via: "sso" }]);
    expect(await db().oidcIdentity.count({ where: { userId: ana.userId } })).toBe(1);
    expect((await db().invitation.findUniqueOrThrow({ where: { id: ana.invitationId } })).tokenHash).toBeNull();

    // Spent: through the link again, nothing (no session, no second acceptance); by password, the one 404.
    expect(await callback(claims, ana.token)).toBe("/login?error=SsoInvitation");
    expect(await liveSessions(ana.userId)).toBe(1);
    const unknown = await ssoLink("A".repeat(43));
    const again = await ssoLink(ana.token);
    expect(unknown.status).toBe(404);
    expect({ status: again.status, body: again.body }).toEqual({ status: unknown.status, body: unknown.body });
    expect(again.headers.get("set-cookie")).toBeNull();
    expect((await call(acceptRoute, "/x", json({ token: ana.token, password: "a-long-enough-password" }))).status).toBe(404);
    // Without the link, the account signs in by single sign-on as any account does.
    expect(await callback(claims)).toBe(true);
    expect(await db().auditEvent.count({ where: { action: "invitation.accept", entityId: ana.invitationId } })).toBe(1);
  });

  it("another account's link, an expired one or a revoked one accepts nothing and signs nobody in", async () => {
    const bob = await invite("bob@hospital.example", "Bob Lee");
    const cy = await invite("cy@hospital.example", "Cy Ng");
    const ana = await db().user.findUniqueOrThrow({ where: { email: "ana@hospital.example" } });
    const anaSessions = await liveSessions(ana.id);
    const refusedBefore = await db().auditEvent.count({ where: { action: "auth.sso.refuse" } });

    // Ana signs in (her account is real) carrying Bob's link: refused, and Bob's invitation is untouched.
    expect(await callback(claimsFor("ana@hospital.example"), bob.token)).toBe("/login?error=SsoInvitation");
    expect(await liveSessions(ana.id)).toBe(anaSessions);
    expect(await stateOf(bob.invitationId)).toBe("sent");

    await db().invitation.update({ where: { id: bob.invitationId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await callback(claimsFor("bob@hospital.example"), bob.token)).toBe("/login?error=SsoInvitation");
    const revoked = await call(revokeRoute, "/x", bearer(f.lead.token, { method: "POST" }), { id: f.study.id, invitationId: cy.invitationId });
    expect(revoked.status).toBe(200);
    expect(await callback(claimsFor("cy@hospital.example"), cy.token)).toBe("/login?error=SsoInvitation");
    for (const who of [bob, cy]) {
      expect(await liveSessions(who.userId)).toBe(0);
      expect(await db().oidcIdentity.count({ where: { userId: who.userId } })).toBe(0);
      expect((await ssoLink(who.token)).status).toBe(404);
    }
    expect(await stateOf(bob.invitationId)).toBe("expired");
    expect(await stateOf(cy.invitationId)).toBe("revoked");
    const refusals = await db().auditEvent.findMany({ where: { action: "auth.sso.refuse" }, orderBy: { id: "asc" }, skip: refusedBefore });
    expect(refusals.map((e) => [e.entityId, (e.after as { reason: string }).reason])).toEqual([
      [ana.id, "invitation"],
      [bob.userId, "invitation"],
      [cy.userId, "invitation"],
    ]);
  });

  it("two sign-ins through one link at once accept it once", async () => {
    const dee = await invite("dee@hospital.example", "Dee Ko");
    const claims = claimsFor("dee@hospital.example");
    const config = ssoConfigFromEnv()!;
    const results = await Promise.all([signInWithOidc(claims, config, { invitationToken: dee.token }), signInWithOidc(claims, config, { invitationToken: dee.token })]);
    expect(results.map((r) => (r.ok ? "ok" : r.reason)).sort()).toEqual(["invitation", "ok"]);
    expect(await db().auditEvent.count({ where: { action: "invitation.accept", entityId: dee.invitationId } })).toBe(1);
    expect(await liveSessions(dee.userId)).toBe(1);
  });

  it("with single sign-on off, the link's single sign-on is refused, naming why", async () => {
    const eve = await invite("eve@hospital.example", "Eve Ma");
    const issuer = process.env.OIDC_ISSUER;
    restoreEnv({ OIDC_ISSUER: undefined, OIDC_CLIENT_ID: undefined, OIDC_CLIENT_SECRET: undefined, OIDC_NAME: undefined });
    try {
      const res = await ssoLink(eve.token);
      expect(res.status).toBe(409);
      expect(JSON.stringify(res.body)).toContain("single sign-on is not on here");
      expect((await call(openRoute, "/x", json({ token: eve.token }))).body).toEqual({ passwords: true, sso: null });
    } finally {
      Object.assign(process.env, SSO_ENV, { OIDC_ISSUER: issuer });
    }
  });
});
