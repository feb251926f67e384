import { z } from "zod";
import { errorResponses, registry } from "@/lib/api/registry";
import { REPORT_FORMATS } from "./types";

export const ReportQuery = z.strictObject({
  format: z.enum(REPORT_FORMATS, { error: `format must be one of ${REPORT_FORMATS.join(", ")}` }).optional().meta({ description: "pdf (default), docx or html" }),
});

registry.registerPath({
  method: "get",
  path: "/api/v1/studies/{id}/report",
  summary: "The study report as PDF, Word or HTML (leads)",
  description:
    "Generated from the study as it stands: a methods section written from the settings, the study's flow with exclusions, descriptives, reliability, model comparisons, judges and harm flags in journal style (each with its n), the charts at 300 dpi, limitations read from the data (small cells, wide intervals, missing grades, protocol deviations), and a reproducibility appendix (version, protocol hash, seeds, SHA-256 of the exports, the API call behind each figure). The numbers come from the same code as GET /stats?journal=1.",
  tags: ["Results"],
  request: { params: z.object({ id: z.uuid() }), query: ReportQuery },
  responses: {
    200: {
      description: "The report file (Content-Disposition: attachment for pdf and docx)",
      content: {
        "application/pdf": { schema: z.string().meta({ format: "binary" }) },
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document": { schema: z.string().meta({ format: "binary" }) },
        "text/html": { schema: z.string() },
      },
    },
    ...errorResponses(401, 403, 404, 422),
  },
});
