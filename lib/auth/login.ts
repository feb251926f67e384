import { getDb } from "@/lib/db/client";
import { reserveAttempt, settleAttempt } from "./login-throttle";
import { verifyAgainstDummy, verifyPassword } from "./password";
import { createSession } from "./sessions";
import { throttleConfigFromEnv } from "./throttle-policy";

export type LoginResult =
  | { ok: true; userId: string; sessionId: string }
  | { ok: false; reason: "invalid" }
  | { ok: false; reason: "throttled"; retryAfterMs: number };

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** RFC 5321's limit; no account has a longer address (lib/users/contract.ts). */
const MAX_EMAIL_LENGTH = 320;

/**
 * Checks credentials with throttling (lib/auth/login-throttle.ts): refused per
 * account and address pair and per address, slowed down per account. A wrong
 * password, an unknown email and a deactivated account all answer "invalid",
 * so the form does not reveal which accounts exist.
 */
export async function authenticate(input: { email: string; password: string; ip: string; userAgent?: string }): Promise<LoginResult> {
  const db = getDb();
  const email = normaliseEmail(input.email);
  if (email.length > MAX_EMAIL_LENGTH) return { ok: false, reason: "invalid" };

  const reservation = await reserveAttempt(email, input.ip, throttleConfigFromEnv());
  if (reservation.action === "refuse") return { ok: false, reason: "throttled", retryAfterMs: reservation.retryAfterMs };
  if (reservation.delayMs > 0) await sleep(reservation.delayMs);

  const user = await db.user.findUnique({ where: { email } });
  const valid = user ? await verifyPassword(user.passwordHash, input.password) : await verifyAgainstDummy(input.password);
  const success = Boolean(user && valid && user.active);
  await settleAttempt(reservation.attemptId, success, email, input.ip);
  if (!success || !user) return { ok: false, reason: "invalid" };

  const sessionId = await createSession(user.id, { ip: input.ip, userAgent: input.userAgent });
  await db.user.update({ where: { id: user.id }, data: { lastLoginAt: new Date() } });
  return { ok: true, userId: user.id, sessionId };
}
