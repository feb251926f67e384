import { recordAudit } from "@/lib/audit/record";
import { getDb } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";
import { runInWorker } from "@/lib/workers/run";
import { ApiError } from "@/lib/errors/api-error";
import type { ScreenActionKey, ScreeningResultBody, ScreenRequestBody } from "./contract";
import type { ScreenJob, ScreenJobResult } from "./job";
import { DEFAULT_SCREEN_PROMPT } from "./judge-prompt";
import { kickScreenRun, type StoredScreenJudge } from "./judge-run";
import { ruleTooSlow, screenBudgetMs } from "./match";
import { applyScreenOutcome, type ScreenOutcome } from "./outcome";
import type { ScreenRule } from "./rules";

/**
 * The safety screen: the lead's rules run over every answer of the study in a
 * worker thread (./job.ts), so a slow rule holds neither the event loop nor
 * anyone else's request; the run and its hits are stored and audited here.
 * A run with an automated judge is stored RUNNING and worked on in the
 * background (./judge-run.ts); it becomes the screen when it is done. The
 * study's latest finished run is its screen: what assignment (lib/assignment)
 * and the grader's view (lib/grading) read through ./sql.ts. One run at a
 * time per study.
 */

const WATCH_MS = 50;

/**
 * Runs the job, stopping its thread when a single match outlasts the whole
 * budget: the thread, busy in that match, cannot check its own time.
 */
async function matchInWorker(studyId: string, rules: ScreenRule[]): Promise<ScreenJobResult> {
  const budgetMs = screenBudgetMs();
  const progress = new SharedArrayBuffer(8);
  const view = new Int32Array(progress);
  const stop = new AbortController();
  let seen = -1;
  let since = performance.now();
  const watch = setInterval(() => {
    const rule = Atomics.load(view, 0);
    const seq = Atomics.load(view, 1);
    if (rule === 0 || seq !== seen) {
      seen = seq;
      since = performance.now();
    } else if (performance.now() - since > budgetMs) stop.abort(ruleTooSlow(rules, rule - 1, budgetMs));
  }, WATCH_MS);
  try {
    return await runInWorker<ScreenJobResult>("screen", { studyId, rules, budgetMs, progress } satisfies ScreenJob, [], stop.signal);
  } finally {
    clearInterval(watch);
  }
}

interface HitRow {
  responseId: string;
  responseSetId: string;
  externalId: string;
  model: string;
  repetition: number;
  rule: number | null;
  matches: number | null;
  excerpt: string | null;
  reason: string | null;
  assigned: boolean;
}

/** The hits (a relation of responseId, rule, matches, excerpt, reason) with what the lead reads beside them. */
async function describeHits(hits: Prisma.Sql): Promise<HitRow[]> {
  return getDb().$queryRaw<HitRow[]>`
    SELECT h."responseId", r."responseSetId", q."externalId", m.name AS model, r.repetition, h.rule, h.matches, h.excerpt, h.reason,
           EXISTS (SELECT 1 FROM "Assignment" a WHERE a."responseSetId" = r."responseSetId" AND a.status <> 'CANCELLED') AS assigned
    FROM (${hits}) h
    JOIN "Response" r ON r.id = h."responseId"
    JOIN "ResponseSet" rs ON rs.id = r."responseSetId"
    JOIN "QaItem" q ON q.id = rs."itemId"
    JOIN "LlmModel" m ON m.id = rs."modelId"
    ORDER BY q."externalId", m.name, r.repetition, h.rule NULLS LAST`;
}

type UnscreenedRow = ScreeningResultBody["unscreened"][number];

async function describeUnscreened(runId: string): Promise<UnscreenedRow[]> {
  return getDb().$queryRaw<UnscreenedRow[]>`
    SELECT v."responseId", r."responseSetId", q."externalId", m.name AS model, r.repetition, v.reason AS error
    FROM "ScreenVerdict" v
    JOIN "Response" r ON r.id = v."responseId"
    JOIN "ResponseSet" rs ON rs.id = r."responseSetId"
    JOIN "QaItem" q ON q.id = rs."itemId"
    JOIN "LlmModel" m ON m.id = rs."modelId"
    WHERE v."runId" = ${runId}::uuid AND v.flagged IS NULL
    ORDER BY q."externalId", m.name, r.repetition`;
}

interface RunFacts {
  id: string | null;
  action: ScreenActionKey;
  rules: ScreenRule[];
  answers: number;
  judge: StoredScreenJudge | null;
  judgedAnswers: number;
  withdrawn: number;
  keptGraded: number;
  ranBy: { id: string; name: string };
  ranAt: Date;
}

export const JUDGE_HIT_NAME = "Automated judge";

function resultOf(run: RunFacts, rows: HitRow[], unscreened: UnscreenedRow[]): ScreeningResultBody {
  const answers = new Map<string, ScreeningResultBody["answers"][number]>();
  const sets = new Set<string>();
  const assigned = new Set<string>();
  for (const h of rows) {
    let a = answers.get(h.responseId);
    if (!a) {
      a = { responseId: h.responseId, responseSetId: h.responseSetId, externalId: h.externalId, model: h.model, repetition: h.repetition, hits: [] };
      answers.set(h.responseId, a);
    }
    a.hits.push(
      h.rule === null
        ? { source: "judge", rule: null, name: JUDGE_HIT_NAME, matches: null, excerpt: null, reason: h.reason }
        : { source: "rule", rule: h.rule, name: run.rules[h.rule]?.name ?? `rule ${h.rule + 1}`, matches: h.matches, excerpt: h.excerpt, reason: null },
    );
    sets.add(h.responseSetId);
    if (h.assigned) assigned.add(h.responseSetId);
  }
  return {
    dryRun: run.id === null,
    run: {
      id: run.id,
      action: run.action,
      rules: run.rules,
      answers: run.answers,
      screenedAnswers: answers.size,
      screenedSets: sets.size,
      assignedSets: assigned.size,
      judge: run.judge,
      judgedAnswers: run.judgedAnswers,
      unscreenedAnswers: unscreened.length,
      withdrawnAssignments: run.withdrawn,
      keptGradedAssignments: run.keptGraded,
      ranBy: run.ranBy,
      ranAt: run.ranAt.toISOString(),
    },
    answers: [...answers.values()],
    unscreened,
    inProgress: null,
  };
}

/** The hits as columns, for one statement however many there are. */
function hitColumns(result: ScreenJobResult) {
  const ids: string[] = [];
  const rules: number[] = [];
  const matches: number[] = [];
  const excerpts: string[] = [];
  for (const a of result.screened) {
    for (const h of a.hits) {
      ids.push(a.responseId);
      rules.push(h.rule);
      matches.push(h.matches);
      excerpts.push(h.excerpt);
    }
  }
  return { ids, rules, matches, excerpts };
}

/** What the audit log keeps of an outcome: counts, and which assignments were withdrawn (ids, no grader's work). */
export function auditedOutcome(o: ScreenOutcome) {
  return { withdrawnAssignments: o.withdrawn.map((w) => ({ id: w.assignmentId, status: w.status })), keptGradedAssignments: o.keptGraded };
}

const auditedRules = (rules: ScreenRule[]) => rules.map((r) => ({ name: r.name, kind: r.kind, pattern: r.pattern, ...(r.ignoreCase ? { ignoreCase: true } : {}) }));

async function countAnswers(studyId: string): Promise<number> {
  const [{ n }] = await getDb().$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM "Response" r JOIN "ResponseSet" rs ON rs.id = r."responseSetId" WHERE rs."studyId" = ${studyId}::uuid`;
  return n;
}

export async function runScreen(studyId: string, body: ScreenRequestBody, actor: { id: string; name: string; requestId?: string | null }): Promise<ScreeningResultBody> {
  const db = getDb();
  let judge: StoredScreenJudge | null = null;
  if (body.judge) {
    const endpoint = await db.judgeEndpoint.findUnique({ where: { id: body.judge.endpointId }, select: { id: true, name: true, model: true } });
    if (!endpoint) throw new ApiError(422, "invalid input", [{ path: "judge.endpointId", message: "no such endpoint: an admin sets endpoints up (GET /api/v1/judge-endpoints)" }]);
    judge = { endpointId: endpoint.id, endpoint: endpoint.name, model: endpoint.model, prompt: body.judge.prompt ?? DEFAULT_SCREEN_PROMPT };
  }
  const result = body.rules.length ? await matchInWorker(studyId, body.rules) : { answers: await countAnswers(studyId), screened: [] };
  const c = hitColumns(result);
  const ranBy = { id: actor.id, name: actor.name };
  if (body.dryRun) {
    const rows = await describeHits(
      Prisma.sql`SELECT *, NULL::text AS reason FROM unnest(${c.ids}::uuid[], ${c.rules}::int[], ${c.matches}::int[], ${c.excerpts}::text[]) AS t("responseId", rule, matches, excerpt)`,
    );
    const facts = { id: null, action: body.action, rules: body.rules, answers: result.answers, judge: null, judgedAnswers: 0, withdrawn: 0, keptGraded: 0, ranBy, ranAt: new Date() };
    return resultOf(facts, rows, []);
  }
  const run = await db.$transaction(
    async (tx) => {
      // One run at a time per study: a second while a judge works would race it to be the screen.
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${"screen:" + studyId}))`;
      const running = await tx.screenRun.findFirst({ where: { studyId, status: "RUNNING" }, select: { id: true } });
      if (running) throw new ApiError(409, `a screen with an automated judge is still running on this study (${running.id}): wait for it to finish`);
      const created = await tx.screenRun.create({
        data: {
          studyId,
          rules: body.rules,
          action: body.action === "warn" ? "WARN" : "EXCLUDE",
          answers: result.answers,
          createdById: actor.id,
          status: judge ? "RUNNING" : "DONE",
          judge: judge ? ({ ...judge } as Prisma.InputJsonObject) : Prisma.DbNull,
          finishedAt: judge ? null : new Date(),
        },
      });
      // Answers deleted meanwhile drop out here (the join) rather than failing the run.
      await tx.$executeRaw`
        INSERT INTO "ScreenHit" ("runId", "responseId", rule, matches, excerpt)
        SELECT ${created.id}::uuid, t.id, t.rule, t.matches, t.excerpt
        FROM unnest(${c.ids}::uuid[], ${c.rules}::int[], ${c.matches}::int[], ${c.excerpts}::text[]) AS t(id, rule, matches, excerpt)
        JOIN "Response" r ON r.id = t.id`;
      const summary = { action: body.action, rules: auditedRules(body.rules), judge, answers: result.answers, screenedAnswers: result.screened.length, hits: c.ids.length };
      if (judge) {
        await recordAudit(tx, { actorId: actor.id, action: "screen.start", entityType: "ScreenRun", entityId: created.id, studyId, after: summary, requestId: actor.requestId ?? null });
        return created;
      }
      const outcome = await applyScreenOutcome(tx, created);
      await tx.screenRun.update({ where: { id: created.id }, data: { withdrawn: outcome.withdrawn.length, keptGraded: outcome.keptGraded } });
      await recordAudit(tx, {
        actorId: actor.id,
        action: "screen.run",
        entityType: "ScreenRun",
        entityId: created.id,
        studyId,
        after: { ...summary, ...auditedOutcome(outcome) },
        requestId: actor.requestId ?? null,
      });
      return created;
    },
    { timeout: 60_000, maxWait: 10_000 },
  );
  if (judge) kickScreenRun(run.id);
  return getScreening(studyId, judge ? undefined : run.id);
}

const runInclude = { createdBy: { select: { id: true, name: true } }, _count: { select: { verdicts: true } } } as const;

/**
 * The study's latest finished screen (or the run named), with every answer it
 * screened out and every answer its judge could not screen, and the run in
 * progress if there is one; run: null when never screened.
 */
export async function getScreening(studyId: string, runId?: string): Promise<ScreeningResultBody> {
  const db = getDb();
  const [run, pending] = await Promise.all([
    db.screenRun.findFirst({ where: { studyId, status: "DONE", ...(runId ? { id: runId } : {}) }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], include: runInclude }),
    db.screenRun.findFirst({ where: { studyId, status: "RUNNING" }, include: runInclude }),
  ]);
  const inProgress = pending
    ? {
        id: pending.id,
        judge: pending.judge as unknown as StoredScreenJudge,
        answers: pending.answers,
        judgedAnswers: pending._count.verdicts,
        ranBy: pending.createdBy,
        ranAt: pending.createdAt.toISOString(),
      }
    : null;
  if (!run) return { dryRun: false, run: null, answers: [], unscreened: [], inProgress };
  const [rows, unscreened] = await Promise.all([
    describeHits(Prisma.sql`SELECT "responseId", rule, matches, excerpt, NULL::text AS reason FROM "ScreenHit" WHERE "runId" = ${run.id}::uuid
      UNION ALL SELECT "responseId", NULL::int, NULL::int, NULL::text, reason FROM "ScreenVerdict" WHERE "runId" = ${run.id}::uuid AND flagged`),
    describeUnscreened(run.id),
  ]);
  const facts: RunFacts = {
    id: run.id,
    action: run.action === "WARN" ? "warn" : "exclude",
    rules: run.rules as ScreenRule[],
    answers: run.answers,
    judge: (run.judge as unknown as StoredScreenJudge | null) ?? null,
    judgedAnswers: run._count.verdicts,
    withdrawn: run.withdrawn,
    keptGraded: run.keptGraded,
    ranBy: run.createdBy,
    ranAt: run.createdAt,
  };
  return { ...resultOf(facts, rows, unscreened), inProgress };
}
