import { LEAD_ROLES } from "@/lib/auth/roles";
import { startEmbeddingRunInput } from "@/lib/embeddings/contract";
import { embeddingCoverage, embeddingRuns, startEmbeddingRun } from "@/lib/embeddings/runs";
import { apiRoute, json, readJson } from "@/lib/server/api-route";
import { requireStudyForLead } from "@/lib/studies/access";

/** Embedding similarity runs of a study (lib/embeddings): its leads and admins only. */
export const GET = apiRoute<{ id: string }>(LEAD_ROLES, async ({ user, params }) => {
  const study = await requireStudyForLead(user, params.id);
  const [runs, coverage] = await Promise.all([embeddingRuns(study.id), embeddingCoverage(study.id)]);
  return json({ runs, coverage }, { headers: { "cache-control": "no-store" } });
});

/** Starts a background run; the workers (every app instance's) do the work. */
export const POST = apiRoute<{ id: string }>(LEAD_ROLES, async ({ req, user, params, log, requestId }) => {
  const study = await requireStudyForLead(user, params.id);
  const run = await startEmbeddingRun(study.id, await readJson(req, startEmbeddingRunInput), user.id, requestId);
  log.info({ studyId: study.id, runId: run.id, answers: run.answers }, "embedding run started");
  return json(run, { status: 201 });
});
