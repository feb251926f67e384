/** An error with an HTTP status and a message safe to show the caller. */
export class ApiError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 500 | 503,
    message: string,
    readonly details?: unknown,
    /** Seconds a client should wait before trying again (a Retry-After header, with 409, 429 and 503). */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export const notFound = (what = "not found") => new ApiError(404, what);
export const forbidden = (why = "you do not have access to this") => new ApiError(403, why);
