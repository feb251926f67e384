import { recordAudit } from "@/lib/audit/record";
import { getDb } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";
import { runInWorker } from "@/lib/workers/run";
import type { ScreenActionKey, ScreeningResultBody, ScreenRequestBody } from "./contract";
import type { ScreenJob, ScreenJobResult } from "./job";
import { ruleTooSlow, screenBudgetMs } from "./match";
import type { ScreenRule } from "./rules";

/**
 * The safety screen: the lead's rules run over every answer of the study in a
 * worker thread (./job.ts), so a slow rule holds neither the event loop nor
 * anyone else's request; the run and its hits are stored and audited here.
 * The study's latest run is its screen: what assignment (lib/assignment) and
 * the grader's view (lib/grading) read through ./sql.ts.
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
  rule: number;
  matches: number;
  excerpt: string;
  assigned: boolean;
}

/** The hits (a relation of responseId, rule, matches, excerpt) with what the lead reads beside them. */
async function describeHits(hits: Prisma.Sql): Promise<HitRow[]> {
  return getDb().$queryRaw<HitRow[]>`
    SELECT h."responseId", r."responseSetId", q."externalId", m.name AS model, r.repetition, h.rule, h.matches, h.excerpt,
           EXISTS (SELECT 1 FROM "Assignment" a WHERE a."responseSetId" = r."responseSetId" AND a.status <> 'CANCELLED') AS assigned
    FROM (${hits}) h
    JOIN "Response" r ON r.id = h."responseId"
    JOIN "ResponseSet" rs ON rs.id = r."responseSetId"
    JOIN "QaItem" q ON q.id = rs."itemId"
    JOIN "LlmModel" m ON m.id = rs."modelId"
    ORDER BY q."externalId", m.name, r.repetition, h.rule`;
}

function resultOf(
  run: { id: string | null; action: ScreenActionKey; rules: ScreenRule[]; answers: number; ranBy: { id: string; name: string }; ranAt: Date },
  rows: HitRow[],
): ScreeningResultBody {
  const answers = new Map<string, ScreeningResultBody["answers"][number]>();
  const sets = new Set<string>();
  const assigned = new Set<string>();
  for (const h of rows) {
    let a = answers.get(h.responseId);
    if (!a) {
      a = { responseId: h.responseId, responseSetId: h.responseSetId, externalId: h.externalId, model: h.model, repetition: h.repetition, hits: [] };
      answers.set(h.responseId, a);
    }
    a.hits.push({ rule: h.rule, name: run.rules[h.rule]?.name ?? `rule ${h.rule + 1}`, matches: h.matches, excerpt: h.excerpt });
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
      ranBy: run.ranBy,
      ranAt: run.ranAt.toISOString(),
    },
    answers: [...answers.values()],
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

export async function runScreen(studyId: string, body: ScreenRequestBody, actor: { id: string; name: string; requestId?: string | null }): Promise<ScreeningResultBody> {
  const result = await matchInWorker(studyId, body.rules);
  const c = hitColumns(result);
  const ranBy = { id: actor.id, name: actor.name };
  if (body.dryRun) {
    const rows = await describeHits(
      Prisma.sql`SELECT * FROM unnest(${c.ids}::uuid[], ${c.rules}::int[], ${c.matches}::int[], ${c.excerpts}::text[]) AS t("responseId", rule, matches, excerpt)`,
    );
    return resultOf({ id: null, action: body.action, rules: body.rules, answers: result.answers, ranBy, ranAt: new Date() }, rows);
  }
  const db = getDb();
  const run = await db.$transaction(async (tx) => {
    const created = await tx.screenRun.create({
      data: { studyId, rules: body.rules, action: body.action === "warn" ? "WARN" : "EXCLUDE", answers: result.answers, createdById: actor.id },
    });
    // Answers deleted meanwhile drop out here (the join) rather than failing the run.
    await tx.$executeRaw`
      INSERT INTO "ScreenHit" ("runId", "responseId", rule, matches, excerpt)
      SELECT ${created.id}::uuid, t.id, t.rule, t.matches, t.excerpt
      FROM unnest(${c.ids}::uuid[], ${c.rules}::int[], ${c.matches}::int[], ${c.excerpts}::text[]) AS t(id, rule, matches, excerpt)
      JOIN "Response" r ON r.id = t.id`;
    await recordAudit(tx, {
      actorId: actor.id,
      action: "screen.run",
      entityType: "ScreenRun",
      entityId: created.id,
      studyId,
      after: {
        action: body.action,
        rules: body.rules.map((r) => ({ name: r.name, kind: r.kind, pattern: r.pattern })),
        answers: result.answers,
        screenedAnswers: result.screened.length,
        hits: c.ids.length,
      },
      requestId: actor.requestId ?? null,
    });
    return created;
  });
  return (await getScreening(studyId, run.id))!;
}

/** The study's latest screen (or the run named), with every answer it screened out; null when never screened. */
export async function getScreening(studyId: string, runId?: string): Promise<ScreeningResultBody | null> {
  const run = await getDb().screenRun.findFirst({
    where: { studyId, ...(runId ? { id: runId } : {}) },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    include: { createdBy: { select: { id: true, name: true } } },
  });
  if (!run) return null;
  const rows = await describeHits(Prisma.sql`SELECT "responseId", rule, matches, excerpt FROM "ScreenHit" WHERE "runId" = ${run.id}::uuid`);
  return resultOf(
    { id: run.id, action: run.action === "WARN" ? "warn" : "exclude", rules: run.rules as ScreenRule[], answers: run.answers, ranBy: run.createdBy, ranAt: run.createdAt },
    rows,
  );
}
