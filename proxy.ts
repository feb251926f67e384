import { NextResponse, type NextRequest } from "next/server";

/**
 * Gives every request an id (kept if a load balancer already set one) that the
 * server logs carry and the response returns, so a user's report can be traced.
 */
export function proxy(request: NextRequest) {
  const incoming = request.headers.get("x-request-id");
  const requestId = incoming && /^[\w.-]{8,100}$/.test(incoming) ? incoming : crypto.randomUUID();
  const headers = new Headers(request.headers);
  headers.set("x-request-id", requestId);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("x-request-id", requestId);
  return response;
}

// Uploads skip the proxy: Next buffers (and cuts at 10 MB) the body of every
// request a proxy sees, and imports and study archives stream far larger files.
export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico|api/v1/studies/[^/]+/import|api/v1/study-archives).*)"],
};
