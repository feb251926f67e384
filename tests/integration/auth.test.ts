import { encode } from "next-auth/jwt";
import { describe, expect, it } from "vitest";
import { authenticate } from "@/lib/auth/login";
import { resolveSession, revokeSession } from "@/lib/auth/sessions";
import { createApiToken, resolveApiToken, revokeApiToken } from "@/lib/auth/tokens";
import { getDb } from "@/lib/db/client";
import { userFromHeaders } from "@/lib/server/current-user";
import { setUserActive } from "@/lib/users/service";
import { makeUser, PASSWORD } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";

useIsolatedDatabase();

async function cookieFor(sessionId: string) {
  const jwt = await encode({ token: { sub: "x", sid: sessionId }, secret: process.env.AUTH_SECRET! });
  return new Headers({ cookie: `other=1; next-auth.session-token=${jwt}` });
}

describe("sign-in", () => {
  it("signs in with the right password (email case-insensitive) and opens a server-side session", async () => {
    const u = await makeUser("LEAD");
    const r = await authenticate({ email: u.email.toUpperCase(), password: PASSWORD, ip: "203.0.113.1" });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(await resolveSession(r.sessionId)).toMatchObject({ id: u.id, role: "LEAD" });
    const me = await userFromHeaders(await cookieFor(r.sessionId));
    expect(me).toMatchObject({ id: u.id, via: "session" });
  });

  it("answers the same 'invalid' for a wrong password, an unknown email and a deactivated account", async () => {
    const u = await makeUser("GRADER");
    expect(await authenticate({ email: u.email, password: "wrong-password!", ip: "203.0.113.2" })).toEqual({ ok: false, reason: "invalid" });
    expect(await authenticate({ email: "nobody@test.clingrade.org", password: PASSWORD, ip: "203.0.113.2" })).toEqual({ ok: false, reason: "invalid" });
    await setUserActive(u.id, false);
    expect(await authenticate({ email: u.email, password: PASSWORD, ip: "203.0.113.2" })).toEqual({ ok: false, reason: "invalid" });
  });
});

describe("sessions", () => {
  it("ends on sign-out (revocation) and on deactivation, at the next request", async () => {
    const u = await makeUser("LEAD");
    const a = await authenticate({ email: u.email, password: PASSWORD, ip: "203.0.113.9" });
    const b = await authenticate({ email: u.email, password: PASSWORD, ip: "203.0.113.9" });
    if (!a.ok || !b.ok) throw new Error("sign-in failed");
    await revokeSession(a.sessionId);
    expect(await userFromHeaders(await cookieFor(a.sessionId))).toBeNull();
    expect(await userFromHeaders(await cookieFor(b.sessionId))).not.toBeNull();
    await setUserActive(u.id, false);
    expect(await userFromHeaders(await cookieFor(b.sessionId))).toBeNull();
  });

  it("ignores a cookie signed with another secret", async () => {
    const u = await makeUser("LEAD");
    const a = await authenticate({ email: u.email, password: PASSWORD, ip: "203.0.113.10" });
    if (!a.ok) throw new Error("sign-in failed");
    const forged = await encode({ token: { sid: a.sessionId }, secret: "another-secret-of-enough-length-1234567" });
    expect(await userFromHeaders(new Headers({ cookie: `next-auth.session-token=${forged}` }))).toBeNull();
  });
});

describe("the session cookie", () => {
  it("is refused once expired even after it was accepted, and a tampered copy never is", async () => {
    const u = await makeUser("LEAD");
    const a = await authenticate({ email: u.email, password: PASSWORD, ip: "203.0.113.11" });
    if (!a.ok) throw new Error("sign-in failed");
    const secret = process.env.AUTH_SECRET!;
    const now = Date.now();
    // A cookie whose own expiry is 20 s ago (beyond the 15 s clock tolerance).
    const stale = await encode({ token: { sid: a.sessionId }, secret, maxAge: 1 });
    const fresh = await encode({ token: { sid: a.sessionId }, secret });
    const header = (jwt: string) => new Headers({ cookie: `next-auth.session-token=${jwt}` });
    expect(await userFromHeaders(header(fresh))).toMatchObject({ id: u.id });
    expect(await userFromHeaders(header(stale))).toMatchObject({ id: u.id });
    const realNow = Date.now;
    Date.now = () => now + 21_000;
    try {
      // the remembered (already opened) cookie and a fresh open of it agree: expired
      expect(await userFromHeaders(header(stale))).toBeNull();
      expect(await userFromHeaders(header(stale))).toBeNull();
      expect(await userFromHeaders(header(fresh))).toMatchObject({ id: u.id });
    } finally {
      Date.now = realNow;
    }
    const tampered = fresh.slice(0, -4) + (fresh.endsWith("AAAA") ? "BBBB" : "AAAA");
    expect(await userFromHeaders(header(tampered))).toBeNull();
    // revocation still wins over a remembered cookie
    await revokeSession(a.sessionId);
    expect(await userFromHeaders(header(fresh))).toBeNull();
  });
});

describe("API tokens", () => {
  it("are stored hashed, resolve to their user, and stop working when revoked", async () => {
    const u = await makeUser("GRADER");
    const { id, token } = await createApiToken(u.id);
    const row = await getDb().apiToken.findUniqueOrThrow({ where: { id } });
    expect(row.tokenHash).not.toContain(token.slice(4));
    expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(await resolveApiToken(token)).toMatchObject({ id: u.id });
    expect(await userFromHeaders(new Headers({ authorization: `Bearer ${token}` }))).toMatchObject({ id: u.id, via: "token" });
    expect(await revokeApiToken(id)).toBe(true);
    expect(await resolveApiToken(token)).toBeNull();
  });

  it("expire when given an expiry, and die with their user's deactivation", async () => {
    const u = await makeUser("LEAD");
    const expired = await createApiToken(u.id, { expiresAt: new Date(Date.now() - 1000) });
    expect(await resolveApiToken(expired.token)).toBeNull();
    const live = await createApiToken(u.id, { expiresAt: new Date(Date.now() + 60_000) });
    expect(await resolveApiToken(live.token)).not.toBeNull();
    await setUserActive(u.id, false);
    expect(await resolveApiToken(live.token)).toBeNull();
  });

  it("a malformed Authorization header authenticates nobody", async () => {
    expect(await userFromHeaders(new Headers({ authorization: "Basic abc" }))).toBeNull();
    expect(await userFromHeaders(new Headers({ authorization: "Bearer cgt_not-a-real-token" }))).toBeNull();
  });
});
