import { ApiError } from "@/lib/errors/api-error";

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
 * Where the first byte that is not UTF-8 sits in `bytes` (-1: none; a
 * sequence cut short by the end counts as valid, the next piece may finish it).
 * Follows the decoder's rules: no overlong forms, no surrogates, nothing past U+10FFFF.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    const len = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (len === 0) return i;
    const lo = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
    const hi = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
    for (let k = 1; k < len; k++) {
      if (i + k >= bytes.length) return -1;
      const c = bytes[i + k];
      if (c < (k === 1 ? lo : 0x80) || c > (k === 1 ? hi : 0xbf)) return i;
    }
    i += len;
  }
  return -1;
}

const notUtf8 = (where: string) =>
  new ApiError(400, `the file is not valid UTF-8 text (${where}); in Excel save it as "CSV UTF-8 (Comma delimited)", elsewhere choose UTF-8 encoding`);

const countLines = (s: string) => {
  let n = 0;
  for (let i = s.indexOf("\n"); i !== -1; i = s.indexOf("\n", i + 1)) n++;
  return n;
};

/**
 * UTF-8 text, chunk by chunk. A byte order mark (Excel's "CSV UTF-8") is
 * dropped by the decoder; bytes that are not UTF-8 (Excel's plain "CSV",
 * Windows-1252) stop the import with a message that names the line and the
 * byte offset of the first bad byte, and says how to fix it.
 */
export async function* decodeUtf8(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let fed = 0; // bytes given to the decoder
  let decoded = 0; // bytes it turned into text (the BOM included)
  let lines = 0; // line breaks in that text
  let tail: Uint8Array = new Uint8Array(0); // the bytes it holds back: an unfinished character, at most 3
  const fail = (chunk: Uint8Array) => {
    const bytes = new Uint8Array(tail.length + chunk.length);
    bytes.set(tail);
    bytes.set(chunk, tail.length);
    const at = firstInvalidUtf8(bytes);
    const pos = at === -1 ? 0 : at; // none found: the file ends inside the character the held-back bytes begin
    const before = new TextDecoder("utf-8").decode(bytes.subarray(0, pos));
    const offset = decoded + pos;
    const hex = pos < bytes.length ? `0x${bytes[pos].toString(16).toUpperCase().padStart(2, "0")}` : "";
    const what = at === -1 ? `${hex}, a character cut off by the end of the file` : hex;
    return notUtf8(`line ${lines + countLines(before) + 1}, byte offset ${offset.toLocaleString("en")}: ${what}`);
  };
  for await (const chunk of chunks) {
    let s: string;
    try {
      s = decoder.decode(chunk, { stream: true });
    } catch {
      throw fail(chunk);
    }
    fed += chunk.length;
    const bom = decoded === 0 && fed >= 3 && startsWithBom(tail, chunk) ? 3 : 0;
    decoded += Buffer.byteLength(s) + bom;
    lines += countLines(s);
    const held = fed - decoded;
    tail = held > 0 ? lastBytes(tail, chunk, held) : new Uint8Array(0);
    if (s) yield s;
  }
  let rest: string;
  try {
    rest = decoder.decode();
  } catch {
    throw fail(new Uint8Array(0));
  }
  if (rest) yield rest;
}

function startsWithBom(tail: Uint8Array, chunk: Uint8Array): boolean {
  const head = [...tail, ...chunk.subarray(0, 3)].slice(0, 3);
  return head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf;
}

/** The last `n` bytes of tail + chunk. */
function lastBytes(tail: Uint8Array, chunk: Uint8Array, n: number): Uint8Array {
  if (chunk.length >= n) return chunk.slice(chunk.length - n);
  const out = new Uint8Array(n);
  out.set(tail.subarray(tail.length - (n - chunk.length)));
  out.set(chunk, n - chunk.length);
  return out;
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
