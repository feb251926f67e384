import { randomBytes } from "node:crypto";
import { getDb } from "@/lib/db/client";
import type { Role } from "@/lib/generated/prisma/enums";

export const SESSION_MAX_AGE_S = 8 * 60 * 60; // one clinical shift

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  role: Role;
}

export async function createSession(userId: string, meta: { ip?: string; userAgent?: string } = {}): Promise<string> {
  const id = randomBytes(32).toString("base64url");
  await getDb().authSession.create({
    data: {
      id,
      userId,
      expiresAt: new Date(Date.now() + SESSION_MAX_AGE_S * 1000),
      ip: meta.ip,
      userAgent: meta.userAgent?.slice(0, 300),
    },
  });
  return id;
}

/**
 * The user behind a session id, read on every request so that sign-out,
 * expiry and deactivation take effect at once on every app instance.
 */
export async function resolveSession(sessionId: string): Promise<SessionUser | null> {
  const session = await getDb().authSession.findUnique({
    where: { id: sessionId },
    select: { expiresAt: true, revokedAt: true, user: { select: { id: true, email: true, name: true, role: true, active: true } } },
  });
  if (!session || session.revokedAt || session.expiresAt <= new Date() || !session.user.active) return null;
  const { active: _active, ...user } = session.user;
  return user;
}

export async function revokeSession(sessionId: string): Promise<void> {
  await getDb().authSession.updateMany({ where: { id: sessionId, revokedAt: null }, data: { revokedAt: new Date() } });
}

export async function revokeAllSessions(userId: string): Promise<void> {
  await getDb().authSession.updateMany({ where: { userId, revokedAt: null }, data: { revokedAt: new Date() } });
}
