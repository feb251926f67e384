import pino from "pino";

/**
 * Structured JSON logs (one line per event) with the request id on every line
 * of a request. Secrets never reach a log: the redact list covers the fields
 * where they could appear.
 */
export const logger = pino({
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "silent" : "info"),
  base: { service: "clingrade" },
  redact: {
    paths: ["password", "*.password", "token", "*.token", "authorization", "*.authorization", "headers.cookie", "DATABASE_URL", "*.DATABASE_URL", "AUTH_SECRET"],
    censor: "[redacted]",
  },
});

export function requestLogger(requestId: string) {
  return logger.child({ requestId });
}
