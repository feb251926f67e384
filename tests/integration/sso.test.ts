import { encode } from "next-auth/jwt";
import { describe, expect, it } from "vitest";
import { authOptionsFor } from "@/lib/auth/options";
import { signInWithOidc } from "@/lib/auth/sso";
import { ssoConfigFromEnv, type SsoConfig } from "@/lib/auth/sso-config";
import { getDb } from "@/lib/db/client";
import { addGrader } from "@/lib/graders/service";
import { userFromHeaders } from "@/lib/server/current-user";
import { setUserActive } from "@/lib/users/service";
import { makeStudy, makeUser } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";

useIsolatedDatabase();

const ISSUER = "https://idp.test.clingrade.org/realms/clinic";
const ENV = { OIDC_ISSUER: ISSUER, OIDC_CLIENT_ID: "clingrade", OIDC_CLIENT_SECRET: "s3cret" };
const config = (extra: Record<string, string> = {}): SsoConfig => ssoConfigFromEnv({ ...ENV, ...extra })!;

let subjects = 0;
const claimsFor = (email: string, extra: Record<string, unknown> = {}) => ({
  iss: ISSUER,
  sub: `subject-${++subjects}-${Date.now()}`,
  aud: "clingrade",
  email,
  email_verified: true,
  ...extra,
});

/** A grader invited by a lead to a study (lib/graders/service.ts): the account SSO links to. */
async function invitedGrader() {
  const lead = await makeUser("LEAD");
  const study = await makeStudy(lead.id);
  const email = `invited-${++subjects}@test.clingrade.org`;
  const { userId } = await addGrader({ id: lead.id }, study.id, { email, name: "Dr. Invited" });
  return { id: userId, email };
}

async function cookieFor(sessionId: string) {
  const jwt = await encode({ token: { sub: "x", sid: sessionId }, secret: process.env.AUTH_SECRET! });
  return new Headers({ cookie: `next-auth.session-token=${jwt}` });
}

const db = () => getDb();
const identities = (userId: string) => db().oidcIdentity.findMany({ where: { userId } });
const sessions = (userId: string) => db().authSession.count({ where: { userId } });
const audit = (action: string, entityId: string) => db().auditEvent.findMany({ where: { action, entityId }, orderBy: { id: "asc" } });

async function expectRefused(claims: unknown, reason: string, cfg = config(), userId?: string) {
  const users = await db().user.count();
  expect(await signInWithOidc(claims, cfg)).toEqual({ ok: false, reason });
  expect(await db().user.count()).toBe(users);
  if (userId) {
    expect(await identities(userId)).toEqual([]);
    expect(await sessions(userId)).toBe(0);
  }
}

describe("first single sign-on of an invited grader", () => {
  it("links the provider's subject by verified email and opens a server-side session, audited", async () => {
    const g = await invitedGrader();
    const claims = claimsFor(g.email.toUpperCase());
    const r = await signInWithOidc(claims, config(), { ip: "203.0.113.5", userAgent: "test" });
    expect(r).toMatchObject({ ok: true, userId: g.id, linked: true });
    if (!r.ok) return;
    expect(await userFromHeaders(await cookieFor(r.sessionId))).toMatchObject({ id: g.id, role: "GRADER", via: "session" });
    expect(await identities(g.id)).toEqual([expect.objectContaining({ issuer: ISSUER, subject: claims.sub, email: g.email })]);
    const session = await db().authSession.findUniqueOrThrow({ where: { id: r.sessionId } });
    expect(session).toMatchObject({ userId: g.id, ip: "203.0.113.5", userAgent: "test", revokedAt: null });
    expect(await audit("auth.sso.link", g.id)).toHaveLength(1);
    expect((await audit("auth.sso.signin", g.id))[0]).toMatchObject({ actorId: g.id, after: expect.objectContaining({ firstSignIn: true, subject: claims.sub }) });
  });

  it("later sign-ins find the account by issuer and subject, even when the provider's email changed", async () => {
    const g = await invitedGrader();
    const claims = claimsFor(g.email);
    expect(await signInWithOidc(claims, config())).toMatchObject({ ok: true, linked: true });
    const again = await signInWithOidc({ ...claims, email: "new-address@test.clingrade.org" }, config());
    expect(again).toMatchObject({ ok: true, userId: g.id, linked: false });
    expect(await identities(g.id)).toHaveLength(1);
    expect(await audit("auth.sso.link", g.id)).toHaveLength(1);
    expect(await audit("auth.sso.signin", g.id)).toHaveLength(2);
    expect(await sessions(g.id)).toBe(2);
  });

  it("two first sign-ins at once make one link, and both sign in", async () => {
    const g = await invitedGrader();
    const claims = claimsFor(g.email);
    const results = await Promise.all([signInWithOidc(claims, config()), signInWithOidc(claims, config())]);
    expect(results.map((r) => r.ok)).toEqual([true, true]);
    expect(await identities(g.id)).toHaveLength(1);
    expect(await audit("auth.sso.link", g.id)).toHaveLength(1);
  });
});

describe("refusals: no account, no link, no session, no role", () => {
  it("an email the provider has not verified (false, the string 'true', or no claim at all)", async () => {
    const g = await invitedGrader();
    await expectRefused(claimsFor(g.email, { email_verified: false }), "unverified", config(), g.id);
    await expectRefused(claimsFor(g.email, { email_verified: "true" }), "unverified", config(), g.id);
    await expectRefused(claimsFor(g.email, { email_verified: undefined }), "unverified", config(), g.id);
    await expectRefused({ ...claimsFor(g.email), email: undefined }, "unverified", config(), g.id);
    const refusals = await db().auditEvent.findMany({ where: { action: "auth.sso.refuse" } });
    expect(refusals.filter((e) => (e.after as { reason: string }).reason === "unverified")).toHaveLength(4);
  });

  it("an email nobody invited gets no account", async () => {
    await expectRefused(claimsFor("stranger@test.clingrade.org"), "not_invited");
    expect(await db().user.findUnique({ where: { email: "stranger@test.clingrade.org" } })).toBeNull();
    expect(await db().oidcIdentity.count({ where: { email: "stranger@test.clingrade.org" } })).toBe(0);
  });

  it("a deactivated account, linked or not", async () => {
    const g = await invitedGrader();
    const h = await invitedGrader();
    const claims = claimsFor(h.email);
    expect(await signInWithOidc(claims, config())).toMatchObject({ ok: true });
    await setUserActive(g.id, false);
    await setUserActive(h.id, false);
    await expectRefused(claimsFor(g.email), "not_invited", config(), g.id);
    expect(await signInWithOidc(claims, config())).toEqual({ ok: false, reason: "not_invited" });
  });

  it("a token from another issuer, even one whose discovery document the app was pointed at", async () => {
    const g = await invitedGrader();
    await expectRefused(claimsFor(g.email, { iss: "https://evil.example.org/realms/clinic" }), "issuer", config(), g.id);
    await expectRefused(claimsFor(g.email, { iss: `${ISSUER}/other` }), "issuer", config(), g.id);
    await expectRefused(claimsFor(g.email, { iss: "https://idp.test.clingrade.org/realms" }), "issuer", config(), g.id);
    // The same issuer with or without a trailing slash is the same issuer.
    expect(await signInWithOidc(claimsFor(g.email, { iss: `${ISSUER}/` }), config())).toMatchObject({ ok: true });
  });

  it("an email outside OIDC_ALLOWED_DOMAINS (subdomains and look-alikes too)", async () => {
    const g = await invitedGrader();
    const other = await makeUser("GRADER");
    const cfg = config({ OIDC_ALLOWED_DOMAINS: "hospital.example, TEST.clingrade.org" });
    await getDb().user.update({ where: { id: other.id }, data: { email: "grader@evil-hospital.example" } });
    await expectRefused(claimsFor("grader@evil-hospital.example"), "domain", cfg, other.id);
    await getDb().user.update({ where: { id: other.id }, data: { email: "grader@sub.hospital.example" } });
    await expectRefused(claimsFor("grader@sub.hospital.example"), "domain", cfg, other.id);
    await getDb().user.update({ where: { id: other.id }, data: { email: "grader@hospital.example.evil.org" } });
    await expectRefused(claimsFor("grader@hospital.example.evil.org"), "domain", cfg, other.id);
    expect(await signInWithOidc(claimsFor(g.email), cfg)).toMatchObject({ ok: true, userId: g.id });
  });

  it("a second account at the provider claiming the email of an account already linked", async () => {
    const g = await invitedGrader();
    expect(await signInWithOidc(claimsFor(g.email), config())).toMatchObject({ ok: true });
    const before = await sessions(g.id);
    expect(await signInWithOidc(claimsFor(g.email), config())).toEqual({ ok: false, reason: "conflict" });
    expect(await identities(g.id)).toHaveLength(1);
    expect(await sessions(g.id)).toBe(before);
  });

  it("malformed claims are refused, never an error", async () => {
    const g = await invitedGrader();
    for (const bad of [null, "x", 42, [], {}, claimsFor(g.email, { sub: "" }), claimsFor(g.email, { sub: "a\u0000b" }), claimsFor(g.email, { sub: "x".repeat(256) }), claimsFor(g.email, { iss: 5 }), claimsFor("a\u0000@test.clingrade.org"), claimsFor(""), claimsFor(`${"x".repeat(400)}@test.clingrade.org`)]) {
      await expectRefused(bad, "invalid", config(), g.id);
    }
    await expectRefused(claimsFor("not an email"), "unverified", config(), g.id);
  });
});

describe("roles: nobody gains one by signing in", () => {
  it("without OIDC_ROLE_MAP a role claim is ignored: the account keeps its role", async () => {
    const g = await invitedGrader();
    const r = await signInWithOidc(claimsFor(g.email, { role: "ADMIN", roles: ["ADMIN"], groups: ["admins"] }), config({}));
    expect(r).toMatchObject({ ok: true });
    expect(await db().user.findUniqueOrThrow({ where: { id: g.id } })).toMatchObject({ role: "GRADER" });
  });

  it("with OIDC_ROLE_MAP the claim must cover the account's role, and still never changes it", async () => {
    const cfg = config({ OIDC_ROLE_CLAIM: "groups", OIDC_ROLE_MAP: "clingrade-graders=GRADER,clingrade-admins=ADMIN" });
    const g = await invitedGrader();
    const lead = await makeUser("LEAD");
    // A grader whose provider calls them an admin only: refused, not promoted.
    await expectRefused(claimsFor(g.email, { groups: ["clingrade-admins"] }), "role", cfg, g.id);
    await expectRefused(claimsFor(g.email, { groups: "GRADER" }), "role", cfg, g.id);
    await expectRefused(claimsFor(g.email, { groups: [{ value: "clingrade-graders" }] }), "role", cfg, g.id);
    await expectRefused(claimsFor(g.email), "role", cfg, g.id);
    // A lead (no value maps to LEAD) is refused whatever they claim.
    await expectRefused(claimsFor(lead.email, { groups: ["clingrade-graders", "clingrade-admins"] }), "role", cfg, lead.id);
    expect(await signInWithOidc(claimsFor(g.email, { groups: ["other", "clingrade-graders", "clingrade-admins"] }), cfg)).toMatchObject({ ok: true });
    expect(await db().user.findUniqueOrThrow({ where: { id: g.id } })).toMatchObject({ role: "GRADER" });
    expect(await db().user.findUniqueOrThrow({ where: { id: lead.id } })).toMatchObject({ role: "LEAD" });
  });
});

describe("next-auth's callbacks", () => {
  const req = { headers: new Headers({ "user-agent": "browser" }) };
  const oidcAccount = { provider: "oidc", type: "oauth" as const, providerAccountId: "x" };

  it("a single sign-on puts only the session id in the JWT; a refusal sends the sign-in page its reason", async () => {
    const options = authOptionsFor(req, { ...ENV, AUTH_PASSWORDS: "on" });
    const signIn = options.callbacks!.signIn!;
    const jwt = options.callbacks!.jwt!;
    const g = await invitedGrader();
    const claims = claimsFor(g.email);
    const user = { id: claims.sub, email: g.email };
    expect(await signIn({ user, account: oidcAccount, profile: claims })).toBe(true);
    // next-auth starts the token with the profile's name, email and picture: none of them may reach the cookie.
    const token = await jwt({ token: { name: "Dr. Invited", email: g.email, picture: null, sub: claims.sub }, user, account: oidcAccount, profile: claims, trigger: "signIn" });
    expect(Object.keys(token).sort()).toEqual(["sid", "sub"]);
    expect(token.sub).toBe(g.id);
    expect(await userFromHeaders(await cookieFor(String(token.sid)))).toMatchObject({ id: g.id });
    expect(await db().authSession.findUniqueOrThrow({ where: { id: String(token.sid) } })).toMatchObject({ userAgent: "browser" });

    const unverified = claimsFor(g.email, { email_verified: false });
    expect(await signIn({ user: { id: unverified.sub }, account: oidcAccount, profile: unverified })).toBe("/login?error=SsoUnverified");
    const stranger = claimsFor("stranger@test.clingrade.org");
    expect(await signIn({ user: { id: stranger.sub }, account: oidcAccount, profile: stranger })).toBe("/login?error=SsoNotInvited");
    const foreign = claimsFor(g.email, { iss: "https://evil.example.org" });
    expect(await signIn({ user: { id: foreign.sub }, account: oidcAccount, profile: foreign })).toBe("/login?error=SsoIssuer");
  });

  it("AUTH_PASSWORDS=off: no credentials provider, and a credentials sign-in is refused", async () => {
    const off = authOptionsFor(req, { ...ENV, AUTH_PASSWORDS: "off" });
    expect(off.providers.map((p) => p.id)).toEqual(["oidc"]);
    const lead = await makeUser("LEAD");
    const user = { id: lead.id };
    expect(await off.callbacks!.signIn!({ user, account: { provider: "credentials", type: "credentials", providerAccountId: lead.id } })).toBe(false);
    const on = authOptionsFor(req, { AUTH_PASSWORDS: "on" });
    expect(on.providers.map((p) => p.id)).toEqual(["credentials"]);
    // Without OIDC settings no single sign-on is accepted, whatever reaches the callback.
    expect(await on.callbacks!.signIn!({ user, account: oidcAccount, profile: claimsFor(lead.email) })).toBe(false);
  });
});
