import { LEAD_ROLES } from "@/lib/auth/roles";
import { ImportQuery, ImportResult } from "@/lib/import/contract";
import { importIntoStudyOffThread } from "@/lib/import/in-worker";
import { readImportRequest } from "@/lib/import/request";
import { apiRoute } from "@/lib/server/api-route";
import { metrics, timed } from "@/lib/server/metrics";
import { requireStudyForLead } from "@/lib/studies/access";
import { withImportSlot } from "@/lib/uploads/slots";

// The body is read as a stream by the import's worker thread, never buffered whole.
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Imports questions and model answers (CSV or a JSON array of rows) into a study the caller leads. */
export const POST = apiRoute<{ id: string }>(LEAD_ROLES, async ({ req, user, params, requestId, log }) => {
  const study = await requireStudyForLead(user, params.id);
  const { query, dryRun, elapsedMs, ...source } = readImportRequest(req, ImportQuery);
  const result = await timed(metrics().importSeconds, { kind: dryRun ? "dry-run" : "import" }, () =>
    withImportSlot(study.id, () => importIntoStudyOffThread({ study, actorId: user.id, requestId, ...source, dryRun, mentionTerms: query.terms })),
  );
  log.info({ studyId: study.id, dryRun, kind: result.kind, created: result.created, updated: result.updated, ms: elapsedMs() }, "import");
  return ImportResult.parse(result);
});
