import type { Tx } from "@/lib/db/client";
import { writeJudgeScores } from "@/lib/judges/write";
import type { JudgeRowInput } from "@/lib/judges/validate";
import { ApiError } from "@/lib/errors/api-error";
import type { JudgedScore } from "./judge-set";

/**
 * A set's scores go through the judges' one write path (checked against the
 * rubric, all rows in one transaction, an upsert: writing the same rows again
 * changes nothing). Logprobs give probabilities, sampling gives the samples;
 * that path derives the level, the expected score and the confidence.
 */
export async function writeRunScores(tx: Tx, run: { studyId: string; judgeId: string; createdById: string }, responseSetId: string, scores: readonly JudgedScore[]): Promise<void> {
  const set = await tx.responseSet.findUniqueOrThrow({ where: { id: responseSetId }, select: { item: { select: { externalId: true } }, model: { select: { name: true } } } });
  const rows: JudgeRowInput[] = scores.map((s) => ({
    itemId: set.item.externalId,
    model: set.model.name,
    repetition: s.repetition,
    rubric: s.rubric,
    dimension: s.dimension,
    ...(s.samples ? { samples: s.samples } : { probabilities: s.probabilities }),
  }));
  try {
    await writeJudgeScores({ studyId: run.studyId, judgeId: run.judgeId, rows, actorId: run.createdById, tx });
  } catch (err) {
    // The write path's 422 lists each problem: the task's error says the first ones.
    if (err instanceof ApiError) {
      const details = (err.details as { errors?: { column: string | null; message: string }[] } | undefined)?.errors ?? [];
      throw new Error([err.message, ...details.slice(0, 3).map((d) => `${d.column ?? ""}: ${d.message}`)].join("; "));
    }
    throw err;
  }
}
