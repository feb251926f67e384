import { getDb } from "@/lib/db/client";
import type { SetStatus } from "@/lib/generated/prisma/enums";
import { RUBRICS, type RubricKey } from "@/lib/rubrics/definitions";
import { finalDimensionValues, type GraderRubricValues } from "@/lib/scoring/escalation";
import { graderDimensionValues, rubricTotal, safeLlmOverallValues, type DimensionValues, type ScoreCell } from "@/lib/scoring/grader-values";

/**
 * Final scores of response sets, exactly as the papers define them: per
 * dimension, the mean over all the set's graders (the k primaries, plus the
 * adjudicator once they have submitted) of each grader's value (SAFE-LLM
 * per-answer domains: that grader's mean over the N answers). They exist only
 * for sets that are agreed or adjudicated. Unblinded: for leads only.
 */
export interface SetResult {
  id: string;
  itemId: string;
  externalId: string;
  specialty: string;
  model: { id: string; name: string; version: string };
  status: SetStatus;
  graders: number;
  finalScores: Partial<Record<RubricKey, DimensionValues>> | null;
  totals: {
    SCORE?: { total: number; percent: number };
    SAFE_LLM?: { perAnswer: number; overall: number; headline: number };
  } | null;
}

export async function computeSetResults(studyId: string, filter: { status?: SetStatus } = {}): Promise<SetResult[]> {
  const db = getDb();
  const study = await db.study.findUniqueOrThrow({ where: { id: studyId }, select: { rubrics: true, repetitions: true, safeLlmScoring: true } });
  const sets = await db.responseSet.findMany({
    where: { studyId, ...(filter.status ? { status: filter.status } : {}) },
    orderBy: [{ item: { externalId: "asc" } }, { model: { name: "asc" } }],
    select: {
      id: true,
      status: true,
      item: { select: { id: true, externalId: true, specialty: { select: { name: true } } } },
      model: { select: { id: true, name: true, version: true } },
      assignments: {
        where: { status: "SUBMITTED" },
        select: { kind: true, grades: { select: { rubric: true, dimension: true, repetition: true, score: true } } },
      },
    },
  });
  const n = study.repetitions;
  return sets.map((s) => {
    const final = s.status === "AGREED" || s.status === "ADJUDICATED";
    const graders = s.assignments;
    let finalScores: SetResult["finalScores"] = null;
    let totals: SetResult["totals"] = null;
    if (final && graders.length > 0) {
      const values: GraderRubricValues[] = graders.map((a) => Object.fromEntries(study.rubrics.map((r) => [r, graderDimensionValues(r, a.grades as ScoreCell[], n)])));
      finalScores = Object.fromEntries(study.rubrics.map((r) => [r, finalDimensionValues(values, r)]));
      totals = {};
      if (study.rubrics.includes("SCORE")) {
        const total = rubricTotal("SCORE", finalScores.SCORE!)!;
        totals.SCORE = { total, percent: (100 * total) / RUBRICS.SCORE.maxTotal };
      }
      if (study.rubrics.includes("SAFE_LLM")) {
        const perAnswer = rubricTotal("SAFE_LLM", finalScores.SAFE_LLM!)!;
        // The overall (best-answer) score per grader, then the mean over graders.
        const overallPerGrader = graders.map((a) => rubricTotal("SAFE_LLM", safeLlmOverallValues(a.grades as ScoreCell[], n))!);
        const overall = overallPerGrader.reduce((x, y) => x + y, 0) / overallPerGrader.length;
        totals.SAFE_LLM = { perAnswer, overall, headline: study.safeLlmScoring === "OVERALL" ? overall : perAnswer };
      }
    }
    return {
      id: s.id,
      itemId: s.item.id,
      externalId: s.item.externalId,
      specialty: s.item.specialty.name,
      model: s.model,
      status: s.status,
      graders: graders.length,
      finalScores,
      totals,
    };
  });
}
