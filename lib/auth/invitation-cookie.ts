/**
 * An invitation accepted by single sign-on: the invitation page posts the
 * link's token (POST /api/v1/invitations/sso), which is checked and put in
 * this cookie; the provider's redirect back to /api/auth/callback/oidc brings
 * it to the sign-in (lib/auth/options.ts), which accepts the invitation in the
 * transaction that signs the person in (lib/auth/sso.ts). HttpOnly, only sent
 * to /api/auth, SameSite=Lax (the provider's redirect is a top-level GET),
 * ten minutes; the callback's answer deletes it whatever the outcome.
 */
export const INVITATION_COOKIE = "clingrade-invitation";
const MAX_AGE_S = 600;

const secure = (env: Record<string, string | undefined>) => ((env.NEXTAUTH_URL ?? "").startsWith("https://") ? "; Secure" : "");

export function invitationCookie(token: string, env: Record<string, string | undefined> = process.env): string {
  return `${INVITATION_COOKIE}=${token}; Path=/api/auth; Max-Age=${MAX_AGE_S}; HttpOnly; SameSite=Lax${secure(env)}`;
}

export function clearedInvitationCookie(env: Record<string, string | undefined> = process.env): string {
  return `${INVITATION_COOKIE}=; Path=/api/auth; Max-Age=0; HttpOnly; SameSite=Lax${secure(env)}`;
}

/** The token the cookie holds, if any (its shape is checked where it is used). */
export function invitationTokenFrom(headers: Headers | undefined): string | undefined {
  const cookie = headers?.get("cookie");
  if (!cookie) return undefined;
  for (const part of cookie.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === INVITATION_COOKIE) return part.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}

/** The callback's answer without the cookie: it served the one sign-in it was set for, accepted or refused. */
export function dropInvitationCookieAfterCallback(req: { url: string; headers: Headers }, res: Response): Response {
  if (!new URL(req.url).pathname.endsWith("/callback/oidc") || !invitationTokenFrom(req.headers)) return res;
  const headers = new Headers(res.headers);
  headers.append("set-cookie", clearedInvitationCookie());
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}
