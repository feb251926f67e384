/**
 * Pure rules of a comparison's votes: when primary graders disagree on an axis, and the final
 * preference of a comparison on an axis.
 */
export type Choice = "LEFT" | "RIGHT" | "TIE";

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

/** The majority of the votes (every submitted grader's, the adjudicator's among them); a tie of votes is a tie; no vote, null. */
export function majorityChoice(votes: readonly Choice[]): Choice | null {
  if (votes.length === 0) return null;
  const n = { LEFT: 0, RIGHT: 0, TIE: 0 };
  for (const v of votes) n[v]++;
  const top = Math.max(n.LEFT, n.RIGHT, n.TIE);
  const leaders = (Object.keys(n) as Choice[]).filter((c) => n[c] === top);
  return leaders.length === 1 ? leaders[0] : "TIE";
}
