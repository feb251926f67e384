import { AlignmentType, Document, HeadingLevel, ImageRun, Packer, Paragraph, Table, TableCell, TableRow, TextRun, WidthType } from "docx";
import { svgToPng } from "./raster";
import type { ReportModel, ReportTable } from "./types";

/** The report as a Word document (docx): headings, paragraphs, tables as Word tables, figures at 300 dpi. */
export async function reportDocx(model: ReportModel): Promise<Buffer> {
  const children: (Paragraph | Table)[] = [
    new Paragraph({ heading: HeadingLevel.TITLE, children: [new TextRun(model.title)] }),
    new Paragraph({ children: [new TextRun({ text: model.subtitle, italics: true })] }),
    new Paragraph({ children: [new TextRun({ text: `Generated ${model.generatedAt}`, size: 16 })] }),
  ];
  for (const section of model.sections) {
    children.push(new Paragraph({ heading: HeadingLevel.HEADING_1, children: [new TextRun(section.heading)] }));
    for (const p of section.paragraphs) children.push(new Paragraph({ children: [new TextRun(p)], spacing: { after: 120 } }));
    for (const b of section.bullets ?? []) children.push(new Paragraph({ bullet: { level: 0 }, children: [new TextRun(b)] }));
    for (const table of section.tables) children.push(...wordTable(table));
    for (const fig of section.figures) {
      const png = await svgToPng(fig.svg);
      // 6 inches wide at 96 px per inch in Word's units; the PNG holds 300 dpi.
      const width = 576;
      children.push(new Paragraph({ alignment: AlignmentType.CENTER, children: [new ImageRun({ type: "png", data: png, transformation: { width, height: Math.round((width * fig.height) / fig.width) }, altText: { name: fig.id, title: fig.caption, description: fig.caption } })] }));
      children.push(new Paragraph({ children: [new TextRun({ text: fig.caption, size: 18 })], spacing: { after: 200 } }));
    }
  }
  const doc = new Document({ creator: "Clingrade", title: model.title, description: model.subtitle, sections: [{ children }] });
  return Packer.toBuffer(doc);
}

function wordTable(table: ReportTable): (Paragraph | Table)[] {
  const cell = (text: string, bold = false) => new TableCell({ children: [new Paragraph({ children: [new TextRun({ text, bold, size: 18 })] })] });
  return [
    new Paragraph({ children: [new TextRun({ text: table.caption, bold: true })], spacing: { before: 200, after: 80 } }),
    new Table({
      width: { size: 100, type: WidthType.PERCENTAGE },
      rows: [new TableRow({ tableHeader: true, children: table.columns.map((c) => cell(c, true)) }), ...table.rows.map((r) => new TableRow({ children: r.map((c) => cell(c)) }))],
    }),
    ...(table.note ? [new Paragraph({ children: [new TextRun({ text: table.note, size: 16, italics: true })], spacing: { after: 200 } })] : [new Paragraph({ children: [] })]),
  ];
}
