import { decode } from "next-auth/jwt";
import { resolveSession, type SessionUser } from "@/lib/auth/sessions";
import { resolveApiToken } from "@/lib/auth/tokens";

export type CurrentUser = SessionUser & { via: "session" | "token" };

// next-auth v4 names its cookie this way, with __Secure- when served over https.
const SESSION_COOKIES = ["__Secure-next-auth.session-token", "next-auth.session-token"];

/** A cookie's value; undefined when absent or not validly percent-encoded (a client's garbage means nobody is signed in). */
function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/**
 * The session id inside a session cookie. Opening the cookie (key derivation
 * and decryption) costs more CPU than the database read that follows it, and
 * every request of a signed-in user presents the same cookie, so opened
 * cookies are remembered. This is a memo of a pure function of the cookie and
 * the secret (every instance computes the same answer), not state: whether the
 * session still holds (signed out, expired, deactivated) is read from
 * PostgreSQL on every request. The cookie's own expiry is checked on every use.
 */
const opened = new Map<string, { sid: string; expiresAtMs: number }>();
let openedWith: string | undefined;
const OPENED_MAX = 10_000;
const CLOCK_TOLERANCE_MS = 15_000; // as next-auth allows when it opens the cookie itself

async function sessionIdFromCookie(raw: string, secret: string): Promise<string | null> {
  if (openedWith !== secret) {
    opened.clear();
    openedWith = secret;
  }
  let entry = opened.get(raw);
  if (!entry) {
    const token = await decode({ token: raw, secret }).catch(() => null);
    if (typeof token?.sid !== "string" || typeof token.exp !== "number") return null;
    entry = { sid: token.sid, expiresAtMs: token.exp * 1000 };
    // Oldest first out: a Map iterates in insertion order.
    if (opened.size >= OPENED_MAX) opened.delete(opened.keys().next().value!);
    opened.set(raw, entry);
  }
  if (Date.now() > entry.expiresAtMs + CLOCK_TOLERANCE_MS) {
    opened.delete(raw);
    return null;
  }
  return entry.sid;
}

/**
 * Who is calling: a Bearer API token, else the session cookie. Both are checked
 * against PostgreSQL on every call (revoked, expired, deactivated => null).
 * A request that presents a Bearer token is judged by the token alone.
 */
export async function userFromHeaders(headers: Headers): Promise<CurrentUser | null> {
  const authorization = headers.get("authorization");
  if (authorization) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization.trim());
    if (!match) return null;
    const user = await resolveApiToken(match[1]);
    return user ? { ...user, via: "token" } : null;
  }
  const cookieHeader = headers.get("cookie");
  for (const name of SESSION_COOKIES) {
    const raw = readCookie(cookieHeader, name);
    if (!raw) continue;
    const secret = process.env.AUTH_SECRET;
    if (!secret) return null;
    const sid = await sessionIdFromCookie(raw, secret);
    if (!sid) return null;
    const user = await resolveSession(sid);
    return user ? { ...user, via: "session" } : null;
  }
  return null;
}
