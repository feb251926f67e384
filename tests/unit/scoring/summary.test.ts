import { describe, expect, it } from "vitest";
import type { SetResult } from "@/lib/results/sets";
import { templateRubrics } from "@/lib/rubrics/study-rubrics";
import { ALL_SPECIALTIES, alphaBySpecialty, cliffsMatrix, modelSummaries } from "@/lib/results/summary";

function set(model: string, specialty: string, s: [number, number, number, number, number] | null): SetResult {
  const [a, b, c, d, e] = s ?? [0, 0, 0, 0, 0];
  return {
    id: `${model}-${specialty}-${Math.random()}`,
    itemId: "i",
    externalId: "Q",
    specialty,
    model: { id: model, name: model, version: "" },
    status: s ? "AGREED" : "AWAITING_GRADES",
    graders: 2,
    finalScores: s ? { SCORE: { safety: a, consensus_context: b, objectivity: c, reproducibility: d, explainability: e } } : null,
    totals: s ? { SCORE: { total: a + b + c + d + e, headline: a + b + c + d + e, percent: ((a + b + c + d + e) / 25) * 100 } } : null,
    bands: null,
  };
}

describe("per-model summaries of final scores", () => {
  const sets = [
    set("A", "Oph", [5, 5, 4, 4, 5]),
    set("A", "Oph", [4, 4, 4, 4, 4]),
    set("B", "Oph", [3, 2, 3, 3, 2]),
    set("B", "Oph", [2, 2, 2, 3, 3]),
    set("A", "Med", [4, 5, 5, 4, 4]),
    set("B", "Med", null), // not final: ignored everywhere
  ];

  it("gives n, mean and SD of totals and dimensions per model, per specialty and overall", () => {
    const s = modelSummaries(sets, templateRubrics(["SCORE"]));
    const aOph = s.find((x) => x.model === "A" && x.specialty === "Oph")!;
    expect(aOph.totals.SCORE).toEqual({ n: 2, mean: 21.5, sd: Math.sqrt(((23 - 21.5) ** 2 + (20 - 21.5) ** 2) / 1) });
    expect(aOph.dimensions.SCORE!.safety).toEqual({ n: 2, mean: 4.5, sd: Math.SQRT1_2 });
    const aAll = s.find((x) => x.model === "A" && x.specialty === ALL_SPECIALTIES)!;
    expect(aAll.totals.SCORE!.n).toBe(3);
    expect(s.find((x) => x.model === "B" && x.specialty === "Med")).toBeUndefined();
  });

  it("computes Cronbach's alpha per specialty on the final per-set scores with the dimensions as items", () => {
    const rows = alphaBySpecialty(sets, templateRubrics(["SCORE"]));
    expect(rows.map((r) => r.specialty)).toEqual(["Med", "Oph", ALL_SPECIALTIES]);
    expect(rows[0]).toMatchObject({ alpha: null, n: 1 }); // one set: degenerate, with a reason
    expect(rows[0].reason).toBeTruthy();
    expect(rows[1].alpha).toBeGreaterThan(0.8);
    expect(rows[1].ci![0]).toBeLessThan(rows[1].alpha!);
  });

  it("signs Cliff's delta so that positive means the row model scores higher", () => {
    const cells = cliffsMatrix(sets, templateRubrics(["SCORE"]), { resamples: 200 });
    const ab = cells.find((c) => c.specialty === "Oph" && c.rowModel === "A" && c.colModel === "B")!;
    const ba = cells.find((c) => c.specialty === "Oph" && c.rowModel === "B" && c.colModel === "A")!;
    expect(ab).toMatchObject({ delta: 1, magnitude: "large", n: 2, m: 2 });
    expect(ba.delta).toBe(-1);
  });
});
