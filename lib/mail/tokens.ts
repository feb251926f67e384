import { createHmac, timingSafeEqual } from "node:crypto";

// The invitation link's token lives with sign-in, which accepts invitations too (lib/auth/invitation-link.ts).
export { hashLinkToken, LINK_TOKEN_PATTERN, newLinkToken } from "@/lib/auth/link-token";

function signingKey(): Buffer {
  const secret = process.env.AUTH_SECRET;
  if (!secret) throw new Error("AUTH_SECRET is not set");
  // A key of its own, so an unsubscribe signature is never a valid signature of anything else.
  return createHmac("sha256", secret).update("clingrade-unsubscribe-v1").digest();
}

/**
 * The unsubscribe link's token: the user and the setting it turns off, signed
 * (HMAC-SHA256 under a key derived from AUTH_SECRET). It needs no sign-in and
 * can do nothing else; it stays valid, as unsubscribe links must.
 */
export function signUnsubscribe(userId: string, setting: "weeklyDigest"): string {
  const body = Buffer.from(JSON.stringify({ u: userId, s: setting })).toString("base64url");
  const sig = createHmac("sha256", signingKey()).update(body).digest("base64url");
  return `${body}.${sig}`;
}

export function verifyUnsubscribe(token: string): { userId: string; setting: "weeklyDigest" } | null {
  const [body, sig, extra] = token.split(".");
  if (!body || !sig || extra !== undefined || token.length > 400) return null;
  const want = createHmac("sha256", signingKey()).update(body).digest();
  const got = Buffer.from(sig, "base64url");
  if (got.length !== want.length || !timingSafeEqual(got, want)) return null;
  try {
    const parsed = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as { u?: unknown; s?: unknown };
    if (typeof parsed.u !== "string" || parsed.s !== "weeklyDigest") return null;
    return { userId: parsed.u, setting: "weeklyDigest" };
  } catch {
    return null;
  }
}
