import { randomBytes } from "node:crypto";
import { getDb, type Db, type Tx } from "@/lib/db/client";
import { sql } from "@/lib/db/sql";
import { Prisma } from "@/lib/generated/prisma/client";
import type { Role } from "@/lib/generated/prisma/enums";

export const SESSION_MAX_AGE_S = 8 * 60 * 60; // one clinical shift

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  role: Role;
}

export async function createSession(userId: string, meta: { ip?: string; userAgent?: string } = {}, db: Db | Tx = getDb()): Promise<string> {
  const id = randomBytes(32).toString("base64url");
  await db.authSession.create({
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

interface SessionRow extends SessionUser {
  expired: boolean;
  revoked: boolean;
  active: boolean;
}

/**
 * The user behind a session id, read on every request so that sign-out,
 * expiry and deactivation take effect at once on every app instance. One
 * statement (the session joined to its user, by primary key): it runs before
 * every page and API call, so it must cost one round trip, not two.
 */
export async function resolveSession(sessionId: string): Promise<SessionUser | null> {
  const rows = await sql.rows<SessionRow>(Prisma.sql`
    SELECT u.id, u.email, u.name, u.role::text AS role, u.active,
           s."expiresAt" <= now() AS expired, s."revokedAt" IS NOT NULL AS revoked
    FROM "AuthSession" s JOIN "User" u ON u.id = s."userId"
    WHERE s.id = ${sessionId}`);
  const row = rows[0];
  if (!row || row.revoked || row.expired || !row.active) return null;
  return { id: row.id, email: row.email, name: row.name, role: row.role };
}

export async function revokeSession(sessionId: string): Promise<void> {
  await getDb().authSession.updateMany({ where: { id: sessionId, revokedAt: null }, data: { revokedAt: new Date() } });
}

export async function revokeAllSessions(userId: string, db: Db | Tx = getDb()): Promise<void> {
  await db.authSession.updateMany({ where: { userId, revokedAt: null }, data: { revokedAt: new Date() } });
}
