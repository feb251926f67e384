/**
 * Published figures beyond the golden file: the S.C.O.R.E. paper's Feldt intervals, Gwet's
 * two-rater AC2 example, and doctest outputs of the packages we match (cited per test).
 */
import { describe, expect, it } from "vitest";
import {
  cronbachAlpha,
  feldtInterval,
  fleissKappa,
  gwetAC1,
  gwetAC2,
  icc,
  type IccType,
  krippendorffAlpha,
} from "@/lib/stats";

/** Expand a contingency table (rows = rater 1, columns = rater 2) into rating pairs. */
function expand(table: number[][], categories: number[]): number[][] {
  const rows: number[][] = [];
  table.forEach((line, i) =>
    line.forEach((count, j) => {
      for (let t = 0; t < count; t++) rows.push([categories[i], categories[j]]);
    }),
  );
  return rows;
}

const within = (got: number | null | undefined, want: number, tol: number) => {
  expect(got).not.toBeNull();
  expect(Math.abs((got as number) - want)).toBeLessThanOrEqual(tol);
};

describe("S.C.O.R.E. paper (000): Feldt 95% CI for Cronbach's alpha, n = 15 responses, k = 5 dimensions", () => {
  const published: [string, number, [number, number]][] = [
    ["ophthalmology", 0.745, [0.463, 0.903]],
    ["medication", 0.407, [-0.25, 0.774]],
    ["anesthesia", 0.152, [-0.789, 0.677]],
  ];
  for (const [specialty, alpha, [low, high]] of published) {
    it(`${specialty}: alpha ${alpha} -> [${low}, ${high}] (+-0.002)`, () => {
      const ci = feldtInterval(alpha, 15, 5);
      expect(ci).not.toBeNull();
      within(ci![0], low, 0.002);
      within(ci![1], high, 0.002);
    });
  }
});

describe("Gwet's published two-rater AC2 example (paper 002 reproduces 0.9402)", () => {
  // kgwet/irrCAC cont3x3abstractors: [[13,0,0],[0,20,7],[0,4,56]], quadratic weights.
  const rows = expand(
    [
      [13, 0, 0],
      [0, 20, 7],
      [0, 4, 56],
    ],
    [1, 2, 3],
  );
  it("AC2 (quadratic) = 0.9402, CI (0.90468, 0.97579)", () => {
    const r = gwetAC2(rows, { categories: [1, 2, 3], weights: "quadratic" });
    within(r.coefficient, 0.9402, 5e-5);
    within(r.ci?.[0], 0.90468, 1e-5);
    within(r.ci?.[1], 0.97579, 1e-5);
  });
  it("AC1 = 0.84933, se 0.04322, CI (0.76358, 0.93508) (afergadis/irrCAC irrCAC/table.py doctest)", () => {
    const r = gwetAC1(rows, { categories: [1, 2, 3] });
    within(r.coefficient, 0.84933, 5e-6);
    within(r.se, 0.04322, 5e-6);
    within(r.ci?.[0], 0.76358, 5e-6);
    within(r.ci?.[1], 0.93508, 5e-6);
  });
});

describe("irrCAC raw-ratings doctests (afergadis/irrCAC irrCAC/raw.py, raw_4raters with missing ratings)", () => {
  const raw4raters = [
    [1, 1, null, 1],
    [2, 2, 3, 2],
    [3, 3, 3, 3],
    [3, 3, 3, 3],
    [2, 2, 2, 2],
    [1, 2, 3, 4],
    [4, 4, 4, 4],
    [1, 1, 2, 1],
    [2, 2, 2, 2],
    [null, 5, 5, 5],
    [null, null, 1, 1],
    [null, null, 3, null],
  ];
  it("AC1 0.77544, se 0.14295, CI (0.46081, 1) via the multi-rater variance", () => {
    const r = gwetAC1(raw4raters);
    within(r.coefficient, 0.77544, 5e-6);
    within(r.se, 0.14295, 5e-6);
    within(r.ci?.[0], 0.46081, 5e-6);
    expect(r.ci?.[1]).toBe(1);
  });
  it("Fleiss' kappa with missing ratings 0.76117 (pa 0.81818, pe 0.23872)", () => {
    const r = fleissKappa(raw4raters);
    within(r.kappa, 0.76117, 5e-6);
    within(r.pa, 0.81818, 5e-6);
    within(r.pe, 0.23872, 5e-6);
  });
  it("Krippendorff 2011 example, ordinal 0.815 (pln-fing-udelar/fast-krippendorff doctest)", () => {
    // fast-krippendorff's doctest uses the same units with the lone unit-12 rating under coder B.
    within(krippendorffAlpha(raw4raters, { level: "ordinal" }).alpha, 0.815, 5e-4);
  });
});

describe("fast-krippendorff doctest: Wikipedia example", () => {
  // Coders x units in the doctest; transposed here to units x coders.
  const coders = [
    [null, null, null, null, null, 3, 4, 1, 2, 1, 1, 3, 3, null, 3],
    [1, null, 2, 1, 3, 3, 4, 3, null, null, null, null, null, null, null],
    [null, null, 2, 1, 3, 4, 4, null, 2, 1, 1, 3, 3, null, 4],
  ];
  const units = coders[0].map((_, u) => coders.map((c) => c[u]));
  it("nominal 0.691358, interval 0.810845", () => {
    within(krippendorffAlpha(units, { level: "nominal" }).alpha, 0.691358, 5e-7);
    within(krippendorffAlpha(units, { level: "interval" }).alpha, 0.810845, 5e-7);
  });
});

describe("pingouin doctests (raphaelvallat/pingouin src/pingouin/reliability.py)", () => {
  // pingouin dataset cronbach_wide_missing (same data as golden case cronbach_alpha/missing_listwise/03).
  const wideMissing = [
    [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
    [1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 0],
    [null, 0, 1, 1, null, 1, 1, 1, 1, 0, 0],
    [1, 1, 1, 0, 1, 1, 0, 1, 1, 0, 0],
    [1, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0],
    [0, 1, null, 0, 1, 1, 1, 1, 0, 0, 0],
    [1, 1, 1, 1, 0, 0, 1, 0, 0, 0, 0],
    [1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0],
    [0, 1, 0, 1, 1, 0, 0, 0, 0, 1, 0],
    [1, 0, 0, 1, 0, 1, 0, 0, null, 0, 0],
    [1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0],
    [1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0],
  ];
  it("pairwise: (0.732660835214447, [0.435, 0.909])", () => {
    const r = cronbachAlpha(wideMissing);
    within(r.alpha, 0.732660835214447, 1e-12);
    within(r.ci?.[0], 0.435, 5e-4);
    within(r.ci?.[1], 0.909, 5e-4);
    expect(r.n).toBe(12);
  });
  it("listwise: (0.8016949152542373, [0.533, 0.947]) with n = 9 complete subjects", () => {
    const r = cronbachAlpha(wideMissing, { nanPolicy: "listwise" });
    within(r.alpha, 0.8016949152542373, 1e-12);
    within(r.ci?.[0], 0.533, 5e-4);
    within(r.ci?.[1], 0.947, 5e-4);
    expect(r.n).toBe(9);
  });

  // pingouin dataset icc (8 wines x 4 judges); doctest table rounded to 3 decimals, CI to 2.
  const wine = [
    [1, 2, 0, 1],
    [1, 3, 3, 2],
    [3, 8, 1, 4],
    [6, 4, 3, 3],
    [6, 5, 5, 6],
    [7, 5, 6, 2],
    [8, 7, 7, 9],
    [9, 9, 9, 8],
  ];
  const table: [IccType, number, number, [number, number]][] = [
    ["ICC1", 0.728, 11.68, [0.43, 0.93]],
    ["ICC2", 0.728, 11.787, [0.43, 0.93]],
    ["ICC3", 0.729, 11.787, [0.43, 0.93]],
    ["ICC1k", 0.914, 11.68, [0.75, 0.98]],
    ["ICC2k", 0.914, 11.787, [0.75, 0.98]],
    ["ICC3k", 0.915, 11.787, [0.75, 0.98]],
  ];
  for (const [type, value, F, [low, high]] of table) {
    it(`intraclass_corr ${type}: ${value}, F ${F}, CI [${low}, ${high}]`, () => {
      const r = icc(wine, { type });
      within(r.icc, value, 5e-4);
      within(r.F, F, 5e-4);
      within(r.ci?.[0], low, 5e-3);
      within(r.ci?.[1], high, 5e-3);
    });
  }
});
