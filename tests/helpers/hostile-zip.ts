import { crc32, deflateRawSync } from "node:zlib";

/**
 * A zip written part by part in the order given (deflated), so a test can
 * store a workbook's parts in any order and make a small file that inflates
 * to far more than it weighs.
 */
export function zip(parts: { name: string; data: Buffer }[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const p of parts) {
    const name = Buffer.from(p.name, "utf8");
    const packed = deflateRawSync(p.data, { level: 9 });
    const crc = crc32(p.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(p.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(20, 4);
    dir.writeUInt16LE(20, 6);
    dir.writeUInt16LE(8, 10);
    dir.writeUInt32LE(crc, 16);
    dir.writeUInt32LE(packed.length, 20);
    dir.writeUInt32LE(p.data.length, 24);
    dir.writeUInt16LE(name.length, 28);
    dir.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    central.push(dir, name);
    offset += 30 + name.length + packed.length;
  }
  const dirSize = central.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(dirSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...central, end]);
}

const WORKBOOK = `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`;
const RELS = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>`;
const TYPES = `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>`;

/** A one-sheet workbook whose sheet (and shared strings) come before the list of sheets, as the hostile files had them. */
export function workbook(sheetXml: Buffer, sharedStringsXml?: Buffer): Buffer {
  const parts = [{ name: "[Content_Types].xml", data: Buffer.from(TYPES) }, { name: "xl/worksheets/sheet1.xml", data: sheetXml }];
  if (sharedStringsXml) parts.push({ name: "xl/sharedStrings.xml", data: sharedStringsXml });
  parts.push({ name: "xl/workbook.xml", data: Buffer.from(WORKBOOK) }, { name: "xl/_rels/workbook.xml.rels", data: Buffer.from(RELS) });
  return zip(parts);
}

const SHEET_OPEN = `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`;
const SHEET_CLOSE = `</sheetData></worksheet>`;

/** A sheet of the header item, model, R1 and n one-cell rows: `<row r="k"><c r="Ak"><v>k</v></c></row>`. */
export function manyRowsSheet(n: number): Buffer {
  const head = ["item", "model", "R1"].map((h, i) => `<c r="${"ABC"[i]}1" t="inlineStr"><is><t>${h}</t></is></c>`).join("");
  const rows: string[] = [`<row r="1">${head}</row>`];
  for (let k = 2; k <= n + 1; k++) rows.push(`<row r="${k}"><c r="A${k}"><v>${k}</v></c></row>`);
  return Buffer.from(SHEET_OPEN + rows.join("") + SHEET_CLOSE);
}

/** A sheet with one inline-string cell of `chars` characters. */
export function bigCellSheet(chars: number): Buffer {
  return Buffer.concat([Buffer.from(`${SHEET_OPEN}<row r="1"><c r="A1" t="inlineStr"><is><t>`), Buffer.alloc(chars, "a"), Buffer.from(`</t></is></c></row>${SHEET_CLOSE}`)]);
}

/** Shared strings of `count` strings of `chars` characters each. */
export function sharedStringsXml(count: number, chars: number): Buffer {
  const one = Buffer.from(`<si><t>${"b".repeat(chars)}</t></si>`);
  const head = Buffer.from(`<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${count}" uniqueCount="${count}">`);
  const body = Buffer.alloc(one.length * count);
  for (let i = 0; i < count; i++) one.copy(body, i * one.length);
  return Buffer.concat([head, body, Buffer.from("</sst>")]);
}
