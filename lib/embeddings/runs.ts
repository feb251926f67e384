import { recordAudit } from "@/lib/audit/record";
import { getDb } from "@/lib/db/client";
import { isUuid } from "@/lib/db/uuid";
import { ApiError } from "@/lib/errors/api-error";
import type { EmbeddingRun, JudgeEndpoint } from "@/lib/generated/prisma/client";
import type { EmbeddingCoverage, EmbeddingRunView, StartEmbeddingRunInput } from "./contract";

/** Starting an embedding similarity run and reading it. The work itself is the workers' (worker.ts). */

/** Starting a run: one at a time per study (with hashtext(studyId) as the second key). */
const START_LOCK = 0x656d6264; // "embd"

/** The answers a run embeds: those whose question has a reference answer, which are those with reference-based metrics (lib/reference-metrics). */
export const WITH_REFERENCE = `r.bleu IS NOT NULL`;

export function runView(run: EmbeddingRun & { endpoint: Pick<JudgeEndpoint, "name"> }): EmbeddingRunView {
  return {
    id: run.id,
    status: run.status,
    endpoint: run.endpoint.name,
    model: run.model,
    answers: run.answers,
    embedded: run.embedded,
    requests: run.requests,
    dimensions: run.dimensions,
    error: run.error,
    createdAt: run.createdAt.toISOString(),
    startedAt: run.startedAt?.toISOString() ?? null,
    finishedAt: run.finishedAt?.toISOString() ?? null,
  };
}

const invalid = (path: string, message: string) => new ApiError(422, "invalid input", [{ path, message }]);

/**
 * A run over every answer of the study that has a reference answer. The endpoint is one an
 * admin set up for embeddings: a lead chooses among them, never a URL. One run of a study at a
 * time: a second start while one is waiting or running is a 409.
 */
export async function startEmbeddingRun(studyId: string, input: StartEmbeddingRunInput, userId: string, requestId: string | null = null): Promise<EmbeddingRunView> {
  return getDb().$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${START_LOCK}::int, hashtext(${studyId}))`;
    const endpoint = await tx.judgeEndpoint.findUnique({ where: { id: input.endpointId } });
    if (!endpoint) throw invalid("endpointId", "no such endpoint: an admin sets endpoints up (GET /api/v1/judge-endpoints)");
    if (!endpoint.embeddingModel) throw invalid("endpointId", `the endpoint "${endpoint.name}" is not set up for embeddings: an admin gives it an embeddingModel`);
    const active = await tx.embeddingRun.findFirst({ where: { studyId, status: { in: ["PENDING", "RUNNING"] } }, select: { id: true } });
    if (active) throw new ApiError(409, `this study has an embedding similarity run in progress (${active.id}): wait for it to finish`);
    const [{ n }] = await tx.$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM "Response" r JOIN "ResponseSet" rs ON rs.id = r."responseSetId" WHERE rs."studyId" = $1::uuid AND ${WITH_REFERENCE}`,
      studyId,
    );
    if (n === 0) throw new ApiError(409, "nothing to run: no answer of the study has a reference answer");
    const run = await tx.embeddingRun.create({
      data: { studyId, endpointId: endpoint.id, model: input.model ?? endpoint.embeddingModel, answers: n, createdById: userId },
      include: { endpoint: { select: { name: true } } },
    });
    const view = runView(run);
    await recordAudit(tx, { studyId, actorId: userId, action: "embedding-run.start", entityType: "EmbeddingRun", entityId: run.id, after: { endpoint: view.endpoint, model: view.model, answers: n }, requestId });
    return view;
  });
}

/** The run, if it is this study's; 404 otherwise (another study's run included). */
export async function embeddingRunOf(studyId: string, runId: string): Promise<EmbeddingRunView> {
  if (!isUuid(runId)) throw new ApiError(404, "run not found");
  const run = await getDb().embeddingRun.findFirst({ where: { id: runId, studyId }, include: { endpoint: { select: { name: true } } } });
  if (!run) throw new ApiError(404, "run not found");
  return runView(run);
}

/** The study's runs, newest first (the last 20). */
export async function embeddingRuns(studyId: string): Promise<EmbeddingRunView[]> {
  const runs = await getDb().embeddingRun.findMany({ where: { studyId }, orderBy: { createdAt: "desc" }, take: 20, include: { endpoint: { select: { name: true } } } });
  return runs.map(runView);
}

/** How many answers have a similarity, of those that could, and from which model. */
export async function embeddingCoverage(studyId: string): Promise<EmbeddingCoverage> {
  const [row] = await getDb().$queryRawUnsafe<{ total: number; done: number; model: string | null; endpoint: string | null }[]>(
    `SELECT count(*) FILTER (WHERE ${WITH_REFERENCE})::int AS total, count(r."embeddingSimilarity")::int AS done,
            (SELECT er.model FROM "EmbeddingRun" er WHERE er.id = max(r."embeddingRunId"::text)::uuid) AS model,
            (SELECT e.name FROM "EmbeddingRun" er JOIN "JudgeEndpoint" e ON e.id = er."endpointId" WHERE er.id = max(r."embeddingRunId"::text)::uuid) AS endpoint
       FROM "Response" r JOIN "ResponseSet" rs ON rs.id = r."responseSetId" WHERE rs."studyId" = $1::uuid`,
    studyId,
  );
  return { answersWithReference: row?.total ?? 0, withSimilarity: row?.done ?? 0, model: row?.model ?? null, endpoint: row?.endpoint ?? null };
}
