/**
 * Spearman's rho with its Fisher-z interval against tests/fixtures/golden/spearman-ci-vectors.json,
 * written by scripts/golden/spearman_ci.R (R cor.test(method = "spearman"), qnorm, rank()).
 * The app's interval uses the Bonett-Wright standard error; the plain Fisher one is in the file
 * to show the two differ (a test that cannot tell them apart would pin nothing).
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { averageRanks, percentileRanks, rankDisagreements, spearmanCI, spearmanInterval } from "@/lib/stats";
import { spearmanCIOfRanks } from "@/lib/stats/rank-correlation";

interface Case {
  name: string;
  level: number;
  x: (number | null)[];
  y: (number | null)[];
  expected: { rho: number; n: number; ci_bonett_wright: [number, number] | null; ci_fisher: [number, number] | null; x_percentile: number[]; y_percentile: number[] };
}
const cases: Case[] = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "../../fixtures/golden/spearman-ci-vectors.json"), "utf8"));
const TOL = 1e-9;
const close = (a: number, b: number) => expect(Math.abs(a - b), `${a} vs ${b}`).toBeLessThanOrEqual(TOL);

describe("Spearman with a Fisher-z interval (R golden vectors)", () => {
  it("has the cases", () => expect(cases.length).toBeGreaterThanOrEqual(12));
  for (const c of cases) {
    it(c.name, () => {
      const r = spearmanCI(c.x, c.y, c.level);
      expect(r.n).toBe(c.expected.n);
      close(r.rho!, c.expected.rho);
      expect(r.ci).not.toBeNull();
      close(r.ci![0], c.expected.ci_bonett_wright![0]);
      close(r.ci![1], c.expected.ci_bonett_wright![1]);
      const both = c.x.map((v, i) => v !== null && c.y[i] !== null);
      percentileRanks(c.x.filter((_, i) => both[i])).forEach((p, i) => close(p!, c.expected.x_percentile[i]));
      percentileRanks(c.y.filter((_, i) => both[i])).forEach((p, i) => close(p!, c.expected.y_percentile[i]));
    });
  }
  it("uses the Bonett-Wright standard error, not Pearson's 1/sqrt(n-3)", () => {
    const c = cases.find((k) => k.name === "metric vs likert n=30")!;
    const r = spearmanCI(c.x, c.y, c.level);
    expect(Math.abs(r.ci![0] - c.expected.ci_fisher![0])).toBeGreaterThan(1e-4);
  });
});

describe("spearmanCIOfRanks", () => {
  it("gives spearmanCI's result from ranks computed once, on every complete golden case", () => {
    const complete = cases.filter((c) => c.x.every((v, i) => v !== null && c.y[i] !== null));
    expect(complete.length).toBeGreaterThan(10);
    for (const c of complete) {
      const a = spearmanCI(c.x, c.y, c.level);
      const b = spearmanCIOfRanks(averageRanks(c.x as number[]), averageRanks(c.y as number[]), c.level);
      expect(b, c.name).toEqual(a);
    }
    expect(spearmanCIOfRanks(averageRanks([7, 7, 7, 7]), [1, 2, 3, 4]).reason).toMatch(/constant/);
  });
});

describe("degenerate input", () => {
  it("needs four pairs for an interval", () => {
    const r = spearmanCI([1, 2, 3], [1, 3, 2]);
    expect(r.rho).toBeCloseTo(0.5, 12);
    expect(r.ci).toBeNull();
    expect(r.reason).toMatch(/four/);
    expect(spearmanInterval(0.3, 3)).toBeNull();
  });
  it("a constant side has no rho and says why", () => {
    const r = spearmanCI([1, 1, 1, 1, 1], [1, 2, 3, 4, 5]);
    expect(r.rho).toBeNull();
    expect(r.ci).toBeNull();
    expect(r.reason).toMatch(/constant/);
  });
});

describe("rankDisagreements", () => {
  it("lists the largest rank gaps each way, hand-checked", () => {
    // x ranks: 0.9->1, 0.1->0, 0.5->0.5 ; y ranks: 1->0, 5->1, 3->0.5
    const { xHigh, yHigh } = rankDisagreements([0.9, 0.1, 0.5, null], [1, 5, 3, 2], 5);
    expect(xHigh).toEqual([{ index: 0, xRank: 1, yRank: 0, gap: 1 }]);
    expect(yHigh).toEqual([{ index: 1, xRank: 0, yRank: 1, gap: -1 }]);
  });
  it("keeps k and ranks only complete pairs", () => {
    const x = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6];
    const y = [6, 5, 4, 3, 2, 1];
    const { xHigh, yHigh } = rankDisagreements(x, y, 2);
    expect(xHigh.map((g) => g.index)).toEqual([5, 4]);
    expect(yHigh.map((g) => g.index)).toEqual([0, 1]);
  });
});
