import { Readable } from "node:stream";
import { openRows } from "@/lib/import/read";
import { coalesce, decodeUtf8 } from "@/lib/import/source";
import type { ImportFormat } from "@/lib/import/source";
import type { SourceRow } from "@/lib/import/validate";

/** Text cut into byte chunks of `size`: chunk edges fall anywhere, inside a character or a CRLF too. */
export function chunks(text: string | Buffer, size: number): AsyncIterable<Uint8Array> {
  const bytes = typeof text === "string" ? Buffer.from(text, "utf8") : text;
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) parts.push(bytes.subarray(i, i + size));
  return Readable.from(parts);
}

export async function collect<T>(it: AsyncIterable<T[]>): Promise<T[]> {
  const out: T[] = [];
  for await (const batch of it) out.push(...batch);
  return out;
}

/** The header and rows of a file as the import reads them. */
export async function readAll(text: string | Buffer, format: ImportFormat = "csv", size = 64 * 1024) {
  const rows = await openRows(format, decodeUtf8(coalesce(chunks(text, size), 1, size)));
  if (!rows) return null;
  return { header: rows.header, rows: await collect<SourceRow>(rows.batches) };
}
