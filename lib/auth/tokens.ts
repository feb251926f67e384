import { createHash, randomBytes } from "node:crypto";
import { getDb, type Tx } from "@/lib/db/client";
import { sql } from "@/lib/db/sql";
import { Prisma } from "@/lib/generated/prisma/client";
import type { SessionUser } from "./sessions";

/** Personal API tokens look like `cgt_<43 chars>`; only their SHA-256 is stored. */
const PREFIX = "cgt_";

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export class TokenRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TokenRefusedError";
  }
}

/**
 * Issues a token to an active account only, checked under a share lock on the
 * user's row (which deactivation locks for update): a token issued to a
 * deactivated account would lie paused and come back with a reactivation.
 */
export async function createApiToken(userId: string, opts: { name?: string; expiresAt?: Date | null } = {}) {
  const token = PREFIX + randomBytes(32).toString("base64url");
  const row = await getDb().$transaction(async (tx) => {
    const [user] = await tx.$queryRaw<{ active: boolean }[]>`SELECT active FROM "User" WHERE id = ${userId}::uuid FOR SHARE`;
    if (!user) throw new TokenRefusedError("no such user");
    if (!user.active) throw new TokenRefusedError("the account is deactivated: activate it before issuing a token");
    return tx.apiToken.create({
      data: {
        userId,
        name: opts.name ?? "personal token",
        prefix: token.slice(0, PREFIX.length + 6),
        tokenHash: hashToken(token),
        expiresAt: opts.expiresAt ?? null,
      },
    });
  });
  return { id: row.id, token, expiresAt: row.expiresAt };
}

interface TokenRow extends SessionUser {
  tokenId: string;
  usable: boolean;
  active: boolean;
  lastUsedAt: Date | null;
}

/** The user behind a Bearer token: one statement (token joined to its user, by the hash's unique index). */
export async function resolveApiToken(token: string): Promise<SessionUser | null> {
  if (!token.startsWith(PREFIX)) return null;
  const rows = await sql.rows<TokenRow>(Prisma.sql`
    SELECT t.id AS "tokenId", t."lastUsedAt", u.id, u.email, u.name, u.role::text AS role, u.active,
           t."revokedAt" IS NULL AND (t."expiresAt" IS NULL OR t."expiresAt" > now()) AS usable
    FROM "ApiToken" t JOIN "User" u ON u.id = t."userId"
    WHERE t."tokenHash" = ${hashToken(token)}`);
  const row = rows[0];
  if (!row || !row.usable || !row.active) return null;
  // Record use at most once a minute, to keep reads cheap under load.
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > 60_000) {
    await getDb().apiToken.update({ where: { id: row.tokenId }, data: { lastUsedAt: new Date() } });
  }
  return { id: row.id, email: row.email, name: row.name, role: row.role };
}

export async function revokeApiToken(tokenId: string): Promise<boolean> {
  const { count } = await getDb().apiToken.updateMany({ where: { id: tokenId, revokedAt: null }, data: { revokedAt: new Date() } });
  return count > 0;
}

/**
 * Revokes every live token of a user, inside the caller's transaction (the
 * account's deactivation): revoked for good, so reactivating the account
 * does not bring them back. Returns what it revoked, for the audit log.
 */
export async function revokeUserTokens(tx: Tx, userId: string): Promise<{ id: string; prefix: string; name: string }[]> {
  return tx.$queryRaw`UPDATE "ApiToken" SET "revokedAt" = now()
    WHERE "userId" = ${userId}::uuid AND "revokedAt" IS NULL
    RETURNING id, prefix, name`;
}
