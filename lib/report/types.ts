/**
 * The study report (issue #36 item 3) as data: sections of paragraphs, tables and figures that
 * the PDF, Word and HTML renderers lay out the same way. Every number is already formatted, so
 * the three formats (and two runs on a closed study) carry the same text in their tables.
 */
export interface ReportTable {
  id: string;
  caption: string;
  columns: string[];
  rows: string[][];
  note?: string;
}

export interface ReportFigure {
  id: string;
  caption: string;
  /** The figure as SVG (vector for HTML; rasterised at 300 dpi for PDF and Word). */
  svg: string;
  width: number;
  height: number;
  /** The API call whose answer holds the figure's numbers. */
  source: string;
}

export interface ReportSection {
  heading: string;
  paragraphs: string[];
  bullets?: string[];
  tables: ReportTable[];
  figures: ReportFigure[];
}

export interface ReportModel {
  title: string;
  subtitle: string;
  /** When it was generated: shown on the title page only, outside the tables. */
  generatedAt: string;
  sections: ReportSection[];
}

export const REPORT_FORMATS = ["pdf", "docx", "html"] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];
