import { LEAD_ROLES } from "@/lib/auth/roles";
import { ExportQuery, isOn } from "@/lib/exports/contract";
import { contentType, defaultFormat, exportFileName, exportStream } from "@/lib/exports/service";
import { apiRoute, zodDetails } from "@/lib/server/api-route";
import { ApiError } from "@/lib/errors/api-error";
import { metrics } from "@/lib/server/metrics";
import { REQUEST_ID_HEADER } from "@/lib/server/request";
import { requireStudyForLead } from "@/lib/studies/access";

// Streamed from PostgreSQL as it is read: never cached, never prerendered.
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/v1/studies/{id}/export?dataset=...&format=csv|json[&bom=1][&identities=1][&audit=1] (leads and admins). */
export const GET = apiRoute<{ id: string }>(LEAD_ROLES, async ({ req, user, params, requestId, log }) => {
  const study = await requireStudyForLead(user, params.id);
  const parsed = ExportQuery.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  if (!parsed.success) throw new ApiError(422, "invalid query parameters", zodDetails(parsed.error));
  const q = parsed.data;
  const format = q.format ?? defaultFormat(q.dataset);
  const options = { dataset: q.dataset, format, identities: isOn(q.identities), audit: isOn(q.audit) };
  const started = Date.now();
  const body = await exportStream(study, options, {
    bom: isOn(q.bom),
    signal: req.signal,
    onDone: (outcome, bytes) => {
      log.info({ studyId: study.id, ...options, outcome, bytes, ms: Date.now() - started }, "export");
      metrics().exportSeconds.observe({ dataset: options.dataset, format, outcome }, (Date.now() - started) / 1000);
    },
  });
  const filename = exportFileName(study.slug, q.dataset, format);
  return new Response(body, {
    status: 200,
    headers: {
      "content-type": contentType(format),
      "content-disposition": `attachment; filename="${filename}"`,
      "cache-control": "no-store",
      [REQUEST_ID_HEADER]: requestId,
    },
  });
});
