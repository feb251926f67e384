/**
 * Pure rules of a comparison's votes: when primary graders disagree on an axis, and the final
 * preference of a comparison on an axis.
 */
import type { Choice } from "@/lib/stats/majority";

export { majorityChoice, type Choice } from "@/lib/stats/majority";

export interface AxisRule {
  rubric: string;
  axis: string;
  /** "never": the axis does not call an adjudicator. */
  escalates: boolean;
}

export interface AxisDisagreement {
  rubric: string;
  axis: string;
  /** Each primary grader's choice, by assignment id. */
  choices: Record<string, Choice>;
}

/**
 * Axes on which the submitted primary graders disagree: one prefers the left answer and another
 * the right; with `tieDisagrees`, a tie against a preference disagrees too (by default it counts
 * as agreement: neither grader says the other's answer is the better one).
 */
export function comparisonDisagreements(
  axes: readonly AxisRule[],
  byAssignment: Record<string, ReadonlyArray<{ rubric: string; axis: string; choice: Choice }>>,
  tieDisagrees: boolean,
): AxisDisagreement[] {
  const out: AxisDisagreement[] = [];
  for (const a of axes) {
    if (!a.escalates) continue;
    const choices: Record<string, Choice> = {};
    for (const [id, prefs] of Object.entries(byAssignment)) {
      const p = prefs.find((x) => x.rubric === a.rubric && x.axis === a.axis);
      if (p) choices[id] = p.choice;
    }
    const seen = new Set(Object.values(choices));
    const opposite = seen.has("LEFT") && seen.has("RIGHT");
    if (opposite || (tieDisagrees && seen.size > 1)) out.push({ rubric: a.rubric, axis: a.axis, choices });
  }
  return out;
}
