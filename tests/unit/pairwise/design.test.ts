import { describe, expect, it } from "vitest";
import { planComparisons, type DesignQuestion, type PlannedComparison } from "@/lib/pairwise/design";

const models = ["alpha", "bravo", "charlie", "delta", "echo"];
const questions = (n: number, ms = models, reps = [1, 2, 3]): DesignQuestion[] =>
  Array.from({ length: n }, (_, i) => ({ id: `q${i + 1}`, models: ms.map((model) => ({ model, repetitions: reps })) }));

function plan(...args: Parameters<typeof planComparisons>): PlannedComparison[] {
  const result = planComparisons(...args);
  if ("problem" in result) throw new Error(result.problem);
  return result.comparisons;
}

function tally(comparisons: PlannedComparison[]) {
  const seen = new Map<string, number>();
  const left = new Map<string, number>();
  const right = new Map<string, number>();
  for (const c of comparisons) {
    seen.set(c.leftModel, (seen.get(c.leftModel) ?? 0) + 1);
    seen.set(c.rightModel, (seen.get(c.rightModel) ?? 0) + 1);
    left.set(c.leftModel, (left.get(c.leftModel) ?? 0) + 1);
    right.set(c.rightModel, (right.get(c.rightModel) ?? 0) + 1);
  }
  return { seen, left, right };
}

describe("pairwise designs", () => {
  it("every pair on every question, the left side by a seeded coin", () => {
    const out = plan(questions(40), { kind: "all_pairs" }, "seed-1");
    expect(out).toHaveLength(40 * 10);
    const { left } = tally(out);
    // A fair coin: each model left in roughly half of its 160 comparisons.
    for (const m of models) expect(Math.abs(left.get(m)! - 80)).toBeLessThan(30);
    expect(plan(questions(40), { kind: "all_pairs" }, "seed-1")).toEqual(out);
    expect(plan(questions(40), { kind: "all_pairs" }, "seed-2")).not.toEqual(out);
  });

  it("each model against the reference", () => {
    const out = plan(questions(10), { kind: "against_reference", reference: "charlie" }, "s");
    expect(out).toHaveLength(40);
    for (const c of out) expect([c.leftModel, c.rightModel]).toContain("charlie");
    const problem = planComparisons(questions(3), { kind: "against_reference", reference: "zulu" }, "s");
    expect(problem).toEqual({ problem: expect.stringMatching(/"zulu" has no answers/), path: "design.reference" });
  });

  for (const [n, per] of [[100, 2], [37, 3], [11, 1], [64, 4]] as const) {
    it(`balanced: ${n} questions x ${per}: each model equally often and on each side equally often (+-1)`, () => {
      const out = plan(questions(n), { kind: "balanced", perQuestion: per }, `b-${n}`);
      expect(out).toHaveLength(n * per);
      const { seen, left, right } = tally(out);
      const counts = models.map((m) => seen.get(m) ?? 0);
      expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
      for (const m of models) expect(Math.abs((left.get(m) ?? 0) - (right.get(m) ?? 0))).toBeLessThanOrEqual(1);
      const perQ = new Map<string, Set<string>>();
      for (const c of out) {
        const key = [c.leftModel, c.rightModel].sort().join("|");
        const set = perQ.get(c.questionId) ?? new Set<string>();
        expect(set.has(key)).toBe(false);
        set.add(key);
        perQ.set(c.questionId, set);
      }
    });
  }

  it("balanced within one for 3 to 8 models and many seeds", () => {
    for (let k = 3; k <= 8; k++) {
      const ms = Array.from({ length: k }, (_, i) => `m${i}`);
      const maxPer = (k * (k - 1)) / 2;
      for (let seed = 0; seed < 12; seed++) {
        const per = 1 + (seed % Math.min(maxPer, 5));
        const out = plan(questions(13 + seed * 7, ms, [1]), { kind: "balanced", perQuestion: per }, `p${seed}`);
        const { seen, left, right } = tally(out);
        const counts = ms.map((m) => seen.get(m) ?? 0);
        expect(Math.max(...counts) - Math.min(...counts), `k=${k} seed=${seed}`).toBeLessThanOrEqual(1);
        for (const m of ms) expect(Math.abs((left.get(m) ?? 0) - (right.get(m) ?? 0)), `k=${k} seed=${seed} ${m}`).toBeLessThanOrEqual(1);
      }
    }
  });

  it("picks the shown repetition by the seed, among the answers that exist", () => {
    const out = plan(questions(200, ["a", "b"], [1, 2, 3]), { kind: "all_pairs" }, "reps");
    const shown = new Set(out.map((c) => c.leftRepetition));
    expect([...shown].sort()).toEqual([1, 2, 3]);
    const single = plan(questions(5, ["a", "b"], [1]), { kind: "all_pairs" }, "reps");
    for (const c of single) expect([c.leftRepetition, c.rightRepetition]).toEqual([1, 1]);
  });

  it("refuses more comparisons per question than there are pairs", () => {
    const r = planComparisons(questions(2, ["a", "b", "c"]), { kind: "balanced", perQuestion: 4 }, "s");
    expect(r).toEqual({ problem: expect.stringMatching(/at most 3 different pairs, not 4/), path: "design.perQuestion" });
    expect(planComparisons(questions(2), { kind: "balanced", perQuestion: 0 }, "s")).toMatchObject({ path: "design.perQuestion" });
  });
});
