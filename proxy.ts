import { NextResponse, type NextRequest } from "next/server";
import { contentSecurityPolicy, newNonce, strictTransportSecurity } from "@/lib/server/security-headers";

/**
 * Gives every request an id (kept if a load balancer already set one) that the
 * server logs carry and the response returns, so a user's report can be traced;
 * and the headers that depend on the request or the deployment: a CSP with a
 * fresh nonce (Next reads it from the request's CSP header and puts it on the
 * scripts of the page it renders) and HSTS when served over https.
 */
export function proxy(request: NextRequest) {
  const incoming = request.headers.get("x-request-id");
  const requestId = incoming && /^[\w.-]{8,100}$/.test(incoming) ? incoming : crypto.randomUUID();
  const csp = contentSecurityPolicy({ nonce: newNonce(), dev: process.env.NODE_ENV === "development" });
  const headers = new Headers(request.headers);
  headers.set("x-request-id", requestId);
  headers.set("content-security-policy", csp);
  const response = NextResponse.next({ request: { headers } });
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
export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico|api/v1/studies/[^/]+/import|api/v1/studies/[^/]+/grade-imports|api/v1/study-archives).*)"],
};
