import type { RubricDocument, RubricProblem } from "@/lib/rubrics/document";
import type { PreferenceForm } from "./contract-schemas";
import { preferenceAxes } from "@/lib/rubrics/preference";
import type { Choice } from "./votes";

export interface PreferenceCell {
  rubric: string;
  axis: string;
  choice: Choice;
  strength: "SLIGHTLY" | "CLEARLY" | null;
  comment: string | null;
}

const CHOICE: Record<"a" | "tie" | "b", Choice> = { a: "LEFT", tie: "TIE", b: "RIGHT" };

/**
 * Checks a grader's preference form against the study's axes: each answer names an axis of the
 * study once, a tie only where the axis allows it, a strength only where it asks for one and never
 * with a tie; on submit, every axis answered and each harm flag says what the harm is. Every
 * problem with its path in the body.
 */
export function validatePreferences(form: PreferenceForm, rubrics: readonly RubricDocument[], submit: boolean): { problems: RubricProblem[]; cells: PreferenceCell[]; complete: boolean } {
  const problems: RubricProblem[] = [];
  const axes = new Map(preferenceAxes(rubrics).map((a) => [`${a.rubric}/${a.axis.key}`, a]));
  const seen = new Set<string>();
  const cells: PreferenceCell[] = [];
  form.preferences.forEach((p, i) => {
    const at = `preferences.${i}`;
    const key = `${p.rubric}/${p.axis}`;
    const a = axes.get(key);
    if (!a) return void problems.push({ path: `${at}.axis`, message: `the study has no preference axis "${p.axis}" in rubric "${p.rubric}"` });
    if (seen.has(key)) return void problems.push({ path: `${at}.axis`, message: `"${p.axis}" is answered twice` });
    seen.add(key);
    if (p.choice === "tie" && a.axis.scale.allowTie === false) problems.push({ path: `${at}.choice`, message: `"${a.axis.name}" does not allow a tie: choose a or b` });
    if (p.strength !== undefined && !a.axis.scale.strength) problems.push({ path: `${at}.strength`, message: `"${a.axis.name}" asks for no strength` });
    else if (p.strength !== undefined && p.choice === "tie") problems.push({ path: `${at}.strength`, message: "a tie has no strength" });
    cells.push({ rubric: p.rubric, axis: p.axis, choice: CHOICE[p.choice], strength: p.strength ? (p.strength === "slightly" ? "SLIGHTLY" : "CLEARLY") : null, comment: p.comment?.trim() || null });
  });
  const missing = [...axes.keys()].filter((k) => !seen.has(k));
  if (submit) {
    for (const k of missing) problems.push({ path: "preferences", message: `"${axes.get(k)!.axis.name}" is not answered: every axis needs a choice before submitting` });
    for (const side of ["a", "b"] as const) {
      const h = form.harm?.[side];
      if (h?.flag && !h.comment?.trim()) problems.push({ path: `harm.${side}.comment`, message: `say what the harm of answer ${side.toUpperCase()} is` });
    }
  }
  return { problems, cells, complete: missing.length === 0 };
}
