import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { csvRecords } from "@/lib/import/csv";
import { decodeUtf8 } from "@/lib/import/source";
import { Budget } from "@/lib/uploads/limits";
import { xlsxSheets } from "./xlsx";

/**
 * A grades file as tables of text cells: one for a CSV file, one per sheet of
 * a workbook. The first non-empty row of each is its header. Rows stream in
 * batches; nothing holds the whole file.
 */

export interface TableRow {
  /** The spreadsheet's row number, or the CSV line where the row starts. */
  row: number;
  cells: string[];
}

export interface GradeTable {
  sheet: string | null;
  header: string[];
  headerRow: number;
  rows: AsyncGenerator<TableRow[]>;
}

export type GradeFileKind = "csv" | "xlsx";

/** An .xlsx is a zip: it starts with "PK\x03\x04". */
export async function sniffKind(path: string): Promise<GradeFileKind> {
  const fh = await open(path, "r");
  try {
    const b = Buffer.alloc(4);
    await fh.read(b, 0, 4, 0);
    return b.readUInt32LE(0) === 0x04034b50 ? "xlsx" : "csv";
  } finally {
    await fh.close();
  }
}

async function headed(sheet: string | null, batches: AsyncGenerator<TableRow[]>): Promise<GradeTable | null> {
  for (;;) {
    const next = await batches.next();
    if (next.done) return null;
    const rows = next.value;
    const i = rows.findIndex((r) => r.cells.some((c) => c.trim() !== ""));
    if (i < 0) continue;
    const header = rows[i].cells.map((c) => c.replace(/^\uFEFF/, "").trim());
    const rest = rows.slice(i + 1);
    async function* all(): AsyncGenerator<TableRow[]> {
      if (rest.length) yield rest;
      yield* batches;
    }
    return { sheet, header, headerRow: rows[i].row, rows: all() };
  }
}

async function* csvTableRows(text: AsyncIterable<string>): AsyncGenerator<TableRow[]> {
  // The same row limit as a workbook's: a file of tiny rows is many rows for its size.
  const rows = new Budget("UPLOAD_MAX_ROWS");
  for await (const records of csvRecords(text)) {
    rows.add(records.length);
    yield records.map((r) => ({ row: r.line, cells: r.fields }));
  }
}

/** The one table of a CSV text stream. */
export async function* csvTables(text: AsyncIterable<string>): AsyncGenerator<GradeTable> {
  const t = await headed(null, csvTableRows(text));
  if (t) yield t;
}

export async function* fileTables(path: string, kind: GradeFileKind): AsyncGenerator<GradeTable> {
  if (kind === "csv") {
    yield* csvTables(decodeUtf8(createReadStream(path, { highWaterMark: 64 * 1024 }) as AsyncIterable<Uint8Array>));
    return;
  }
  for await (const s of xlsxSheets(path)) {
    const t = await headed(s.name, s.rows);
    if (t) yield t;
  }
}
