import type { Tx } from "@/lib/db/client";
import { preferenceAxes } from "@/lib/rubrics/preference";
import { storedRubrics } from "@/lib/rubrics/study-rubrics";
import type { JudgedPreference } from "./judge-comparison";

/**
 * A comparison's judge preferences, in the settle's transaction: checked against the study's
 * axes (a rubric changed since the run started fails the task rather than storing an axis the
 * study no longer has), then upserted in one statement, so writing the same rows again changes nothing.
 */
export async function writeRunPreferences(tx: Tx, run: { studyId: string; judgeId: string }, comparisonId: string, prefs: readonly JudgedPreference[]): Promise<void> {
  const study = await tx.study.findUniqueOrThrow({ where: { id: run.studyId }, select: { rubrics: true } });
  const known = new Set(preferenceAxes(storedRubrics(study.rubrics)).map((a) => `${a.rubric}.${a.axis.key}`));
  const unknown = prefs.filter((p) => !known.has(`${p.rubric}.${p.axis}`));
  if (unknown.length) throw new Error(`the study has no preference axis ${unknown.map((p) => `${p.rubric}.${p.axis}`).join(", ")} any more`);
  if (!prefs.length) return;
  // One statement for all axes (a comparison has up to nine), not one upsert each.
  await tx.$executeRaw`
    INSERT INTO "JudgePreference" (id, "judgeId", "comparisonId", rubric, axis, choice, "leftFirst", "rightFirst", "updatedAt")
    SELECT gen_random_uuid(), ${run.judgeId}::uuid, ${comparisonId}::uuid, p.rubric, p.axis, p.choice::"PreferenceChoice", p.lf::"PreferenceChoice", p.rf::"PreferenceChoice", now()
    FROM unnest(${prefs.map((p) => p.rubric)}::text[], ${prefs.map((p) => p.axis)}::text[], ${prefs.map((p) => p.choice)}::text[],
                ${prefs.map((p) => p.leftFirst)}::text[], ${prefs.map((p) => p.rightFirst)}::text[]) AS p(rubric, axis, choice, lf, rf)
    ON CONFLICT ("judgeId", "comparisonId", rubric, axis)
    DO UPDATE SET choice = EXCLUDED.choice, "leftFirst" = EXCLUDED."leftFirst", "rightFirst" = EXCLUDED."rightFirst", "updatedAt" = now()`;
}
