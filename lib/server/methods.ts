import type { IncomingMessage, ServerResponse } from "node:http";

/** The methods the app answers; Next's route handlers and pages use no other. */
export const ALLOWED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
const allowed = new Set<string>(ALLOWED_METHODS);

/**
 * Answers 405 to any other method (TRACE, TRACK, PROPFIND, ...) before Next
 * sees the request: Next builds a fetch Request for it, which refuses TRACE
 * and TRACK by throwing, and that was a 500. Returns true when it answered.
 */
export function refuseUnsupportedMethod(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method && allowed.has(req.method)) return false;
  res.writeHead(405, { allow: ALLOWED_METHODS.join(", "), "content-type": "application/json", "cache-control": "no-store" });
  res.end(JSON.stringify({ error: `method ${req.method ?? ""} is not allowed; use ${ALLOWED_METHODS.join(", ")}` }));
  return true;
}
