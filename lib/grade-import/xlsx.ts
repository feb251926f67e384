import { stat } from "node:fs/promises";
import ExcelJS from "exceljs";
import { XlsxError, type XlsxRow } from "./xlsx-xml";

export { XlsxError, columnIndex, columnLetter, type XlsxRow } from "./xlsx-xml";

/**
 * A streaming reader of an .xlsx workbook saved on disk (exceljs's
 * WorkbookReader): sheets one after the other, each as batches of rows, so a
 * large workbook is never held whole. Cell values come back as the text Excel
 * shows without formatting.
 */

const BATCH = 500;

type CellValue = ExcelJS.CellValue;

function text(v: CellValue): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "string") return v;
  if (typeof v === "number") return String(v);
  if (typeof v === "boolean") return v ? "TRUE" : "FALSE";
  if (v instanceof Date) return v.toISOString();
  if (typeof v === "object") {
    if ("richText" in v) return v.richText.map((r) => r.text).join("");
    if ("formula" in v || "sharedFormula" in v) return text((v as { result?: CellValue }).result ?? null);
    if ("text" in v) return String(v.text);
    if ("error" in v) return String(v.error);
  }
  return "";
}

export interface XlsxSheet {
  name: string;
  rows: AsyncGenerator<XlsxRow[]>;
}

const unreadable = (e: unknown) =>
  e instanceof XlsxError ? e : new XlsxError(`the file cannot be read as an .xlsx workbook (${e instanceof Error ? e.message.slice(0, 120) : "unreadable"})`);

async function* sheetRows(sheet: AsyncIterable<ExcelJS.Row>): AsyncGenerator<XlsxRow[]> {
  let batch: XlsxRow[] = [];
  const rows = sheet[Symbol.asyncIterator]();
  for (;;) {
    let next: IteratorResult<ExcelJS.Row>;
    try {
      next = await rows.next();
    } catch (e) {
      throw unreadable(e);
    }
    if (next.done) break;
    const row = next.value;
    const values = row.values as CellValue[];
    // exceljs numbers cells from 1: index 0 is always empty.
    const cells: string[] = [];
    for (let i = 1; i < values.length; i++) cells.push(text(values[i]));
    batch.push({ row: row.number, cells });
    if (batch.length >= BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

/** Rows of a worksheet held in memory, in the same batches as the stream gives. */
async function* heldRows(ws: ExcelJS.Worksheet): AsyncGenerator<XlsxRow[]> {
  let batch: XlsxRow[] = [];
  const all: XlsxRow[][] = [];
  ws.eachRow({ includeEmpty: false }, (row) => {
    const values = row.values as CellValue[];
    const cells: string[] = [];
    for (let i = 1; i < values.length; i++) cells.push(text(values[i]));
    batch.push({ row: row.number, cells });
    if (batch.length >= BATCH) {
      all.push(batch);
      batch = [];
    }
  });
  if (batch.length) all.push(batch);
  yield* all;
}

// A workbook whose sheets come before its list of sheet names (some writers, exceljs among them)
// cannot be streamed by name: read whole, up to this size.
const MAX_HELD_BYTES = 64 * 1024 * 1024;

async function* heldWorkbook(path: string): AsyncGenerator<XlsxSheet> {
  if ((await stat(path)).size > MAX_HELD_BYTES)
    throw new XlsxError("this workbook lists its sheets after their rows, so it cannot be read as a stream: save it again from Excel (or as CSV) and import that");
  const wb = new ExcelJS.Workbook();
  try {
    await wb.xlsx.readFile(path);
  } catch (e) {
    throw unreadable(e);
  }
  for (const ws of wb.worksheets) yield { name: ws.name, rows: heldRows(ws) };
}

/**
 * The workbook's sheets in order, each read as a stream of row batches when
 * iterated; a workbook that names its sheets only after their rows is read
 * whole instead (heldWorkbook).
 */
export async function* xlsxSheets(path: string): AsyncGenerator<XlsxSheet> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(path, { sharedStrings: "cache", hyperlinks: "ignore", styles: "ignore", worksheets: "emit", entries: "emit" });
  let streamed = false;
  let held = false;
  try {
    for await (const sheet of reader) {
      const ws = sheet as unknown as AsyncIterable<ExcelJS.Row> & { name?: string };
      if (!ws.name) {
        if (streamed) throw new XlsxError("this workbook names only some of its sheets before their rows: save it again from Excel (or as CSV) and import that");
        held = true;
        break;
      }
      streamed = true;
      yield { name: ws.name, rows: sheetRows(ws) };
    }
  } catch (e) {
    if (streamed || e instanceof XlsxError) throw unreadable(e);
    held = true;
  }
  if (held) yield* heldWorkbook(path);
}
