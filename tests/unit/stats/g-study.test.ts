/**
 * G-study variance components against lme4's REML on balanced data
 * (tests/fixtures/golden/g-study-vectors.json, scripts/golden/g_study_vectors.R), and the
 * D-study's coefficients worked by hand.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { dStudy, gStudy, type GDesign } from "@/lib/stats/g-study";

const golden = JSON.parse(fs.readFileSync(path.join(__dirname, "../../fixtures/golden/g-study-vectors.json"), "utf8")) as {
  cases: { name: string; design: GDesign; scores: number[][][]; components: Record<string, number> }[];
};

describe("G-study against lme4", () => {
  it("has crossed and nested cases", () => {
    expect(new Set(golden.cases.map((c) => c.design))).toEqual(new Set(["crossed", "nested"]));
  });
  for (const c of golden.cases) {
    it(c.name, () => {
      const g = gStudy(c.scores, c.design);
      expect(g.reason).toBeUndefined();
      expect(g.negative).toEqual([]);
      expect(g.components.map((x) => x.source).sort()).toEqual(Object.keys(c.components).sort());
      for (const comp of g.components) expect(comp.variance, comp.source).toBeCloseTo(c.components[comp.source], 4);
      expect(g.components.reduce((s, x) => s + x.share, 0)).toBeCloseTo(1, 12);
    });
  }
});

describe("G-study edge cases and the D-study", () => {
  it("refuses unbalanced or too small data with the reason", () => {
    expect(gStudy([[[1, 2]]], "crossed").reason).toMatch(/two questions/);
    expect(gStudy([[[1, 2], [2, 3]], [[1, 2]]], "crossed").reason).toMatch(/same number of answers/);
    expect(gStudy([[[1, 2], [2, 3]], [[1, 2], [2]]], "nested").reason).toMatch(/same number of graders/);
  });
  it("reports a negative estimate as 0 and names it", () => {
    // Graders agree perfectly: every answer's scores are equal, so r:p:q,e = 0; questions identical: q negative.
    const g = gStudy([[[1, 1], [5, 5]], [[1, 1], [5, 5]]], "nested");
    expect(g.components.find((c) => c.source === "q")!.variance).toBe(0);
    expect(g.negative).toEqual(["q"]);
  });
  it("gives the coefficients for other numbers of graders", () => {
    const g = { design: "crossed" as const, questions: 2, answersPerQuestion: 2, gradersPerAnswer: 2, negative: [], components: [
      { source: "q", variance: 0.5, share: 0, meanSquare: 0, df: 0 },
      { source: "p:q", variance: 1.5, share: 0, meanSquare: 0, df: 0 },
      { source: "r", variance: 0.4, share: 0, meanSquare: 0, df: 0 },
      { source: "qr", variance: 0.2, share: 0, meanSquare: 0, df: 0 },
      { source: "pr:q,e", variance: 0.8, share: 0, meanSquare: 0, df: 0 },
    ] };
    const [one, two] = dStudy(g, [1, 2]);
    // tau = 2; relative error 1/k; absolute 1.4/k.
    expect(one.relative).toBeCloseTo(2 / 3, 12);
    expect(one.absolute).toBeCloseTo(2 / 3.4, 12);
    expect(two.relative).toBeCloseTo(2 / 2.5, 12);
    expect(two.absolute).toBeCloseTo(2 / 2.7, 12);
  });
});
