import { getDb } from "@/lib/db/client";
import { storedRubrics } from "@/lib/rubrics/study-rubrics";
import { startLeasedLoop } from "@/lib/jobs/leased-loop";
import { logger } from "@/lib/log/logger";
import type { EndpointAccess } from "./client";
import { claimTasks, renewLease, settleDone, settleFailed, type ClaimedTask } from "./jobs";
import { ItemError, judgeSet, type ProbabilityMode, type SetToJudge } from "./judge-set";
import { endpointApiKey } from "./secret";
import { writeRunScores } from "./write";
import { judgeComparison, type ComparisonToJudge } from "./judge-comparison";
import { writeRunPreferences } from "./write-preferences";

/**
 * The loop that runs judge tasks (lib/jobs/leased-loop.ts): it leases due tasks (at most `concurrency`
 * in flight here, and each endpoint's own limit across instances), judges
 * each set, and settles it. The server starts one (scripts/start.ts); `npm
 * run admin -- judge-run` runs one in the foreground. Stopping it lets the
 * tasks in flight finish; a task it could not finish is taken over by any
 * worker once its lease expires.
 */
export interface WorkerOptions {
  /** Tasks in flight in this worker (default 4). */
  concurrency?: number;
  /** How long a lease lasts without renewal (default 120 s; renewed every third of it). */
  leaseMs?: number;
  /** Idle poll interval (default 2 s). */
  pollMs?: number;
  /** First retry delay, doubling each attempt up to maxBackoffMs (defaults 5 s, 5 min). */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Only this run's tasks (the admin command). */
  runId?: string;
  fetchImpl?: typeof fetch;
  /** Called after each task settles (tests). */
  onSettled?: (task: ClaimedTask, outcome: "done" | "retry" | "failed" | "lost") => void;
}

export interface JudgeWorker {
  /** Stops claiming; waits for the tasks in flight (at most `graceMs`, then abandons them to their leases). */
  stop(graceMs?: number): Promise<void>;
  /** Resolves when the worker finds nothing to do and has nothing in flight (with `runId`: when that run is settled). */
  idle(): Promise<void>;
  inFlight(): number;
}

type Target = { kind: "set"; set: SetToJudge } | { kind: "comparison"; comparison: ComparisonToJudge };

/** A comparison's two answers, as its grader sees them: the repetition shown of each side, never the models. */
async function loadComparison(comparisonId: string, showReference: boolean): Promise<ComparisonToJudge> {
  const c = await getDb().comparison.findUniqueOrThrow({
    where: { id: comparisonId },
    select: {
      leftRepetition: true,
      rightRepetition: true,
      item: { select: { question: true, referenceAnswer: true } },
      leftSet: { select: { responses: { select: { repetition: true, text: true } } } },
      rightSet: { select: { responses: { select: { repetition: true, text: true } } } },
    },
  });
  const text = (rs: { repetition: number; text: string }[], r: number) => rs.find((x) => x.repetition === r)?.text ?? "";
  return {
    comparisonId,
    question: c.item.question,
    referenceAnswer: showReference ? c.item.referenceAnswer || undefined : undefined,
    left: text(c.leftSet.responses, c.leftRepetition),
    right: text(c.rightSet.responses, c.rightRepetition),
  };
}

async function loadTask(task: ClaimedTask) {
  const db = getDb();
  const run = await db.judgeRun.findUniqueOrThrow({ where: { id: task.runId }, include: { endpoint: true, judge: { select: { studyId: true, study: { select: { rubrics: true, showReferenceAnswer: true } } } } } });
  const target = task.comparisonId ? ({ kind: "comparison", comparison: await loadComparison(task.comparisonId, run.judge.study.showReferenceAnswer) } as const) : await loadSet(task.responseSetId!, run.judge.study.showReferenceAnswer);
  const e = run.endpoint;
  const apiKey = endpointApiKey(e);
  const access: EndpointAccess = { baseUrl: e.baseUrl, model: e.model, apiKey, timeoutMs: e.timeoutMs };
  const mode: ProbabilityMode = run.mode === "LOGPROBS" ? { kind: "logprobs", topLogprobs: run.topLogprobs } : { kind: "sampling", samples: run.samples, temperature: run.temperature };
  return { access, mode, rubrics: storedRubrics(run.judge.study.rubrics), target: target as Target, owner: { studyId: run.judge.studyId, judgeId: run.judgeId, createdById: run.createdById } };
}

async function loadSet(responseSetId: string, showReference: boolean): Promise<Target> {
  const db = getDb();
  const set = await db.responseSet.findUniqueOrThrow({
    where: { id: responseSetId },
    select: { item: { select: { question: true, referenceAnswer: true } }, responses: { select: { repetition: true, text: true } } },
  });
  // What the judge reads is what a grader reads: the question, the answers, the reference if the study shows it; never the model.
  const toJudge: SetToJudge = {
    responseSetId,
    question: set.item.question,
    referenceAnswer: showReference ? set.item.referenceAnswer || undefined : undefined,
    answers: new Map(set.responses.map((r) => [r.repetition, r.text])),
  };
  return { kind: "set", set: toJudge };
}

export function startJudgeWorker(opts: WorkerOptions = {}): JudgeWorker {
  const leaseMs = opts.leaseMs ?? 120_000;
  const backoff = { baseMs: opts.backoffMs ?? 5000, maxMs: opts.maxBackoffMs ?? 300_000 };

  async function runTask(task: ClaimedTask, lease: AbortSignal): Promise<"done" | "retry" | "failed" | "lost"> {
    try {
      const ctx = await loadTask(task);
      const fetchImpl = opts.fetchImpl ?? fetch;
      // The lease lost (cancelled, taken over) aborts the requests in flight.
      const guarded: typeof fetch = (input, init) => fetchImpl(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, lease]) : lease });
      try {
        const t = ctx.target;
        if (t.kind === "comparison") {
          const result = await judgeComparison(ctx.access, ctx.mode, ctx.rubrics, t.comparison, guarded);
          return (await settleDone(task, result, (tx) => writeRunPreferences(tx, ctx.owner, t.comparison.comparisonId, result.preferences))) ? "done" : "lost";
        }
        const result = await judgeSet(ctx.access, ctx.mode, ctx.rubrics, t.set, guarded);
        return (await settleDone(task, result, (tx) => writeRunScores(tx, ctx.owner, t.set.responseSetId, result.scores))) ? "done" : "lost";
      } catch (err) {
        if (lease.aborted) return "lost";
        if (err instanceof ItemError) return await settleFailed(task, { message: err.message, retryable: err.retryable, usage: err.usage }, backoff);
        throw err;
      }
    } catch (err) {
      // A write the judges' checks refuse, a rubric that changed, a key that no longer decrypts: recorded, not retried.
      const message = err instanceof Error ? err.message.split("\n")[0] : String(err);
      logger.warn({ taskId: task.id, runId: task.runId, err: message }, "judge task failed");
      return await settleFailed(task, { message, retryable: false, usage: { promptTokens: 0, completionTokens: 0 } }, backoff).catch(() => "lost" as const);
    }
  }

  return startLeasedLoop<ClaimedTask, "done" | "retry" | "failed" | "lost">({
    name: "judge worker",
    concurrency: opts.concurrency ?? 4,
    leaseMs,
    pollMs: opts.pollMs ?? 2000,
    claim: (free) => claimTasks(free, leaseMs, opts.runId),
    renew: (task) => renewLease(task, leaseMs),
    run: runTask,
    settled: (task, outcome) => opts.onSettled?.(task, outcome),
    async nothingLeft() {
      if (!opts.runId) return true;
      const run = await getDb().judgeRun.findUnique({ where: { id: opts.runId }, select: { status: true } });
      return run?.status !== "RUNNING";
    },
  });
}
