import { describe, expect, it } from "vitest";
import { mulberry32, percentileInterval } from "@/lib/stats/bootstrap";
import { bradleyTerryFromCounts, countPreferences, emptyCounts, replicateStrengths, type Preference } from "@/lib/stats/bradley-terry";
import { bradleyTerryBootstrap } from "@/lib/stats/bradley-terry-bootstrap";

type Clustered = Preference & { cluster: string };

/**
 * The question bootstrap written plainly: each drawn question's preferences counted onto a
 * models x models grid one draw at a time, each replicate fitted by the general Newton fit
 * (Gauss-Jordan). The fast loop must draw the same questions and reach the same fits.
 */
function plainBootstrap(k: number, prefs: Clustered[], replicates: number, seed: number) {
  const byQuestion = new Map<string, Clustered[]>();
  for (const p of prefs) byQuestion.set(p.cluster, [...(byQuestion.get(p.cluster) ?? []), p]);
  const questions = [...byQuestion.keys()].sort().map((q) => byQuestion.get(q)!);
  const davidson = prefs.some((p) => p.outcome === "tie");
  const full = bradleyTerryFromCounts(countPreferences(k, prefs), { ties: davidson ? "davidson" : "plain" });
  const start = [...full.logStrength!.slice(1).map((v) => v - full.logStrength![0]), ...(full.nu !== null ? [Math.log(full.nu)] : [])];
  const rng = mulberry32(seed);
  const draws: number[][] = Array.from({ length: k }, () => []);
  const best = new Array<number>(k).fill(0);
  let failed = 0;
  for (let r = 0; r < replicates; r++) {
    const counts = emptyCounts(k);
    for (let c = 0; c < questions.length; c++) countPreferences(k, questions[Math.floor(rng() * questions.length)], counts);
    const s = replicateStrengths(counts, davidson, start, {});
    if (!s) { failed += 1; continue; }
    const top = Math.max(...s);
    const leaders = s.filter((v) => v === top).length;
    s.forEach((v, i) => { draws[i].push(v); if (v === top) best[i] += 1 / leaders; });
  }
  const ok = replicates - failed;
  return { intervals: draws.map((d) => percentileInterval(d)), probabilityBest: best.map((b) => b / ok), failed };
}

/** k models, `questions` questions each comparing a few pairs in either order, Davidson outcomes. */
function simulate(k: number, questions: number, seed: number, withTies: boolean): Clustered[] {
  const rng = mulberry32(seed);
  const out: Clustered[] = [];
  for (let q = 0; q < questions; q++) {
    for (let c = 0; c < 3; c++) {
      const a = Math.floor(rng() * k);
      const b = (a + 1 + Math.floor(rng() * (k - 1))) % k;
      const [i, j] = rng() < 0.5 ? [a, b] : [b, a];
      const pi = Math.exp(0.4 * i);
      const pj = Math.exp(0.4 * j);
      const t = withTies ? 0.6 * Math.sqrt(pi * pj) : 0;
      for (let g = 0; g < 2; g++) {
        const u = rng() * (pi + pj + t);
        out.push({ i, j, outcome: u < pi ? "i" : u < pi + pj ? "j" : "tie", cluster: `q${q}` });
      }
    }
  }
  return out;
}

describe("the question bootstrap's replicate loop", () => {
  it("gives the same intervals whatever order the preferences come in", () => {
    const prefs = simulate(5, 60, 3, true);
    const shuffled = [...prefs];
    const rng = mulberry32(1);
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = Math.floor(rng() * (i + 1));
      [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
    }
    expect(bradleyTerryBootstrap(5, shuffled, { replicates: 200, seed: 2 })).toEqual(bradleyTerryBootstrap(5, prefs, { replicates: 200, seed: 2 }));
  });

  for (const [label, k, questions, withTies, seed] of [
    ["Davidson, 6 models", 6, 120, true, 5],
    ["plain, 4 models", 4, 80, false, 5],
    ["Davidson, five questions: some replicates have no finite fit", 4, 5, true, 4],
  ] as const) {
    it(`draws the same questions and reaches the same fits as the plain formulation (${label})`, () => {
      const prefs = simulate(k, questions, seed, withTies);
      const fast = bradleyTerryBootstrap(k, prefs, { replicates: 300, seed: 9 });
      const plain = plainBootstrap(k, prefs, 300, 9);
      expect(fast.failed).toBe(plain.failed);
      if (questions < 10) expect(fast.failed).toBeGreaterThan(0);
      fast.intervals.forEach((iv, m) => {
        expect(iv![0]).toBeCloseTo(plain.intervals[m]![0], 10);
        expect(iv![1]).toBeCloseTo(plain.intervals[m]![1], 10);
      });
      // With five questions two models often tie exactly in a replicate, and which of them tops it is a matter of rounding.
      if (questions >= 10) fast.probabilityBest.forEach((p, m) => expect(p).toBeCloseTo(plain.probabilityBest[m], 12));
    });
  }
});
