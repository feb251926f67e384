import { LEAD_ROLES } from "@/lib/auth/roles";
import { GradeImportQuery, GradeImportResult } from "@/lib/grade-import/contract";
import { importGradesFromRequest } from "@/lib/grade-import/request";
import { apiRoute, zodDetails } from "@/lib/server/api-route";
import { ApiError } from "@/lib/errors/api-error";
import { requireStudyForLead } from "@/lib/studies/access";

// The body is streamed by the import, never buffered whole.
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Imports grades made outside Clingrade into a study the caller leads (lib/grade-import). */
export const POST = apiRoute<{ id: string }>(LEAD_ROLES, async ({ req, user, params, requestId, log }) => {
  const study = await requireStudyForLead(user, params.id);
  const query = GradeImportQuery.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  if (!query.success) throw new ApiError(400, "invalid query", zodDetails(query.error));
  const dryRun = query.data.dryRun === "1" || query.data.dryRun === "true";
  const length = req.headers.get("content-length");
  const started = Date.now();
  const result = await importGradesFromRequest({
    studyId: study.id,
    actorId: user.id,
    requestId,
    contentType: req.headers.get("content-type"),
    contentLength: length === null || !/^\d+$/.test(length) ? null : Number(length),
    body: req.body,
    dryRun,
    mappingName: query.data.mapping,
  });
  log.info({ studyId: study.id, dryRun, grades: result.grades, created: result.created, ms: Date.now() - started }, "grade import");
  return GradeImportResult.parse(result);
});
