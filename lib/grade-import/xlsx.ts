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

/** The workbook's sheets in order, each read as a stream of row batches when iterated. */
export async function* xlsxSheets(path: string): AsyncGenerator<XlsxSheet> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(path, { sharedStrings: "cache", hyperlinks: "ignore", styles: "ignore", worksheets: "emit", entries: "emit" });
  try {
    for await (const sheet of reader) {
      const ws = sheet as unknown as AsyncIterable<ExcelJS.Row> & { name?: string; id?: number };
      yield { name: ws.name ?? `Sheet${ws.id ?? ""}`, rows: sheetRows(ws) };
    }
  } catch (e) {
    throw unreadable(e);
  }
}
