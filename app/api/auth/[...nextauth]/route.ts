import NextAuth from "next-auth";
import { NextRequest } from "next/server";
import { dropInvitationCookieAfterCallback } from "@/lib/auth/invitation-cookie";
import { authOptionsFor } from "@/lib/auth/options";
import { withoutBadCallbackParam } from "@/lib/server/request-guard";

/**
 * next-auth's own endpoints; the options are made per request, so a sign-in's
 * session row records its address and browser. A callbackUrl parameter that is
 * not an http(s) URL is dropped first: next-auth would refuse to answer at all
 * (a 500); a malformed callback-url cookie is dropped by proxy.ts.
 */
async function handler(req: NextRequest, ctx: { params: Promise<{ nextauth: string[] }> }): Promise<Response> {
  const clean = await withoutBadCallbackParam(req, req.nextUrl.origin, (url, init) => new NextRequest(url, init as ConstructorParameters<typeof NextRequest>[1]));
  return dropInvitationCookieAfterCallback(clean, await NextAuth(clean, ctx, authOptionsFor(clean)));
}
export { handler as GET, handler as POST };
