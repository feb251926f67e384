import { createReadStream } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import { createInflateRaw } from "node:zlib";
import { dataStart, directoryEntries, endOfDirectory, sharedStrings, sheetParts, sheetRows, XlsxError, type XlsxRow, type ZipEntry } from "./xlsx-xml";

export { XlsxError, columnIndex, columnLetter, type XlsxRow } from "./xlsx-xml";

/**
 * A streaming reader of the cells of an .xlsx workbook saved on disk.
 *
 * exceljs is not installed here, so this reads the Office Open XML package
 * itself: the zip's central directory gives each part's place, so the shared
 * strings are read first whatever their order in the file, then each sheet is
 * inflated as a stream and cut into <row> elements as they arrive. Only one
 * row's XML, the shared strings and one inflated chunk are held at a time.
 * Cell values come back as text, as Excel shows them without formatting.
 */

async function readAt(fh: FileHandle, position: number, length: number): Promise<Buffer> {
  const buf = Buffer.alloc(length);
  const { bytesRead } = await fh.read(buf, 0, length, position);
  return buf.subarray(0, bytesRead);
}

async function* entryText(path: string, fh: FileHandle, entry: ZipEntry): AsyncGenerator<string> {
  const start = dataStart(entry, await readAt(fh, entry.localOffset, 30));
  if (entry.compressedSize === 0) return;
  const raw = createReadStream(path, { start, end: start + entry.compressedSize - 1, highWaterMark: 256 * 1024 });
  const stream = entry.method === 8 ? raw.pipe(createInflateRaw()) : raw;
  raw.on("error", (e) => stream.destroy(e));
  const decoder = new TextDecoder("utf-8");
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) yield decoder.decode(chunk, { stream: true });
  } catch {
    throw new XlsxError(`the workbook part ${entry.name} cannot be decompressed`);
  }
  const rest = decoder.decode();
  if (rest) yield rest;
}

async function wholeText(path: string, fh: FileHandle, entry: ZipEntry | undefined): Promise<string> {
  if (!entry) return "";
  let out = "";
  for await (const t of entryText(path, fh, entry)) out += t;
  return out;
}

export interface XlsxSheet {
  name: string;
  rows: AsyncGenerator<XlsxRow[]>;
}

/** The workbook's sheets in order, each read as a stream of row batches when iterated. */
export async function* xlsxSheets(path: string): AsyncGenerator<XlsxSheet> {
  const fh = await open(path, "r");
  try {
    const { size } = await fh.stat();
    const tailLength = Math.min(size, 65_557);
    const eocd = endOfDirectory(await readAt(fh, size - tailLength, tailLength));
    const entries = directoryEntries(await readAt(fh, eocd.dirOffset, eocd.dirSize), eocd.count);
    const workbook = await wholeText(path, fh, entries.get("xl/workbook.xml"));
    if (!workbook) throw new XlsxError("the file is not an .xlsx workbook (no xl/workbook.xml)");
    const parts = sheetParts(workbook, await wholeText(path, fh, entries.get("xl/_rels/workbook.xml.rels")));
    const strings = sharedStrings(await wholeText(path, fh, entries.get("xl/sharedStrings.xml")));
    for (const { name, part } of parts) {
      const entry = entries.get(part);
      if (!entry) continue; // a part the package lacks
      yield { name, rows: sheetRows(entryText(path, fh, entry), strings) };
    }
  } finally {
    await fh.close();
  }
}
