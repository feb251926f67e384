/**
 * Cliff's delta specifics not pinned by the golden vectors: exact-threshold magnitudes and the
 * bootstrap interval helper.
 */
import { describe, expect, it } from "vitest";
import { bootstrapCI, cliffsDelta, cliffsDeltaCI, cliffsMagnitude, mulberry32, percentileInterval } from "@/lib/stats";
import { cliffsDeltaCIs } from "@/lib/stats/cliffs";

describe("cliffsMagnitude (Romano et al. 2006 thresholds, as R effsize)", () => {
  it.each([
    [0, "negligible"],
    [0.1469, "negligible"],
    [0.147, "small"], // exactly on a threshold -> the higher class
    [0.3299, "small"],
    [0.33, "medium"],
    [0.4739, "medium"],
    [0.474, "large"],
    [1, "large"],
    [-0.147, "small"],
    [-0.33, "medium"],
    [-0.474, "large"],
  ] as const)("|%d| -> %s", (delta, label) => {
    expect(cliffsMagnitude(delta)).toBe(label);
  });
});

describe("cliffsDelta", () => {
  it("sign: positive when x tends to be larger", () => {
    expect(cliffsDelta([5, 6, 7], [1, 2, 3]).delta).toBe(1);
    expect(cliffsDelta([1, 2, 3], [5, 6, 7]).delta).toBe(-1);
  });
  it("ignores missing values", () => {
    expect(cliffsDelta([1, null, 3, Number.NaN], [2, undefined])).toMatchObject({ delta: 0, n: 2, m: 1 });
  });
});

describe("cliffsDeltaCI (each group resampled independently)", () => {
  it("is [1, 1] for completely separated groups", () => {
    const r = cliffsDeltaCI([5, 6, 7, 8], [1, 2, 3], { resamples: 500, level: 0.95, seed: 42 });
    expect(r.delta).toBe(1);
    expect(r.ci).toEqual([1, 1]);
  });
  it("brackets the point estimate on overlapping groups and depends only on the seed", () => {
    const x = [3, 4, 4, 5, 5, 5, 2, 4, 3, 5];
    const y = [2, 3, 3, 4, 2, 1, 3, 4, 2, 3];
    const a = cliffsDeltaCI(x, y, { resamples: 2000, level: 0.95, seed: 7 });
    const b = cliffsDeltaCI(x, y, { resamples: 2000, level: 0.95, seed: 7 });
    const c = cliffsDeltaCI(x, y, { resamples: 2000, level: 0.95, seed: 8 });
    expect(a).toEqual(b);
    expect(a.ci).not.toEqual(c.ci);
    expect(a.ci![0]).toBeLessThan(a.delta!);
    expect(a.ci![1]).toBeGreaterThan(a.delta!);
  });
});

describe("bootstrap primitives", () => {
  it("mulberry32 is deterministic and uniform on [0, 1)", () => {
    const a = mulberry32(123);
    const b = mulberry32(123);
    let sum = 0;
    for (let i = 0; i < 10_000; i++) {
      const u = a();
      expect(u).toBe(b());
      expect(u).toBeGreaterThanOrEqual(0);
      expect(u).toBeLessThan(1);
      sum += u;
    }
    expect(sum / 10_000).toBeCloseTo(0.5, 1);
  });
  it("percentileInterval interpolates linearly between order statistics (numpy default)", () => {
    // numpy.percentile(range(11), [2.5, 97.5]) -> [0.25, 9.75]
    const ci = percentileInterval([10, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 0.95);
    expect(ci![0]).toBeCloseTo(0.25, 12);
    expect(ci![1]).toBeCloseTo(9.75, 12);
  });
  it("bootstrapCI of the mean of a paired difference covers the observed mean", () => {
    const pairs = Array.from({ length: 40 }, (_, i) => [i % 5, (i * 3) % 5] as const);
    const meanDiff = (s: (readonly [number, number])[]) => s.reduce((t, [a, b]) => t + a - b, 0) / s.length;
    const r = bootstrapCI(meanDiff, pairs, { resamples: 1000, level: 0.9, seed: 3 });
    expect(r.invalid).toBe(0);
    expect(r.ci![0]).toBeLessThanOrEqual(r.estimate!);
    expect(r.ci![1]).toBeGreaterThanOrEqual(r.estimate!);
  });
});

describe("Cliff's delta interval on a rating scale", () => {
  it("counts each bootstrap sample's levels and gets what sorting the same draws gives", () => {
    // The replicates by the definition: the same seeded draws (x's n, then y's m, per replicate), sorted, every pair compared.
    const byDefinition = (x: number[], y: number[], resamples: number, seed: number, level: number) => {
      const rng = mulberry32(seed);
      const reps: number[] = [];
      for (let b = 0; b < resamples; b++) {
        const xs = x.map(() => x[Math.floor(rng() * x.length)]);
        const ys = y.map(() => y[Math.floor(rng() * y.length)]);
        let d = 0;
        for (const a of xs) for (const c of ys) d += a > c ? 1 : a < c ? -1 : 0;
        reps.push(d / (xs.length * ys.length));
      }
      return percentileInterval(reps, level);
    };
    const rng = mulberry32(7);
    for (let trial = 0; trial < 20; trial++) {
      const x = Array.from({ length: 5 + Math.floor(rng() * 40) }, () => 1 + Math.floor(rng() * 5));
      const y = Array.from({ length: 5 + Math.floor(rng() * 40) }, () => 1 + Math.floor(rng() * 5) + (trial % 2 ? 0.5 : 0));
      const r = cliffsDeltaCI(x, y, { resamples: 200, seed: trial, level: 0.9 });
      expect(r.ci).toEqual(byDefinition(x, y, 200, trial, 0.9));
    }
    // Continuous scores (means over graders: more distinct values than draws), ties across groups included.
    for (let trial = 0; trial < 10; trial++) {
      const x = Array.from({ length: 60 + Math.floor(rng() * 60) }, () => Math.round(rng() * 1000) / 7);
      const y = Array.from({ length: 60 + Math.floor(rng() * 60) }, (_, i) => (i % 5 === 0 ? x[i % x.length] : Math.round(rng() * 1100) / 7));
      const r = cliffsDeltaCI(x, y, { resamples: 100, seed: 50 + trial, level: 0.95 });
      expect(new Set([...x, ...y]).size).toBeGreaterThan(64);
      expect(r.ci).toEqual(byDefinition(x, y, 100, 50 + trial, 0.95));
    }
    // A family at once (cliffsDeltaCIs): pairs of the same sizes share their draws, others (a missing value makes a
    // sample shorter) draw their own; each interval is still its own bootstrap's, and a pair without values says why.
    const groups = Array.from({ length: 4 }, (_, g) => Array.from({ length: 30 }, (_, i) => (g === 3 && i % 7 === 0 ? null : 1 + Math.floor(rng() * 5) + g / 2)));
    const family = [[0, 1], [0, 2], [1, 2], [0, 3], [3, 2]].map(([a, b]) => ({ x: groups[a], y: groups[b] }));
    const all = cliffsDeltaCIs([...family, { x: [], y: groups[0] }], { resamples: 150, seed: 11, level: 0.9 });
    family.forEach((f, k) => {
      const present = (v: (number | null)[]) => v.filter((z): z is number => z !== null);
      expect(all[k]).toEqual(cliffsDeltaCI(f.x, f.y, { resamples: 150, seed: 11, level: 0.9 }));
      expect(all[k].ci).toEqual(byDefinition(present(f.x), present(f.y), 150, 11, 0.9));
    });
    expect([all[3].n, all[3].m]).toEqual([30, 25]);
    expect(all.at(-1)).toMatchObject({ delta: null, ci: null, reason: "each group needs at least one value" });
  });
});
