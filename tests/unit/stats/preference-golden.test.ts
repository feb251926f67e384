/**
 * Bradley-Terry (plain and Davidson), Wilson intervals and the exact binomial test (issue #34)
 * against tests/fixtures/golden/preference-vectors.json, written by
 * scripts/golden/preference_vectors.py: plain fits from R's BradleyTerry2 (centred), Davidson fits
 * from an independent scipy implementation, Wilson from statsmodels, binomial from scipy.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { bradleyTerry, bradleyTerryFromCounts, type Preference } from "@/lib/stats/bradley-terry";
import { bradleyTerryBootstrap } from "@/lib/stats/bradley-terry-bootstrap";
import { binomialTest, pairSummary, shareTest, wilsonInterval } from "@/lib/stats/preference";
import { mulberry32 } from "@/lib/stats";

interface BtCase {
  kind: "bt";
  name: string;
  wins: number[][];
  ties: number[][];
  model: "plain" | "davidson";
  expected: { logStrength: number[]; se: number[]; logLikelihood?: number; nu?: number; nuSE?: number };
}
interface ProportionCase {
  kind: "proportion";
  name: string;
  successes: number;
  n: number;
  wilson95: [number, number];
  wilson90: [number, number];
  binomialP: number;
  binomialP03: number;
}
const golden = JSON.parse(
  fs.readFileSync(path.join(__dirname, "../../fixtures/golden/preference-vectors.json"), "utf8"),
) as { cases: (BtCase | ProportionCase)[] };

describe("Bradley-Terry against R BradleyTerry2 and an independent Davidson fit", () => {
  const cases = golden.cases.filter((c): c is BtCase => c.kind === "bt");
  it("has plain and Davidson cases", () => {
    expect(cases.filter((c) => c.model === "plain").length).toBeGreaterThanOrEqual(3);
    expect(cases.filter((c) => c.model === "davidson").length).toBeGreaterThanOrEqual(3);
  });
  for (const c of cases) {
    it(c.name, () => {
      const fit = bradleyTerryFromCounts({ wins: c.wins, ties: c.ties });
      expect(fit.reason).toBeUndefined();
      expect(fit.model).toBe(c.model);
      c.expected.logStrength.forEach((v, i) => expect(fit.logStrength![i]).toBeCloseTo(v, 7));
      c.expected.se.forEach((v, i) => expect(fit.se![i]).toBeCloseTo(v, 5));
      expect(fit.logStrength!.reduce((s, v) => s + v, 0)).toBeCloseTo(0, 12);
      if (c.expected.logLikelihood !== undefined) expect(fit.logLikelihood!).toBeCloseTo(c.expected.logLikelihood, 7);
      if (c.model === "davidson") {
        expect(fit.nu!).toBeCloseTo(c.expected.nu!, 7);
        expect(fit.nuSE!).toBeCloseTo(c.expected.nuSE!, 4);
        // The predicted matrices from the reference's strengths and nu (Davidson's formulas).
        const k = c.wins.length;
        const pi = c.expected.logStrength.map(Math.exp);
        for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) if (i !== j) {
          const tie = c.expected.nu! * Math.sqrt(pi[i] * pi[j]);
          expect(fit.winProbability![i][j]!).toBeCloseTo(pi[i] / (pi[i] + pi[j] + tie), 6);
          expect(fit.tieProbability![i][j]!).toBeCloseTo(tie / (pi[i] + pi[j] + tie), 6);
        }
      } else {
        expect(fit.nu).toBeNull();
        expect(fit.tieProbability).toBeNull();
      }
    });
  }
});

describe("Wilson intervals and the exact binomial test", () => {
  for (const c of golden.cases.filter((x): x is ProportionCase => x.kind === "proportion")) {
    it(c.name, () => {
      const w = wilsonInterval(c.successes, c.n);
      expect(w.interval![0]).toBeCloseTo(c.wilson95[0], 12);
      expect(w.interval![1]).toBeCloseTo(c.wilson95[1], 12);
      const w90 = wilsonInterval(c.successes, c.n, 0.9);
      expect(w90.interval![0]).toBeCloseTo(c.wilson90[0], 12);
      expect(w90.interval![1]).toBeCloseTo(c.wilson90[1], 12);
      expect(binomialTest(c.successes, c.n).pValue!).toBeCloseTo(c.binomialP, 12);
      expect(binomialTest(c.successes, c.n, 0.3).pValue!).toBeCloseTo(c.binomialP03, 12);
    });
  }
  it("refuses what is not a count", () => {
    expect(wilsonInterval(0, 0).reason).toMatch(/no observations/);
    expect(wilsonInterval(5, 3).reason).toMatch(/between 0 and n/);
    expect(binomialTest(1.5, 3).reason).toMatch(/count/);
  });
  it("summarises a pair in CLEVER's words", () => {
    const s = pairSummary(29, 4, 15);
    expect(s.n).toBe(48);
    expect(s.relativePreference).toBeCloseTo(29 / 15 - 1, 12);
    expect(s.winRate.estimate).toBeCloseTo(29 / 48, 12);
    expect(s.decisiveWinRate.estimate).toBeCloseTo(29 / 44, 12);
    expect(pairSummary(3, 0, 0).relativePreference).toBeNull();
    const left = shareTest(70, 100);
    expect(left.pValue!).toBeLessThan(0.001);
    expect(left.interval![0]).toBeGreaterThan(0.5);
  });
});

describe("Bradley-Terry edge cases", () => {
  it("does not give finite strengths to a model that won every comparison", () => {
    const fit = bradleyTerryFromCounts({ wins: [[0, 5, 4], [0, 0, 3], [0, 2, 0]], ties: [[0, 0, 0], [0, 0, 0], [0, 0, 0]] });
    expect(fit.logStrength).toBeNull();
    expect(fit.reason).toMatch(/not finite/);
  });
  it("a tie keeps an otherwise unbeaten model finite under Davidson's model", () => {
    const fit = bradleyTerryFromCounts({ wins: [[0, 5, 4], [0, 0, 3], [0, 2, 0]], ties: [[0, 1, 0], [1, 0, 0], [0, 0, 0]] });
    expect(fit.model).toBe("davidson");
    expect(fit.logStrength![0]).toBeGreaterThan(fit.logStrength![1]);
  });
  it("names a model never compared, and refuses all-tie data", () => {
    expect(bradleyTerryFromCounts({ wins: [[0, 1, 0], [1, 0, 0], [0, 0, 0]], ties: [[0, 0, 0], [0, 0, 0], [0, 0, 0]] }).reason).toMatch(/model 3 has no comparison/);
    expect(bradleyTerryFromCounts({ wins: [[0, 0], [0, 0]], ties: [[0, 3], [3, 0]] }).reason).toMatch(/every preference is a tie/);
    expect(bradleyTerryFromCounts({ wins: [[0, 1], [1, 0]], ties: [[0, 1], [1, 0]] }, { ties: "plain" }).reason).toMatch(/plain model has no tie/);
  });
  it("does not depend on the order of the models", () => {
    const counts = { wins: [[0, 12, 9], [6, 0, 11], [4, 7, 0]], ties: [[0, 3, 2], [3, 0, 4], [2, 4, 0]] };
    const order = [2, 0, 1];
    const permuted = { wins: order.map((a) => order.map((b) => counts.wins[a][b])), ties: order.map((a) => order.map((b) => counts.ties[a][b])) };
    const a = bradleyTerryFromCounts(counts);
    const b = bradleyTerryFromCounts(permuted);
    order.forEach((orig, pos) => {
      expect(b.logStrength![pos]).toBeCloseTo(a.logStrength![orig], 10);
      expect(b.se![pos]).toBeCloseTo(a.se![orig], 10);
    });
  });
  it("recovers known strengths from simulated graders, and the cluster bootstrap covers them", () => {
    const truth = [0.8, 0, -0.8];
    const rng = mulberry32(7);
    const prefs: (Preference & { cluster: string })[] = [];
    for (let q = 0; q < 300; q++) {
      for (const [i, j] of [[0, 1], [0, 2], [1, 2]]) {
        for (let g = 0; g < 3; g++) {
          const pi = Math.exp(truth[i]);
          const pj = Math.exp(truth[j]);
          const t = 0.5 * Math.sqrt(pi * pj);
          const u = rng() * (pi + pj + t);
          prefs.push({ i, j, outcome: u < pi ? "i" : u < pi + pj ? "j" : "tie", cluster: `q${q}` });
        }
      }
    }
    const fit = bradleyTerry(3, prefs);
    expect(fit.model).toBe("davidson");
    truth.forEach((v, i) => expect(Math.abs(fit.logStrength![i] - v)).toBeLessThan(3 * fit.se![i]));
    expect(Math.abs(fit.nu! - 0.5)).toBeLessThan(3 * fit.nuSE!);
    const boot = bradleyTerryBootstrap(3, prefs, { replicates: 200, seed: 11 });
    expect(boot.failed).toBe(0);
    truth.forEach((v, i) => {
      expect(boot.intervals[i]![0]).toBeLessThan(v);
      expect(boot.intervals[i]![1]).toBeGreaterThan(v);
    });
    expect(boot.probabilityBest.reduce((s, v) => s + v, 0)).toBeCloseTo(1, 12);
    expect(boot.probabilityBest[0]).toBeGreaterThan(0.99);
    // Seeded: the same seed gives the same intervals.
    expect(bradleyTerryBootstrap(3, prefs, { replicates: 200, seed: 11 }).intervals).toEqual(boot.intervals);
  });
});
