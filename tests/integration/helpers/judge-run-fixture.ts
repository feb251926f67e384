import { getDb } from "@/lib/db/client";
import { startRun } from "@/lib/judges/runner/runs";
import type { StartRunInput } from "@/lib/judges/runner/contract";
import { makeUser } from "./fixtures";
import { makeGradableStudy } from "./study-fixture";

/** A study with a judge and an endpoint at `baseUrl` (the stub), ready to start runs. */
export async function judgeRunFixture(baseUrl: string, opts: { items?: number; models?: number; logprobs?: boolean; concurrency?: number; timeoutMs?: number; rubrics?: string[] } = {}) {
  const f = await makeGradableStudy({ items: opts.items ?? 3, models: opts.models ?? 2, rubrics: opts.rubrics ?? ["SCORE"], graders: 2 });
  const admin = await makeUser("ADMIN", "admin");
  const db = getDb();
  const endpoint = await db.judgeEndpoint.create({
    data: {
      name: `stub-${Math.random().toString(36).slice(2, 8)}`,
      baseUrl,
      model: "stub-judge-1",
      logprobs: opts.logprobs ?? true,
      concurrency: opts.concurrency ?? 8,
      timeoutMs: opts.timeoutMs ?? 10_000,
      pricePer1kPromptTokens: 0.0025,
      pricePer1kCompletionTokens: 0.01,
      createdById: admin.id,
    },
  });
  const judge = await db.automatedJudge.create({ data: { studyId: f.study.id, name: "Stub judge", kind: "LLM_JUDGE" } });
  const start = (input: Partial<StartRunInput> = {}) => startRun(judge.id, { endpointId: endpoint.id, ...input }, f.lead.id);
  return { ...f, admin, endpoint, judge, start };
}

export async function scoresOf(judgeId: string) {
  return getDb().judgeScore.findMany({ where: { judgeId }, orderBy: [{ responseSetId: "asc" }, { rubric: "asc" }, { dimension: "asc" }, { repetition: "asc" }] });
}

/**
 * For the route-wide suites (security, fuzz): an endpoint, a run in progress
 * (judge A), a cancelled run (judge B) and a judge without runs (C), on a study
 * with response sets. No worker runs: the runs stay as they are.
 */
export async function routeSuiteRuns(studyId: string, adminId: string, leadId: string) {
  const db = getDb();
  const endpoint = await db.judgeEndpoint.create({ data: { name: "Suite endpoint", baseUrl: "http://127.0.0.1:9/v1", model: "suite-judge", createdById: adminId } });
  const judge = (name: string) => db.automatedJudge.create({ data: { studyId, name, model: "suite-judge" } });
  const [a, b, c] = [await judge("Runner A"), await judge("Runner B"), await judge("Runner C")];
  const runA = await startRun(a.id, { endpointId: endpoint.id }, leadId);
  const runB = await startRun(b.id, { endpointId: endpoint.id }, leadId);
  const { cancelRun } = await import("@/lib/judges/runner/jobs");
  await cancelRun(runB.id);
  // Embedding similarity: an endpoint offered for embeddings and a run waiting for a worker.
  const embeddingEndpoint = await db.judgeEndpoint.create({ data: { name: "Suite embeddings", baseUrl: "http://127.0.0.1:9/v1", model: "suite-judge", embeddingModel: "suite-embed", createdById: adminId } });
  const embeddingRun = await db.embeddingRun.create({ data: { studyId, endpointId: embeddingEndpoint.id, model: "suite-embed", answers: 1, createdById: leadId } });
  return {
    endpoint,
    running: { judgeId: a.id, runId: runA.id },
    cancelled: { judgeId: b.id, runId: runB.id },
    fresh: { judgeId: c.id },
    embedding: { endpointId: embeddingEndpoint.id, runId: embeddingRun.id },
  };
}
