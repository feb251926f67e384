import { getDb } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";
import { recordAudit } from "@/lib/audit/record";
import { ApiError } from "@/lib/errors/api-error";
import type { JudgeInput } from "./contract";
import { readJudgeCsv, readJudgeJson, type ReadRows } from "./read";
import { judgeRowsRejected, requireStudyJudge, writeJudgeScores, type WriteJudgeScoresResult } from "./write";

export const JUDGE_SCORES_MAX_BYTES = 20_000_000;

export async function createJudge(actor: { id: string; requestId?: string }, studyId: string, input: JudgeInput): Promise<{ id: string }> {
  const db = getDb();
  try {
    return await db.$transaction(async (tx) => {
      const judge = await tx.automatedJudge.create({
        data: {
          studyId,
          name: input.name,
          kind: input.kind,
          model: input.model,
          version: input.version,
          prompt: input.prompt,
          settings: input.settings ?? Prisma.JsonNull,
          createdById: actor.id,
        },
        select: { id: true },
      });
      await recordAudit(tx, {
        actorId: actor.id,
        action: "judge.create",
        entityType: "AutomatedJudge",
        entityId: judge.id,
        studyId,
        after: { name: input.name, model: input.model, version: input.version },
        requestId: actor.requestId ?? null,
      });
      return judge;
    });
  } catch (e) {
    if (e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2002") throw new ApiError(409, `the study has a judge named "${input.name}" already`);
    throw e;
  }
}

export async function listJudges(studyId: string) {
  const db = getDb();
  const [judges, counts, study] = await Promise.all([
    db.automatedJudge.findMany({ where: { studyId }, orderBy: { createdAt: "asc" } }),
    db.judgeScore.groupBy({ by: ["judgeId"], where: { judge: { studyId } }, _count: { _all: true } }),
    db.study.findUniqueOrThrow({ where: { id: studyId }, select: { hybridJudgeId: true } }),
  ]);
  const n = new Map(counts.map((c) => [c.judgeId, c._count._all]));
  return judges.map((j) => ({
    id: j.id,
    name: j.name,
    kind: j.kind,
    model: j.model,
    version: j.version,
    prompt: j.prompt,
    settings: j.settings,
    createdAt: j.createdAt.toISOString(),
    scores: n.get(j.id) ?? 0,
    hybrid: study.hybridJudgeId === j.id,
  }));
}

/**
 * Reads a CSV or JSON body of judge scores and writes them through the one write path.
 * `judgeId` null: a dry run for a judge not registered yet (the form checks a file
 * before it creates the judge, so a check writes nothing at all).
 */
export async function importJudgeScores(opts: {
  studyId: string;
  judgeId: string | null;
  contentType: string | null;
  text: string;
  actorId: string;
  requestId?: string;
  dryRun?: boolean;
}): Promise<WriteJudgeScoresResult> {
  if (opts.judgeId === null && !opts.dryRun) throw new ApiError(400, "register the judge first: only a check (dryRun=1) runs without one");
  if (opts.judgeId !== null) await requireStudyJudge(getDb(), opts.studyId, opts.judgeId);
  const type = (opts.contentType ?? "").split(";")[0].trim().toLowerCase();
  let read: ReadRows;
  if (type === "text/csv" || type === "text/plain") read = readJudgeCsv(opts.text);
  else if (type === "application/json") {
    let value: unknown;
    try {
      value = JSON.parse(opts.text);
    } catch {
      throw new ApiError(400, "the body is not valid JSON");
    }
    read = readJudgeJson(value);
  } else throw new ApiError(415, "send text/csv or application/json");
  const lineOf = new Map(read.rowNumbers.map((r, i) => [r, read.lines[i]]));
  if (read.problems.some((p) => p.row === 0)) throw judgeRowsRejected(read.problems, "the header or the body is not right; nothing was written");
  try {
    const result = await writeJudgeScores({
      studyId: opts.studyId,
      judgeId: opts.judgeId,
      rows: read.rows,
      rowNumber: (i) => read.rowNumbers[i],
      actorId: opts.actorId,
      requestId: opts.requestId,
      // Reading problems still let the rows be checked, so the 422 lists everything at once.
      dryRun: opts.dryRun || read.problems.length > 0,
    });
    if (read.problems.length) throw judgeRowsRejected(read.problems);
    return result;
  } catch (e) {
    if (e instanceof ApiError && e.status === 422 && read.problems.length) {
      const merged = [...read.problems, ...((e.details as { errors: typeof read.problems }).errors ?? [])];
      throw judgeRowsRejected(withLines(merged, lineOf));
    }
    if (e instanceof ApiError && e.status === 422) throw judgeRowsRejected(withLines((e.details as { errors: typeof read.problems }).errors, lineOf), e.message);
    throw e;
  }
}

function withLines<T extends { row: number; line?: number }>(problems: T[], lineOf: Map<number, number | undefined>): T[] {
  return problems.map((p) => (p.line === undefined && lineOf.get(p.row) !== undefined ? { ...p, line: lineOf.get(p.row) } : p));
}
