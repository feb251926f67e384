/**
 * Degenerate input: the headline value is null with a `reason`, never NaN, never a throw.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  bootstrapCI,
  cliffsDelta,
  cliffsDeltaCI,
  cohenKappa,
  cronbachAlpha,
  describe as describeValues,
  feldtInterval,
  fleissKappa,
  gwetAC1,
  gwetAC2,
  gwetAC2BootstrapCI,
  icc,
  type IccType,
  krippendorffAlpha,
  type KrippendorffLevel,
  spearman,
} from "@/lib/stats";

/** Recursively assert an object holds no NaN (or infinite) number anywhere. */
function expectNoNaN(value: unknown, where = "result"): void {
  if (typeof value === "number") {
    expect(Number.isFinite(value), `${where} = ${value}`).toBe(true);
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => expectNoNaN(v, `${where}[${i}]`));
  } else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) expectNoNaN(v, `${where}.${k}`);
  }
}

function expectNullWithReason<T extends { reason?: string }>(result: T, field: keyof T): void {
  expect(result[field], `${String(field)} should be null`).toBeNull();
  expect(typeof result.reason).toBe("string");
  expect(result.reason!.length).toBeGreaterThan(0);
  expectNoNaN(result);
}

const ICC_TYPES: IccType[] = ["ICC1", "ICC2", "ICC3", "ICC1k", "ICC2k", "ICC3k"];
const LEVELS: KrippendorffLevel[] = ["nominal", "ordinal", "interval", "ratio"];

describe("Cronbach's alpha, degenerate", () => {
  it.each([
    ["empty input", []],
    ["one subject", [[1, 2, 3]]],
    ["one item", [[1], [2], [3]]],
    ["zero variance", [[3, 3], [3, 3], [3, 3]]],
    ["constant items at different levels", [[1, 5], [1, 5], [1, 5]]],
    ["all missing", [[null, null], [null, null]]],
    ["items never scored together", [[1, null], [2, null], [null, 3], [null, 4]]],
  ] as const)("%s", (_label, rows) => {
    expectNullWithReason(cronbachAlpha(rows as unknown as (number | null)[][]), "alpha");
  });

  it("listwise with fewer than two complete rows", () => {
    const r = cronbachAlpha([[1, null], [2, 3], [null, 4]], { nanPolicy: "listwise" });
    expectNullWithReason(r, "alpha");
  });

  it("bad confidence level", () => {
    expectNullWithReason(cronbachAlpha([[1, 2], [2, 3], [3, 5]], { ci: 1.5 }), "alpha");
  });

  it("feldtInterval returns null for impossible inputs", () => {
    expect(feldtInterval(0.5, 1, 5)).toBeNull();
    expect(feldtInterval(0.5, 10, 1)).toBeNull();
    expect(feldtInterval(Number.NaN, 10, 5)).toBeNull();
    expect(feldtInterval(0.5, 10, 5, 1)).toBeNull();
  });
});

describe("Cliff's delta, degenerate", () => {
  it("empty group -> null", () => {
    expectNullWithReason(cliffsDelta([], [1, 2]), "delta");
    expectNullWithReason(cliffsDelta([1, 2], []), "delta");
    expectNullWithReason(cliffsDelta([null, Number.NaN], [1]), "delta");
  });
  it("identical constant groups -> 0, negligible", () => {
    expect(cliffsDelta([3, 3], [3, 3, 3])).toMatchObject({ delta: 0, magnitude: "negligible" });
  });
  it("CI with empty group or bad options -> null", () => {
    expectNullWithReason(cliffsDeltaCI([], [1, 2], { seed: 1 }), "ci");
    expectNullWithReason(cliffsDeltaCI([1, 2], [3], { resamples: 1 }), "ci");
    expectNullWithReason(cliffsDeltaCI([1, 2], [3], { level: 0 }), "ci");
  });
});

describe("agreement coefficients, degenerate", () => {
  it("Gwet AC1/AC2: empty, one category, no unit with two ratings, undeclared value", () => {
    expectNullWithReason(gwetAC1([]), "coefficient");
    expectNullWithReason(gwetAC2([[2, 2], [2, 2]]), "coefficient"); // one category observed, none declared
    expectNullWithReason(gwetAC1([[1, null], [null, 2]]), "coefficient");
    expectNullWithReason(gwetAC2([[1, 2], [3, 9]], { categories: [1, 2, 3] }), "coefficient");
    expectNullWithReason(gwetAC2([[1, 2]], { weights: "cubic" as never }), "coefficient");
  });

  it("Gwet AC1: one unit -> coefficient but no interval (reason given)", () => {
    const r = gwetAC1([[1, 2]], { categories: [1, 2] });
    expect(r.coefficient).not.toBeNull();
    expectNullWithReason(r, "ci");
  });

  it("Gwet AC2 bootstrap on degenerate data", () => {
    expectNullWithReason(gwetAC2BootstrapCI([], {}, { resamples: 50 }), "ci");
    const r = gwetAC2BootstrapCI([[2, 2], [2, 2], [2, 2]], {}, { resamples: 50 });
    expect(r.estimate).toBeNull();
    expect(r.invalid).toBe(50);
    expectNullWithReason(r, "ci");
  });

  it("Cohen's kappa: wrong column count, no complete pair, one category", () => {
    expectNullWithReason(cohenKappa([[1, 2, 3]]), "kappa");
    expectNullWithReason(cohenKappa([]), "kappa");
    expectNullWithReason(cohenKappa([[1, null], [null, 2]]), "kappa");
    for (const weights of ["none", "linear", "quadratic"] as const) {
      expectNullWithReason(cohenKappa([[4, 4], [4, 4]], { weights }), "kappa");
    }
  });

  it("Fleiss' kappa: empty, single category, one rating per unit", () => {
    expectNullWithReason(fleissKappa([]), "kappa");
    expectNullWithReason(fleissKappa([[1, 1, 1], [1, 1, 1]]), "kappa");
    expectNullWithReason(fleissKappa([[1], [2]]), "kappa");
  });

  it("Krippendorff's alpha: empty, unpairable, no variation, unknown level", () => {
    for (const level of LEVELS) {
      expectNullWithReason(krippendorffAlpha([], { level }), "alpha");
      expectNullWithReason(krippendorffAlpha([[1, null], [null, 2]], { level }), "alpha");
      expectNullWithReason(krippendorffAlpha([[3, 3], [3, 3, 3]], { level }), "alpha");
    }
    expectNullWithReason(krippendorffAlpha([[1, 2]], { level: "cardinal" as never }), "alpha");
  });
});

describe("ICC, degenerate", () => {
  it.each(ICC_TYPES)("%s: empty, one target, one rater, all identical", (type) => {
    expectNullWithReason(icc([], { type }), "icc");
    expectNullWithReason(icc([[1, 2, 3]], { type }), "icc");
    expectNullWithReason(icc([[1], [2], [3]], { type }), "icc");
    expectNullWithReason(icc([[4, 4], [4, 4], [4, 4]], { type }), "icc");
    expectNullWithReason(icc([[1, null], [null, 2], [3, null]], { type }), "icc");
  });

  it("perfect consistency: ICC3 = 1 but the F interval is undefined -> ci null with reason", () => {
    const r = icc([[1, 2], [2, 3], [3, 4]], { type: "ICC3" });
    expect(r.icc).toBeCloseTo(1, 12);
    expectNullWithReason(r, "ci");
  });

  it("targets that do not differ: ICC3k undefined", () => {
    expectNullWithReason(icc([[1, 3], [3, 1]], { type: "ICC3k" }), "icc");
  });

  it("an ICC undefined in exact arithmetic is undefined, not a huge number made of rounding (a property test's counterexample)", () => {
    // BMS = JMS = 1/9, EMS = 4/9: ICC(2,k)'s denominator BMS + (JMS - EMS)/n is zero for n = 3.
    const rows = [[2, 3, 2], [3, 2, 3], [2, 3, 2]];
    expectNullWithReason(icc(rows, { type: "ICC2k" }), "icc");
    expect(icc(rows, { type: "ICC2k" }).reason).toMatch(/denominator is zero/);
    expectNullWithReason(icc([[2, 3, 2], [3, 2, 3]], { type: "ICC2k", counts: [2, 1] }), "icc");
    // The single-rater form is defined there: (1/9 - 4/9) / (1/9 + 8/9 - 1/3) = -1/2.
    expect(icc(rows, { type: "ICC2" }).icc).toBeCloseTo(-0.5, 12);
    // Perfectly consistent raters on inexact values (4/3): no residual variance, so no interval,
    // whether the repeated target is written out or counted.
    const consistent = [[0, 0.2], [4 / 3, 4 / 3 + 0.2]];
    const written = [consistent[0], ...Array.from({ length: 6 }, () => consistent[1])];
    for (const r of [icc(consistent, { type: "ICC3", counts: [1, 6] }), icc(written, { type: "ICC3" })]) {
      expect(r.icc).toBeCloseTo(1, 12);
      expectNullWithReason(r, "ci");
    }
  });
});

describe("Spearman, describe and bootstrap, degenerate", () => {
  it("spearman: too few pairs, constant variable, unequal lengths", () => {
    expectNullWithReason(spearman([], []), "rho");
    expectNullWithReason(spearman([1], [2]), "rho");
    expectNullWithReason(spearman([1, 1, 1], [1, 2, 3]), "rho");
    expectNullWithReason(spearman([1, 2], [1, 2, 3]), "rho");
    expectNullWithReason(spearman([1, null, 3], [null, 2, 3]), "rho");
  });

  it("describe: empty -> mean and sd null; one value -> sd null", () => {
    expectNullWithReason(describeValues([]), "mean");
    const one = describeValues([4, null]);
    expect(one.mean).toBe(4);
    expectNullWithReason(one, "sd");
    expect(describeValues([1, 2, 3, 4])).toEqual({ n: 4, mean: 2.5, sd: Math.sqrt(5 / 3) });
  });

  it("bootstrapCI: no data, statistic never defined, bad options", () => {
    const mean = (xs: number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : null);
    expectNullWithReason(bootstrapCI(mean, [], { resamples: 10 }), "ci");
    expectNullWithReason(
      bootstrapCI(() => null, [1, 2, 3], { resamples: 10 }),
      "ci",
    );
    expectNullWithReason(bootstrapCI(mean, [1, 2], { resamples: 0 }), "ci");
    expectNullWithReason(bootstrapCI(mean, [1, 2], { level: 95 }), "ci");
  });
});

describe("fuzz: no statistic throws or returns NaN on arbitrary small matrices", () => {
  const cell = fc.oneof(
    { weight: 6, arbitrary: fc.integer({ min: 0, max: 4 }) },
    { weight: 2, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, -0, 2.5) },
  );
  const ragged = fc.array(fc.array(cell, { maxLength: 5 }), { maxLength: 8 });

  it("every function on every ragged matrix", () => {
    fc.assert(
      fc.property(ragged, (m) => {
        expectNoNaN(cronbachAlpha(m));
        expectNoNaN(cronbachAlpha(m, { nanPolicy: "listwise" }));
        expectNoNaN(gwetAC1(m));
        expectNoNaN(gwetAC2(m));
        expectNoNaN(gwetAC2(m, { weights: "linear", categories: [0, 1, 2, 3, 4] }));
        expectNoNaN(fleissKappa(m));
        for (const level of LEVELS) expectNoNaN(krippendorffAlpha(m, { level }));
        for (const type of ICC_TYPES) expectNoNaN(icc(m, { type }));
        const two = m.map((row) => [row[0], row[1]]);
        for (const weights of ["none", "linear", "quadratic"] as const) expectNoNaN(cohenKappa(two, { weights }));
        const x = m.map((row) => row[0]);
        const y = m.map((row) => row[1]);
        expectNoNaN(spearman(x, y));
        expectNoNaN(cliffsDelta(x, y));
        expectNoNaN(describeValues(x));
      }),
      { numRuns: 500 },
    );
    // 500 runs of every statistic take ~4 s alone; on a shared CI core they can pass 5 s.
  }, 30_000);
});
