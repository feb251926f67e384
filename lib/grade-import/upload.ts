import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiError } from "@/lib/errors/api-error";

/**
 * A multipart/form-data upload read as a stream: the `file` part goes to a
 * temporary file as it arrives (an .xlsx must be read from its end, where the
 * zip keeps its directory), small text parts are kept as strings. Memory
 * stays at one chunk whatever the file's size.
 */

export interface Upload {
  path: string;
  filename: string;
  fields: Record<string, string>;
  bytes: number;
  /** Removes the temporary file. */
  dispose(): Promise<void>;
}

const MAX_FIELD = 256 * 1024;
const CRLF = Buffer.from("\r\n");

export function boundaryOf(contentType: string): string {
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const b = m?.[1] ?? m?.[2];
  if (!b || b.length > 200) throw new ApiError(400, "multipart/form-data without a boundary");
  return b;
}

function partHeaders(block: string): { name: string; filename: string | null } {
  const disp = /content-disposition:[^\r\n]*/i.exec(block)?.[0] ?? "";
  const name = /\bname="([^"]*)"/i.exec(disp)?.[1];
  const filename = /\bfilename="([^"]*)"/i.exec(disp)?.[1] ?? null;
  if (name === undefined) throw new ApiError(400, "a multipart part has no name");
  return { name, filename };
}

export async function readUpload(body: AsyncIterable<Uint8Array>, contentType: string, maxBytes: number): Promise<Upload> {
  const delimiter = Buffer.from(`\r\n--${boundaryOf(contentType)}`);
  const dir = await mkdtemp(join(tmpdir(), "clingrade-grades-"));
  const path = join(dir, "upload");
  const dispose = () => rm(dir, { recursive: true, force: true });
  const fields: Record<string, string> = {};
  let filename = "";
  let bytes = 0;
  let sawFile = false;
  // The body starts with "--boundary"; prefixing CRLF makes every delimiter look alike.
  let buf: Buffer = Buffer.from(CRLF);
  let state: "preamble" | "headers" | "body" | "done" = "preamble";
  let current: { name: string; filename: string | null } | null = null;
  let field: Buffer[] = [];
  let fieldSize = 0;
  let out: ReturnType<typeof createWriteStream> | null = null;
  const write = async (chunk: Buffer) => {
    if (!chunk.length) return;
    if (current?.filename !== null && current?.name === "file") {
      bytes += chunk.length;
      if (bytes > maxBytes) throw new ApiError(413, `the file is larger than the import limit of ${Math.round(maxBytes / 1024 / 1024)} MB (IMPORT_MAX_BYTES)`);
      if (!out!.write(chunk)) await new Promise<void>((resolve) => out!.once("drain", resolve));
    } else {
      fieldSize += chunk.length;
      if (fieldSize > MAX_FIELD) throw new ApiError(413, `the form field ${current?.name ?? ""} is larger than ${MAX_FIELD / 1024} KB`);
      field.push(chunk);
    }
  };
  const closePart = async () => {
    if (!current) return;
    if (current.name === "file" && current.filename !== null) {
      await new Promise<void>((resolve, reject) => out!.end((e?: Error | null) => (e ? reject(e) : resolve())));
      out = null;
    } else fields[current.name] = Buffer.concat(field).toString("utf8");
    current = null;
  };
  try {
    for await (const chunk of body) {
      buf = buf.length ? Buffer.concat([buf, chunk]) : Buffer.from(chunk);
      for (;;) {
        if (state === "preamble" || state === "body") {
          const at = buf.indexOf(delimiter);
          if (at < 0) {
            // Keep a tail that may hold the start of a delimiter.
            const keep = Math.min(buf.length, delimiter.length + 4);
            if (state === "body") await write(buf.subarray(0, buf.length - keep));
            buf = buf.subarray(buf.length - keep);
            break;
          }
          if (state === "body") await write(buf.subarray(0, at));
          await closePart();
          const after = at + delimiter.length;
          if (buf.length < after + 2) {
            buf = buf.subarray(at);
            state = state === "body" ? "body" : "preamble";
            // Wait for the two bytes after the delimiter; rewind so it is found again.
            break;
          }
          if (buf[after] === 0x2d && buf[after + 1] === 0x2d) {
            state = "done";
            buf = Buffer.alloc(0);
            break;
          }
          buf = buf.subarray(after + 2);
          state = "headers";
        }
        if (state === "headers") {
          const end = buf.indexOf("\r\n\r\n");
          if (end < 0) {
            if (buf.length > 16 * 1024) throw new ApiError(400, "a multipart part's headers are too long");
            break;
          }
          current = partHeaders(buf.subarray(0, end).toString("utf8"));
          field = [];
          fieldSize = 0;
          if (current.name === "file" && current.filename !== null) {
            if (sawFile) throw new ApiError(400, "send one file per import");
            sawFile = true;
            filename = current.filename;
            out = createWriteStream(path);
          }
          buf = buf.subarray(end + 4);
          state = "body";
          continue;
        }
        if (state === "done") break;
      }
      if (state === "done") break;
    }
    if (state !== "done") throw new ApiError(400, "the multipart body ends before its closing boundary (cut on the way?)");
    if (!sawFile) throw new ApiError(400, "no file: send it as the form field \"file\"");
    return { path, filename, fields, bytes, dispose };
  } catch (e) {
    if (out) (out as ReturnType<typeof createWriteStream>).destroy();
    await dispose();
    throw e;
  }
}
