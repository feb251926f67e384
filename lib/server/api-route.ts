import { z } from "zod";
import type { Role } from "@/lib/generated/prisma/enums";
import { userFromHeaders, type CurrentUser } from "./current-user";
import { ApiError } from "@/lib/errors/api-error";
import { requestLogger } from "@/lib/log/logger";
import { observeRequest, routePattern } from "./metrics";
import { requestIdFrom, REQUEST_ID_HEADER } from "./request";
import { textProblemsIn, type TextIssue } from "@/lib/validation/text";

/**
 * The one guarded pattern for every route handler under app/api: it resolves
 * the caller (Bearer token or session), checks the role on the server, parses
 * and validates input with zod, and turns every failure into a JSON
 * `{error, details?}` with the right status, never an HTML page or a stack trace.
 */
export interface RouteContext<P> {
  req: Request;
  user: CurrentUser;
  params: P;
  requestId: string;
  log: ReturnType<typeof requestLogger>;
}

type Handler<P> = (ctx: RouteContext<P>) => Promise<Response | unknown>;

export function json(data: unknown, init: ResponseInit = {}): Response {
  return Response.json(data, init);
}

/**
 * What an authenticated caller gets is theirs alone: no browser or shared
 * cache may keep it (a handler that chose its own Cache-Control keeps it).
 */
function noStore(res: Response): Response {
  if (res.headers.has("cache-control")) return res;
  try {
    res.headers.set("cache-control", "no-store");
    return res;
  } catch {
    // Headers of some responses (Response.redirect) are immutable: copy them.
    const headers = new Headers(res.headers);
    headers.set("cache-control", "no-store");
    return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
  }
}

export function errorResponse(status: number, error: string, details?: unknown, requestId?: string, retryAfter?: number): Response {
  const headers: Record<string, string> = { "cache-control": "no-store" };
  if (requestId) headers[REQUEST_ID_HEADER] = requestId;
  if (retryAfter !== undefined) headers["retry-after"] = String(Math.max(1, Math.ceil(retryAfter)));
  return Response.json(details === undefined ? { error } : { error, details }, { status, headers });
}

export function zodDetails(error: z.ZodError) {
  return error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
}

const textDetails = (issues: TextIssue[]) => issues.map((i) => ({ path: i.path.join("."), message: i.message }));

/**
 * Query parameters are one-line text: any control character or unpaired
 * surrogate in a name or value is refused here, for every route, before its
 * own schema (or a forgotten one) lets it reach the database.
 */
function queryProblems(req: Request): TextIssue[] {
  const issues: TextIssue[] = [];
  if (!req.url.includes("?")) return issues;
  for (const [key, value] of new URL(req.url).searchParams) {
    issues.push(...textProblemsIn({ [key]: value }, "line", 1));
    if (issues.length >= 20) break;
  }
  return issues;
}

function toResponse(err: unknown, requestId: string, log: ReturnType<typeof requestLogger>): Response {
  if (err instanceof ApiError) return errorResponse(err.status, err.message, err.details, requestId, err.retryAfter);
  if (err instanceof z.ZodError) return errorResponse(422, "invalid input", zodDetails(err), requestId);
  log.error({ err }, "unhandled error in route handler");
  return errorResponse(500, `internal error (request id ${requestId})`, undefined, requestId);
}

/**
 * Cookie-authenticated writes must come from our own pages: SameSite=Lax cookies
 * already stop most cross-site posts, and this closes the rest. Bearer-token
 * calls carry no ambient credential, so they need no such check.
 */
function isSameOrigin(req: Request): boolean {
  if (req.method === "GET" || req.method === "HEAD") return true;
  const origin = req.headers.get("origin");
  if (!origin) return true;
  const host = req.headers.get("x-forwarded-host") ?? req.headers.get("host");
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}

export function apiRoute<P = Record<string, never>>(roles: readonly Role[], handler: Handler<P>) {
  return async (req: Request, context: { params: Promise<P> }): Promise<Response> => {
    const started = performance.now();
    const res = await guarded(req, context);
    // Every answer is counted, refusals included; the label is the route's pattern, never its ids.
    let params: unknown = null;
    try {
      params = await context.params;
    } catch {
      // A route whose params failed has been answered already: count it under its path.
    }
    observeRequest(routePattern(new URL(req.url).pathname, params), req.method, res.status, (performance.now() - started) / 1000);
    return res;
  };

  async function guarded(req: Request, context: { params: Promise<P> }): Promise<Response> {
    const requestId = requestIdFrom(req.headers);
    const log = requestLogger(requestId);
    try {
      const user = await userFromHeaders(req.headers);
      if (!user) return errorResponse(401, "authentication required: sign in or send Authorization: Bearer <token>", undefined, requestId);
      if (!roles.includes(user.role)) return errorResponse(403, `this needs one of the roles ${roles.join(", ")}`, undefined, requestId);
      if (user.via === "session" && !isSameOrigin(req)) {
        return errorResponse(403, "cross-site request refused", undefined, requestId);
      }
      const badQuery = queryProblems(req);
      if (badQuery.length) return errorResponse(422, "invalid query parameters", textDetails(badQuery), requestId);
      const result = await handler({ req, user, params: await context.params, requestId, log });
      return noStore(result instanceof Response ? result : json(result));
    } catch (err) {
      return toResponse(err, requestId, log);
    }
  }
}

/**
 * Reads a JSON body and validates it: 400 when it is not JSON, 422 naming each
 * problem otherwise. Text the database cannot take as sent (control characters
 * other than tab and line breaks, unpaired surrogates) is refused anywhere in
 * the body, whatever the schema says.
 */
export async function readJson<S extends z.ZodType>(req: Request, schema: S, maxBytes = 1_000_000): Promise<z.output<S>> {
  const length = Number(req.headers.get("content-length") ?? 0);
  if (length > maxBytes) throw new ApiError(413, `request body is larger than ${maxBytes} bytes`);
  const text = await req.text();
  if (Buffer.byteLength(text) > maxBytes) throw new ApiError(413, `request body is larger than ${maxBytes} bytes`);
  let body: unknown;
  try {
    // An empty body means "no options": the schema decides whether that is enough.
    body = text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    throw new ApiError(400, "request body is not valid JSON");
  }
  const badText = textProblemsIn(body);
  if (badText.length) throw new ApiError(422, "invalid input", textDetails(badText));
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ApiError(422, "invalid input", zodDetails(parsed.error));
  return parsed.data;
}

/**
 * The guarded pattern for the few routes anyone may call without signing in
 * (an invitation's or an unsubscribe link's page): the same refusals of bad
 * query text and cross-site writes, the same JSON errors, never cached.
 */
export function publicRoute<P = Record<string, never>>(handler: (ctx: Omit<RouteContext<P>, "user">) => Promise<Response | unknown>) {
  return async (req: Request, context: { params: Promise<P> }): Promise<Response> => {
    const started = performance.now();
    const requestId = requestIdFrom(req.headers);
    const log = requestLogger(requestId);
    let res: Response;
    try {
      if (!isSameOrigin(req)) res = errorResponse(403, "cross-site request refused", undefined, requestId);
      else {
        const badQuery = queryProblems(req);
        if (badQuery.length) res = errorResponse(422, "invalid query parameters", textDetails(badQuery), requestId);
        else {
          const result = await handler({ req, params: await context.params, requestId, log });
          res = noStore(result instanceof Response ? result : json(result));
        }
      }
    } catch (err) {
      res = toResponse(err, requestId, log);
    }
    observeRequest(routePattern(new URL(req.url).pathname, null), req.method, res.status, (performance.now() - started) / 1000);
    return res;
  };
}
