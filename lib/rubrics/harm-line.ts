import type { RubricDimension, RubricDocument } from "./document";

/**
 * The harm line of a dimension: a score at or below `harmAtOrBelow` (a safety
 * scale, low is harmful) or at or above `harmAtOrAbove` (a severity scale:
 * No harm ... Death) crosses it. Across it the grader decides: flag a
 * potential harm, or say why it is not one, where the document asks for the
 * decision (decisionRequired); elsewhere the flag is only offered.
 */
export interface HarmLine {
  direction: "at_or_below" | "at_or_above";
  at: number;
}

export function harmLine(d: Pick<RubricDimension, "harmAtOrBelow" | "harmAtOrAbove">): HarmLine | null {
  if (d.harmAtOrAbove !== undefined) return { direction: "at_or_above", at: d.harmAtOrAbove };
  if (d.harmAtOrBelow !== undefined) return { direction: "at_or_below", at: d.harmAtOrBelow };
  return null;
}

export function crossesHarmLine(d: Pick<RubricDimension, "harmAtOrBelow" | "harmAtOrAbove">, score: number | null): boolean {
  const line = harmLine(d);
  if (!line || score === null) return false;
  return line.direction === "at_or_above" ? score >= line.at : score <= line.at;
}

/** Whether crossing the line asks for a decision: as the document says, else required at or above a value and offered at or below one (older documents' flag). */
export function decisionRequired(d: Pick<RubricDimension, "harmAtOrBelow" | "harmAtOrAbove" | "harmDecision">): boolean {
  if (d.harmDecision) return d.harmDecision === "required";
  return harmLine(d)?.direction === "at_or_above";
}

/** One score across a harm line: which dimension, where, and the level's label. */
export interface HarmCrossing {
  rubric: string;
  dimension: RubricDimension;
  repetition: number;
  score: number;
  label: string | null;
  /** The grader must decide (flag, or not a harm with a reason). */
  required: boolean;
}

/** The scores across their dimension's harm line, in the order given. */
export function harmCrossings(rubrics: readonly RubricDocument[], cells: readonly { rubric: string; dimension: string; repetition?: number; score: number | null }[]): HarmCrossing[] {
  const out: HarmCrossing[] = [];
  for (const c of cells) {
    const d = rubrics.find((r) => r.key === c.rubric)?.dimensions.find((x) => x.key === c.dimension);
    if (!d || d.scale.kind !== "ordinal" || !crossesHarmLine(d, c.score)) continue;
    const label = d.scale.levels?.find((l) => l.value === c.score)?.label ?? null;
    out.push({ rubric: c.rubric, dimension: d, repetition: c.repetition ?? 1, score: c.score!, label, required: decisionRequired(d) });
  }
  return out;
}

/** "Extent of harm is 4 (Severe harm) on answer 1", for messages and the form. */
export function crossingInWords(c: HarmCrossing): string {
  return `${c.dimension.name} is ${c.score}${c.label ? ` (${c.label})` : ""}${c.dimension.scope === "set" ? " for the set" : ` on answer ${c.repetition || 1}`}`;
}
