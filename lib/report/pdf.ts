import fs from "node:fs";
import PDFDocument from "pdfkit";
import { svgToPng } from "./raster";
import type { ReportModel, ReportTable } from "./types";

/** Fonts with the minus sign and dashes the tables use; the PDF's standard Helvetica lacks them. */
const FONT_CANDIDATES = [
  ["/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"],
  ["/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf", "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf"],
] as const;

function fonts(): { regular: string; bold: string; ascii: boolean } {
  for (const [regular, bold] of FONT_CANDIDATES) {
    if (fs.existsSync(/* turbopackIgnore: true */ regular) && fs.existsSync(/* turbopackIgnore: true */ bold)) return { regular, bold, ascii: false };
  }
  return { regular: "Helvetica", bold: "Helvetica-Bold", ascii: true };
}

const asciiOnly = (text: string) => text.replace(/−/g, "-").replace(/[–—]/g, "-").replace(/[^\x20-\x7e\n]/g, "?");

const MARGIN = 56;

/** The report as PDF (pdfkit, A4): text and tables as text, figures at 300 dpi. */
export async function reportPdf(model: ReportModel): Promise<Buffer> {
  const f = fonts();
  const t = f.ascii ? asciiOnly : (s: string) => s;
  const figures = new Map<string, Buffer>();
  for (const s of model.sections) for (const fig of s.figures) figures.set(fig.id, await svgToPng(fig.svg));
  // A fixed creation date keeps two PDFs of a closed study's report the same but for what changed.
  const doc = new PDFDocument({ size: "A4", margin: MARGIN, info: { Title: model.title, Subject: model.subtitle, Creator: "Clingrade", CreationDate: new Date(model.generatedAt) }, bufferPages: true });
  doc.registerFont("body", f.regular);
  doc.registerFont("bold", f.bold);
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on("end", () => resolve(Buffer.concat(chunks))));
  const width = doc.page.width - 2 * MARGIN;

  doc.font("bold").fontSize(20).text(t(model.title));
  doc.moveDown(0.3).font("body").fontSize(11).fillColor("#334155").text(t(model.subtitle));
  doc.fontSize(9).text(t(`Generated ${model.generatedAt}`)).fillColor("#000000");
  for (const section of model.sections) {
    doc.moveDown(1).font("bold").fontSize(14).text(t(section.heading));
    doc.moveDown(0.3).font("body").fontSize(10);
    for (const p of section.paragraphs) doc.text(t(p), { align: "left" }).moveDown(0.5);
    for (const b of section.bullets ?? []) doc.text(t(`• ${b}`), { indent: 8 }).moveDown(0.3);
    for (const table of section.tables) drawTable(doc, table, width, t);
    for (const fig of section.figures) {
      const h = (width * fig.height) / fig.width;
      if (doc.y + h + 40 > doc.page.height - MARGIN) doc.addPage();
      doc.image(figures.get(fig.id)!, MARGIN, doc.y, { width });
      doc.y += h + 4;
      doc.font("body").fontSize(9).text(t(fig.caption), MARGIN, doc.y, { width }).moveDown(0.8).fontSize(10);
    }
  }
  doc.end();
  return done;
}

function drawTable(doc: PDFKit.PDFDocument, table: ReportTable, width: number, t: (s: string) => string): void {
  const pad = 3;
  // A wide table is set smaller (down to 6.5 pt) before any cell wraps. Each column needs at
  // least its longest word (so no number or hash breaks); past that, what is left is shared.
  const cellsOf = (i: number) => [table.columns[i], ...table.rows.map((r) => r[i] ?? "")].map(t);
  const measure = (size: number) => {
    doc.font("bold").fontSize(size);
    const minimum = table.columns.map((_, i) => Math.max(...cellsOf(i).flatMap((c) => c.split(/\s+/).map((w) => doc.widthOfString(w)))) + 2 * pad + 1);
    const natural = table.columns.map((_, i) => Math.max(minimum[i], Math.min(220, Math.max(...cellsOf(i).map((c) => doc.widthOfString(c)))) + 2 * pad + 1));
    return { minimum, natural };
  };
  const at85 = measure(8.5).natural.reduce((s, w) => s + w, 0);
  const fontSize = Math.max(6.5, Math.min(8.5, (8.5 * width) / at85));
  const { minimum, natural } = measure(fontSize);
  const sumNatural = natural.reduce((s, w) => s + w, 0);
  let widths: number[];
  if (sumNatural <= width) {
    widths = natural.map((w) => (w / sumNatural) * width);
  } else {
    const base = minimum.map((m, i) => Math.min(m, natural[i]));
    const spare = Math.max(0, width - base.reduce((s, w) => s + w, 0));
    const want = natural.map((w, i) => w - base[i]);
    const wantTotal = want.reduce((s, w) => s + w, 0) || 1;
    widths = base.map((b, i) => b + (want[i] / wantTotal) * spare);
  }
  const heightOf = (cells: string[], font: string) => {
    doc.font(font).fontSize(fontSize);
    return Math.max(...cells.map((c, i) => doc.heightOfString(t(c), { width: widths[i] - 2 * pad }))) + 2 * pad;
  };
  const drawRow = (cells: string[], font: string, shade: boolean) => {
    const h = heightOf(cells, font);
    if (doc.y + h > doc.page.height - MARGIN) doc.addPage();
    const y = doc.y;
    if (shade) doc.rect(MARGIN, y, width, h).fill("#f1f5f9").fillColor("#000000");
    let x = MARGIN;
    cells.forEach((c, i) => {
      doc.font(font).fontSize(fontSize).fillColor("#000000").text(t(c), x + pad, y + pad, { width: widths[i] - 2 * pad });
      x += widths[i];
    });
    doc.moveTo(MARGIN, y + h).lineTo(MARGIN + width, y + h).lineWidth(0.3).strokeColor("#94a3b8").stroke();
    doc.y = y + h;
  };
  if (doc.y + 60 > doc.page.height - MARGIN) doc.addPage();
  doc.moveDown(0.5).font("bold").fontSize(10).text(t(table.caption), MARGIN, doc.y, { width });
  doc.moveDown(0.2);
  drawRow(table.columns, "bold", true);
  for (const row of table.rows) drawRow(row, "body", false);
  doc.x = MARGIN;
  if (table.note) doc.moveDown(0.2).font("body").fontSize(8).fillColor("#334155").text(t(table.note), MARGIN, doc.y, { width }).fillColor("#000000");
  doc.moveDown(0.8).font("body").fontSize(10);
}
