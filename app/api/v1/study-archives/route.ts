import { LEAD_ROLES } from "@/lib/auth/roles";
import { importArchiveOffThread } from "@/lib/exports/archive-in-worker";
import { withImportSlot } from "@/lib/uploads/slots";
import { ArchiveImportQuery, parseMapEntry } from "@/lib/exports/contract";
import { apiRoute, json, zodDetails } from "@/lib/server/api-route";
import { ApiError } from "@/lib/errors/api-error";
import { metrics, timed } from "@/lib/server/metrics";

// The body is read as a stream by the import's worker thread, never buffered whole.
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** POST /api/v1/study-archives: a `study` export becomes a new study owned by the caller. */
export const POST = apiRoute(LEAD_ROLES, async ({ req, user, requestId, log }) => {
  const params = new URL(req.url).searchParams;
  const query = ArchiveImportQuery.safeParse({ ...Object.fromEntries(params), ...(params.has("map") ? { map: params.getAll("map") } : {}) });
  if (!query.success) throw new ApiError(422, "invalid query", zodDetails(query.error));
  const length = req.headers.get("content-length");
  const started = Date.now();
  const imported = await timed(metrics().importSeconds, { kind: "archive" }, () =>
    withImportSlot(null, () =>
      importArchiveOffThread({
        body: req.body,
        contentLength: length === null || !/^\d+$/.test(length) ? null : Number(length),
        actor: { id: user.id, role: user.role, requestId },
        map: query.data.map?.map(parseMapEntry),
      }),
    ),
  );
  log.info({ studyId: imported.id, pseudonymous: imported.pseudonymous, mapped: imported.mapped, ms: Date.now() - started }, "study archive imported");
  return json({ id: imported.id, slug: imported.slug }, { status: 201 });
});
