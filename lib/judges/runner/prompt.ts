import { rubricInstructions, type RubricDimension, type RubricDocument } from "@/lib/rubrics/document";

/**
 * The judge's prompt, built from the study's rubric document (definitions,
 * levels with their labels and examples, instructions) and the question and
 * answer(s). It takes no model: the judge grades blind, like the clinicians.
 */

/** One request: one rubric's dimensions stored at one repetition (0: the whole set). */
export interface JudgeUnit {
  rubric: string;
  repetition: number;
  dimensions: RubricDimension[];
}

/** Dimensions a judge can score from text: criteria come with each question, derived ones are computed. */
export function judgeableDimensions(doc: RubricDocument): RubricDimension[] {
  return doc.dimensions.filter((d) => d.scale.kind !== "criteria" && !d.derived && (d.scale.levels?.length ?? 0) > 0);
}

/** The requests one response set needs: per rubric, one per answer graded alone and one for the set-level dimensions. */
export function judgeUnits(docs: readonly RubricDocument[], answers: number): JudgeUnit[] {
  const units: JudgeUnit[] = [];
  for (const doc of docs) {
    const dims = judgeableDimensions(doc);
    for (let r = 1; r <= answers; r++) {
      const at = dims.filter((d) => d.scope === "each_answer" || (d.scope === "first_answer" && r === 1));
      if (at.length) units.push({ rubric: doc.key, repetition: r, dimensions: at });
    }
    const set = dims.filter((d) => d.scope === "set");
    if (set.length && answers > 1) units.push({ rubric: doc.key, repetition: 0, dimensions: set });
  }
  return units;
}

export interface PromptInput {
  rubric: RubricDocument;
  unit: JudgeUnit;
  question: string;
  /** The answers by repetition (1..N); only the unit's answer is shown unless the unit is set-level. */
  answers: ReadonlyMap<number, string>;
  referenceAnswer?: string;
}

export type ChatMessage = { role: "system" | "user"; content: string };

function describeDimension(d: RubricDimension): string {
  const lines = [`### ${d.key}: ${d.name}`];
  if (d.definition) lines.push(d.definition);
  lines.push(`Answer with one of: ${(d.scale.levels ?? []).map((l) => JSON.stringify(l.value)).join(", ")}.`);
  for (const l of d.scale.levels ?? []) {
    lines.push(`- ${JSON.stringify(l.value)}: ${l.label}${l.example ? `\n  Example: ${l.example}` : ""}`);
  }
  return lines.join("\n");
}

/** The reply format: one JSON object, a value per dimension key, in the rubric's order. */
export function replyExample(unit: JudgeUnit): string {
  return `{${unit.dimensions.map((d) => `"${d.key}": ${JSON.stringify(d.scale.levels![0].value)}`).join(", ")}}`;
}

export function buildJudgePrompt(input: PromptInput): ChatMessage[] {
  const { rubric, unit } = input;
  const system = [
    `You are an expert clinician grading an answer to a clinical question with the rubric "${rubric.name}".`,
    rubricInstructions(rubric) ? `Instructions:\n${rubricInstructions(rubric)}` : "",
    `Dimensions:\n\n${unit.dimensions.map(describeDimension).join("\n\n")}`,
    `Reply with one JSON object and nothing else, with exactly these keys in this order, each value one of the dimension's levels: ${replyExample(unit)}`,
  ].filter(Boolean);
  const parts = [`Question:\n${input.question}`];
  if (input.referenceAnswer) parts.push(`Reference answer:\n${input.referenceAnswer}`);
  if (unit.repetition === 0) {
    for (const [r, text] of [...input.answers].sort((a, b) => a[0] - b[0])) parts.push(`Answer ${r}:\n${text}`);
    parts.push("Grade the answers as a set (they are answers to the same question, generated independently).");
  } else {
    parts.push(`Answer:\n${input.answers.get(unit.repetition) ?? ""}`);
  }
  return [
    { role: "system", content: system.join("\n\n") },
    { role: "user", content: parts.join("\n\n") },
  ];
}
