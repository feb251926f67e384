import ExcelJS from "exceljs";

export type Cell = string | number | null;

/** Every sheet of a workbook as rows of cell values (exceljs), rows and columns from 0. */
export async function readXlsx(path: string): Promise<Map<string, Cell[][]>> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path);
  const out = new Map<string, Cell[][]>();
  wb.eachSheet((ws) => {
    const rows: Cell[][] = [];
    ws.eachRow({ includeEmpty: true }, (row, n) => {
      const values = row.values as ExcelJS.CellValue[];
      const cells: Cell[] = [];
      for (let i = 1; i < values.length; i++) {
        const v = values[i];
        cells.push(v === null || v === undefined ? null : typeof v === "number" || typeof v === "string" ? v : String((v as { result?: unknown }).result ?? v));
      }
      rows[n - 1] = cells;
    });
    out.set(ws.name, Array.from(rows, (r) => r ?? []));
  });
  return out;
}
