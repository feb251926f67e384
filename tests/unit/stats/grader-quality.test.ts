/**
 * Grader-quality signals (issue #35): clusteredMean against statsmodels (tests/fixtures/golden/
 * grader-quality-vectors.json, written by scripts/golden/grader_quality_vectors.py); the others
 * against values worked by hand in the comments.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { blocksOf, clusteredMean, leaveOneOutBias, median, peerAgreement, scaleUse, straightLining } from "@/lib/stats/grader-quality";
import { gwetAC2 } from "@/lib/stats/gwet";

const golden = JSON.parse(fs.readFileSync(path.join(__dirname, "../../fixtures/golden/grader-quality-vectors.json"), "utf8")) as {
  cases: { name: string; groups: number[][]; estimate: number; se: number; ci: [number, number] }[];
};

describe("clusteredMean against statsmodels' cluster-robust OLS", () => {
  it("has cases", () => expect(golden.cases.length).toBeGreaterThanOrEqual(5));
  for (const c of golden.cases)
    it(c.name, () => {
      const r = clusteredMean(c.groups.map((g) => ({ sum: g.reduce((a, b) => a + b, 0), count: g.length })));
      expect(r.estimate).toBeCloseTo(c.estimate, 10);
      expect(r.se).toBeCloseTo(c.se, 10);
      expect(r.ci![0]).toBeCloseTo(c.ci[0], 8);
      expect(r.ci![1]).toBeCloseTo(c.ci[1], 8);
      expect(r.clusters).toBe(c.groups.length);
    });
  it("has no interval from one cluster, nothing from none", () => {
    expect(clusteredMean([{ sum: 3, count: 2 }])).toEqual({ estimate: 1.5, se: null, ci: null, n: 2, clusters: 1 });
    expect(clusteredMean([]).estimate).toBeNull();
  });
});

describe("straightLining", () => {
  it("is the share of sets whose ordinal scores are all one value; sets of fewer than two scores do not count", () => {
    // sets: [5,5,5] same; [4,5] not; [3,3] same; [2] not counted → 2/3
    expect(straightLining([[5, 5, 5], [4, 5], [3, 3], [2]])).toEqual({ share: 2 / 3, n: 3 });
    expect(straightLining([[1]])).toEqual({ share: null, n: 0 });
  });
});

describe("scaleUse", () => {
  it("is the mean over scored dimensions of distinct declared levels used over levels declared", () => {
    // a: {1,2,5} of 5 = 0.6; b: {0} of 2 = 0.5; c unscored → (0.6+0.5)/2 = 0.55, n = 4 + 2
    const r = scaleUse([
      { levels: [1, 2, 3, 4, 5], scores: [1, 2, 5, 5] },
      { levels: [0, 1], scores: [0, 0] },
      { levels: [1, 2, 3], scores: [] },
    ]);
    expect(r.share).toBeCloseTo(0.55, 12);
    expect(r.n).toBe(6);
  });
});

describe("leaveOneOutBias", () => {
  it("averages grader minus the others' mean over cells, per dimension and pooled", () => {
    // set A: acc 4 vs [3,2] → +1.5; comp 5 vs [4] → +1
    // set B: acc 3 vs [3] → 0;     comp 2 vs [1,2] → +0.5
    // overall mean of cells = (1.5+1+0+0.5)/4 = 0.75; acc = 0.75; comp = 0.75
    const r = leaveOneOutBias([
      { set: "A", dimension: "acc", grader: 4, others: [3, 2] },
      { set: "A", dimension: "comp", grader: 5, others: [4] },
      { set: "B", dimension: "acc", grader: 3, others: [3] },
      { set: "B", dimension: "comp", grader: 2, others: [1, 2] },
      { set: "C", dimension: "acc", grader: 1, others: [] },
    ]);
    expect(r.overall.estimate).toBeCloseTo(0.75, 12);
    expect(r.overall.n).toBe(4);
    expect(r.overall.clusters).toBe(2);
    // per-set sums 2.5 (2 cells) and 0.5 (2 cells): equal sizes → t-interval over set means 1.25, 0.25
    // se = sd(1.25, 0.25)/sqrt(2) = 0.5; t(0.975, 1) = 12.7062047
    expect(r.overall.se).toBeCloseTo(0.5, 12);
    expect(r.overall.ci![1]).toBeCloseTo(0.75 + 12.706204736 * 0.5, 6);
    expect(r.byDimension.acc.estimate).toBeCloseTo(0.75, 12);
    expect(r.byDimension.comp.estimate).toBeCloseTo(0.75, 12);
    expect(Object.keys(r.byDimension)).toEqual(["acc", "comp"]);
  });
});

describe("peerAgreement", () => {
  it("is AC2 on the (grader, peer) pairs of each dimension, weighted by pairs overall", () => {
    const acc = [
      { grader: 4, others: [4, 3] },
      { grader: 2, others: [2] },
      { grader: 5, others: [1] },
    ];
    const comp = [
      { grader: 1, others: [1] },
      { grader: 0, others: [1] },
      { grader: 1, others: [1] },
    ];
    const r = peerAgreement([
      { key: "acc", levels: [1, 2, 3, 4, 5], cells: acc },
      { key: "comp", levels: [0, 1], cells: comp },
    ]);
    const a = gwetAC2([[4, 4], [4, 3], [2, 2], [5, 1]], { categories: [1, 2, 3, 4, 5] }).coefficient!;
    const c = gwetAC2([[1, 1], [0, 1], [1, 1]], { categories: [0, 1] }).coefficient!;
    expect(r.byDimension.acc).toEqual({ ac2: a, n: 4 });
    expect(r.byDimension.comp).toEqual({ ac2: c, n: 3 });
    expect(r.overall).toBeCloseTo((4 * a + 3 * c) / 7, 12);
    expect(r.n).toBe(7);
  });
});

describe("median and blocksOf", () => {
  it("work on the edge cases", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
    expect(median([])).toBeNull();
    expect(blocksOf([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
  });
});
