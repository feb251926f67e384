/**
 * The browser's preview of a workbook's first rows (components/grade-import),
 * which exceljs cannot give without loading the whole file into the page: the
 * zip directory's records, the shared strings and the cells of <row> elements
 * cut from a sheet's XML as it streams. The server reads workbooks with the
 * same pieces, under the upload limits (xlsx.ts).
 */

export class XlsxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "XlsxError";
  }
}

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  localOffset: number;
}

/** Where the zip's directory is, from the last 64 KB of the file. */
export function endOfDirectory(tail: Uint8Array): { count: number; dirSize: number; dirOffset: number } {
  const v = new DataView(tail.buffer, tail.byteOffset, tail.byteLength);
  for (let i = tail.length - 22; i >= 0; i--) {
    if (v.getUint32(i, true) === 0x06054b50) {
      const count = v.getUint16(i + 10, true);
      const dirOffset = v.getUint32(i + 16, true);
      if (dirOffset === 0xffffffff || count === 0xffff) throw new XlsxError("zip64 workbooks (over 4 GB) are not supported");
      return { count, dirSize: v.getUint32(i + 12, true), dirOffset };
    }
  }
  throw new XlsxError("the file is not an .xlsx workbook (no zip directory found)");
}

export function directoryEntries(dir: Uint8Array, count: number): Map<string, ZipEntry> {
  const v = new DataView(dir.buffer, dir.byteOffset, dir.byteLength);
  const decoder = new TextDecoder();
  const entries = new Map<string, ZipEntry>();
  let p = 0;
  for (let i = 0; i < count; i++) {
    if (p + 46 > dir.length || v.getUint32(p, true) !== 0x02014b50) throw new XlsxError("the workbook's zip directory is damaged");
    const nameLength = v.getUint16(p + 28, true);
    const name = decoder.decode(dir.subarray(p + 46, p + 46 + nameLength));
    entries.set(name, { name, method: v.getUint16(p + 10, true), compressedSize: v.getUint32(p + 20, true), localOffset: v.getUint32(p + 42, true) });
    p += 46 + nameLength + v.getUint16(p + 30, true) + v.getUint16(p + 32, true);
  }
  return entries;
}

/** Where an entry's data starts, from its 30-byte local header. */
export function dataStart(entry: ZipEntry, local: Uint8Array): number {
  const v = new DataView(local.buffer, local.byteOffset, local.byteLength);
  if (local.length < 30 || v.getUint32(0, true) !== 0x04034b50) throw new XlsxError(`the workbook part ${entry.name} is damaged`);
  if (entry.method !== 0 && entry.method !== 8) throw new XlsxError(`the workbook part ${entry.name} uses an unsupported compression (${entry.method})`);
  return entry.localOffset + 30 + v.getUint16(26, true) + v.getUint16(28, true);
}

/** Sheet names in order with their part's path in the package. */
export function sheetParts(workbook: string, rels: string): { name: string; part: string }[] {
  const targets = new Map<string, string>();
  for (const m of rels.matchAll(/<Relationship\b[^>]*>/g)) {
    const id = attr(m[0], "Id");
    const target = attr(m[0], "Target");
    if (id && target) targets.set(id, target.startsWith("/") ? target.slice(1) : `xl/${target}`);
  }
  const out: { name: string; part: string }[] = [];
  for (const m of workbook.matchAll(/<sheet\b[^>]*>/g)) {
    const rid = attr(m[0], "r:id");
    const part = rid ? targets.get(rid) : undefined;
    if (part) out.push({ name: attr(m[0], "name") ?? "", part });
  }
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

const attrPatterns = new Map<string, RegExp>();

function attr(tag: string, name: string): string | undefined {
  // One compiled pattern per attribute name: a sheet asks for r and t on every cell.
  let re = attrPatterns.get(name);
  if (!re) attrPatterns.set(name, (re = new RegExp(`\\s${name}="([^"]*)"`)));
  const m = re.exec(tag);
  return m ? unescapeXml(m[1]) : undefined;
}

/** The text of an <si> or <is>: every <t> inside, joined (rich text runs). */
function runsText(xml: string): string {
  let out = "";
  for (const m of xml.matchAll(/<t(?:\s[^>]*)?>([\s\S]*?)<\/t>/g)) out += unescapeXml(m[1]);
  return out;
}

export function sharedStrings(xml: string): string[] {
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

// Excel's last column, XFD: a reference past it would pad a row with millions of empty cells.
const MAX_COLUMN = 16_383;

export function parseRow(xml: string, strings: readonly string[], fallbackRow: number): XlsxRow {
  const open = /^<row\b[^>]*>/.exec(xml)?.[0] ?? xml;
  const row = Number(attr(open, "r") ?? fallbackRow);
  const cells: string[] = [];
  let next = 0;
  for (const m of xml.matchAll(/<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
    const attrs = m[1];
    const ref = attr(attrs, "r");
    const col = ref ? columnIndex(ref) : next;
    if (col > MAX_COLUMN) throw new XlsxError(`the cell ${ref ?? columnLetter(col)} is beyond Excel's last column (XFD)`);
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
        else if (type === "n" && v !== "" && Number.isFinite(Number(v))) value = String(Number(v));
        else value = unescapeXml(v);
      }
    }
    while (cells.length < col) cells.push("");
    cells[col] = value;
  }
  return { row, cells };
}

export async function* sheetRows(chunks: AsyncIterable<string>, strings: readonly string[]): AsyncGenerator<XlsxRow[]> {
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

