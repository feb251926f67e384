import { rubricInstructions, type RubricDimension, type RubricDocument } from "@/lib/rubrics/document";
import { preferenceAxes } from "@/lib/rubrics/preference";
import { majorityChoice, type Choice } from "@/lib/stats/majority";
import { chatCompletion, EndpointError, type EndpointAccess } from "./client";
import { ItemError, type ProbabilityMode } from "./judge-set";
import { jsonObjectIn, MalformedReply } from "./parse";
import type { ChatMessage } from "./prompt";

/**
 * A pairwise study's judge: for each rubric with preference axes, the judge is asked which
 * answer is better on every axis, twice: with the comparison's left answer shown as A, then with
 * the sides swapped. The two replies, mapped back to the comparison's sides, measure the judge's
 * own position bias and consistency (lib/stats/judge-preference.ts). The prompt is built from the
 * axes' wording and the two answers only: never a model's name, never the study's.
 */

/** What the runner needs of one comparison: the texts shown, never the models. */
export interface ComparisonToJudge {
  comparisonId: string;
  question: string;
  referenceAnswer?: string;
  left: string;
  right: string;
}

export interface JudgedPreference {
  rubric: string;
  axis: string;
  /** The reply with the left answer shown as A, relative to the comparison's sides. */
  leftFirst: Choice;
  /** The reply with the right answer shown as A, relative to the comparison's sides. */
  rightFirst: Choice;
  /** Both orders' common answer; a tie when they differ. */
  choice: Choice;
}

export interface JudgedComparison {
  preferences: JudgedPreference[];
  promptTokens: number;
  completionTokens: number;
  requests: number;
}

export type Order = "leftFirst" | "rightFirst";

function describeAxis(d: RubricDimension): string {
  const lines = [`### ${d.key}: ${d.name}`];
  if (d.definition) lines.push(d.definition);
  // An axis asked the other way round names the worse answer: said plainly so the judge does not flip it.
  if (d.scale.choiceIsWorse) lines.push("Choose the answer this axis describes (here the worse one).");
  lines.push(d.scale.allowTie === false ? 'Answer "A" or "B".' : 'Answer "A", "B", or "tie" when neither answer is better on this axis.');
  return lines.join("\n");
}

export function pairwiseReplyExample(axes: readonly RubricDimension[]): string {
  return `{${axes.map((d) => `"${d.key}": "A"`).join(", ")}}`;
}

/** The messages for one rubric's axes, answers in the given order. */
export function buildPairwisePrompt(rubric: RubricDocument, axes: readonly RubricDimension[], cmp: Omit<ComparisonToJudge, "comparisonId">, order: Order): ChatMessage[] {
  const [a, b] = order === "leftFirst" ? [cmp.left, cmp.right] : [cmp.right, cmp.left];
  const instructions = rubricInstructions({ instructions: rubric.instructions, dimensions: [...axes] });
  const system = [
    "You are an expert clinician comparing two answers to the same clinical question.",
    instructions ? `Instructions:\n${instructions}` : "",
    `Axes:\n\n${axes.map(describeAxis).join("\n\n")}`,
    `Reply with one JSON object and nothing else, with exactly these keys in this order, each value "A", "B" or "tie": ${pairwiseReplyExample(axes)}`,
  ].filter(Boolean);
  const parts = [`Question:\n${cmp.question}`];
  if (cmp.referenceAnswer) parts.push(`Reference answer:\n${cmp.referenceAnswer}`);
  parts.push(`Answer A:\n${a}`, `Answer B:\n${b}`);
  return [
    { role: "system", content: system.join("\n\n") },
    { role: "user", content: parts.join("\n\n") },
  ];
}

/** The reply's A / B / tie per axis, mapped to the comparison's sides for the order asked. */
export function parsePairwiseReply(content: string, axes: readonly RubricDimension[], order: Order): Map<string, Choice> {
  const found = jsonObjectIn(content);
  if (!found) throw new MalformedReply(`the reply has no JSON object: ${JSON.stringify(content.slice(0, 120))}`);
  let obj: unknown;
  try {
    obj = JSON.parse(found.text);
  } catch {
    throw new MalformedReply(`the reply's JSON does not parse: ${JSON.stringify(found.text.slice(0, 120))}`);
  }
  if (!obj || typeof obj !== "object" || Array.isArray(obj)) throw new MalformedReply("the reply is not a JSON object");
  const out = new Map<string, Choice>();
  const problems: string[] = [];
  for (const d of axes) {
    const raw = (obj as Record<string, unknown>)[d.key];
    const v = typeof raw === "string" ? raw.trim().toLowerCase() : null;
    if (raw === undefined) problems.push(`no value for "${d.key}"`);
    else if (v === "tie" && d.scale.allowTie !== false) out.set(d.key, "TIE");
    else if (v === "a") out.set(d.key, order === "leftFirst" ? "LEFT" : "RIGHT");
    else if (v === "b") out.set(d.key, order === "leftFirst" ? "RIGHT" : "LEFT");
    else problems.push(`"${d.key}": ${JSON.stringify(raw).slice(0, 40)} is not ${d.scale.allowTie === false ? '"A" or "B"' : '"A", "B" or "tie"'}`);
  }
  if (problems.length) throw new MalformedReply(`malformed reply: ${problems.join("; ")}`);
  return out;
}

const MAX_TOKENS_PER_AXIS = 12;

/**
 * Every preference axis of the study's rubrics, in both orders: one request per rubric and order
 * (logprobs mode: at temperature 0, the reply's choice; sampling: `samples` requests, the
 * majority of their choices, a tie of votes a tie). All or nothing, as for a response set.
 */
export async function judgeComparison(access: EndpointAccess, mode: ProbabilityMode, rubrics: readonly RubricDocument[], cmp: ComparisonToJudge, fetchImpl?: typeof fetch): Promise<JudgedComparison> {
  const out: JudgedComparison = { preferences: [], promptTokens: 0, completionTokens: 0, requests: 0 };
  const all = preferenceAxes(rubrics);
  for (const rubric of rubrics) {
    const axes = all.filter((a) => a.rubric === rubric.key).map((a) => a.axis);
    if (!axes.length) continue;
    const byOrder = new Map<Order, Map<string, Choice>>();
    for (const order of ["leftFirst", "rightFirst"] as const) {
      const messages = buildPairwisePrompt(rubric, axes, cmp, order);
      const maxTokens = 32 + MAX_TOKENS_PER_AXIS * axes.length;
      const draws = new Map<string, Choice[]>(axes.map((d) => [d.key, []]));
      const requests = mode.kind === "sampling" ? mode.samples : 1;
      try {
        for (let s = 0; s < requests; s++) {
          const reply = await chatCompletion(access, { messages, temperature: mode.kind === "sampling" ? mode.temperature : 0, maxTokens }, fetchImpl);
          out.requests++;
          out.promptTokens += reply.promptTokens;
          out.completionTokens += reply.completionTokens;
          for (const [k, v] of parsePairwiseReply(reply.content, axes, order)) draws.get(k)!.push(v);
        }
      } catch (err) {
        const usage = { promptTokens: out.promptTokens, completionTokens: out.completionTokens };
        if (err instanceof EndpointError) throw new ItemError(err.message, err.retryable, usage);
        if (err instanceof MalformedReply) throw new ItemError(err.message, true, usage);
        throw err;
      }
      byOrder.set(order, new Map(axes.map((d) => [d.key, majorityChoice(draws.get(d.key)!)!])));
    }
    for (const d of axes) {
      const leftFirst = byOrder.get("leftFirst")!.get(d.key)!;
      const rightFirst = byOrder.get("rightFirst")!.get(d.key)!;
      out.preferences.push({ rubric: rubric.key, axis: d.key, leftFirst, rightFirst, choice: leftFirst === rightFirst ? leftFirst : "TIE" });
    }
  }
  return out;
}
