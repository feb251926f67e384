import type { RubricDocument } from "@/lib/rubrics/document";
import { sameRubrics } from "@/lib/rubrics/study-rubrics";

/**
 * Settings that change what a grade means. Once any grade exists (or any
 * assignment is submitted) changing them would leave grades given under other
 * rules, so they are locked:
 * - rubrics: grades already given are per rubric and dimension;
 * - repetitions: N decides which answers a set holds and how per-answer
 *   scores are averaged;
 * - gradersPerSet, lowering only: sets already graded by k graders would
 *   otherwise have more primary grades than the study asks for (raising it
 *   only calls more graders later, which leaves given grades valid).
 */
export type LockedSetting = "rubrics" | "repetitions" | "gradersPerSet";

/** Why each setting locks, as one clause for the API message and the form. */
export const LOCK_REASONS: Record<LockedSetting, string> = {
  rubrics: "grades already given belong to the current rubrics; clone the study or the rubric to change it",
  repetitions: "graded sets hold N answers each",
  gradersPerSet: "k cannot be lowered: sets already graded by k graders would no longer fit (raising it is allowed)",
};

export interface LockableSettings {
  rubricDocuments: readonly RubricDocument[];
  repetitions: number;
  gradersPerSet: number;
}

/**
 * The locked settings that `patch` would change, in a fixed order (empty
 * when the patch is allowed). Values equal to the current ones are not a
 * change, so a form that sends every field back unchanged is accepted.
 */
export function lockedSettingsChange(current: LockableSettings, patch: Partial<LockableSettings>, gradingStarted: boolean): LockedSetting[] {
  if (!gradingStarted) return [];
  const locked: LockedSetting[] = [];
  if (patch.rubricDocuments !== undefined && !sameRubrics(current.rubricDocuments, patch.rubricDocuments)) locked.push("rubrics");
  if (patch.repetitions !== undefined && patch.repetitions !== current.repetitions) locked.push("repetitions");
  if (patch.gradersPerSet !== undefined && patch.gradersPerSet < current.gradersPerSet) locked.push("gradersPerSet");
  return locked;
}

/** One message naming every locked setting a request tried to change, each with its reason. */
export function lockMessage(locked: readonly LockedSetting[], studyName?: string): string {
  return `grading has started${studyName ? ` in "${studyName}"` : ""}, so these settings are locked: ${locked.map((s) => `${s} (${LOCK_REASONS[s]})`).join(", ")}`;
}

/** What the settings form must disable (or, for k, only bound from below), and why, for a study in this state. */
export function settingsLockedFor(gradingStarted: boolean): Record<LockedSetting, string | null> {
  const why = (s: LockedSetting) => (gradingStarted ? `grading has started and ${LOCK_REASONS[s]}` : null);
  return { rubrics: why("rubrics"), repetitions: why("repetitions"), gradersPerSet: why("gradersPerSet") };
}
