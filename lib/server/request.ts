import { randomUUID } from "node:crypto";

export const REQUEST_ID_HEADER = "x-request-id";

/** The request id set by proxy.ts, or a new one for code paths outside it. */
export function requestIdFrom(headers: Headers): string {
  return headers.get(REQUEST_ID_HEADER) ?? randomUUID();
}

/**
 * The client's address, for login throttling. Next's server fills
 * X-Forwarded-For from the socket when no proxy set it, so the first hop is the
 * client (or what the load balancer saw). A client can forge that header when
 * no proxy is in front; the per-account limit, which it cannot dodge, is the
 * one that protects passwords, and the per-address limit is best effort.
 */
export function clientAddress(headers: Headers): string {
  return headers.get("x-forwarded-for")?.split(",")[0]?.trim() || headers.get("x-real-ip") || "unknown";
}
