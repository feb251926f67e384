import type { RubricDocument } from "@/lib/rubrics/document";
import { chatCompletion, EndpointError, type EndpointAccess } from "./client";
import { levelProbabilities, MalformedReply, mostProbableLevel, parseReply, sampleProbabilities, type LevelValue } from "./parse";
import { buildJudgePrompt, judgeUnits } from "./prompt";

/** How a run asks for a probability per level. */
export type ProbabilityMode = { kind: "logprobs"; topLogprobs: number } | { kind: "sampling"; samples: number; temperature: number };

/** What the runner needs of one response set: never the model that wrote it. */
export interface SetToJudge {
  responseSetId: string;
  question: string;
  referenceAnswer?: string;
  answers: ReadonlyMap<number, string>;
}

export interface JudgedScore {
  responseSetId: string;
  rubric: string;
  dimension: string;
  repetition: number;
  /** The most probable level (ties to the lower). */
  value: LevelValue;
  /** Each level of the dimension's scale, summing to 1 (sampling: the share of samples). */
  probabilities: Record<string, number>;
  /** Sampling: the values sampled, in order. */
  samples?: LevelValue[];
}

export interface JudgedSet {
  scores: JudgedScore[];
  promptTokens: number;
  completionTokens: number;
  requests: number;
}

/** A reply the judge could not be read from: worth another try (sampling may give a readable one), recorded if it persists. */
export class ItemError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    /** Tokens spent before the failure: billed all the same. */
    readonly usage: { promptTokens: number; completionTokens: number } = { promptTokens: 0, completionTokens: 0 },
  ) {
    super(message);
  }
}

const MAX_TOKENS_PER_DIMENSION = 16;

/**
 * Scores one response set on every judgeable dimension of the study's rubrics:
 * one request per rubric and answer (and one for set-level dimensions), or
 * `samples` requests each in sampling mode. All or nothing: any failure fails
 * the set, so a retry starts it over and nothing half-scored is kept.
 */
export async function judgeSet(access: EndpointAccess, mode: ProbabilityMode, rubrics: readonly RubricDocument[], set: SetToJudge, fetchImpl?: typeof fetch): Promise<JudgedSet> {
  const out: JudgedSet = { scores: [], promptTokens: 0, completionTokens: 0, requests: 0 };
  const fail = (err: unknown): never => {
    const usage = { promptTokens: out.promptTokens, completionTokens: out.completionTokens };
    if (err instanceof EndpointError) throw new ItemError(err.message, err.retryable, usage);
    if (err instanceof MalformedReply) throw new ItemError(err.message, true, usage);
    throw err;
  };
  const answers = Math.max(0, ...set.answers.keys());
  for (const unit of judgeUnits(rubrics, answers)) {
    const rubric = rubrics.find((r) => r.key === unit.rubric)!;
    const messages = buildJudgePrompt({ rubric, unit, question: set.question, answers: set.answers, referenceAnswer: set.referenceAnswer });
    const maxTokens = 32 + MAX_TOKENS_PER_DIMENSION * unit.dimensions.length;
    try {
      if (mode.kind === "logprobs") {
        const reply = await chatCompletion(access, { messages, temperature: 0, maxTokens, topLogprobs: mode.topLogprobs }, fetchImpl);
        out.requests++;
        out.promptTokens += reply.promptTokens;
        out.completionTokens += reply.completionTokens;
        if (!reply.logprobs) throw new EndpointError("the endpoint returned no logprobs: run this judge in sampling mode", false);
        const chosen = parseReply(reply.content, unit);
        const probs = levelProbabilities(reply.content, reply.logprobs, unit, chosen);
        for (const d of unit.dimensions) {
          const p = probs.get(d.key)!;
          out.scores.push({ responseSetId: set.responseSetId, rubric: unit.rubric, dimension: d.key, repetition: unit.repetition, value: mostProbableLevel(d, p), probabilities: p });
        }
      } else {
        const samples = new Map<string, LevelValue[]>(unit.dimensions.map((d) => [d.key, []]));
        for (let s = 0; s < mode.samples; s++) {
          const reply = await chatCompletion(access, { messages, temperature: mode.temperature, maxTokens }, fetchImpl);
          out.requests++;
          out.promptTokens += reply.promptTokens;
          out.completionTokens += reply.completionTokens;
          for (const [k, v] of parseReply(reply.content, unit)) samples.get(k)!.push(v);
        }
        for (const d of unit.dimensions) {
          const drawn = samples.get(d.key)!;
          const p = sampleProbabilities(d, drawn);
          out.scores.push({ responseSetId: set.responseSetId, rubric: unit.rubric, dimension: d.key, repetition: unit.repetition, value: mostProbableLevel(d, p), probabilities: p, samples: drawn });
        }
      }
    } catch (err) {
      fail(err);
    }
  }
  return out;
}
