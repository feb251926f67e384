import { LEAD_ROLES } from "@/lib/auth/roles";
import { ReportQuery } from "@/lib/report/contract";
import { renderReport } from "@/lib/report/service";
import { apiRoute } from "@/lib/server/api-route";
import { requireStudyForLead } from "@/lib/studies/access";
import { readQuery } from "@/lib/studies/route-helpers";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/v1/studies/{id}/report?format=pdf|docx|html (lib/report). Leads of the study and admins. */
export const GET = apiRoute<{ id: string }>(LEAD_ROLES, async ({ req, user, params }) => {
  const study = await requireStudyForLead(user, params.id);
  const { format = "pdf" } = readQuery(req, ReportQuery);
  const file = await renderReport(study, format);
  const body = typeof file.body === "string" ? file.body : new Uint8Array(file.body);
  return new Response(body, {
    headers: {
      "content-type": file.contentType,
      "content-disposition": `${format === "html" ? "inline" : "attachment"}; filename="${file.filename}"`,
      "cache-control": "no-store",
      // The HTML report is a document of its own: no script may run in it.
      ...(format === "html" ? { "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:" } : {}),
    },
  });
});
