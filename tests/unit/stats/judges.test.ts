import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  blandAltman,
  classification,
  cohenKappa,
  deferralCurve,
  exactAgreement,
  expectedScore,
  kendallTau,
  mostProbableLevel,
  probabilityConfidence,
  roundHalfUp,
  sampleConfidence,
  spearman,
} from "@/lib/stats";

/** Reference values from scipy and scikit-learn: scripts/golden/judge-vectors.py. */
interface Case {
  metric: string;
  variant?: string;
  input: Record<string, unknown>;
  expected: unknown;
  tolerance: number;
}
const cases = JSON.parse(readFileSync("tests/fixtures/golden/judge-vectors.json", "utf8")) as Case[];
const close = (a: number | null | undefined, b: number, tol: number) => expect(Math.abs((a ?? NaN) - b), `${a} vs ${b}`).toBeLessThanOrEqual(tol);

describe("judge statistics against scipy and scikit-learn", () => {
  for (const [i, c] of cases.entries()) {
    it(`${c.metric} ${c.variant ?? ""} #${i}`, () => {
      const inp = c.input as Record<string, never>;
      if (c.metric === "judge_readings") {
        const levels = inp.levels as number[];
        const exp = c.expected as { most_probable: number[]; expected: number[]; rounded: number[]; confidence: number[] };
        (inp.probabilities as number[][]).forEach((ps, j) => {
          const dist = levels.map((level, k) => ({ level, p: ps[k] }));
          expect(mostProbableLevel(dist)).toBe(exp.most_probable[j]);
          close(expectedScore(dist), exp.expected[j], c.tolerance);
          expect(roundHalfUp(expectedScore(dist)!)).toBe(exp.rounded[j]);
          close(probabilityConfidence(dist), exp.confidence[j], c.tolerance);
        });
      } else if (c.metric === "bland_altman") {
        const r = blandAltman(inp.a, inp.b);
        const exp = c.expected as { bias: number; sd: number; limits: number[]; bias_ci: number[] };
        close(r.bias, exp.bias, c.tolerance);
        close(r.sd, exp.sd, c.tolerance);
        close(r.limits?.[0], exp.limits[0], c.tolerance);
        close(r.limits?.[1], exp.limits[1], c.tolerance);
        close(r.biasCi?.[0], exp.bias_ci[0], 1e-6);
        close(r.biasCi?.[1], exp.bias_ci[1], 1e-6);
      } else if (c.metric === "cohen_kappa") {
        close(cohenKappa(inp.ratings, { categories: inp.categories, weights: inp.weights }).kappa, c.expected as number, c.tolerance);
      } else if (c.metric === "spearman") {
        close(spearman(inp.x, inp.y).rho, c.expected as number, c.tolerance);
      } else if (c.metric === "kendall_tau_b") {
        close(kendallTau(inp.x, inp.y).tau, c.expected as number, c.tolerance);
      } else if (c.metric === "classification") {
        const r = classification(inp.reference as (string | number)[], inp.judged as (string | number)[], inp.labels as (string | number)[]);
        const exp = c.expected as { counts: number[][]; macro_f1: number; accuracy: number };
        expect(r.matrix.counts).toEqual(exp.counts);
        close(r.macroF1, exp.macro_f1, c.tolerance);
        close(r.accuracy, exp.accuracy, c.tolerance);
      } else throw new Error(`no check for ${c.metric}`);
    });
  }
});

describe("two readings and confidence, worked by hand", () => {
  it("ties go to the lower level; the expected score is the sum of level x probability", () => {
    const dist = [1, 2, 3, 4, 5].map((level, i) => ({ level, p: [0.1, 0.3, 0.3, 0.2, 0.1][i] }));
    expect(mostProbableLevel(dist)).toBe(2);
    // 0.1 + 0.6 + 0.9 + 0.8 + 0.5 = 2.9
    expect(expectedScore(dist)).toBeCloseTo(2.9, 12);
    expect(roundHalfUp(2.5)).toBe(3);
    expect(roundHalfUp(3.4999999)).toBe(3);
    expect(probabilityConfidence(dist)).toBeCloseTo(0.3, 12);
  });
  it("binary confidence is |2p - 1|; samples give one minus their range over the scale's, or the modal share", () => {
    expect(probabilityConfidence([{ level: 0, p: 0.2 }, { level: 1, p: 0.8 }])).toBeCloseTo(0.6, 12);
    expect(probabilityConfidence([{ level: 0, p: 0.5 }, { level: 1, p: 0.5 }])).toBe(0);
    expect(sampleConfidence([2, 4, 3], { min: 1, max: 5 })).toBeCloseTo(0.5, 12);
    expect(sampleConfidence([5, 5, 5], { min: 1, max: 5 })).toBe(1);
    expect(sampleConfidence(["yes", "no", "yes", "yes"], null)).toBe(0.75);
    expect(sampleConfidence([3], { min: 1, max: 5 })).toBeNull();
  });
});

describe("deferral curve, worked by hand", () => {
  // Five judgments: confidence, judge, panel. Agreement = exact agreement.
  const js = [
    { confidence: 0.95, judge: 5, panel: 5 },
    { confidence: 0.8, judge: 4, panel: 4 },
    { confidence: 0.55, judge: 3, panel: 4 },
    { confidence: 0.3, judge: 2, panel: 2 },
    { confidence: 0.1, judge: 1, panel: 3 },
    { confidence: null, judge: 1, panel: 1 },
  ];
  const curve = deferralCurve(js, exactAgreement);
  it("keeps judgments at or above each cutoff from 0 to 0.9", () => {
    expect(curve.map((p) => p.cutoff)).toEqual([0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]);
    // Kept counts: >=0: 5, >=0.1: 5, >=0.2: 4, >=0.3: 4, >=0.4: 3, >=0.5: 3, >=0.6: 2, 0.7: 2, 0.8: 2, 0.9: 1.
    expect(curve.map((p) => p.kept)).toEqual([5, 5, 4, 4, 3, 3, 2, 2, 2, 1]);
    expect(curve.map((p) => p.deferredShare)).toEqual([0, 0, 0.2, 0.2, 0.4, 0.4, 0.6, 0.6, 0.6, 0.8]);
    // Agreement on kept: 3/5, 3/5, 3/4, 3/4, 2/3, 2/3, 1, 1, 1, 1.
    expect(curve.map((p) => p.agreementKept)).toEqual([0.6, 0.6, 0.75, 0.75, 2 / 3, 2 / 3, 1, 1, 1, 1]);
    // On the deferred: none, none, 0/1, 0/1, 1/2, 1/2, 1/3, ...
    expect(curve.map((p) => p.agreementDeferred)).toEqual([null, null, 0, 0, 0.5, 0.5, 1 / 3, 1 / 3, 1 / 3, 0.5]);
  });
});

describe("edge cases", () => {
  it("say why instead of NaN", () => {
    expect(blandAltman([1], [2]).reason).toMatch(/fewer than two/);
    expect(kendallTau([1, 1, 1], [1, 2, 3]).tau).toBeNull();
    expect(classification([], []).macroF1).toBeNull();
  });
});
