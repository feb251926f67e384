/**
 * Property tests (fast-check) for invariants the statistics must satisfy on any input.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  cliffsDelta,
  cliffsDeltaCI,
  cliffsDeltaNaive,
  cohenKappa,
  cronbachAlpha,
  gwetAC2,
  icc,
  type IccType,
  type KappaWeights,
  krippendorffAlpha,
  ratingPatterns,
  spearman,
  type WeightScheme,
} from "@/lib/stats";

const likert = fc.integer({ min: 1, max: 5 });
const maybeLikert = fc.option(likert, { nil: null, freq: 6 });
const real = fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true });
/** Small-range integers (many ties) or arbitrary doubles. */
const sample = fc.oneof(fc.array(likert, { maxLength: 60 }), fc.array(real, { maxLength: 60 }));

/** An n x k matrix with some missing cells, plus a row and a column permutation. */
const matrixWithPermutations = fc
  .tuple(fc.integer({ min: 2, max: 15 }), fc.integer({ min: 2, max: 6 }))
  .chain(([n, k]) =>
    fc.tuple(
      fc.array(fc.array(maybeLikert, { minLength: k, maxLength: k }), { minLength: n, maxLength: n }),
      fc.shuffledSubarray(
        Array.from({ length: n }, (_, i) => i),
        { minLength: n, maxLength: n },
      ),
      fc.shuffledSubarray(
        Array.from({ length: k }, (_, j) => j),
        { minLength: k, maxLength: k },
      ),
    ),
  );

const closeRel = (a: number, b: number, rel = 1e-9) => Math.abs(a - b) <= rel * Math.max(1, Math.abs(a), Math.abs(b));

describe("Cliff's delta", () => {
  it("is antisymmetric: delta(x, y) = -delta(y, x), with mirrored magnitude", () => {
    fc.assert(
      fc.property(sample, sample, (x, y) => {
        const a = cliffsDelta(x, y);
        const b = cliffsDelta(y, x);
        if (a.delta === null) return b.delta === null;
        return b.delta !== null && a.delta === -b.delta && a.magnitude === b.magnitude;
      }),
    );
  });

  it("the O((n+m) log(n+m)) version equals the naive double loop", () => {
    fc.assert(
      fc.property(sample, sample, (x, y) => {
        const fast = cliffsDelta(x, y).delta;
        const naive = cliffsDeltaNaive(x, y);
        return fast === naive; // both are an exact integer count divided by n*m
      }),
      { numRuns: 300 },
    );
  });

  it("lies in [-1, 1], with missing values ignored", () => {
    fc.assert(
      fc.property(fc.array(maybeLikert), fc.array(maybeLikert), (x, y) => {
        const d = cliffsDelta(x, y).delta;
        return d === null || (d >= -1 && d <= 1);
      }),
    );
  });

  it("bootstrap CI is deterministic for a seed, ordered, and contains plausible values", () => {
    fc.assert(
      fc.property(
        fc.array(likert, { minLength: 1, maxLength: 30 }),
        fc.array(likert, { minLength: 1, maxLength: 30 }),
        fc.integer(),
        (x, y, seed) => {
          const a = cliffsDeltaCI(x, y, { resamples: 200, level: 0.9, seed });
          const b = cliffsDeltaCI(x, y, { resamples: 200, level: 0.9, seed });
          expect(a.ci).toEqual(b.ci);
          expect(a.ci).not.toBeNull();
          expect(a.ci![0]).toBeLessThanOrEqual(a.ci![1]);
          expect(a.ci![0]).toBeGreaterThanOrEqual(-1);
          expect(a.ci![1]).toBeLessThanOrEqual(1);
        },
      ),
      { numRuns: 50 },
    );
  });
});

describe("Cronbach's alpha", () => {
  it("is unchanged by reordering items (columns) and subjects (rows), both nan policies", () => {
    fc.assert(
      fc.property(matrixWithPermutations, fc.constantFrom("pairwise", "listwise" as const), ([m, rowOrder, colOrder], nanPolicy) => {
        const permuted = rowOrder.map((i) => colOrder.map((j) => m[i][j]));
        const a = cronbachAlpha(m, { nanPolicy });
        const b = cronbachAlpha(permuted, { nanPolicy });
        expect(b.n).toBe(a.n);
        expect(b.k).toBe(a.k);
        if (a.alpha === null) {
          expect(b.alpha).toBeNull();
          return;
        }
        expect(b.alpha).not.toBeNull();
        expect(closeRel(a.alpha, b.alpha!)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe("Gwet's AC2", () => {
  it("is 1 when all raters give identical ratings (>= 2 categories observed)", () => {
    fc.assert(
      fc.property(
        fc.array(likert, { minLength: 2, maxLength: 40 }).filter((v) => new Set(v).size >= 2),
        fc.integer({ min: 2, max: 6 }),
        fc.constantFrom<WeightScheme>("quadratic", "linear", "identity"),
        fc.boolean(),
        (values, raters, weights, declare) => {
          const rows = values.map((v) => Array.from({ length: raters }, () => v));
          const r = gwetAC2(rows, { weights, categories: declare ? [1, 2, 3, 4, 5] : undefined });
          expect(r.coefficient).not.toBeNull();
          expect(r.coefficient!).toBeCloseTo(1, 12);
          expect(r.pa!).toBeCloseTo(1, 12);
        },
      ),
    );
  });

  it("is invariant to the order of raters and units", () => {
    fc.assert(
      fc.property(matrixWithPermutations, ([m, rowOrder, colOrder]) => {
        const permuted = rowOrder.map((i) => colOrder.map((j) => m[i][j]));
        const opts = { categories: [1, 2, 3, 4, 5], weights: "quadratic" as const };
        const a = gwetAC2(m, opts).coefficient;
        const b = gwetAC2(permuted, opts).coefficient;
        if (a === null) return b === null;
        return b !== null && closeRel(a, b);
      }),
    );
  });
});

describe("Cohen's kappa", () => {
  it("is symmetric in the two raters (all weightings)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(maybeLikert, maybeLikert), { maxLength: 50 }),
        fc.constantFrom<KappaWeights>("none", "linear", "quadratic"),
        (pairs, weights) => {
          const a = cohenKappa(pairs, { weights }).kappa;
          const b = cohenKappa(
            pairs.map(([p, q]) => [q, p]),
            { weights },
          ).kappa;
          if (a === null) return b === null;
          return b !== null && closeRel(a, b, 1e-12);
        },
      ),
    );
  });
});

describe("Spearman's rho", () => {
  it("lies in [-1, 1]", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.oneof(likert, real), fc.oneof(likert, real)), { maxLength: 60 }), (pairs) => {
        const rho = spearman(
          pairs.map((p) => p[0]),
          pairs.map((p) => p[1]),
        ).rho;
        return rho === null || (rho >= -1 && rho <= 1);
      }),
    );
  });

  it("is 1 for a strictly increasing transform and symmetric in x and y", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: -1000, max: 1000 }), { minLength: 2, maxLength: 40 }), (x) => {
        const y = x.map((v) => v ** 3 + 7);
        expect(spearman(x, y).rho).toBeCloseTo(1, 12);
        const z = x.map((v, i) => (i * 7919) % 13);
        const a = spearman(x, z).rho;
        const b = spearman(z, x).rho;
        expect(a).toBe(b);
      }),
    );
  });
});

describe("rating patterns: the distinct rows with their counts give the unweighted statistics", () => {
  // Few distinct values and raters, many rows: the matrices repeat rows, as a study's do.
  const repeated = fc
    .tuple(fc.integer({ min: 2, max: 4 }), fc.integer({ min: 3, max: 80 }))
    .chain(([k, n]) => fc.array(fc.array(fc.option(fc.integer({ min: 1, max: 3 }), { nil: null, freq: 5 }), { minLength: k, maxLength: k }), { minLength: n, maxLength: n }));
  const same = (a: number | null | undefined, b: number | null | undefined) => {
    if (a === null || a === undefined || b === null || b === undefined) return expect(b ?? null).toBe(a ?? null);
    expect(Math.abs(a - b)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(a)));
  };

  it("Gwet's AC2, Krippendorff's alpha and the ICC, with their intervals", () => {
    fc.assert(
      fc.property(repeated, fc.constantFrom<IccType>("ICC1k", "ICC2k", "ICC1", "ICC2"), (rows, type) => {
        const { rows: distinct, counts } = ratingPatterns(rows);
        expect(counts.reduce((s, c) => s + c, 0)).toBe(rows.length);
        const g = gwetAC2(rows, { categories: [1, 2, 3] });
        const gw = gwetAC2(distinct, { categories: [1, 2, 3], counts });
        same(g.coefficient, gw.coefficient);
        same(g.se, gw.se);
        expect(gw.n).toBe(g.n);
        same(g.ci?.[0], gw.ci?.[0]);
        const a = krippendorffAlpha(rows, { level: "ordinal" });
        const aw = krippendorffAlpha(distinct, { level: "ordinal", counts });
        same(a.alpha, aw.alpha);
        expect(aw.units).toBe(a.units);
        same(a.pairable, aw.pairable);
        const i = icc(rows, { type });
        const iw = icc(distinct, { type, counts });
        same(i.icc, iw.icc);
        same(i.ci?.[0], iw.ci?.[0]);
        same(i.ci?.[1], iw.ci?.[1]);
        expect([iw.n, iw.k, iw.reason]).toEqual([i.n, i.k, i.reason]);
      }),
      { numRuns: 300 },
    );
  });
});
