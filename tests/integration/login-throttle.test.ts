import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { POST as unlock } from "@/app/api/v1/users/[id]/unlock/route";
import { authenticate, type LoginResult } from "@/lib/auth/login";
import { authOptions, THROTTLED_PREFIX } from "@/lib/auth/options";
import { getDb } from "@/lib/db/client";
import { peerAddressStamper } from "@/lib/log/client-address";
import { bearer, call, makeUser, PASSWORD } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";

/**
 * How many attempts reached the password check (argon2), real or against the
 * dummy hash; the first `hold` checks wait for `release`, to keep attempts in flight.
 */
const checks = vi.hoisted(() => ({ count: 0, hold: 0, gate: Promise.resolve(), release: () => {} }));
vi.mock("@/lib/auth/password", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/lib/auth/password")>();
  const reached = async () => {
    if (checks.count++ < checks.hold) await checks.gate;
  };
  return {
    ...real,
    verifyPassword: async (hash: string, password: string) => {
      await reached();
      return real.verifyPassword(hash, password);
    },
    verifyAgainstDummy: async (password: string) => {
      await reached();
      return real.verifyAgainstDummy(password);
    },
  };
});

useIsolatedDatabase();

const ENV_KEYS = ["TRUSTED_PROXIES", "CLINGRADE_PEER_HEADER"];
beforeEach(() => {
  Object.assign(checks, { count: 0, hold: 0 });
  // Refusals only, no slow-down, unless a test says otherwise.
  Object.assign(process.env, { LOGIN_REFUSE_AFTER: "10", LOGIN_IP_REFUSE_AFTER: "1000", LOGIN_SLOW_AFTER: "100000" });
});
afterEach(() => {
  for (const k of Object.keys(process.env)) if (k.startsWith("LOGIN_") || ENV_KEYS.includes(k)) delete process.env[k];
});

let addresses = 0;
/** A new client address for each use (the test database is this file's alone). */
const address = () => `198.18.${addresses >> 8}.${addresses++ & 255}`;
const tally = (results: LoginResult[]) => ({
  ok: results.filter((r) => r.ok).length,
  invalid: results.filter((r) => !r.ok && r.reason === "invalid").length,
  throttled: results.filter((r) => !r.ok && r.reason === "throttled").length,
});
const wrong = (email: string, ip: string, i = 0) => authenticate({ email, password: `wrong-password-${i}`, ip });

describe("parallel sign-in attempts", () => {
  it("60 parallel wrong passwords on one account: exactly LOGIN_REFUSE_AFTER reach the password check, every round", async () => {
    for (let round = 0; round < 8; round++) {
      const u = await makeUser("GRADER");
      const ip = address();
      checks.count = 0;
      const results = await Promise.all(Array.from({ length: 60 }, (_, i) => wrong(u.email, ip, i)));
      expect(checks.count, `round ${round}`).toBe(10);
      expect(tally(results)).toEqual({ ok: 0, invalid: 10, throttled: 50 });
      expect(await getDb().loginAttempt.count({ where: { email: u.email, address: ip, outcome: "FAILED" } })).toBe(10);
    }
  });

  it("40 parallel attempts with the right password among them, while 10 wrong ones are still being checked: none is checked", async () => {
    for (let round = 0; round < 5; round++) {
      const u = await makeUser("LEAD");
      const ip = address();
      Object.assign(checks, { count: 0, hold: 10, gate: new Promise<void>((r) => (checks.release = r)) });
      const first = Array.from({ length: 10 }, (_, i) => wrong(u.email, ip, i));
      while (checks.count < 10) await new Promise((r) => setTimeout(r, 10));
      const right = round * 7; // a different position each round
      const results = await Promise.all(
        Array.from({ length: 40 }, (_, i) => authenticate({ email: u.email, password: i === right ? PASSWORD : `wrong-password-${i}`, ip })),
      );
      checks.release();
      expect(tally(await Promise.all(first)), `round ${round}`).toEqual({ ok: 0, invalid: 10, throttled: 0 });
      expect(tally(results), `round ${round}`).toEqual({ ok: 0, invalid: 0, throttled: 40 });
      expect(checks.count).toBe(10);
      expect(await getDb().authSession.count({ where: { userId: u.id } })).toBe(0);
      // and once they have failed, the right password is still refused from that address
      expect(await authenticate({ email: u.email, password: PASSWORD, ip })).toMatchObject({ reason: "throttled" });
    }
  });

  it("60 parallel wrong passwords from one address across accounts: exactly LOGIN_IP_REFUSE_AFTER are checked", async () => {
    process.env.LOGIN_IP_REFUSE_AFTER = "20";
    for (let round = 0; round < 4; round++) {
      const ip = address();
      checks.count = 0;
      const results = await Promise.all(Array.from({ length: 60 }, (_, i) => wrong(`guess${round}-${i}@test.clingrade.org`, ip, i)));
      expect(checks.count, `round ${round}`).toBe(20);
      expect(tally(results)).toEqual({ ok: 0, invalid: 20, throttled: 40 });
    }
  });
});

describe("throttling the attacker, not the account", () => {
  it("the real user signs in from their own address after an attacker's failures, slowed down but not refused", async () => {
    Object.assign(process.env, { LOGIN_SLOW_AFTER: "3", LOGIN_BASE_DELAY_MS: "120", LOGIN_MAX_DELAY_MS: "120" });
    const u = await makeUser("LEAD");
    const attacker = address();
    const attempts: LoginResult[] = [];
    for (let i = 0; i < 14; i++) attempts.push(await wrong(u.email, attacker, i));
    expect(tally(attempts)).toEqual({ ok: 0, invalid: 10, throttled: 4 });
    const refused = await authenticate({ email: u.email, password: PASSWORD, ip: attacker });
    expect(refused).toMatchObject({ ok: false, reason: "throttled" });
    if (!refused.ok && refused.reason === "throttled") expect(refused.retryAfterMs).toBeGreaterThan(60_000);

    // The account's failures, counted in PostgreSQL, slow every address down, the real user's too.
    const t0 = Date.now();
    const mine = await authenticate({ email: u.email, password: PASSWORD, ip: "203.0.113.50" });
    expect(mine).toMatchObject({ ok: true });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(110);
    // ... and the attacker's pair stays refused after the real user's success.
    expect(await wrong(u.email, attacker)).toMatchObject({ reason: "throttled" });
  });

  it("a success forgets that address's failures only", async () => {
    const u = await makeUser("GRADER");
    const [home, other] = [address(), address()];
    for (let i = 0; i < 9; i++) {
      await wrong(u.email, home, i);
      await wrong(u.email, other, i);
    }
    expect(await authenticate({ email: u.email, password: PASSWORD, ip: home })).toMatchObject({ ok: true });
    expect(await getDb().loginAttempt.count({ where: { email: u.email, outcome: "FAILED" } })).toBe(9);
    expect(await wrong(u.email, other)).toMatchObject({ reason: "invalid" });
    expect(await wrong(u.email, other)).toMatchObject({ reason: "throttled" });
  });

  it("forgets attempts older than the window, and deletes them as new ones come", async () => {
    const u = await makeUser("GRADER");
    const ip = address();
    for (let i = 0; i < 10; i++) await wrong(u.email, ip, i);
    expect(await wrong(u.email, ip)).toMatchObject({ reason: "throttled" });
    // Fifteen minutes and a second pass, for every attempt so far (this file's and the earlier tests').
    await getDb().$executeRaw`UPDATE "LoginAttempt" SET "createdAt" = "createdAt" - interval '901 seconds'`;
    const before = await getDb().loginAttempt.count();
    expect(await wrong(u.email, ip)).toMatchObject({ reason: "invalid" });
    // each new attempt deletes up to 100 expired ones
    expect(await getDb().loginAttempt.count()).toBe(Math.max(0, before - 100) + 1);
  });
});

describe("X-Forwarded-For at sign-in (the credentials provider)", () => {
  const provider = authOptions.providers[0] as unknown as {
    options: { authorize: (credentials: Record<string, string>, req: { headers: Record<string, string> }) => Promise<unknown> };
  };
  /** Signs in as next-auth does, with the headers the start script's server hands on. */
  async function signIn(email: string, headers: Record<string, string>): Promise<"ok" | "invalid" | "throttled"> {
    try {
      return (await provider.options.authorize({ email, password: "wrong-password!" }, { headers })) ? "ok" : "invalid";
    } catch (err) {
      if (err instanceof Error && err.message.startsWith(THROTTLED_PREFIX)) return "throttled";
      throw err;
    }
  }

  it("is ignored from an untrusted peer, and believed from a configured proxy", async () => {
    process.env.LOGIN_IP_REFUSE_AFTER = "5";
    peerAddressStamper();
    const peer = process.env.CLINGRADE_PEER_HEADER!;
    // A client at 192.0.2.44 sends a new X-Forwarded-For with every guess: all of them are 192.0.2.44's.
    const direct: string[] = [];
    for (let i = 0; i < 8; i++) direct.push(await signIn(`spray${i}@test.clingrade.org`, { [peer]: "192.0.2.44", "x-forwarded-for": `203.0.113.${i}` }));
    expect(direct).toEqual(["invalid", "invalid", "invalid", "invalid", "invalid", "throttled", "throttled", "throttled"]);
    expect(await getDb().loginAttempt.count({ where: { address: "192.0.2.44" } })).toBe(5);

    // Behind a proxy at 10.0.0.5 that is trusted, each client's own address counts.
    process.env.TRUSTED_PROXIES = "10.0.0.0/24";
    const proxied: string[] = [];
    for (let i = 0; i < 8; i++) proxied.push(await signIn(`spray${i}@test.clingrade.org`, { [peer]: "10.0.0.5", "x-forwarded-for": `6.6.6.6, 100.64.0.${i}` }));
    expect(proxied.every((r) => r === "invalid")).toBe(true);
    expect(await getDb().loginAttempt.count({ where: { address: { startsWith: "100.64.0." } } })).toBe(8);
    expect(await getDb().loginAttempt.count({ where: { address: "6.6.6.6" } })).toBe(0);
  });
});

describe("admin unlock", () => {
  it("clears an account's throttling from every address, audited; admins only", async () => {
    const admin = await makeUser("ADMIN");
    const lead = await makeUser("LEAD");
    const u = await makeUser("GRADER");
    const [a, b] = [address(), address()];
    for (let i = 0; i < 10; i++) {
      await wrong(u.email, a, i);
      await wrong(u.email, b, i);
    }
    expect(await wrong(u.email, a)).toMatchObject({ reason: "throttled" });

    const post = (token: string, id: string) => call(unlock, `/api/v1/users/${id}/unlock`, bearer(token, { method: "POST" }), { id });
    expect((await post(lead.token, u.id)).status).toBe(403);
    expect((await post(admin.token, "not-a-uuid-but-36-characters-long-xx")).status).toBe(404);
    expect((await post(admin.token, "00000000-0000-4000-8000-000000000000")).status).toBe(404);
    expect(await wrong(u.email, a)).toMatchObject({ reason: "throttled" });

    const r = await post(admin.token, u.id);
    expect(r).toMatchObject({ status: 200, body: { id: u.id, clearedFailures: 20 } });
    checks.count = 0;
    expect(await wrong(u.email, a)).toMatchObject({ reason: "invalid" });
    expect(checks.count).toBe(1);
    const audit = await getDb().auditEvent.findMany({ where: { action: "user.unlock", entityId: u.id } });
    expect(audit).toMatchObject([{ actorId: admin.id, before: { failedSignIns: 20 }, after: { failedSignIns: 0 } }]);
  });
});
