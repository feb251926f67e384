import type { Prisma } from "@/lib/generated/prisma/client";
import type { JudgedScore } from "./judge-set";

/**
 * Writes a set's scores in the settling transaction. Until the judges
 * feature's write path is merged, rows go straight into JudgeScore.
 */
export async function writeRunScores(tx: Prisma.TransactionClient, judgeId: string, scores: readonly JudgedScore[]): Promise<void> {
  await tx.judgeScore.createMany({
    data: scores.map((s) => ({
      judgeId,
      responseSetId: s.responseSetId,
      rubric: s.rubric,
      dimension: s.dimension,
      repetition: s.repetition,
      score: typeof s.value === "number" ? s.value : 0,
      probabilities: s.probabilities,
    })),
  });
}
