import { getDb } from "@/lib/db/client";
import { ApiError } from "@/lib/errors/api-error";
import type { RunProgress, StartRunInput } from "./contract";
import { RUN_LOCK } from "./jobs";

/** Starting a run and reading its progress. The work itself is the workers' (worker.ts). */

/**
 * A run over every complete answer set of the judge's study that the judge
 * has not scored yet. One run of a judge at a time: a second start while one runs is
 * a 409, so no set is judged twice.
 */
export async function startRun(judgeId: string, input: StartRunInput, userId: string): Promise<{ id: string; tasks: number }> {
  const db = getDb();
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${RUN_LOCK}::int, hashtext(${judgeId}))`;
    const endpoint = await tx.judgeEndpoint.findUnique({ where: { id: input.endpointId } });
    if (!endpoint) throw new ApiError(422, "invalid input", [{ path: "endpointId", message: "no such endpoint: an admin sets endpoints up (GET /api/v1/judge-endpoints)" }]);
    const mode = input.mode ?? (endpoint.logprobs ? "logprobs" : "sampling");
    if (mode === "logprobs" && !endpoint.logprobs) throw new ApiError(422, "invalid input", [{ path: "mode", message: `the endpoint "${endpoint.name}" gives no logprobs: use mode "sampling"` }]);
    const active = await tx.judgeRun.findFirst({ where: { judgeId, status: "RUNNING" }, select: { id: true } });
    if (active) throw new ApiError(409, `this judge has a run in progress (${active.id}): cancel it or wait for it to finish`);
    const judge = await tx.automatedJudge.findUniqueOrThrow({ where: { id: judgeId }, select: { studyId: true, study: { select: { repetitions: true, design: true } } } });
    // A pairwise study's judge compares: one task per comparison it has no preference on yet.
    const pairwise = judge.study.design === "PAIRWISE";
    const comparisons = pairwise
      ? await tx.$queryRaw<{ id: string }[]>`
      SELECT c.id FROM "Comparison" c
      WHERE c."studyId" = ${judge.studyId}::uuid
        -- Both answers shown must exist (an imported comparison has no text to read).
        AND EXISTS (SELECT 1 FROM "Response" r WHERE r."responseSetId" = c."leftSetId" AND r.repetition = c."leftRepetition")
        AND EXISTS (SELECT 1 FROM "Response" r WHERE r."responseSetId" = c."rightSetId" AND r.repetition = c."rightRepetition")
        AND NOT EXISTS (SELECT 1 FROM "JudgePreference" p WHERE p."comparisonId" = c.id AND p."judgeId" = ${judgeId}::uuid)
      ORDER BY c.id`
      : [];
    if (pairwise && !comparisons.length) throw new ApiError(409, "nothing to run: the judge has a preference on every comparison of the study");
    // Complete sets only (all N answers), as for the clinicians' assignment.
    const sets = pairwise ? [] : await tx.$queryRaw<{ id: string }[]>`
      SELECT s.id FROM "ResponseSet" s
      WHERE s."studyId" = ${judge.studyId}::uuid
        AND (SELECT count(*) FROM "Response" r WHERE r."responseSetId" = s.id) = ${judge.study.repetitions}
        AND NOT EXISTS (SELECT 1 FROM "JudgeScore" j WHERE j."responseSetId" = s.id AND j."judgeId" = ${judgeId}::uuid)
      ORDER BY s.id`;
    if (!pairwise && !sets.length) throw new ApiError(409, "nothing to run: the judge has scored every complete answer set of the study");
    const run = await tx.judgeRun.create({
      data: {
        judgeId,
        endpointId: endpoint.id,
        mode: mode === "logprobs" ? "LOGPROBS" : "SAMPLING",
        samples: mode === "sampling" ? (input.samples ?? 5) : 1,
        temperature: mode === "sampling" ? (input.temperature ?? 0.7) : 0,
        topLogprobs: input.topLogprobs ?? 10,
        maxAttempts: input.maxAttempts ?? 4,
        pricePer1kPromptTokens: endpoint.pricePer1kPromptTokens,
        pricePer1kCompletionTokens: endpoint.pricePer1kCompletionTokens,
        createdById: userId,
      },
    });
    const tasks = pairwise ? comparisons.map((c) => ({ runId: run.id, comparisonId: c.id })) : sets.map((s) => ({ runId: run.id, responseSetId: s.id }));
    await tx.judgeRunTask.createMany({ data: tasks });
    return { id: run.id, tasks: tasks.length };
  });
}

export async function runProgress(runId: string): Promise<RunProgress | null> {
  const db = getDb();
  const run = await db.judgeRun.findUnique({ where: { id: runId }, include: { endpoint: { select: { name: true, model: true } } } });
  if (!run) return null;
  const counts = await db.judgeRunTask.groupBy({ by: ["status"], where: { runId }, _count: { _all: true }, _sum: { promptTokens: true, completionTokens: true, cost: true, requests: true } });
  const count = (s: string) => counts.find((c) => c.status === s)?._count._all ?? 0;
  const sum = (k: "promptTokens" | "completionTokens" | "cost" | "requests") => counts.reduce((t, c) => t + (c._sum[k] ?? 0), 0);
  const failed = await db.judgeRunTask.findMany({
    where: { runId, status: "FAILED" },
    select: { error: true, attempts: true, responseSet: { select: { item: { select: { externalId: true } } } }, comparison: { select: { item: { select: { externalId: true } } } } },
    orderBy: { finishedAt: "asc" },
    take: 20,
  });
  const retrying = await db.judgeRunTask.count({ where: { runId, status: "PENDING", attempts: { gt: 0 } } });
  const total = counts.reduce((t, c) => t + c._count._all, 0);
  return {
    id: run.id,
    judgeId: run.judgeId,
    status: run.status,
    endpoint: run.endpoint.name,
    judgeModel: run.endpoint.model,
    mode: run.mode === "LOGPROBS" ? "logprobs" : "sampling",
    samples: run.samples,
    createdAt: run.createdAt.toISOString(),
    finishedAt: run.finishedAt?.toISOString() ?? null,
    tasks: { total, pending: count("PENDING"), running: count("RUNNING"), done: count("DONE"), failed: count("FAILED"), cancelled: count("CANCELLED"), retrying },
    requests: sum("requests"),
    promptTokens: sum("promptTokens"),
    completionTokens: sum("completionTokens"),
    cost: Math.round(sum("cost") * 1e6) / 1e6,
    errors: failed.map((f) => ({ item: (f.responseSet ?? f.comparison)?.item.externalId ?? "", attempts: f.attempts, error: f.error ?? "" })),
  };
}

/** The judge's runs, newest first. */
export async function judgeRuns(judgeId: string): Promise<RunProgress[]> {
  const runs = await getDb().judgeRun.findMany({ where: { judgeId }, orderBy: { createdAt: "desc" }, select: { id: true }, take: 20 });
  return (await Promise.all(runs.map((r) => runProgress(r.id)))).filter((r): r is RunProgress => r !== null);
}

/** A study's judges, each with its latest run (the study page's judges section). */
export async function studyJudgesWithLatestRun(studyId: string): Promise<{ id: string; name: string; scores: number; latest: RunProgress | null }[]> {
  const judges = await getDb().automatedJudge.findMany({
    where: { studyId },
    orderBy: { name: "asc" },
    // scores: every judgment stored, imported or run here, so a judge with only imported scores says so.
    // A pairwise study's judge stores preferences: they count as its judgments.
    select: { id: true, name: true, _count: { select: { scores: true, preferences: true } }, runs: { orderBy: { createdAt: "desc" }, take: 1, select: { id: true } } },
  });
  return Promise.all(judges.map(async (j) => ({ id: j.id, name: j.name, scores: j._count.scores + j._count.preferences, latest: j.runs[0] ? await runProgress(j.runs[0].id) : null })));
}
