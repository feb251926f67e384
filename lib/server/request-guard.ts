/**
 * What proxy.ts checks of every request before Next routes it (pure, so the
 * proxy and the tests share it).
 *
 * Paths: Next decodes each dynamic segment with decodeURIComponent while it
 * matches the route, and a segment that is not percent-encoded UTF-8 (`%FF`, an
 * overlong `%C0%AF`, a surrogate `%ED%A0%80`, a cut `%E0%80`, `%ZZ`) throws
 * there, outside any handler, and Next answers a bare 500. So the path is
 * decoded once here, the same way, and refused first.
 *
 * next-auth: its endpoints (and getServerSession) refuse to run at all when
 * the callback-url cookie or the callbackUrl query parameter is not an http(s)
 * URL (its assertConfig), answering 500 until the browser drops the cookie. It
 * only stores where to go after signing in, so a malformed one is dropped.
 */

/** The first path segment that does not decode as percent-encoded UTF-8, or null if all do. */
export function undecodablePathSegment(pathname: string): string | null {
  for (const segment of pathname.split("/")) {
    if (!segment.includes("%")) continue;
    try {
      decodeURIComponent(segment);
    } catch {
      return segment;
    }
  }
  return null;
}

/** The problem a path with an undecodable segment answers on an API route (a 400). */
export function undecodablePathProblem(segment: string): { error: string; details: { path: string; message: string }[] } {
  const shown = segment.length > 60 ? `${segment.slice(0, 60)}…` : segment;
  return {
    error: "the URL's path is not valid percent-encoded UTF-8",
    details: [{ path: "path", message: `the segment "${shown}" does not decode (each %XX must form UTF-8 text)` }],
  };
}

/** next-auth's cookies that hold where to go after signing in (plain and the https `__Secure-` form). */
export const CALLBACK_URL_COOKIES = ["next-auth.callback-url", "__Secure-next-auth.callback-url"] as const;

/** The value as next-auth reads it: quotes taken off, then percent-decoded when it decodes (the `cookie` package's rules). */
function cookieValue(raw: string): string {
  let v = raw.trim();
  if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) v = v.slice(1, -1);
  if (!v.includes("%")) return v;
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}

/** next-auth's own test of a callback URL (next-auth/core/lib/assert.js): an http(s) URL, a path against our origin. */
export function isAcceptedCallbackUrl(value: string, origin: string): boolean {
  try {
    return /^https?:/.test(new URL(value, value.startsWith("/") ? origin : undefined).protocol);
  } catch {
    return false;
  }
}

/**
 * The Cookie header without the callback-url cookies next-auth would refuse,
 * and the names dropped (empty: the header is returned as it was).
 */
export function withoutBadCallbackCookies(cookieHeader: string | null, origin: string): { header: string | null; dropped: string[] } {
  if (!cookieHeader || !CALLBACK_URL_COOKIES.some((n) => cookieHeader.includes(n))) return { header: cookieHeader, dropped: [] };
  const dropped: string[] = [];
  const kept = cookieHeader.split(";").filter((pair) => {
    const eq = pair.indexOf("=");
    const name = (eq < 0 ? pair : pair.slice(0, eq)).trim();
    if (!(CALLBACK_URL_COOKIES as readonly string[]).includes(name)) return true;
    if (eq >= 0 && isAcceptedCallbackUrl(cookieValue(pair.slice(eq + 1)), origin)) return true;
    dropped.push(name);
    return false;
  });
  if (dropped.length === 0) return { header: cookieHeader, dropped };
  const header = kept
    .map((p) => p.trim())
    .filter(Boolean)
    .join("; ");
  return { header: header || null, dropped };
}

/**
 * The request without a callbackUrl query parameter next-auth would refuse
 * (the same request when it has none or a good one). Next keeps the original
 * query on a proxy's rewrite, so next-auth's route handler drops it itself.
 */
export async function withoutBadCallbackParam<R extends Request>(req: R, origin: string, make: (url: URL, init: RequestInit) => R): Promise<R> {
  const url = new URL(req.url);
  const value = url.searchParams.get("callbackUrl");
  if (value === null || isAcceptedCallbackUrl(value, origin)) return req;
  url.searchParams.delete("callbackUrl");
  const body = req.method === "GET" || req.method === "HEAD" ? undefined : await req.text();
  return make(url, { method: req.method, headers: req.headers, body });
}
