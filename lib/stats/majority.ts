/** A comparison's choice on one axis, relative to its sides. */
export type Choice = "LEFT" | "RIGHT" | "TIE";

/** The majority of the votes (every submitted grader's, the adjudicator's among them); a tie of votes is a tie; no vote, null. */
export function majorityChoice(votes: readonly Choice[]): Choice | null {
  if (votes.length === 0) return null;
  const n = { LEFT: 0, RIGHT: 0, TIE: 0 };
  for (const v of votes) n[v]++;
  const top = Math.max(n.LEFT, n.RIGHT, n.TIE);
  const leaders = (Object.keys(n) as Choice[]).filter((c) => n[c] === top);
  return leaders.length === 1 ? leaders[0] : "TIE";
}
