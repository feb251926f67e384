import { ApiError } from "@/lib/errors/api-error";

/** What a job's worker answers: its value, or its error in a form that crosses threads. */
export type WorkerReply<O> = { ok: true; value: O } | { ok: false; error: SentError };

export interface SentError {
  name: string;
  message: string;
  stack?: string;
  status?: ApiError["status"];
  details?: unknown;
  retryAfter?: number;
}

export function errorForParent(e: unknown): SentError {
  if (e instanceof ApiError) return { name: "ApiError", message: e.message, status: e.status, details: e.details, retryAfter: e.retryAfter };
  const err = e instanceof Error ? e : new Error(String(e));
  return { name: err.name, message: err.message, stack: err.stack };
}

export function errorFromWorker(s: SentError): Error {
  if (s.name === "ApiError" && s.status) return new ApiError(s.status, s.message, s.details, s.retryAfter);
  const err = new Error(s.message);
  err.name = s.name;
  if (s.stack) err.stack = `${s.stack}\n    (in an import worker)`;
  return err;
}
