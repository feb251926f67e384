import type { z } from "zod";
import { ApiError } from "@/lib/errors/api-error";
import { zodDetails } from "@/lib/server/api-route";
import { isDryRun, type DryRunFlag } from "./dry-run";

/**
 * What the file-import routes (POST /import, POST /grade-imports) read of
 * their request before the import itself: the query, whether it is a dry run,
 * the body as a stream with its type and declared length, and a clock for the
 * log line.
 */

export interface ImportRequest<Q> {
  query: Q;
  dryRun: boolean;
  contentType: string | null;
  /** The declared Content-Length, or null when absent or not a number. */
  contentLength: number | null;
  body: ReadableStream<Uint8Array> | null;
  /** Milliseconds since the request was read. */
  elapsedMs: () => number;
}

/** Reads an import request's query with `schema` (a bad query: 400) and its body's headers. */
export function readImportRequest<Q extends { dryRun?: DryRunFlag }>(req: Request, schema: z.ZodType<Q>): ImportRequest<Q> {
  const query = schema.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  if (!query.success) throw new ApiError(400, "invalid query", zodDetails(query.error));
  const length = req.headers.get("content-length");
  const started = Date.now();
  return {
    query: query.data,
    dryRun: isDryRun(query.data.dryRun),
    contentType: req.headers.get("content-type"),
    contentLength: length === null || !/^\d+$/.test(length) ? null : Number(length),
    body: req.body,
    elapsedMs: () => Date.now() - started,
  };
}
