import { NextResponse, type NextRequest } from "next/server";
import { undecodablePathProblem, undecodablePathSegment, withoutBadCallbackCookies } from "@/lib/server/request-guard";
import { contentSecurityPolicy, newNonce, strictTransportSecurity } from "@/lib/server/security-headers";

/**
 * Gives every request an id (kept if a load balancer already set one) that the
 * server logs carry and the response returns, so a user's report can be traced;
 * and the headers that depend on the request or the deployment: a CSP with a
 * fresh nonce (Next reads it from the request's CSP header and puts it on the
 * scripts of the page it renders) and HSTS when served over https.
 *
 * It also refuses what would fail inside Next's own routing, before any
 * handler could answer (lib/server/request-guard.ts): a path that is not
 * percent-encoded UTF-8 (a 400 problem on the API, the 404 page elsewhere), and
 * a next-auth callback URL cookie that next-auth would refuse with a 500
 * (dropped; next-auth reads cookies through next/headers, so only here can it
 * be taken off; its route handler drops the callbackUrl query parameter).
 */
export function proxy(request: NextRequest) {
  const incoming = request.headers.get("x-request-id");
  const requestId = incoming && /^[\w.-]{8,100}$/.test(incoming) ? incoming : crypto.randomUUID();
  const csp = contentSecurityPolicy({ nonce: newNonce(), dev: process.env.NODE_ENV === "development" });
  const headers = new Headers(request.headers);
  headers.set("x-request-id", requestId);
  headers.set("content-security-policy", csp);

  const { pathname } = request.nextUrl;
  const badSegment = undecodablePathSegment(pathname);
  let response: NextResponse;
  if (badSegment !== null && pathname.startsWith("/api/")) {
    response = NextResponse.json(undecodablePathProblem(badSegment), { status: 400, headers: { "cache-control": "no-store" } });
  } else if (badSegment !== null) {
    // A path no page has: Next renders the not-found page with a 404.
    response = NextResponse.rewrite(new URL("/_not-found-path", request.url), { request: { headers } });
  } else {
    const { header, dropped } = withoutBadCallbackCookies(request.headers.get("cookie"), request.nextUrl.origin);
    if (header === null) headers.delete("cookie");
    else headers.set("cookie", header);
    response = NextResponse.next({ request: { headers } });
    // The browser forgets the cookie too, so the next request is clean.
    for (const name of dropped) response.cookies.set({ name, value: "", path: "/", maxAge: 0, secure: name.startsWith("__Secure-") });
  }
  response.headers.set("x-request-id", requestId);
  // Replaces next.config.ts's fixed policy (the same key, lower case: Next lets the proxy's win).
  response.headers.set("content-security-policy", csp);
  const hsts = strictTransportSecurity(process.env.NEXTAUTH_URL);
  if (hsts) response.headers.set("strict-transport-security", hsts);
  return response;
}

// Uploads skip the proxy: Next buffers (and cuts at 10 MB) the body of every
// request a proxy sees, and imports and study archives stream far larger files.
// They are JSON routes, so next.config.ts's fixed policy (no nonce) suits them.
// A study id holding `%` is no upload of ours: it goes through the proxy, which
// refuses an undecodable one.
export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico|api/v1/studies/[^/%]+/import|api/v1/studies/[^/%]+/grade-imports|api/v1/study-archives).*)"],
};
