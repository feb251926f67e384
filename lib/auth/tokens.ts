import { createHash, randomBytes } from "node:crypto";
import { getDb } from "@/lib/db/client";
import type { SessionUser } from "./sessions";

/** Personal API tokens look like `cgt_<43 chars>`; only their SHA-256 is stored. */
const PREFIX = "cgt_";

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export async function createApiToken(userId: string, opts: { name?: string; expiresAt?: Date | null } = {}) {
  const token = PREFIX + randomBytes(32).toString("base64url");
  const row = await getDb().apiToken.create({
    data: {
      userId,
      name: opts.name ?? "personal token",
      prefix: token.slice(0, PREFIX.length + 6),
      tokenHash: hashToken(token),
      expiresAt: opts.expiresAt ?? null,
    },
  });
  return { id: row.id, token, expiresAt: row.expiresAt };
}

export async function resolveApiToken(token: string): Promise<SessionUser | null> {
  if (!token.startsWith(PREFIX)) return null;
  const row = await getDb().apiToken.findUnique({
    where: { tokenHash: hashToken(token) },
    select: { id: true, expiresAt: true, revokedAt: true, lastUsedAt: true, user: { select: { id: true, email: true, name: true, role: true, active: true } } },
  });
  if (!row || row.revokedAt || (row.expiresAt && row.expiresAt <= new Date()) || !row.user.active) return null;
  // Record use at most once a minute, to keep reads cheap under load.
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > 60_000) {
    await getDb().apiToken.update({ where: { id: row.id }, data: { lastUsedAt: new Date() } });
  }
  const { active: _active, ...user } = row.user;
  return user;
}

export async function revokeApiToken(tokenId: string): Promise<boolean> {
  const { count } = await getDb().apiToken.updateMany({ where: { id: tokenId, revokedAt: null }, data: { revokedAt: new Date() } });
  return count > 0;
}
