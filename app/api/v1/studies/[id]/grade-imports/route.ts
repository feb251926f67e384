import { LEAD_ROLES } from "@/lib/auth/roles";
import { GradeImportQuery, GradeImportResult } from "@/lib/grade-import/contract";
import { importGradesFromRequest } from "@/lib/grade-import/request";
import { readImportRequest } from "@/lib/import/request";
import { apiRoute } from "@/lib/server/api-route";
import { requireStudyForLead } from "@/lib/studies/access";

// The body is streamed by the import's worker thread, never buffered whole.
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Imports grades made outside Clingrade into a study the caller leads (lib/grade-import). */
export const POST = apiRoute<{ id: string }>(LEAD_ROLES, async ({ req, user, params, requestId, log }) => {
  const study = await requireStudyForLead(user, params.id);
  const { query, dryRun, elapsedMs, ...source } = readImportRequest(req, GradeImportQuery);
  const result = await importGradesFromRequest({ studyId: study.id, actorId: user.id, requestId, ...source, dryRun, mappingName: query.mapping });
  log.info({ studyId: study.id, dryRun, grades: result.grades, created: result.created, ms: elapsedMs() }, "grade import");
  return GradeImportResult.parse(result);
});
