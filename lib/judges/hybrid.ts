import { getDb } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";
import { recordAudit } from "@/lib/audit/record";
import type { RubricDocument } from "@/lib/rubrics/document";
import { storedRubrics } from "@/lib/rubrics/study-rubrics";
import { repetitionsOf } from "@/lib/scoring/rubric-values";
import { ApiError } from "@/lib/server/errors";
import { requireStudyJudge } from "./write";

/**
 * Hybrid study mode (paper 002, "Deferral and hybrid"): the lead picks a judge
 * and a confidence cutoff before assigning graders. A set whose every
 * judgment (every gradable dimension of every rubric, at every answer it is
 * graded on) has a confidence at or above the cutoff takes the judge's scores
 * as final (ResponseSet.finalJudgeId); any other set (a judgment below the
 * cutoff, without a confidence, or missing) goes to clinicians through the
 * normal blinded assignment, which skips judged sets. Chosen before any
 * assignment, so no clinician's work is ever overridden; the judge's scores
 * are then frozen (lib/judges/write.ts refuses changes).
 */

export interface HybridInput {
  judgeId: string | null;
  cutoff?: number;
}

export interface HybridResult {
  judgeId: string | null;
  cutoff: number | null;
  /** Sets whose final scores are the judge's. */
  judgedSets: number;
  /** Sets that go to clinicians. */
  clinicianSets: number;
}

/** The (rubric, dimension, repetition) cells a judge must have scored for a set to be judged. */
export function requiredCells(rubrics: readonly RubricDocument[], n: number): string[] {
  return rubrics.flatMap((doc) =>
    doc.dimensions.filter((d) => d.scale.kind !== "criteria" && !d.derived).flatMap((d) => repetitionsOf(d, n).map((r) => `${doc.key}/${d.key}/${r}`)),
  );
}

/** Which sets the judge decides: every required cell present with confidence >= cutoff. Pure. */
export function judgedSetIds(
  setIds: readonly string[],
  judgments: readonly { responseSetId: string; rubric: string; dimension: string; repetition: number; confidence: number | null }[],
  required: readonly string[],
  cutoff: number,
): Set<string> {
  const confident = new Map<string, Set<string>>();
  const below = new Set<string>();
  for (const j of judgments) {
    if (j.confidence === null || j.confidence < cutoff - 1e-12) below.add(j.responseSetId);
    else (confident.get(j.responseSetId) ?? confident.set(j.responseSetId, new Set()).get(j.responseSetId)!).add(`${j.rubric}/${j.dimension}/${j.repetition}`);
  }
  return new Set(setIds.filter((id) => !below.has(id) && required.every((c) => confident.get(id)?.has(c))));
}

export async function setHybridMode(actor: { id: string; requestId?: string }, studyId: string, input: HybridInput): Promise<HybridResult> {
  if (input.judgeId !== null) await requireStudyJudge(getDb(), studyId, input.judgeId);
  return getDb().$transaction(
    async (tx) => {
      const [study] = await tx.$queryRaw<{ rubrics: unknown; repetitions: number; status: string; hybridJudgeId: string | null; hybridCutoff: number | null }[]>(
        Prisma.sql`SELECT rubrics, repetitions, status::text AS status, "hybridJudgeId", "hybridCutoff" FROM "Study" WHERE id = ${studyId}::uuid FOR UPDATE`,
      );
      if (study.status === "CLOSED") throw new ApiError(409, "the study is closed");
      const assigned = await tx.assignment.count({ where: { studyId, status: { not: "CANCELLED" } } });
      if (assigned > 0) throw new ApiError(409, `graders are assigned already (${assigned} assignments): choose hybrid mode before assigning, so no clinician's work is overridden`);
      await tx.responseSet.updateMany({ where: { studyId, finalJudgeId: { not: null } }, data: { finalJudgeId: null } });
      const sets = await tx.responseSet.findMany({ where: { studyId }, select: { id: true } });
      let judged = new Set<string>();
      if (input.judgeId !== null) {
        const judgments = await tx.judgeScore.findMany({ where: { judgeId: input.judgeId, responseSet: { studyId } }, select: { responseSetId: true, rubric: true, dimension: true, repetition: true, confidence: true } });
        judged = judgedSetIds(sets.map((s) => s.id), judgments, requiredCells(storedRubrics(study.rubrics), study.repetitions), input.cutoff!);
        if (judged.size) await tx.responseSet.updateMany({ where: { id: { in: [...judged] } }, data: { finalJudgeId: input.judgeId } });
      }
      const cutoff = input.judgeId === null ? null : input.cutoff!;
      await tx.study.update({ where: { id: studyId }, data: { hybridJudgeId: input.judgeId, hybridCutoff: cutoff } });
      const result = { judgeId: input.judgeId, cutoff, judgedSets: judged.size, clinicianSets: sets.length - judged.size };
      await recordAudit(tx, {
        actorId: actor.id,
        action: "study.hybrid",
        entityType: "Study",
        entityId: studyId,
        studyId,
        before: { judgeId: study.hybridJudgeId, cutoff: study.hybridCutoff },
        after: result,
        requestId: actor.requestId ?? null,
      });
      return result;
    },
    { timeout: 60_000 },
  );
}
