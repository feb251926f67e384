import { describe, expect, it } from "vitest";
import type { SetResult } from "@/lib/results/sets";
import { cliffsMatrix, cliffsPairs } from "@/lib/results/summary";
import { mulberry32 } from "@/lib/stats";
import { templateRubrics } from "@/lib/rubrics/study-rubrics";

function set(model: string, specialty: string, total: number, safe: number): SetResult {
  return {
    id: `${model}-${Math.random()}`,
    itemId: "i",
    externalId: "Q",
    specialty,
    model: { id: model, name: model, version: "" },
    status: "AGREED",
    graders: 2,
    finalScores: { SCORE: {}, SAFE_LLM: {} },
    totals: { SCORE: { total, headline: total, percent: total * 4 }, SAFE_LLM: { per_answer: safe, perAnswer: safe, overall: safe, headline: safe } },
    bands: null,
  };
}

describe("cliffsPairs (summary.ts)", () => {
  const rng = mulberry32(5);
  const sets = ["A", "B", "C"].flatMap((m, g) =>
    ["Oph", "Med"].flatMap((sp) => Array.from({ length: 12 }, () => set(m, sp, Math.round((12 + 10 * rng() + 2 * g) * 2) / 2, Math.round((3 + 4 * rng()) * 3) / 3))),
  );

  it("gives cliffsMatrix's cells: same order, point estimates, magnitudes and sizes", () => {
    const fast = cliffsPairs(sets, templateRubrics(["SCORE", "SAFE_LLM"]), { resamples: 100 });
    const slow = cliffsMatrix(sets, templateRubrics(["SCORE", "SAFE_LLM"]), { resamples: 100 });
    expect(fast.map(({ ci: _ci, ...c }) => c)).toEqual(slow.map(({ ci: _ci, ...c }) => c));
  });

  it("mirrors each pair: delta(b, a) = -delta(a, b), interval [-hi, -lo]", () => {
    const cells = cliffsPairs(sets, templateRubrics(["SCORE"]), { resamples: 100 });
    for (const c of cells) {
      const m = cells.find((x) => x.specialty === c.specialty && x.rowModel === c.colModel && x.colModel === c.rowModel)!;
      expect(m.delta).toBe(c.delta === 0 ? 0 : -c.delta!);
      expect(m.ci).toEqual([c.ci![1] === 0 ? 0 : -c.ci![1], c.ci![0] === 0 ? 0 : -c.ci![0]]);
      expect(c.ci![0]).toBeLessThanOrEqual(c.ci![1]);
    }
  });

  it("is deterministic for a seed", () => {
    expect(cliffsPairs(sets, templateRubrics(["SCORE"]), { resamples: 80, seed: 3 })).toEqual(cliffsPairs(sets, templateRubrics(["SCORE"]), { resamples: 80, seed: 3 }));
  });
});
