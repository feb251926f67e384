import { open, type FileHandle } from "node:fs/promises";
import { createReadStream } from "node:fs";
import { createInflateRaw } from "node:zlib";

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

export class XlsxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "XlsxError";
  }
}

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  localOffset: number;
}

async function readAt(fh: FileHandle, position: number, length: number): Promise<Buffer> {
  const buf = Buffer.alloc(length);
  const { bytesRead } = await fh.read(buf, 0, length, position);
  return buf.subarray(0, bytesRead);
}

async function centralDirectory(fh: FileHandle, size: number): Promise<Map<string, ZipEntry>> {
  const tailLength = Math.min(size, 65_557);
  const tail = await readAt(fh, size - tailLength, tailLength);
  let eocd = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new XlsxError("the file is not an .xlsx workbook (no zip directory found)");
  const count = tail.readUInt16LE(eocd + 10);
  const dirSize = tail.readUInt32LE(eocd + 12);
  const dirOffset = tail.readUInt32LE(eocd + 16);
  if (dirOffset === 0xffffffff || count === 0xffff) throw new XlsxError("zip64 workbooks (over 4 GB) are not supported");
  const dir = await readAt(fh, dirOffset, dirSize);
  const entries = new Map<string, ZipEntry>();
  let p = 0;
  for (let i = 0; i < count; i++) {
    if (p + 46 > dir.length || dir.readUInt32LE(p) !== 0x02014b50) throw new XlsxError("the workbook's zip directory is damaged");
    const method = dir.readUInt16LE(p + 10);
    const compressedSize = dir.readUInt32LE(p + 20);
    const nameLength = dir.readUInt16LE(p + 28);
    const extraLength = dir.readUInt16LE(p + 30);
    const commentLength = dir.readUInt16LE(p + 32);
    const localOffset = dir.readUInt32LE(p + 42);
    const name = dir.toString("utf8", p + 46, p + 46 + nameLength);
    entries.set(name, { name, method, compressedSize, localOffset });
    p += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

async function* entryText(path: string, fh: FileHandle, entry: ZipEntry): AsyncGenerator<string> {
  const local = await readAt(fh, entry.localOffset, 30);
  if (local.length < 30 || local.readUInt32LE(0) !== 0x04034b50) throw new XlsxError(`the workbook part ${entry.name} is damaged`);
  const start = entry.localOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
  if (entry.compressedSize === 0) return;
  const raw = createReadStream(path, { start, end: start + entry.compressedSize - 1, highWaterMark: 256 * 1024 });
  if (entry.method !== 0 && entry.method !== 8) throw new XlsxError(`the workbook part ${entry.name} uses an unsupported compression (${entry.method})`);
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

const ENTITY: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

export function unescapeXml(s: string): string {
  if (!s.includes("&") && !s.includes("_x")) return s;
  return s
    .replace(/&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g, (_, e: string) =>
      e[0] === "#" ? String.fromCodePoint(e[1] === "x" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10)) : ENTITY[e],
    )
    .replace(/_x([0-9A-Fa-f]{4})_/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

function attr(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return m ? unescapeXml(m[1]) : undefined;
}

/** The text of an <si> or <is>: every <t> inside, joined (rich text runs). */
function runsText(xml: string): string {
  let out = "";
  for (const m of xml.matchAll(/<t(?:\s[^>]*)?>([\s\S]*?)<\/t>/g)) out += unescapeXml(m[1]);
  return out;
}

function sharedStrings(xml: string): string[] {
  const out: string[] = [];
  for (const m of xml.matchAll(/<si>([\s\S]*?)<\/si>|<si\/>/g)) out.push(m[1] ? runsText(m[1]) : "");
  return out;
}

/** "AB12" -> 27 (0-based column). */
export function columnIndex(ref: string): number {
  let n = 0;
  for (const ch of ref) {
    const c = ch.charCodeAt(0);
    if (c < 65 || c > 90) break;
    n = n * 26 + (c - 64);
  }
  return n - 1;
}

export function columnLetter(index: number): string {
  let s = "";
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

export interface XlsxRow {
  /** The spreadsheet's own row number (1-based). */
  row: number;
  cells: string[];
}

function parseRow(xml: string, strings: readonly string[], fallbackRow: number): XlsxRow {
  const open = /^<row\b[^>]*>/.exec(xml)?.[0] ?? xml;
  const row = Number(attr(open, "r") ?? fallbackRow);
  const cells: string[] = [];
  let next = 0;
  for (const m of xml.matchAll(/<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
    const attrs = m[1];
    const ref = attr(attrs, "r");
    const col = ref ? columnIndex(ref) : next;
    next = col + 1;
    const body = m[2] ?? "";
    const type = attr(attrs, "t") ?? "n";
    let value = "";
    if (type === "inlineStr") value = runsText(body);
    else {
      const v = /<v>([\s\S]*?)<\/v>/.exec(body)?.[1];
      if (v !== undefined) {
        if (type === "s") value = strings[Number(v)] ?? "";
        else if (type === "b") value = v === "1" ? "TRUE" : "FALSE";
        else value = unescapeXml(v);
      }
    }
    while (cells.length < col) cells.push("");
    cells[col] = value;
  }
  return { row, cells };
}

async function* sheetRows(chunks: AsyncIterable<string>, strings: readonly string[]): AsyncGenerator<XlsxRow[]> {
  let buf = "";
  let count = 0;
  for await (const chunk of chunks) {
    buf += chunk;
    const batch: XlsxRow[] = [];
    let at = 0;
    for (;;) {
      const start = buf.indexOf("<row", at);
      if (start < 0) {
        at = buf.length;
        break;
      }
      const tagEnd = buf.indexOf(">", start);
      if (tagEnd < 0) {
        at = start;
        break;
      }
      let end: number;
      if (buf[tagEnd - 1] === "/") end = tagEnd + 1;
      else {
        const close = buf.indexOf("</row>", tagEnd);
        if (close < 0) {
          at = start;
          break;
        }
        end = close + 6;
      }
      batch.push(parseRow(buf.slice(start, end), strings, ++count));
      at = end;
    }
    // Keep only the unfinished row (or the last few characters, which may start one).
    buf = at >= buf.length ? buf.slice(-4) : buf.slice(at);
    if (batch.length) yield batch;
  }
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
    const entries = await centralDirectory(fh, size);
    const workbook = await wholeText(path, fh, entries.get("xl/workbook.xml"));
    if (!workbook) throw new XlsxError("the file is not an .xlsx workbook (no xl/workbook.xml)");
    const rels = await wholeText(path, fh, entries.get("xl/_rels/workbook.xml.rels"));
    const targets = new Map<string, string>();
    for (const m of rels.matchAll(/<Relationship\b[^>]*>/g)) {
      const id = attr(m[0], "Id");
      const target = attr(m[0], "Target");
      if (id && target) targets.set(id, target.startsWith("/") ? target.slice(1) : `xl/${target}`);
    }
    const strings = sharedStrings(await wholeText(path, fh, entries.get("xl/sharedStrings.xml")));
    for (const m of workbook.matchAll(/<sheet\b[^>]*>/g)) {
      const name = attr(m[0], "name") ?? "";
      const rid = attr(m[0], "r:id");
      const target = rid ? targets.get(rid) : undefined;
      const entry = target ? entries.get(target) : undefined;
      if (!entry) continue; // a chart sheet or a part the package lacks
      yield { name, rows: sheetRows(entryText(path, fh, entry), strings) };
    }
  } finally {
    await fh.close();
  }
}
