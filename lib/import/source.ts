import { ApiError } from "@/lib/server/errors";

/**
 * The request body as the import reads it: raw chunks with a byte limit,
 * then UTF-8 text. Nothing here holds more than one chunk.
 */

export const DEFAULT_MAX_IMPORT_BYTES = 50 * 1024 * 1024;

/** The largest file the import takes: IMPORT_MAX_BYTES, default 50 MB. */
export function maxImportBytes(): number {
  const configured = Number(process.env.IMPORT_MAX_BYTES);
  return Number.isFinite(configured) && configured > 0 ? Math.floor(configured) : DEFAULT_MAX_IMPORT_BYTES;
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${+(n / (1024 * 1024)).toFixed(1)} MB`;
  if (n >= 1024) return `${+(n / 1024).toFixed(1)} KB`;
  return `${n} bytes`;
}

export type ImportFormat = "csv" | "json";

// Browsers on Windows label .csv files application/vnd.ms-excel; curl's
// --data-binary without -H sends application/x-www-form-urlencoded, which we refuse.
const CSV_TYPES = new Set(["text/csv", "application/csv", "text/plain", "text/comma-separated-values", "application/vnd.ms-excel"]);
const JSON_TYPES = new Set(["application/json"]);

/** The format named by a Content-Type header; 415 for anything else or a charset other than UTF-8. */
export function formatFromContentType(header: string | null): ImportFormat {
  const [type, ...params] = (header ?? "").split(";").map((p) => p.trim().toLowerCase());
  const charset = params.find((p) => p.startsWith("charset="))?.slice("charset=".length).replace(/"/g, "");
  if (charset && charset !== "utf-8" && charset !== "utf8") {
    throw new ApiError(415, `the file must be UTF-8, not ${charset}; in Excel use "Save as: CSV UTF-8"`);
  }
  if (CSV_TYPES.has(type)) return "csv";
  if (JSON_TYPES.has(type)) return "json";
  throw new ApiError(
    415,
    header ? `unsupported content type ${type}: send Content-Type: text/csv or application/json` : "missing Content-Type: send text/csv or application/json",
  );
}

export function tooLarge(maxBytes: number): ApiError {
  return new ApiError(413, `the file is larger than the import limit of ${formatBytes(maxBytes)} (IMPORT_MAX_BYTES); split it into several files`);
}

/** Chunks of a web ReadableStream (a Request body) or any async iterable (a file stream). */
export async function* chunksOf(body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  if (!("getReader" in body)) {
    yield* body;
    return;
  }
  const reader = body.getReader();
  let done = false;
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) {
        done = true;
        return;
      }
      yield next.value;
    }
  } finally {
    // Stopping early (a bad header, the size limit): stop receiving the upload too.
    if (!done) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

/**
 * Counts bytes while passing chunks on and stops with 413 past the limit, so
 * a client that sends no or a false Content-Length is stopped all the same.
 * A body shorter than its Content-Length was cut on the way (a proxy's own
 * body limit): refused, since importing part of a file would be wrong silently.
 */
export async function* limitBytes(
  chunks: AsyncIterable<Uint8Array>,
  maxBytes: number,
  contentLength?: number | null,
  overLimit: (maxBytes: number) => ApiError = tooLarge,
): AsyncGenerator<Uint8Array> {
  let total = 0;
  for await (const chunk of chunks) {
    total += chunk.byteLength;
    if (total > maxBytes) throw overLimit(maxBytes);
    yield chunk;
  }
  if (contentLength && total < contentLength) {
    throw new ApiError(
      413,
      `only ${formatBytes(total)} of the ${formatBytes(contentLength)} file arrived: the upload was cut short (a proxy's request size limit?); nothing was imported`,
    );
  }
}

/**
 * UTF-8 text, chunk by chunk. A byte order mark (Excel's "CSV UTF-8") is
 * dropped by the decoder; bytes that are not UTF-8 (Excel's plain "CSV",
 * Windows-1252) stop the import with a message that says how to fix it.
 */
export async function* decodeUtf8(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const fail = () =>
    new ApiError(400, 'the file is not valid UTF-8 text; in Excel save it as "CSV UTF-8 (Comma delimited)", elsewhere choose UTF-8 encoding');
  for await (const chunk of chunks) {
    let s: string;
    try {
      s = decoder.decode(chunk, { stream: true });
    } catch {
      throw fail();
    }
    if (s) yield s;
  }
  let rest: string;
  try {
    rest = decoder.decode();
  } catch {
    throw fail();
  }
  if (rest) yield rest;
}

/**
 * Re-cuts the body into pieces of 32-48 KB: small HTTP chunks are gathered
 * (so the per-piece work of decoding and parsing is paid rarely) and large
 * file-read chunks are cut. Pieces stay below V8's large-object size even as
 * two-byte text, so they and the strings cut from them die young instead of
 * piling up until a full garbage collection. Holds at most one piece.
 */
export async function* coalesce(chunks: AsyncIterable<Uint8Array>, min = 32 * 1024, max = 48 * 1024): AsyncGenerator<Uint8Array> {
  let buffer: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    for (let offset = 0; offset < chunk.byteLength; offset += max) {
      const c = offset === 0 && chunk.byteLength <= max ? chunk : chunk.subarray(offset, offset + max);
      buffer.push(c);
      size += c.byteLength;
      if (size >= min) {
        yield buffer.length === 1 ? buffer[0] : Buffer.concat(buffer, size);
        buffer = [];
        size = 0;
      }
    }
  }
  if (size > 0) yield buffer.length === 1 ? buffer[0] : Buffer.concat(buffer, size);
}
