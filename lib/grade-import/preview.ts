import Papa from "papaparse";
import { dataStart, directoryEntries, endOfDirectory, sharedStrings, sheetParts, sheetRows, type ZipEntry } from "./xlsx-xml";

/**
 * The first rows of each table of a grades file, read in the browser for the
 * mapping step: a CSV's first 256 KB; a workbook's zip directory, then each
 * sheet inflated (DecompressionStream) only until enough rows have come.
 */

export interface PreviewTable {
  sheet: string | null;
  header: string[];
  rows: string[][];
}

export interface FilePreview {
  kind: "csv" | "xlsx";
  tables: PreviewTable[];
}

async function bytes(file: Blob, start: number, end: number): Promise<Uint8Array> {
  return new Uint8Array(await file.slice(start, end).arrayBuffer());
}

async function* entryText(file: Blob, entry: ZipEntry): AsyncGenerator<string> {
  const start = dataStart(entry, await bytes(file, entry.localOffset, entry.localOffset + 30));
  let stream: ReadableStream<Uint8Array> = file.slice(start, start + entry.compressedSize).stream();
  if (entry.method === 8) stream = stream.pipeThrough(new DecompressionStream("deflate-raw") as unknown as ReadableWritablePair<Uint8Array, Uint8Array>);
  const reader = stream.pipeThrough(new TextDecoderStream() as unknown as ReadableWritablePair<string, Uint8Array>).getReader();
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) return;
      yield next.value;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

async function whole(file: Blob, entry: ZipEntry | undefined): Promise<string> {
  if (!entry) return "";
  let s = "";
  for await (const t of entryText(file, entry)) s += t;
  return s;
}

async function previewXlsx(file: Blob, maxRows: number): Promise<PreviewTable[]> {
  const tailStart = Math.max(0, file.size - 65_557);
  const eocd = endOfDirectory(await bytes(file, tailStart, file.size));
  const entries = directoryEntries(await bytes(file, eocd.dirOffset, eocd.dirOffset + eocd.dirSize), eocd.count);
  const parts = sheetParts(await whole(file, entries.get("xl/workbook.xml")), await whole(file, entries.get("xl/_rels/workbook.xml.rels")));
  const strings = sharedStrings(await whole(file, entries.get("xl/sharedStrings.xml")));
  const tables: PreviewTable[] = [];
  for (const { name, part } of parts) {
    const entry = entries.get(part);
    if (!entry) continue;
    const rows: string[][] = [];
    const it = sheetRows(entryText(file, entry), strings);
    for await (const batch of it) {
      for (const r of batch) if (r.cells.some((c) => c.trim() !== "")) rows.push(r.cells);
      if (rows.length > maxRows) break;
    }
    await it.return(undefined);
    if (rows.length) tables.push({ sheet: name, header: rows[0].map((c) => c.trim()), rows: rows.slice(1, maxRows + 1) });
  }
  return tables;
}

export async function previewFile(file: Blob, maxRows = 8): Promise<FilePreview> {
  const head = await bytes(file, 0, 4);
  if (head.length === 4 && head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04) return { kind: "xlsx", tables: await previewXlsx(file, maxRows) };
  const text = (await file.slice(0, 256 * 1024).text()).replace(/^\uFEFF/, "");
  const parsed = Papa.parse<string[]>(text, { preview: maxRows + 1, skipEmptyLines: true });
  const [header = [], ...rows] = parsed.data;
  return { kind: "csv", tables: header.length ? [{ sheet: null, header: header.map((c) => c.trim()), rows }] : [] };
}
