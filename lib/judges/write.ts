import { getDb, type Tx } from "@/lib/db/client";
import { isUuid } from "@/lib/db/uuid";
import { Prisma } from "@/lib/generated/prisma/client";
import { recordAudit } from "@/lib/audit/record";
import { storedRubrics } from "@/lib/rubrics/study-rubrics";
import { ApiError } from "@/lib/errors/api-error";
import { setKey, validateJudgeRows, type JudgeRowInput, type JudgeRowProblem, type Judgment } from "./validate";

/**
 * The one write path of judge scores: the import (CSV or JSON) and the runner
 * both come here. Every row is checked against the study's rubric documents
 * first; then all are written in one transaction or none is. Writing the same
 * rows again changes nothing (an upsert on judge x answer x rubric x dimension
 * x repetition that skips rows whose values are equal).
 */

export const MAX_PROBLEMS = 1000;

export interface WriteJudgeScoresInput {
  studyId: string;
  /** null: check a file for a judge not registered yet (dry run only). */
  judgeId: string | null;
  rows: ReadonlyArray<JudgeRowInput>;
  /** Row numbers for problems (a CSV's data rows, the runner's own ids); index + 1 by default. */
  rowNumber?: (i: number) => number;
  actorId?: string | null;
  requestId?: string | null;
  /** Check only: nothing is written. */
  dryRun?: boolean;
  /** Write inside this transaction (the runner's, which settles its task under the same locks) instead of one of its own. */
  tx?: Tx;
}

export interface WriteJudgeScoresResult {
  judgeId: string | null;
  rows: number;
  created: number;
  updated: number;
  unchanged: number;
  /** Rows whose probabilities summed to 1 within 1e-6 but not exactly: divided by their sum. */
  renormalised: number;
  dryRun: boolean;
}

/** 422 listing each problem (the first 1,000, by row). */
export function judgeRowsRejected(problems: JudgeRowProblem[], message?: string): ApiError {
  const sorted = [...problems].sort((a, b) => a.row - b.row).slice(0, MAX_PROBLEMS);
  const n = problems.length;
  return new ApiError(422, message ?? `${n.toLocaleString("en")} problem${n === 1 ? "" : "s"} in the judge's scores; nothing was written`, { errors: sorted, total: n });
}

/** The judge, if it is one of this study's; a 422 naming the id otherwise (another study's judge looks the same as none). */
export async function requireStudyJudge(db: Tx | ReturnType<typeof getDb>, studyId: string, judgeId: string, lock = false) {
  const notHere = () => judgeRowsRejected([{ row: 0, column: "judgeId", message: `${judgeId} is not a judge of this study` }], "unknown judge");
  if (!isUuid(judgeId)) throw notHere();
  const rows = await db.$queryRaw<{ id: string; studyId: string }[]>(
    lock
      ? Prisma.sql`SELECT id, "studyId" FROM "AutomatedJudge" WHERE id = ${judgeId}::uuid AND "studyId" = ${studyId}::uuid FOR UPDATE`
      : Prisma.sql`SELECT id, "studyId" FROM "AutomatedJudge" WHERE id = ${judgeId}::uuid AND "studyId" = ${studyId}::uuid`,
  );
  if (rows.length === 0) throw notHere();
  return rows[0];
}

async function loadStudyAnswers(tx: Tx, studyId: string) {
  const study = await tx.study.findUniqueOrThrow({ where: { id: studyId }, select: { rubrics: true, repetitions: true, hybridJudgeId: true } });
  const sets = await tx.$queryRaw<{ id: string; item: string; model: string }[]>`
    SELECT rs.id, q."externalId" AS item, m.name AS model
    FROM "ResponseSet" rs JOIN "QaItem" q ON q.id = rs."itemId" JOIN "LlmModel" m ON m.id = rs."modelId"
    WHERE rs."studyId" = ${studyId}::uuid`;
  const [items, models] = await Promise.all([
    tx.qaItem.findMany({ where: { studyId }, select: { externalId: true } }),
    tx.llmModel.findMany({ where: { studyId }, select: { name: true } }),
  ]);
  return {
    hybridJudgeId: study.hybridJudgeId,
    answers: {
      repetitions: study.repetitions,
      rubrics: storedRubrics(study.rubrics),
      sets: new Map(sets.map((s) => [setKey(s.item, s.model), s.id])),
      items: new Set(items.map((i) => i.externalId)),
      models: new Set(models.map((m) => m.name)),
    },
  };
}

const CHUNK = 2000;

/** Upserts the judgments; returns how many rows were inserted and how many changed. */
async function upsert(tx: Tx, judgeId: string, judgments: Judgment[]): Promise<{ created: number; updated: number }> {
  let created = 0;
  let updated = 0;
  for (let i = 0; i < judgments.length; i += CHUNK) {
    const chunk = judgments.slice(i, i + CHUNK);
    // One statement per chunk: the rows travel as one JSON array.
    const res = await tx.$queryRaw<{ inserted: boolean }[]>`
      INSERT INTO "JudgeScore" (id, "judgeId", "responseSetId", rubric, dimension, repetition, score, category, na, probabilities, "expectedScore", samples, confidence, rationale)
      SELECT gen_random_uuid(), ${judgeId}::uuid, x."responseSetId"::uuid, x.rubric, x.dimension, x.repetition, x.score, x.category, x.na, x.probabilities, x."expectedScore", x.samples, x.confidence, x.rationale
      FROM jsonb_to_recordset(${JSON.stringify(chunk)}::jsonb) AS x("responseSetId" text, rubric text, dimension text, repetition int, score int, category text, na boolean,
        probabilities jsonb, "expectedScore" double precision, samples jsonb, confidence double precision, rationale text)
      ON CONFLICT ("judgeId", "responseSetId", rubric, dimension, repetition) DO UPDATE SET
        score = EXCLUDED.score, category = EXCLUDED.category, na = EXCLUDED.na, probabilities = EXCLUDED.probabilities,
        "expectedScore" = EXCLUDED."expectedScore", samples = EXCLUDED.samples, confidence = EXCLUDED.confidence,
        rationale = EXCLUDED.rationale, "updatedAt" = now()
      WHERE ("JudgeScore".score, "JudgeScore".category, "JudgeScore".na, "JudgeScore".probabilities, "JudgeScore"."expectedScore",
             "JudgeScore".samples, "JudgeScore".confidence, "JudgeScore".rationale)
        IS DISTINCT FROM (EXCLUDED.score, EXCLUDED.category, EXCLUDED.na, EXCLUDED.probabilities, EXCLUDED."expectedScore",
             EXCLUDED.samples, EXCLUDED.confidence, EXCLUDED.rationale)
      RETURNING (xmax = 0) AS inserted`;
    for (const r of res) {
      if (r.inserted) created++;
      else updated++;
    }
  }
  return { created, updated };
}

/**
 * Checks and writes a judge's scores for a study: all rows or none (422
 * listing each problem). 409 when the judge's scores are already final on
 * some sets of a hybrid study (changing them would change the results).
 */
export async function writeJudgeScores(input: WriteJudgeScoresInput): Promise<WriteJudgeScoresResult> {
  const { studyId, judgeId, rows } = input;
  if (rows.length === 0) throw judgeRowsRejected([{ row: 0, column: null, message: "no rows: send at least one judgment" }]);
  if (judgeId === null && !input.dryRun) throw new ApiError(400, "register the judge first: only a check runs without one");
  const body = async (tx: Tx): Promise<WriteJudgeScoresResult> => {
      if (judgeId !== null) await requireStudyJudge(tx, studyId, judgeId, true);
      const { hybridJudgeId, answers } = await loadStudyAnswers(tx, studyId);
      const checked = validateJudgeRows(rows, answers, input.rowNumber);
      if (checked.problems.length) throw judgeRowsRejected(checked.problems);
      if (judgeId !== null && hybridJudgeId === judgeId) {
        const final = await tx.responseSet.count({ where: { studyId, finalJudgeId: judgeId } });
        if (final > 0) throw new ApiError(409, `this judge's scores are final on ${final} set${final === 1 ? "" : "s"} of the study (hybrid mode): they cannot change`);
      }
      const base = { judgeId, rows: rows.length, renormalised: checked.renormalised, dryRun: !!input.dryRun };
      if (input.dryRun || judgeId === null) return { ...base, created: 0, updated: 0, unchanged: 0 };
      const { created, updated } = await upsert(tx, judgeId, checked.judgments);
      const unchanged = checked.judgments.length - created - updated;
      if (created + updated > 0) {
        await recordAudit(tx, {
          actorId: input.actorId ?? null,
          action: "judge.scores",
          entityType: "AutomatedJudge",
          entityId: judgeId,
          studyId,
          after: { rows: rows.length, created, updated, unchanged },
          requestId: input.requestId ?? null,
        });
      }
      return { ...base, created, updated, unchanged };
  };
  return input.tx ? body(input.tx) : getDb().$transaction(body, { timeout: 120_000, maxWait: 10_000 });
}
