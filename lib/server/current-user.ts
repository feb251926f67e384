import { decode } from "next-auth/jwt";
import { resolveSession, type SessionUser } from "@/lib/auth/sessions";
import { resolveApiToken } from "@/lib/auth/tokens";

export type CurrentUser = SessionUser & { via: "session" | "token" };

// next-auth v4 names its cookie this way, with __Secure- when served over https.
const SESSION_COOKIES = ["__Secure-next-auth.session-token", "next-auth.session-token"];

function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
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
    const token = await decode({ token: raw, secret }).catch(() => null);
    const sid = token?.sid;
    if (typeof sid !== "string") return null;
    const user = await resolveSession(sid);
    return user ? { ...user, via: "session" } : null;
  }
  return null;
}
