/**
 * Journal statistics (issue #17) beyond the reference vectors: text categories for the nominal
 * coefficients, the pairwise kappa matrix, Krippendorff's bootstrap, Cliff's delta families, and
 * degenerate input (null + reason, never NaN, never a throw).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  cliffsDeltaCI,
  cliffsDeltaFamily,
  cohenKappa,
  descriptives,
  fleissKappa,
  friedmanTest,
  gwetAC1,
  kendallW,
  krippendorffAlpha,
  krippendorffAlphaBootstrapCI,
  mulberry32,
  pAdjust,
  pairwiseCohenKappa,
  wilcoxonPosthoc,
  wilcoxonSignedRank,
} from "@/lib/stats";
import { resample } from "@/lib/stats/bootstrap";
import { percentileInterval } from "@/lib/stats/bootstrap";

function expectNoNaN(value: unknown, where = "result"): void {
  if (typeof value === "number") expect(Number.isFinite(value), `${where} = ${value}`).toBe(true);
  else if (Array.isArray(value)) value.forEach((v, i) => expectNoNaN(v, `${where}[${i}]`));
  else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) expectNoNaN(v, `${where}.${k}`);
}

function expectNullWithReason<T extends { reason?: string }>(result: T, field: keyof T): void {
  expect(result[field], `${String(field)} should be null`).toBeNull();
  expect(result.reason, "reason").toMatch(/\w/);
  expectNoNaN(result);
}

// Three raters, labels; the same data as codes 0/1/2.
const LABELS = [
  ["a", "a", "b"],
  ["b", "b", "b"],
  ["c", "a", "c"],
  ["a", "a", "a"],
  ["b", "c", "b"],
  ["c", "c", null],
];
const CODE: Record<string, number> = { a: 0, b: 1, c: 2 };
const CODES = LABELS.map((row) => row.map((v) => (v === null ? null : CODE[v])));

describe("nominal statistics take text labels", () => {
  it("gwetAC1 on labels equals gwetAC1 on codes (it used to answer 'no ratings')", () => {
    const labelled = gwetAC1(LABELS);
    expect(labelled.coefficient).not.toBeNull();
    expect(labelled.reason).toBeUndefined();
    expect(labelled.coefficient).toBeCloseTo(gwetAC1(CODES).coefficient!, 12);
    expect(labelled.se).toBeCloseTo(gwetAC1(CODES).se!, 12);
  });
  it("Fleiss, Krippendorff nominal and unweighted Cohen on labels equal the coded values", () => {
    expect(fleissKappa(LABELS).kappa).toBeCloseTo(fleissKappa(CODES).kappa!, 12);
    expect(krippendorffAlpha(LABELS, { level: "nominal" }).alpha).toBeCloseTo(krippendorffAlpha(CODES, { level: "nominal" }).alpha!, 12);
    const two = LABELS.map((r) => [r[0], r[1]]);
    const twoCodes = CODES.map((r) => [r[0], r[1]]);
    expect(cohenKappa(two).kappa).toBeCloseTo(cohenKappa(twoCodes).kappa!, 12);
    expect(cohenKappa(two).se).toBeCloseTo(cohenKappa(twoCodes).se!, 12);
  });
  it("declared label categories count unused levels in AC1 (q), in the declared order", () => {
    const declared = gwetAC1(LABELS, { categories: ["a", "b", "c", "d"] });
    expect(declared.q).toBe(4);
    expect(declared.coefficient).toBeCloseTo(gwetAC1(CODES, { categories: [0, 1, 2, 3] }).coefficient!, 12);
  });
  it("a number and its text are one category; blank text is missing", () => {
    expect(gwetAC1([[1, "1"], ["2", 2], [1, 2]]).coefficient).toBeCloseTo(gwetAC1([[1, 1], [2, 2], [1, 2]]).coefficient!, 12);
    expect(fleissKappa([["a", " "], ["a", "b"], ["b", "b"]]).n).toBe(3);
    expect(gwetAC1([["a", ""], ["", ""]]).n).toBe(1);
  });
  it("labels outside the declared categories, or labels where distances are needed, give a reason", () => {
    expectNullWithReason(gwetAC1(LABELS, { categories: ["a", "b"] }), "coefficient");
    expectNullWithReason(fleissKappa(LABELS, { categories: ["a", "b"] }), "kappa");
    expectNullWithReason(cohenKappa([["a", "b"], ["b", "b"]], { weights: "quadratic" }), "kappa");
    expectNullWithReason(krippendorffAlpha(LABELS, { level: "ordinal" }), "alpha");
    expect(gwetAC1(LABELS, { categories: ["a", "b"] }).reason).toMatch(/"c"/);
  });
});

describe("Cohen's kappa conventions and the pairwise matrix", () => {
  const pairs = [[1, 2], [2, 2], [3, 5], [5, 5], [1, 1], [2, 3], [5, 3], [3, 3]];
  it("ranks and scale agree on a gap-free scale, differ across an unused level", () => {
    const gapFree = [[1, 2], [2, 2], [3, 4], [4, 4], [1, 1], [2, 3], [4, 3], [3, 3]];
    expect(cohenKappa(gapFree, { weights: "quadratic", convention: "ranks" }).kappa).toBeCloseTo(
      cohenKappa(gapFree, { weights: "quadratic", convention: "scale" }).kappa!, 12);
    const ranks = cohenKappa(pairs, { weights: "quadratic", convention: "ranks" }).kappa!;
    const scale = cohenKappa(pairs, { weights: "quadratic", convention: "scale", categories: [1, 2, 3, 4, 5] }).kappa!;
    expect(Math.abs(ranks - scale)).toBeGreaterThan(1e-3);
  });
  it("the interval is kappa -/+ z se and narrows with the level", () => {
    const r95 = cohenKappa(pairs, { weights: "linear" });
    const r80 = cohenKappa(pairs, { weights: "linear", level: 0.8 });
    expect(r95.ci![0]).toBeCloseTo(r95.kappa! - 1.959963984540054 * r95.se!, 12);
    expect(r80.ci![1] - r80.ci![0]).toBeLessThan(r95.ci![1] - r95.ci![0]);
  });
  it("clips the interval to kappa's range: near perfect agreement the normal bound ran past 1", () => {
    // 11 of 12 agreements on a 1-3 scale: kappa 0.933, se 0.066, kappa + 1.96 se = 1.062 (issue 31: "[0.66, 1.04]").
    const a = [1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 1, 2];
    const b = [1, 1, 1, 2, 2, 2, 3, 3, 3, 2, 1, 2];
    const r = cohenKappa(a.map((x, i) => [x, b[i]]), { weights: "quadratic", categories: [1, 2, 3] });
    expect(r.kappa).toBeCloseTo(0.9333333333, 9);
    expect(r.kappa! + 1.959963984540054 * r.se!).toBeGreaterThan(1);
    expect(r.ci![1]).toBe(1);
    expect(r.ci![0]).toBeCloseTo(r.kappa! - 1.959963984540054 * r.se!, 12);
    // And the pairwise matrix the journal panel shows carries the clipped interval.
    const m = pairwiseCohenKappa(a.map((x, i) => [x, b[i]]), { weights: "quadratic", categories: [1, 2, 3] });
    expect(m.pairs[0].ci).toEqual(r.ci);
    // Near perfect disagreement the lower bound stops at -1.
    const x = [1, 3, 1, 3, 1, 3, 1, 3];
    const lo = cohenKappa(x.map((v) => [v, 4 - v]), { weights: "none", categories: [1, 2, 3] });
    expect(lo.ci![0]).toBeGreaterThanOrEqual(-1);
  });
  it("pairwise matrix is symmetric, 1 on the diagonal, and each cell is that pair's kappa", () => {
    const rows = [[1, 2, 1], [2, 2, 3], [3, 3, 3], [1, 1, 2], [2, 3, 2], [3, 3, 1]];
    const m = pairwiseCohenKappa(rows, { weights: "quadratic" });
    expect(m.pairs).toHaveLength(3);
    for (let i = 0; i < 3; i++) {
      expect(m.matrix[i][i]).toBe(1);
      for (let j = 0; j < 3; j++) expect(m.matrix[i][j]).toBe(m.matrix[j][i]);
    }
    expect(m.matrix[0][2]).toBeCloseTo(cohenKappa(rows.map((r) => [r[0], r[2]]), { weights: "quadratic" }).kappa!, 12);
    expect(m.mean).toBeCloseTo(m.pairs.reduce((s, p) => s + p.kappa!, 0) / 3, 12);
  });
});

describe("Krippendorff's alpha bootstrap", () => {
  const rows = [[1, 2, 1], [2, 2, 3], [3, 3, 3], [1, 1, 2], [2, 3, 2], [3, 3, 1], [4, 4, 4], [1, 2, null]];
  it("is the percentile interval of alpha over units resampled with the seeded generator", () => {
    const r = krippendorffAlphaBootstrapCI(rows, { level: "interval" }, { resamples: 300, seed: 7 });
    const rng = mulberry32(7);
    const reps: number[] = [];
    for (let b = 0; b < 300; b++) {
      const a = krippendorffAlpha(resample(rows, rng), { level: "interval" }).alpha;
      if (a !== null) reps.push(a);
    }
    const expected = percentileInterval(reps, 0.95)!;
    expect(r.ci![0]).toBeCloseTo(expected[0], 12);
    expect(r.ci![1]).toBeCloseTo(expected[1], 12);
    expect(r.invalid).toBe(300 - reps.length);
    expect(r.estimate).toBeCloseTo(krippendorffAlpha(rows, { level: "interval" }).alpha!, 12);
    expect(krippendorffAlphaBootstrapCI(rows, { level: "interval" }, { resamples: 300, seed: 7 })).toEqual(r);
  });
});

describe("Cliff's delta families", () => {
  const x = [3, 4, 5, 4, 5, 5, 2, 4];
  const y = [2, 3, 3, 4, 1, 2, 3, 3];
  const z = [4, 4, 5, 5, 5, 3, 4, 5];
  const family = [{ x, y, p: 0.01 }, { x, y: z, p: 0.3 }, { x: y, y: z, p: 0.002 }];
  it("Holm: Bonferroni-level intervals 1 - alpha/m and Holm-adjusted p", () => {
    const r = cliffsDeltaFamily(family, { adjust: "holm", resamples: 400, seed: 3 });
    expect(r.intervalLevel).toBeCloseTo(1 - 0.05 / 3, 12);
    expect(r.comparisons[0].ci).toEqual(cliffsDeltaCI(x, y, { level: 1 - 0.05 / 3, resamples: 400, seed: 3 }).ci);
    expect(r.comparisons.map((c) => c.pAdjusted)).toEqual(pAdjust([0.01, 0.3, 0.002], "holm"));
  });
  it("BH: FCR level 1 - R alpha / m with R the BH selections; needs p values", () => {
    const r = cliffsDeltaFamily(family, { adjust: "BH", resamples: 400, seed: 3 });
    expect(r.comparisons.map((c) => c.selected)).toEqual([true, false, true]);
    expect(r.intervalLevel).toBeCloseTo(1 - (2 * 0.05) / 3, 12);
    expectNullWithReason(cliffsDeltaFamily([{ x, y }], { adjust: "BH" }), "intervalLevel");
  });
  it("none: each interval at the family level", () => {
    expect(cliffsDeltaFamily(family, { adjust: "none", resamples: 100 }).intervalLevel).toBe(0.95);
  });
});

describe("post-hoc Wilcoxon family", () => {
  it("adjusts the pairwise p values with Holm by default", () => {
    const rows = Array.from({ length: 20 }, (_, i) => [i % 5, (i % 5) + (i % 3), (i * 7) % 6]);
    const r = wilcoxonPosthoc(rows);
    expect(r.adjust).toBe("holm");
    expect(r.pairs.map((p) => [p.a, p.b])).toEqual([[0, 1], [0, 2], [1, 2]]);
    expect(r.pairs.map((p) => p.pAdjusted)).toEqual(pAdjust(r.pairs.map((p) => p.p), "holm"));
    expect(r.pairs[0].p).toBe(wilcoxonSignedRank(rows.map((x) => x[0]), rows.map((x) => x[1])).p);
  });
});

describe("journal statistics, degenerate input: null + reason, never NaN or a throw", () => {
  it("Kendall's W", () => {
    expectNullWithReason(kendallW([]), "w");
    expectNullWithReason(kendallW([[1], [2]]), "w");
    expectNullWithReason(kendallW([[1, 2]]), "w");
    expectNullWithReason(kendallW([[3, 3], [3, 3]]), "w");
    expectNullWithReason(kendallW([[1, null], [null, 2]]), "w");
  });
  it("Friedman and Wilcoxon", () => {
    expectNullWithReason(friedmanTest([]), "chiSquare");
    expectNullWithReason(friedmanTest([[1], [2]]), "chiSquare");
    expectNullWithReason(friedmanTest([[2, 2, 2], [1, 1, 1]]), "chiSquare");
    expectNullWithReason(wilcoxonSignedRank([], []), "p");
    expectNullWithReason(wilcoxonSignedRank([1, 2], [1, 2]), "p");
    expectNullWithReason(wilcoxonSignedRank([1, 2], [1]), "p");
    expectNullWithReason(wilcoxonSignedRank([null, 1], [2, null]), "p");
  });
  it("descriptives, kappa, pairwise, bootstrap, p.adjust", () => {
    expectNullWithReason(descriptives([]), "mean");
    expectNullWithReason(descriptives([null, Number.NaN]), "median");
    const one = descriptives([4]);
    expect(one).toMatchObject({ n: 1, mean: 4, median: 4, iqr: 0, sd: null });
    expectNullWithReason(cohenKappa([[1, 2]], { level: 2 }), "kappa");
    expectNullWithReason(cohenKappa([[1, 2]], { convention: "other" as never }), "kappa");
    expectNullWithReason(pairwiseCohenKappa([[1]]), "mean");
    expectNullWithReason(pairwiseCohenKappa([[3, 3], [3, 3]]), "mean");
    expectNullWithReason(krippendorffAlphaBootstrapCI([[1, 1], [1, 1]], { level: "nominal" }, { resamples: 20 }), "ci");
    expect(pAdjust([null, Number.NaN], "holm")).toEqual([null, null]);
    expectNullWithReason(cliffsDeltaFamily([], {}), "intervalLevel");
  });
  it("fuzz: random ragged matrices with labels, numbers, blanks never give NaN or throw", () => {
    const cell = fc.oneof(fc.constant(null), fc.integer({ min: 0, max: 4 }), fc.constantFrom("a", "b", "", " ", "1"), fc.double());
    fc.assert(
      fc.property(fc.array(fc.array(cell, { maxLength: 4 }), { maxLength: 8 }), (rows) => {
        const numeric = rows.map((r) => r.map((v) => (typeof v === "number" ? v : null)));
        for (const r of [
          gwetAC1(rows),
          fleissKappa(rows),
          krippendorffAlpha(rows, { level: "nominal" }),
          krippendorffAlpha(rows, { level: "interval" }),
          cohenKappa(rows.map((r) => [r[0], r[1]])),
          pairwiseCohenKappa(rows),
          kendallW(numeric),
          kendallW(numeric, { tieCorrection: false }),
          friedmanTest(numeric),
          wilcoxonPosthoc(numeric),
          descriptives(numeric.flat()),
        ]) expectNoNaN(r);
      }),
      { numRuns: 300 },
    );
  });
});
