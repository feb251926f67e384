import { ApiError } from "@/lib/errors/api-error";
import { buildReport } from "./build";
import { reportDocx } from "./docx";
import { reportHtml } from "./html";
import { reportPdf } from "./pdf";
import type { ReportFormat } from "./types";

const TYPES: Record<ReportFormat, string> = {
  pdf: "application/pdf",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  html: "text/html; charset=utf-8",
};

/** The report file of a study in one format, with its content type and file name. */
export async function renderReport(study: { id: string; slug: string }, format: ReportFormat): Promise<{ body: Buffer | string; contentType: string; filename: string }> {
  const model = await buildReport(study.id);
  if (!model) throw new ApiError(404, "study not found");
  const body = format === "pdf" ? await reportPdf(model) : format === "docx" ? await reportDocx(model) : reportHtml(model);
  return { body, contentType: TYPES[format], filename: `${study.slug}-report.${format}` };
}
