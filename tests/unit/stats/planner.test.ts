/**
 * The planner's sample sizes (issue #36) against tests/fixtures/golden/planner-vectors.json
 * (scripts/golden/planner_vectors.py: the formulas written again in Python, the published
 * examples, scipy's Mann-Whitney test on 20,000 simulated studies), and by simulation here where
 * no closed form exists to compare with (kappa's interval width, the Bradley-Terry Wald test).
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { alphaSets, differenceSets, iccSets, kappaSets, pairwiseComparisons, wmwPower, type PlanAnswer, type PlanResult } from "@/lib/stats/planner";
import { fleissKappaSets, fleissKappaUnitVariance } from "@/lib/stats/planner-kappa";
import { cohenKappa, mulberry32 } from "@/lib/stats";

const golden = JSON.parse(fs.readFileSync(path.join(__dirname, "../../fixtures/golden/planner-vectors.json"), "utf8")) as {
  published: { bonett2002Icc: number; bonettWrightAlpha: number };
  icc: { rho: number; graders: number; ciWidth: number; unrounded: number; sets: number }[];
  alpha: { rho: number; items: number; ciWidth: number; sets: number }[];
  wmw: { n: number; shift: number; power: number; monteCarloSE: number }[];
};

/** scripts/golden/fleiss_kappa_vectors.py: moments by enumeration, statsmodels' fleiss_kappa on 4,000 simulated studies. */
const fleissGolden = JSON.parse(fs.readFileSync(path.join(__dirname, "../../fixtures/golden/planner-kappa-vectors.json"), "utf8")) as {
  cases: { kappa: number; proportions: number[]; graders: number; ciWidth: number; unitVariance: number; unrounded: number; sets: number; simulated: { sd: number; sdMonteCarloSE: number; width: number } }[];
  blochKraemer: { kappa: number; prevalence: number; unitVariance: number; blochKraemer: number }[];
};

function answer(r: PlanResult): PlanAnswer {
  if ("problem" in r) throw new Error(r.problem);
  return r;
}

describe("planner: reliability", () => {
  it("reproduces Bonett's (2002) ICC example and the alpha example", () => {
    expect(answer(iccSets(0.85, 4, 0.2)).details.unrounded).toBeCloseTo(golden.published.bonett2002Icc, 1);
    expect(answer(alphaSets(0.7, 5, 0.1)).sets).toBe(golden.published.bonettWrightAlpha);
  });
  for (const c of golden.icc) {
    it(`ICC ${c.rho}, ${c.graders} graders, width ${c.ciWidth}`, () => {
      const r = answer(iccSets(c.rho, c.graders, c.ciWidth));
      expect(r.details.unrounded).toBeCloseTo(c.unrounded, 9);
      expect(r.sets).toBe(c.sets);
      expect(r.method).toMatch(/Bonett/);
    });
  }
  for (const c of golden.alpha) {
    it(`alpha ${c.rho}, ${c.items} items, width ${c.ciWidth}`, () => {
      expect(answer(alphaSets(c.rho, c.items, c.ciWidth)).sets).toBe(c.sets);
    });
  }
  it("names the problem and its path", () => {
    expect(iccSets(1.2, 3, 0.2)).toEqual({ problem: expect.stringMatching(/expected ICC/), path: "expected" });
    expect(iccSets(0.7, 1, 0.2)).toMatchObject({ path: "graders" });
    expect(alphaSets(0.7, 5, 0)).toMatchObject({ path: "ciWidth" });
    expect(kappaSets(0.6, 1, 0.2)).toMatchObject({ path: "prevalence" });
  });
});

describe("planner: kappa", () => {
  it("gives the sets whose simulated kappa intervals have about the stated width", () => {
    const kappa = 0.6;
    const p = 0.3;
    const width = 0.2;
    const n = answer(kappaSets(kappa, p, width)).sets;
    const rng = mulberry32(5);
    const both = p * p + kappa * p * (1 - p);
    const neither = (1 - p) ** 2 + kappa * p * (1 - p);
    const estimates: number[] = [];
    for (let r = 0; r < 1500; r++) {
      const rows: number[][] = [];
      for (let i = 0; i < n; i++) {
        const u = rng();
        rows.push(u < both ? [1, 1] : u < both + neither ? [0, 0] : u < both + neither + (1 - both - neither) / 2 ? [1, 0] : [0, 1]);
      }
      const k = cohenKappa(rows).kappa;
      if (k !== null) estimates.push(k);
    }
    const mean = estimates.reduce((s, v) => s + v, 0) / estimates.length;
    const sd = Math.sqrt(estimates.reduce((s, v) => s + (v - mean) ** 2, 0) / (estimates.length - 1));
    // The full width of a 95% interval is 2 x 1.96 SD: within 10% of the target.
    expect(2 * 1.959964 * sd).toBeGreaterThan(width * 0.9);
    expect(2 * 1.959964 * sd).toBeLessThan(width * 1.1);
  });
});

describe("planner: Fleiss' kappa, more graders or categories", () => {
  for (const c of fleissGolden.cases) {
    it(`${c.graders} graders, ${c.proportions.length} categories, kappa ${c.kappa}, width ${c.ciWidth}`, () => {
      const r = answer(fleissKappaSets(c.kappa, c.proportions, c.graders, c.ciWidth));
      // The variance against moments enumerated over every count vector (numerical gradient: ~1e-9).
      expect(r.details.unitVariance).toBeCloseTo(c.unitVariance, 7);
      expect(r.details.unrounded).toBeCloseTo(c.unrounded, 4);
      expect(r.sets).toBe(c.sets);
      expect(r.method).toMatch(/Fleiss/);
      // At the planned size, the interval of statsmodels' Fleiss' kappa on simulated studies has the
      // width: the simulated SD within 4 Monte Carlo SEs (and 3% for the large-sample approximation).
      const sd = Math.sqrt(r.details.unitVariance / r.sets);
      expect(Math.abs(sd - c.simulated.sd)).toBeLessThan(4 * c.simulated.sdMonteCarloSE + 0.03 * c.simulated.sd);
      expect(c.simulated.width).toBeLessThan(c.ciWidth * 1.05);
    });
  }
  it("reduces to Bloch & Kraemer for two graders on a yes/no item", () => {
    for (const b of fleissGolden.blochKraemer) {
      expect(fleissKappaUnitVariance(b.kappa, [b.prevalence, 1 - b.prevalence], 2)).toBeCloseTo(b.blochKraemer, 10);
      expect(answer(fleissKappaSets(b.kappa, [b.prevalence, 1 - b.prevalence], 2, 0.2)).sets).toBe(answer(kappaSets(b.kappa, b.prevalence, 0.2)).sets);
    }
  });
  it("more graders need fewer sets; names the problem and its path", () => {
    const two = answer(fleissKappaSets(0.6, [0.2, 0.5, 0.3], 2, 0.2)).sets;
    const five = answer(fleissKappaSets(0.6, [0.2, 0.5, 0.3], 5, 0.2)).sets;
    expect(five).toBeLessThan(two);
    expect(fleissKappaSets(0.6, [0.2, 0.5, 0.4], 3, 0.2)).toMatchObject({ path: "proportions", problem: expect.stringMatching(/add up to 1/) });
    expect(fleissKappaSets(0.6, [1], 3, 0.2)).toMatchObject({ path: "proportions" });
    expect(fleissKappaSets(0.6, [0.5, 0.5], 1, 0.2)).toMatchObject({ path: "graders" });
    expect(fleissKappaSets(1, [0.5, 0.5], 3, 0.2)).toMatchObject({ path: "expected" });
  });
});

describe("planner: a difference between two models", () => {
  for (const c of golden.wmw) {
    it(`WMW power at n=${c.n}, shift ${c.shift} SD agrees with scipy within Monte Carlo error`, () => {
      const r = wmwPower(c.n, c.shift, { replicates: 4000, seed: 9 });
      const se = Math.sqrt(r.monteCarloSE ** 2 + c.monteCarloSE ** 2);
      expect(Math.abs(r.power - c.power)).toBeLessThan(3.5 * se);
    });
  }
  it("finds the smallest size with the power, reports the power reached and its error", () => {
    // shift 0.5 SD: scipy gives 0.782 at n = 64, so 80% needs a little more.
    const r = answer(differenceSets({ meanDifference: 1, sd: 2, replicates: 2000 }));
    expect(r.sets).toBeGreaterThan(55);
    expect(r.sets).toBeLessThan(80);
    expect(r.details.powerReached).toBeGreaterThanOrEqual(0.8);
    expect(r.details.monteCarloSE).toBeGreaterThan(0);
    const viaDelta = answer(differenceSets({ cliffsDelta: 0.276, replicates: 2000 }));
    // delta 0.276 is a shift of about 0.5 SD.
    expect(viaDelta.details.shiftInSD).toBeCloseTo(0.5, 2);
    expect(differenceSets({ cliffsDelta: 0.001, replicates: 200, maxSets: 64 })).toMatchObject({ problem: expect.stringMatching(/more than 64/) });
    expect(differenceSets({})).toMatchObject({ path: "cliffsDelta" });
  });
});

describe("planner: two Bradley-Terry strengths", () => {
  it("gives the comparisons at which the Wald test reaches the power (simulated)", () => {
    const p = 0.62;
    const n = answer(pairwiseComparisons(p)).sets;
    const rng = mulberry32(8);
    let rejections = 0;
    const reps = 3000;
    for (let r = 0; r < reps; r++) {
      let wins = 0;
      for (let i = 0; i < n; i++) if (rng() < p) wins += 1;
      const phat = wins / n;
      if (phat <= 0 || phat >= 1) continue;
      const d = Math.log(phat / (1 - phat));
      const se = 1 / Math.sqrt(n * phat * (1 - phat));
      if (Math.abs(d / se) > 1.959964) rejections += 1;
    }
    expect(Math.abs(rejections / reps - 0.8)).toBeLessThan(0.04);
    expect(answer(pairwiseComparisons(p, { tieShare: 0.5 })).sets).toBe(Math.ceil(answer(pairwiseComparisons(p)).details.decisiveComparisons / 0.5));
    expect(pairwiseComparisons(0.4)).toMatchObject({ path: "winProbability" });
  });
});
