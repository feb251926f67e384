import { recordAudit } from "@/lib/audit/record";
import { getDb } from "@/lib/db/client";
import { chatCompletion, EndpointError, type EndpointAccess } from "@/lib/judges/runner/client";
import { endpointApiKey } from "@/lib/judges/runner/secret";
import { logger } from "@/lib/log/logger";
import { buildScreenPrompt, parseScreenReply, UnreadableVerdict } from "./judge-prompt";
import { applyScreenOutcome } from "./outcome";
import type { ScreenRule } from "./rules";

/**
 * The screen's automated judge, as a background job whose state is all in
 * PostgreSQL: the run (ScreenRun, RUNNING) is leased by one worker at a time
 * (the instance that started it, at once; any instance's worker after the
 * lease expires), each answer's verdict is stored as it comes, so a worker
 * taking over asks only about answers without one, and the run becomes the
 * study's screen in one transaction once every answer has a verdict. Every
 * write names the lease: a worker that lost it writes nothing.
 */

export interface StoredScreenJudge {
  /** null for a run imported from a study archive (endpoints are the instance's). */
  endpointId: string | null;
  endpoint: string;
  model: string;
  prompt: string;
}

export interface ScreenJudgeOptions {
  leaseMs: number;
  /** Attempts per answer when the endpoint fails in a way that may pass (5xx, 429, timeout). */
  attempts: number;
  backoffMs: number;
}

export const screenJudgeOptions: ScreenJudgeOptions = { leaseMs: 120_000, attempts: 3, backoffMs: 500 };

interface Claim {
  id: string;
  leaseToken: string;
}

/** Leases a running run whose lease is free or expired (`runId`: only that one). */
export async function claimScreenRun(runId?: string): Promise<Claim | null> {
  const rows = await getDb().$queryRaw<Claim[]>`
    UPDATE "ScreenRun" SET "leaseToken" = gen_random_uuid(), "leaseExpiresAt" = now() + ${screenJudgeOptions.leaseMs} * interval '1 millisecond'
    WHERE id = (SELECT id FROM "ScreenRun" WHERE status = 'RUNNING' AND ("leaseExpiresAt" IS NULL OR "leaseExpiresAt" <= now())
                  AND (${runId ?? null}::uuid IS NULL OR id = ${runId ?? null}::uuid)
                ORDER BY "createdAt" LIMIT 1 FOR UPDATE SKIP LOCKED)
    RETURNING id, "leaseToken"`;
  return rows[0] ?? null;
}

async function renew(claim: Claim): Promise<boolean> {
  const n = await getDb().$executeRaw`UPDATE "ScreenRun" SET "leaseExpiresAt" = now() + ${screenJudgeOptions.leaseMs} * interval '1 millisecond'
    WHERE id = ${claim.id}::uuid AND "leaseToken" = ${claim.leaseToken}::uuid AND status = 'RUNNING'`;
  return n === 1;
}

type Verdict = { flagged: boolean | null; reason: string };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One answer's verdict; an endpoint that keeps failing, or a reply that is not a verdict, is "could not screen" with the reason. */
async function judgeAnswer(access: EndpointAccess, prompt: string, question: string, answer: string, fetchImpl: typeof fetch): Promise<Verdict> {
  const messages = buildScreenPrompt(prompt, question, answer);
  for (let attempt = 1; ; attempt++) {
    try {
      const reply = await chatCompletion(access, { messages, temperature: 0, maxTokens: 400 }, fetchImpl);
      const v = parseScreenReply(reply.content);
      return { flagged: v.unsafe, reason: v.reason };
    } catch (err) {
      if (err instanceof UnreadableVerdict) return { flagged: null, reason: `could not screen: ${err.message}` };
      if (err instanceof EndpointError) {
        if (err.retryable && attempt < screenJudgeOptions.attempts) {
          await sleep(screenJudgeOptions.backoffMs * 2 ** (attempt - 1));
          continue;
        }
        return { flagged: null, reason: `could not screen: ${err.message}${attempt > 1 ? ` (${attempt} attempts)` : ""}` };
      }
      throw err;
    }
  }
}

const PAGE = 200;

/** Works through the run's answers without a verdict, then makes the run the study's screen. False when the lease was lost. */
export async function driveScreenRun(claim: Claim, fetchImpl: typeof fetch = fetch): Promise<boolean> {
  const db = getDb();
  const run = await db.screenRun.findUniqueOrThrow({ where: { id: claim.id }, select: { studyId: true, judge: true } });
  const judge = run.judge as unknown as StoredScreenJudge;
  const endpoint = judge.endpointId ? await db.judgeEndpoint.findUnique({ where: { id: judge.endpointId } }) : null;
  let access: EndpointAccess | null = null;
  let fatal: string | null = null;
  if (!endpoint) fatal = "could not screen: the judge's endpoint was removed";
  else {
    try {
      const apiKey = endpointApiKey(endpoint);
      access = { baseUrl: endpoint.baseUrl, model: endpoint.model, apiKey, timeoutMs: endpoint.timeoutMs };
    } catch (err) {
      fatal = `could not screen: ${(err as Error).message}`;
    }
  }
  const lost = new AbortController();
  const timer = setInterval(
    () =>
      void renew(claim).then(
        (held) => held || lost.abort(),
        () => undefined,
      ),
    Math.max(50, Math.floor(screenJudgeOptions.leaseMs / 3)),
  );
  // The lease lost aborts the requests in flight.
  const guarded: typeof fetch = (input, init) => fetchImpl(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, lost.signal]) : lost.signal });
  try {
    let previous = "";
    for (;;) {
      const page = await db.$queryRaw<{ id: string; text: string; question: string }[]>`
        SELECT r.id, r.text, q.question FROM "Response" r
        JOIN "ResponseSet" rs ON rs.id = r."responseSetId" JOIN "QaItem" q ON q.id = rs."itemId"
        WHERE rs."studyId" = ${run.studyId}::uuid
          AND NOT EXISTS (SELECT 1 FROM "ScreenVerdict" v WHERE v."runId" = ${claim.id}::uuid AND v."responseId" = r.id)
        ORDER BY r.id LIMIT ${PAGE}`;
      if (!page.length) break;
      if (page[0].id === previous) throw new Error("no verdict could be stored");
      previous = page[0].id;
      let next = 0;
      const lanes = Math.max(1, Math.min(endpoint?.concurrency ?? 1, page.length));
      await Promise.all(
        Array.from({ length: lanes }, async () => {
          while (next < page.length && !lost.signal.aborted) {
            const a = page[next++];
            const v = access && !fatal ? await judgeAnswer(access, judge.prompt, a.question, a.text, guarded) : { flagged: null, reason: fatal! };
            if (lost.signal.aborted) return;
            await db.$executeRaw`
              INSERT INTO "ScreenVerdict" ("runId", "responseId", flagged, reason)
              SELECT ${claim.id}::uuid, ${a.id}::uuid, ${v.flagged}::boolean, ${v.reason}
              WHERE EXISTS (SELECT 1 FROM "ScreenRun" WHERE id = ${claim.id}::uuid AND "leaseToken" = ${claim.leaseToken}::uuid AND status = 'RUNNING')
              ON CONFLICT DO NOTHING`;
          }
        }),
      );
      if (lost.signal.aborted) return false;
    }
    return await finishScreenRun(claim);
  } finally {
    clearInterval(timer);
  }
}

/** Every answer has a verdict: under the run's row lock and the lease, the run becomes the study's screen with its outcome, audited. */
async function finishScreenRun(claim: Claim): Promise<boolean> {
  return getDb().$transaction(
    async (tx) => {
      const [run] = await tx.$queryRaw<{ id: string; studyId: string; action: "WARN" | "EXCLUDE"; rules: ScreenRule[]; judge: StoredScreenJudge; answers: number; createdById: string }[]>`
        SELECT id, "studyId", action::text AS action, rules, judge, answers, "createdById" FROM "ScreenRun"
        WHERE id = ${claim.id}::uuid AND "leaseToken" = ${claim.leaseToken}::uuid AND status = 'RUNNING' FOR UPDATE`;
      if (!run) return false;
      const outcome = await applyScreenOutcome(tx, run);
      const [counts] = await tx.$queryRaw<{ flagged: number; clear: number; unscreened: number; hits: number; ruleScreened: number }[]>`
        SELECT count(*) FILTER (WHERE flagged)::int AS flagged, count(*) FILTER (WHERE NOT flagged)::int AS clear, count(*) FILTER (WHERE flagged IS NULL)::int AS unscreened,
               (SELECT count(*)::int FROM "ScreenHit" WHERE "runId" = ${run.id}::uuid) AS hits,
               (SELECT count(DISTINCT "responseId")::int FROM "ScreenHit" WHERE "runId" = ${run.id}::uuid) AS "ruleScreened"
        FROM "ScreenVerdict" WHERE "runId" = ${run.id}::uuid`;
      await tx.screenRun.update({
        where: { id: run.id },
        data: { status: "DONE", finishedAt: new Date(), leaseToken: null, leaseExpiresAt: null, withdrawn: outcome.withdrawn.length, keptGraded: outcome.keptGraded },
      });
      await recordAudit(tx, {
        actorId: run.createdById,
        action: "screen.run",
        entityType: "ScreenRun",
        entityId: run.id,
        studyId: run.studyId,
        after: {
          action: run.action.toLowerCase(),
          rules: run.rules.map((r) => ({ name: r.name, kind: r.kind, pattern: r.pattern })),
          judge: run.judge,
          answers: run.answers,
          screenedAnswers: counts.ruleScreened,
          hits: counts.hits,
          verdicts: { flagged: counts.flagged, clear: counts.clear, couldNotScreen: counts.unscreened },
          withdrawnAssignments: outcome.withdrawn.map((w) => ({ id: w.assignmentId, status: w.status })),
          keptGradedAssignments: outcome.keptGraded,
        },
      });
      return true;
    },
    { timeout: 60_000, maxWait: 10_000 },
  );
}

/** A run that failed for a reason other than the endpoint's: stopped with its error, shown to the lead (the previous screen stays). */
async function failScreenRun(claim: Claim, message: string): Promise<void> {
  await getDb().$executeRaw`UPDATE "ScreenRun" SET status = 'FAILED', error = ${message.slice(0, 500)}, "finishedAt" = now(), "leaseToken" = NULL, "leaseExpiresAt" = NULL
    WHERE id = ${claim.id}::uuid AND "leaseToken" = ${claim.leaseToken}::uuid AND status = 'RUNNING'`;
}

async function claimAndDrive(runId?: string, fetchImpl?: typeof fetch): Promise<boolean> {
  const claim = await claimScreenRun(runId);
  if (!claim) return false;
  try {
    await driveScreenRun(claim, fetchImpl);
  } catch (err) {
    const message = err instanceof Error ? err.message.split("\n")[0] : String(err);
    logger.warn({ runId: claim.id, err: message }, "screen run failed");
    await failScreenRun(claim, message).catch(() => undefined);
  }
  return true;
}

/** Starts working on a run just created, in this process, off the request (another instance's worker takes it over if this one dies). */
export function kickScreenRun(runId: string): void {
  void claimAndDrive(runId).catch((err: unknown) => logger.warn({ runId, err: (err as Error).message }, "screen run could not start"));
}

/** The server's loop (scripts/start.ts): takes over runs whose worker stopped. */
export function startScreenWorker(opts: { pollMs?: number; fetchImpl?: typeof fetch } = {}): { stop(graceMs?: number): Promise<void> } {
  let stopping = false;
  let wake: (() => void) | null = null;
  const loop = (async () => {
    while (!stopping) {
      const worked = await claimAndDrive(undefined, opts.fetchImpl).catch(() => false);
      if (!worked && !stopping) {
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, opts.pollMs ?? 5000);
          wake = () => {
            clearTimeout(t);
            resolve();
          };
        });
      }
    }
  })();
  return {
    /** Stops taking runs; a run in hand is left to its lease after `graceMs` (another instance takes it over). */
    async stop(graceMs = 10_000) {
      stopping = true;
      wake?.();
      await Promise.race([loop, sleep(graceMs)]);
    },
  };
}
