import { randomUUID } from "node:crypto";

export const REQUEST_ID_HEADER = "x-request-id";

/** The request id set by proxy.ts, or a new one for code paths outside it. */
export function requestIdFrom(headers: Headers): string {
  return headers.get(REQUEST_ID_HEADER) ?? randomUUID();
}
