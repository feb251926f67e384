import { createReadStream } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import { pipeline, type Readable } from "node:stream";
import { setImmediate as yieldToLoop } from "node:timers/promises";
import { createInflateRaw } from "node:zlib";
import { detach } from "@/lib/import/detach";
import { Budget, UploadLimitError, uploadLimit } from "@/lib/uploads/limits";
import { XlsxError, dataStart, directoryEntries, endOfDirectory, parseRow, sheetParts, unescapeXml, type XlsxRow, type ZipEntry } from "./xlsx-xml";

export { XlsxError, columnIndex, columnLetter, type XlsxRow } from "./xlsx-xml";

/**
 * An .xlsx workbook saved on disk, read by random access through the zip's
 * central directory: the list of sheets and the shared strings first, then
 * each sheet's rows as they inflate, whatever order the parts are stored in.
 * What the parts inflate to, and the rows, cells and strings they hold, are
 * counted against the upload limits (lib/uploads/limits.ts) as they stream,
 * so a small zip that inflates to gigabytes is refused at the limit with
 * memory at a few chunks.
 */

export interface XlsxSheet {
  name: string;
  rows: AsyncGenerator<XlsxRow[]>;
}

const unreadable = (e: unknown) =>
  e instanceof XlsxError || e instanceof UploadLimitError
    ? e
    : new XlsxError(`the file cannot be read as an .xlsx workbook (${e instanceof Error ? e.message.slice(0, 120) : "unreadable"})`);

async function readAt(fh: FileHandle, position: number, length: number): Promise<Buffer> {
  const b = Buffer.alloc(length);
  const { bytesRead } = await fh.read(b, 0, length, position);
  return b.subarray(0, bytesRead);
}

async function zipDirectory(fh: FileHandle): Promise<Map<string, ZipEntry>> {
  const size = (await fh.stat()).size;
  const tailLength = Math.min(size, 65_535 + 22);
  const end = endOfDirectory(await readAt(fh, size - tailLength, tailLength));
  if (end.dirOffset + end.dirSize > size) throw new XlsxError("the workbook's zip directory is damaged");
  return directoryEntries(await readAt(fh, end.dirOffset, end.dirSize), end.count);
}

interface Reading {
  path: string;
  fh: FileHandle;
  entries: Map<string, ZipEntry>;
  inflated: Budget;
}

/** One part's text as it inflates, counted against the per-part and total limits (and `own`, when given). */
async function* partText(r: Reading, entry: ZipEntry, own?: Budget): AsyncGenerator<string> {
  const start = dataStart(entry, await readAt(r.fh, entry.localOffset, 30));
  if (entry.compressedSize === 0) return;
  const part = new Budget("UPLOAD_MAX_PART_BYTES", entry.name);
  const raw = createReadStream(r.path, { start, end: start + entry.compressedSize - 1, highWaterMark: 64 * 1024 });
  const source: Readable = entry.method === 8 ? pipeline(raw, createInflateRaw({ chunkSize: 64 * 1024 }), () => undefined) : raw;
  const decoder = new TextDecoder("utf-8");
  let lastTurn = performance.now();
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      part.add(chunk.length);
      r.inflated.add(chunk.length);
      own?.add(chunk.length);
      yield decoder.decode(chunk, { stream: true });
      // Buffered chunks come without a turn of the event loop: other requests get one every 20 ms.
      if (performance.now() - lastTurn > 20) {
        await yieldToLoop();
        lastTurn = performance.now();
      }
    }
  } catch (e) {
    throw unreadable(e);
  } finally {
    source.destroy();
    raw.destroy();
  }
  const rest = decoder.decode();
  if (rest) yield rest;
}

/** A small part (the list of sheets, its relationships) whole, up to 8 MB. */
async function smallPart(r: Reading, name: string): Promise<string | null> {
  const entry = r.entries.get(name);
  if (!entry) return null;
  let text = "";
  for await (const t of partText(r, entry)) {
    text += t;
    if (text.length > 8 * 1024 * 1024) throw new XlsxError(`the workbook part ${name} is larger than 8 MB`);
  }
  return text;
}

/** The text of an <si>: every <t> inside, joined (rich text runs). */
function siText(xml: string): string {
  let out = "";
  for (const m of xml.matchAll(/<t(?:\s[^>]*)?>([\s\S]*?)<\/t>/g)) out += unescapeXml(m[1]);
  return out;
}

/**
 * The complete <tag>...</tag> (or <tag/>) elements of a part as it streams.
 * An unfinished element past 64 KB is kept as pieces, each new chunk only
 * searched for the closing tag, and joined once it comes: a long cell costs
 * its length, not its length times its chunks.
 */
async function* elements(chunks: AsyncIterable<string>, tag: string, maxPending: number, tooLong: () => UploadLimitError): AsyncGenerator<string[]> {
  const open = `<${tag}`;
  const close = `</${tag}>`;
  let buf = "";
  let pieces: string[] | null = null;
  let pending = 0;
  let tail = "";
  for await (const chunk of chunks) {
    if (pieces) {
      pending += chunk.length;
      if (pending > maxPending) throw tooLong();
      pieces.push(chunk);
      const probe = tail + chunk;
      if (!probe.includes(close)) {
        tail = probe.slice(-(close.length - 1));
        continue;
      }
      buf = pieces.join("");
      pieces = null;
    } else buf += chunk;
    const out: string[] = [];
    let at = 0;
    for (;;) {
      const start = buf.indexOf(open, at);
      if (start < 0) {
        at = Math.max(at, buf.length - open.length);
        break;
      }
      const tagEnd = buf.indexOf(">", start);
      if (tagEnd < 0) {
        at = start;
        break;
      }
      // <rowBreaks> is not a <row>.
      if (!/[\s/>]/.test(buf[start + open.length])) {
        at = start + 1;
        continue;
      }
      if (buf[tagEnd - 1] === "/") {
        out.push(buf.slice(start, tagEnd + 1));
        at = tagEnd + 1;
        continue;
      }
      const end = buf.indexOf(close, tagEnd);
      if (end < 0) {
        at = start;
        break;
      }
      out.push(buf.slice(start, end + close.length));
      at = end + close.length;
    }
    buf = buf.slice(at);
    if (buf.length > maxPending) throw tooLong();
    if (buf.length > 64 * 1024) {
      pieces = [buf];
      pending = buf.length;
      tail = buf.slice(-(close.length - 1));
    }
    if (out.length) yield out;
  }
}

/** The shared strings as they stream, each copied out of the chunk it came in (a slice would keep the chunk). */
async function sharedStrings(r: Reading, name: string): Promise<string[]> {
  const entry = r.entries.get(name);
  if (!entry) return [];
  const count = new Budget("UPLOAD_MAX_SHARED_STRINGS");
  const maxChars = uploadLimit("UPLOAD_MAX_CELL_CHARS");
  const out: string[] = [];
  const text = partText(r, entry, new Budget("UPLOAD_MAX_SHARED_STRINGS_BYTES"));
  for await (const batch of elements(text, "si", uploadLimit("UPLOAD_MAX_ROW_BYTES"), () => new UploadLimitError("UPLOAD_MAX_ROW_BYTES", `shared string ${out.length + 1}`))) {
    for (const xml of batch) {
      const t = xml.endsWith("/>") ? "" : siText(xml.slice(xml.indexOf(">") + 1, -5));
      if (t.length > maxChars) throw new UploadLimitError("UPLOAD_MAX_CELL_CHARS", `shared string ${out.length + 1}`);
      count.add(1);
      out.push(detach(t));
    }
  }
  return out;
}

interface RowBudgets {
  rows: Budget;
  cells: Budget;
  maxChars: number;
  maxPending: number;
}

async function* sheetRows(r: Reading, sheet: string, entry: ZipEntry, strings: readonly string[], b: RowBudgets): AsyncGenerator<XlsxRow[]> {
  let count = 0;
  for await (const batch of elements(partText(r, entry), "row", b.maxPending, () => new UploadLimitError("UPLOAD_MAX_ROW_BYTES", `sheet ${sheet}, after row ${count}`))) {
    const rows: XlsxRow[] = [];
    for (const xml of batch) {
      const row = parseRow(xml, strings, ++count);
      b.rows.add(1);
      b.cells.add(row.cells.length);
      for (let i = 0; i < row.cells.length; i++) {
        if (row.cells[i].length > b.maxChars) throw new UploadLimitError("UPLOAD_MAX_CELL_CHARS", `sheet ${sheet}, row ${row.row}`);
      }
      rows.push(row);
    }
    yield rows;
  }
}

function sharedStringsPart(rels: string): string {
  for (const m of rels.matchAll(/<Relationship\b[^>]*>/g)) {
    if (/Type="[^"]*\/sharedStrings"/.test(m[0])) {
      const target = /\sTarget="([^"]*)"/.exec(m[0])?.[1];
      if (target) return target.startsWith("/") ? target.slice(1) : `xl/${target}`;
    }
  }
  return "xl/sharedStrings.xml";
}

/** The workbook's sheets in order, each read as a stream of row batches when iterated. */
export async function* xlsxSheets(path: string): AsyncGenerator<XlsxSheet> {
  const fh = await open(path, "r");
  try {
    let r: Reading;
    let sheets: { name: string; part: string }[];
    let strings: string[];
    try {
      r = { path, fh, entries: await zipDirectory(fh), inflated: new Budget("UPLOAD_MAX_INFLATED_BYTES") };
      const workbook = await smallPart(r, "xl/workbook.xml");
      if (workbook === null) throw new XlsxError("the file is not an .xlsx workbook (no xl/workbook.xml)");
      const rels = (await smallPart(r, "xl/_rels/workbook.xml.rels")) ?? "";
      sheets = sheetParts(workbook, rels);
      strings = await sharedStrings(r, sharedStringsPart(rels));
    } catch (e) {
      throw unreadable(e);
    }
    const budgets: RowBudgets = {
      rows: new Budget("UPLOAD_MAX_ROWS"),
      cells: new Budget("UPLOAD_MAX_CELLS"),
      maxChars: uploadLimit("UPLOAD_MAX_CELL_CHARS"),
      maxPending: uploadLimit("UPLOAD_MAX_ROW_BYTES"),
    };
    for (const s of sheets) {
      const entry = r.entries.get(s.part);
      if (!entry) throw new XlsxError(`the workbook lists the sheet ${s.name} but the file lacks its part ${s.part}`);
      yield { name: s.name, rows: sheetRows(r, s.name, entry, strings, budgets) };
    }
  } finally {
    await fh.close();
  }
}
