"use client";

/**
 * The study pages' forms post to the REST API (/api/v1) with the session
 * cookie, the same endpoints and validation an API client gets. Errors come
 * back as `{error, details?}`; `fieldErrors` maps each 422 detail (and each
 * setting named by a 409 lock) to its field so the form can show it there.
 */
export type ApiResult<T> =
  | { ok: true; status: number; data: T }
  | { ok: false; status: number; error: string; fieldErrors: Record<string, string> };

export async function apiRequest<T>(method: "POST" | "PUT" | "PATCH" | "DELETE", url: string, body?: unknown): Promise<ApiResult<T>> {
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers: body === undefined ? undefined : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    });
  } catch {
    return { ok: false, status: 0, error: "The server could not be reached. Check your connection and try again.", fieldErrors: {} };
  }
  const payload = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  if (res.ok) return { ok: true, status: res.status, data: payload as T };

  const fieldErrors: Record<string, string> = {};
  // A 422 names its fields as a list (the schema's) or as `{errors: [...], total}` (a service's own checks: the planner's, the screen's).
  const raw = payload?.details;
  const listed = raw && typeof raw === "object" && !Array.isArray(raw) ? (raw as { errors?: unknown }).errors : undefined;
  const details = Array.isArray(listed) ? listed : raw;
  if (Array.isArray(details)) {
    for (const d of details as { path?: string; message?: string }[]) {
      if (d.path && d.message && !fieldErrors[d.path]) fieldErrors[d.path] = d.message;
    }
  } else if (details && typeof details === "object" && Array.isArray((details as { locked?: unknown }).locked)) {
    const byProtocol = typeof (details as { protocol?: unknown }).protocol === "string";
    for (const field of (details as { locked: string[] }).locked) fieldErrors[field] = byProtocol ? "Part of the frozen protocol: give the reason for the amendment below." : "Locked: grading has started.";
  }
  const formLevel = Array.isArray(details) ? (details as { path?: string; message?: string }[]).filter((d) => !d.path).map((d) => d.message) : [];
  const base = typeof payload?.error === "string" ? payload.error : `The request failed (HTTP ${res.status}).`;
  const error =
    res.status === 422
      ? formLevel.length
        ? formLevel.join("; ")
        : "Some fields need attention; see the messages below them."
      : res.status === 401
        ? "Your session has ended. Sign in again."
        : base;
  return { ok: false, status: res.status, error, fieldErrors };
}
