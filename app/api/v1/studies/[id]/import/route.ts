import { LEAD_ROLES } from "@/lib/auth/roles";
import { ImportQuery, ImportResult } from "@/lib/import/contract";
import { importIntoStudy } from "@/lib/import/service";
import { apiRoute, zodDetails } from "@/lib/server/api-route";
import { ApiError } from "@/lib/errors/api-error";
import { metrics, timed } from "@/lib/server/metrics";
import { requireStudyForLead } from "@/lib/studies/access";

// The body is read as a stream by the import itself, never buffered whole.
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Imports questions and model answers (CSV or a JSON array of rows) into a study the caller leads. */
export const POST = apiRoute<{ id: string }>(LEAD_ROLES, async ({ req, user, params, requestId, log }) => {
  const study = await requireStudyForLead(user, params.id);
  const query = ImportQuery.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  if (!query.success) throw new ApiError(400, "invalid query", zodDetails(query.error));
  const dryRun = query.data.dryRun === "1" || query.data.dryRun === "true";
  const length = req.headers.get("content-length");
  const started = Date.now();
  const result = await timed(metrics().importSeconds, { kind: dryRun ? "dry-run" : "import" }, () => importIntoStudy({
    study,
    actorId: user.id,
    requestId,
    contentType: req.headers.get("content-type"),
    contentLength: length === null || !/^\d+$/.test(length) ? null : Number(length),
    body: req.body,
    dryRun,
    mentionTerms: query.data.terms,
  }));
  log.info({ studyId: study.id, dryRun, kind: result.kind, created: result.created, updated: result.updated, ms: Date.now() - started }, "import");
  return ImportResult.parse(result);
});
