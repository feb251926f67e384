import { getDb } from "@/lib/db/client";
import { verifyAgainstDummy, verifyPassword } from "./password";
import { createSession } from "./sessions";
import { decideThrottle, throttleConfigFromEnv } from "./throttle-policy";

export type LoginResult =
  | { ok: true; userId: string; sessionId: string }
  | { ok: false; reason: "invalid" }
  | { ok: false; reason: "throttled"; retryAfterMs: number };

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Checks credentials with throttling per account and per address. A wrong
 * password, an unknown email and a deactivated account all answer "invalid",
 * so the form does not reveal which accounts exist.
 */
export async function authenticate(input: { email: string; password: string; ip: string; userAgent?: string }): Promise<LoginResult> {
  const db = getDb();
  const config = throttleConfigFromEnv();
  const email = normaliseEmail(input.email);
  const accountKey = `email:${email}`;
  const ipKey = `ip:${input.ip}`;
  const since = new Date(Date.now() - config.windowMs);

  const counts = await db.loginAttempt.groupBy({
    by: ["key"],
    where: { key: { in: [accountKey, ipKey] }, success: false, createdAt: { gte: since } },
    _count: { _all: true },
    _min: { createdAt: true },
  });
  const of = (key: string) => counts.find((c) => c.key === key);
  const decision = decideThrottle(
    {
      accountFailures: of(accountKey)?._count._all ?? 0,
      oldestAccountFailureAt: of(accountKey)?._min.createdAt ?? null,
      ipFailures: of(ipKey)?._count._all ?? 0,
      oldestIpFailureAt: of(ipKey)?._min.createdAt ?? null,
    },
    new Date(),
    config,
  );
  if (decision.action === "refuse") return { ok: false, reason: "throttled", retryAfterMs: decision.retryAfterMs };
  if (decision.delayMs > 0) await sleep(decision.delayMs);

  const user = await db.user.findUnique({ where: { email } });
  const valid = user ? await verifyPassword(user.passwordHash, input.password) : await verifyAgainstDummy(input.password);
  const success = Boolean(user && valid && user.active);
  await db.loginAttempt.createMany({
    data: [
      { key: accountKey, success },
      { key: ipKey, success },
    ],
  });
  if (!success || !user) return { ok: false, reason: "invalid" };

  // A success clears the account's slow-down: earlier failures no longer count.
  await db.loginAttempt.deleteMany({ where: { key: accountKey, success: false } });
  const sessionId = await createSession(user.id, { ip: input.ip, userAgent: input.userAgent });
  await db.user.update({ where: { id: user.id }, data: { lastLoginAt: new Date() } });
  return { ok: true, userId: user.id, sessionId };
}
