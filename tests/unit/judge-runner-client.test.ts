import { afterEach, describe, expect, it } from "vitest";
import type { RubricDocument } from "@/lib/rubrics/document";
import { parseRubricDocument } from "@/lib/rubrics/document";
import { ItemError, judgeSet, type SetToJudge } from "@/lib/judges/runner/judge-set";
import { buildJudgePrompt, judgeUnits } from "@/lib/judges/runner/prompt";
import { startJudgeStub, type JudgeStub, type StubChoice } from "../integration/helpers/judge-stub";

const doc = (() => {
  const r = parseRubricDocument({
    key: "mini",
    name: "Mini rubric",
    version: 1,
    instructions: "Grade as a cautious attending physician would.",
    dimensions: [
      {
        key: "accuracy",
        name: "Accuracy",
        definition: "Whether the answer agrees with current guidelines.",
        scope: "each_answer",
        scale: { kind: "ordinal", levels: [{ value: 1, label: "Wrong", example: "Recommends aspirin for a child with fever." }, { value: 2, label: "Partly right" }, { value: 3, label: "Right" }] },
      },
      { key: "tone", name: "Tone", scope: "first_answer", scale: { kind: "nominal", levels: [{ value: "warm", label: "Warm" }, { value: "cold", label: "Cold" }] } },
      { key: "stable", name: "Stable across answers", scope: "set", scale: { kind: "ordinal", levels: [{ value: 0, label: "No" }, { value: 1, label: "Yes" }] } },
    ],
    totals: [],
  });
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return r.rubric;
})();

const set: SetToJudge = { responseSetId: "set-1", question: "What is the first-line treatment of otitis media?", answers: new Map([[1, "Amoxicillin."], [2, "Watchful waiting, then amoxicillin."]]) };

let stub: JudgeStub | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});
const access = (s: JudgeStub, extra: Partial<{ apiKey: string; timeoutMs: number }> = {}) => ({ baseUrl: s.url, model: "judge-model", timeoutMs: 5000, ...extra });

describe("the judge's prompt comes from the rubric document", () => {
  it("one request per rubric and answer, one for set-level dimensions; first-answer dimensions only on answer 1", () => {
    const units = judgeUnits([doc], 2).map((u) => [u.repetition, u.dimensions.map((d) => d.key)]);
    expect(units).toEqual([
      [1, ["accuracy", "tone"]],
      [2, ["accuracy"]],
      [0, ["stable"]],
    ]);
  });

  it("carries the instructions, definitions, levels with labels and examples, the question and only the unit's answer", () => {
    const [unit, second] = judgeUnits([doc], 2);
    const text = buildJudgePrompt({ rubric: doc, unit, question: set.question, answers: set.answers }).map((m) => m.content).join("\n");
    for (const s of ["Grade as a cautious attending physician would.", "Whether the answer agrees with current guidelines.", "Wrong", "Recommends aspirin for a child with fever.", '"warm": Warm', set.question, "Amoxicillin."]) expect(text).toContain(s);
    expect(text).not.toContain("Watchful waiting");
    const text2 = buildJudgePrompt({ rubric: doc, unit: second, question: set.question, answers: set.answers }).map((m) => m.content).join("\n");
    expect(text2).toContain("Watchful waiting");
    expect(text2).not.toContain("Tone");
  });
});

describe("judging a set against an OpenAI-compatible endpoint", () => {
  it("logprobs: a probability per level from the value's token, renormalised over the levels; the most probable level, ties to the lower", async () => {
    stub = await startJudgeStub({
      decide: (dims) =>
        Object.fromEntries(
          dims.map((d): [string, StubChoice] => [
            d.key,
            d.key === "accuracy" ? { value: "3", alternatives: { "3": 0.6, "2": 0.3, " ": 0.1 } } : d.key === "tone" ? { value: '"cold', alternatives: { '"cold': 0.5, '"warm': 0.5 } } : { value: "1", alternatives: { "1": 0.8, "0": 0.2 } },
          ]),
        ),
    });
    const out = await judgeSet({ ...access(stub), apiKey: "sk-test-secret" }, { kind: "logprobs", topLogprobs: 5 }, [doc], set);
    const by = (k: string, r: number) => out.scores.find((s) => s.dimension === k && s.repetition === r)!;
    expect(by("accuracy", 1).probabilities["1"]).toBe(0);
    expect(by("accuracy", 1).probabilities["3"]).toBeCloseTo(0.6 / 0.9, 12);
    expect(by("accuracy", 1).probabilities["2"]).toBeCloseTo(0.3 / 0.9, 12);
    expect(by("accuracy", 1).value).toBe(3);
    expect(by("tone", 1)).toMatchObject({ value: "warm", probabilities: { warm: 0.5, cold: 0.5 } }); // a tie: the earlier level
    expect(by("stable", 0)).toMatchObject({ value: 1 });
    expect(out.scores).toHaveLength(4);
    expect(out.requests).toBe(3);
    expect(out.completionTokens).toBeGreaterThan(0);
    expect(stub.bodies[0]).toMatchObject({ model: "judge-model", logprobs: true, top_logprobs: 5, temperature: 0 });
    expect(stub.authorizations[0]).toBe("Bearer sk-test-secret");
  });

  it("sampling: n requests at temperature > 0, the distribution of the sampled values", async () => {
    stub = await startJudgeStub({ logprobs: false, decide: (dims, n) => Object.fromEntries(dims.map((d) => [d.key, { value: d.levels[n % 4 === 3 ? 0 : d.levels.length - 1] }])) });
    const out = await judgeSet(access(stub), { kind: "sampling", samples: 4, temperature: 0.8 }, [doc], { ...set, answers: new Map([[1, "Amoxicillin."]]) });
    expect(out.requests).toBe(4);
    expect(stub.bodies.every((b) => b.temperature === 0.8 && b.logprobs === undefined)).toBe(true);
    const acc = out.scores.find((s) => s.dimension === "accuracy")!;
    expect(acc.probabilities).toEqual({ "1": 0.25, "2": 0, "3": 0.75 });
    expect(acc.value).toBe(3);
  });

  it("an endpoint without logprobs in logprobs mode is a lasting error that says to sample", async () => {
    stub = await startJudgeStub({ logprobs: false });
    const err = await judgeSet(access(stub), { kind: "logprobs", topLogprobs: 5 }, [doc], set).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ItemError);
    expect(err).toMatchObject({ retryable: false, message: expect.stringMatching(/no logprobs.*sampling/) });
  });

  it("a malformed reply, a level not in the rubric, 5xx, 4xx and a timeout are errors of the item, retryable or not; the key never shows", async () => {
    const cases: [Parameters<typeof startJudgeStub>[0], RegExp, boolean][] = [
      [{ content: () => "I think it is fine." }, /no JSON object/, true],
      [{ content: () => '{"accuracy": 7, "tone": "warm"}' }, /"accuracy": 7 is not one of its levels/, true],
      [{ content: () => '{"accuracy": 3}' }, /no value for "tone"/, true],
      [{ fail: () => 503 }, /HTTP 503/, true],
      [{ fail: () => 429 }, /HTTP 429/, true],
      [{ fail: () => 401 }, /HTTP 401/, false],
      [{ delayMs: () => 2500 }, /no answer within 1000 ms/, true],
      [{ content: () => "x".repeat(3_000_000) }, /larger than 2000000 bytes/, false],
    ];
    for (const [opts, message, retryable] of cases) {
      stub = await startJudgeStub(opts);
      const err = await judgeSet({ ...access(stub, { timeoutMs: 1000 }), apiKey: "sk-never-shown" }, { kind: "logprobs", topLogprobs: 5 }, [doc], set).catch((e: unknown) => e);
      expect(err, String(message)).toBeInstanceOf(ItemError);
      expect((err as ItemError).message).toMatch(message);
      expect((err as ItemError).message).not.toContain("sk-never-shown");
      expect((err as ItemError).retryable).toBe(retryable);
      await stub.close();
      stub = undefined;
    }
  });

  it("an unreachable endpoint is retryable", async () => {
    const err = await judgeSet({ baseUrl: "http://127.0.0.1:9/v1", model: "m", timeoutMs: 2000 }, { kind: "logprobs", topLogprobs: 5 }, [doc], set).catch((e: unknown) => e);
    expect(err).toMatchObject({ retryable: true, message: expect.stringMatching(/could not reach/) });
  });
});

export type { RubricDocument };
