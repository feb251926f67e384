import type { Tx } from "@/lib/db/client";
import { preferenceAxes } from "@/lib/rubrics/preference";
import { storedRubrics } from "@/lib/rubrics/study-rubrics";
import type { JudgedPreference } from "./judge-comparison";

/**
 * A comparison's judge preferences, in the settle's transaction: checked against the study's
 * axes (a rubric changed since the run started fails the task rather than storing an axis the
 * study no longer has), then upserted, so writing the same rows again changes nothing.
 */
export async function writeRunPreferences(tx: Tx, run: { studyId: string; judgeId: string }, comparisonId: string, prefs: readonly JudgedPreference[]): Promise<void> {
  const study = await tx.study.findUniqueOrThrow({ where: { id: run.studyId }, select: { rubrics: true } });
  const known = new Set(preferenceAxes(storedRubrics(study.rubrics)).map((a) => `${a.rubric}.${a.axis.key}`));
  const unknown = prefs.filter((p) => !known.has(`${p.rubric}.${p.axis}`));
  if (unknown.length) throw new Error(`the study has no preference axis ${unknown.map((p) => `${p.rubric}.${p.axis}`).join(", ")} any more`);
  for (const p of prefs) {
    const data = { choice: p.choice, leftFirst: p.leftFirst, rightFirst: p.rightFirst };
    await tx.judgePreference.upsert({
      where: { judgeId_comparisonId_rubric_axis: { judgeId: run.judgeId, comparisonId, rubric: p.rubric, axis: p.axis } },
      create: { judgeId: run.judgeId, comparisonId, rubric: p.rubric, axis: p.axis, ...data },
      update: data,
    });
  }
}
