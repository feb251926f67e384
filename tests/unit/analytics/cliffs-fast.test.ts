import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cliffsPairsBootstrap, cliffsStratifiedBootstrap, cliffsStratifiedBootstrapAsync, WORKER_MIN_DRAWS, workerStats } from "@/lib/stats/cliffs-fast";
import { cliffsDelta, mulberry32 } from "@/lib/stats";
import { plainJointBootstrap, plainStratifiedBootstrap } from "./reference";

/** Totals like final scores: means of a few graders, so few distinct values and many ties. */
const total = fc.integer({ min: 15, max: 75 }).map((x) => x / 3);
const unit = (measures: number) => fc.array(fc.option(total, { nil: null, freq: 12 }), { minLength: measures, maxLength: measures });

describe("joint bootstrap of Cliff's delta by tallies", () => {
  it("equals the plain bootstrap written with lib/stats (same draws, cliffsDelta per resample), to the last bit", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 3 }).chain((measures) =>
          fc.tuple(fc.constant(measures), fc.array(fc.array(unit(measures), { minLength: 1, maxLength: 25 }), { minLength: 2, maxLength: 4 }), fc.integer({ min: 0, max: 2 ** 31 })),
        ),
        ([measures, groups, seed]) => {
          const fast = cliffsPairsBootstrap(groups, measures, { resamples: 60, seed });
          const plain = plainJointBootstrap(groups, measures, { resamples: 60, seed });
          for (const r of fast) {
            const x = groups[r.i].map((u) => u[r.measure]);
            const y = groups[r.j].map((u) => u[r.measure]);
            expect(r.delta).toBe(cliffsDelta(x, y).delta);
            if (r.delta === null) expect(r.ci).toBeNull();
            else expect(r.ci).toEqual(plain.get(`${r.measure}:${r.i}:${r.j}`));
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it("inlines mulberry32 faithfully: a large sample with many distinct values still matches the plain bootstrap", () => {
    const rng = mulberry32(99);
    const groups = [0, 1, 2].map((g) => Array.from({ length: 400 }, () => [Math.round((5 + 20 * rng() + g) * 3) / 3]));
    const plain = plainJointBootstrap(groups, 1, { resamples: 200, seed: 7 });
    for (const r of cliffsPairsBootstrap(groups, 1, { resamples: 200, seed: 7 })) expect(r.ci).toEqual(plain.get(`0:${r.i}:${r.j}`));
  });

  it("stratified: per stratum and pooled over strata, equals the plain stratified bootstrap to the last bit", () => {
    fc.assert(
      fc.property(
        fc.tuple(fc.integer({ min: 1, max: 2 }), fc.integer({ min: 2, max: 3 }), fc.integer({ min: 1, max: 3 })).chain(([measures, models, strata]) =>
          fc.tuple(
            fc.constant(measures),
            fc.array(fc.array(fc.array(unit(measures), { minLength: 0, maxLength: 12 }), { minLength: models, maxLength: models }), { minLength: strata, maxLength: strata }),
            fc.integer({ min: 0, max: 2 ** 31 }),
          ),
        ),
        ([measures, strata, seed]) => {
          const fast = cliffsStratifiedBootstrap(strata, measures, { resamples: 40, seed });
          const plain = plainStratifiedBootstrap(strata, measures, { resamples: 40, seed });
          fast.strata.forEach((rs, s) => {
            for (const r of rs) {
              if (r.delta === null) expect(r.ci).toBeNull();
              else expect(r.ci).toEqual(plain.strata[s].get(`${r.measure}:${r.i}:${r.j}`));
            }
          });
          for (const r of fast.pooled) {
            const x = strata.flatMap((st) => st[r.i].map((u) => u[r.measure]));
            const y = strata.flatMap((st) => st[r.j].map((u) => u[r.measure]));
            expect(r.delta).toBe(cliffsDelta(x, y).delta);
            if (r.delta === null) expect(r.ci).toBeNull();
            else expect(r.ci).toEqual(plain.pooled.get(`${r.measure}:${r.i}:${r.j}`));
          }
        },
      ),
      { numRuns: 120 },
    );
  });

  it("the worker-thread version gives the same result, on a study large enough to use the worker", async () => {
    const rng = mulberry32(11);
    const strata = [0, 1].map(() => [0, 1, 2].map((g) => Array.from({ length: 400 }, () => [Math.round((5 + 20 * rng() + g) * 3) / 3, Math.round(7 * rng() * 9) / 9])));
    const resamples = Math.ceil(WORKER_MIN_DRAWS / 2400) + 1;
    const sync = cliffsStratifiedBootstrap(strata, 2, { resamples, seed: 5 });
    const before = { ...workerStats };
    const viaWorker = await cliffsStratifiedBootstrapAsync(strata, 2, { resamples, seed: 5 });
    expect(viaWorker).toEqual(sync);
    expect(workerStats).toEqual({ completed: before.completed + 1, fallbacks: before.fallbacks }); // the worker really ran it
    // small inputs stay on this thread, with the same answer
    expect(await cliffsStratifiedBootstrapAsync(strata, 2, { resamples: 50, seed: 5 })).toEqual(cliffsStratifiedBootstrap(strata, 2, { resamples: 50, seed: 5 }));
  });

  it("reports degenerate options and empty groups with a reason, never NaN", () => {
    const [bad] = cliffsPairsBootstrap([[[1]], [[2]]], 1, { resamples: 1 });
    expect(bad).toMatchObject({ delta: -1, ci: null });
    expect(bad.reason).toMatch(/resamples/);
    const [empty] = cliffsPairsBootstrap([[], [[2]]], 1, { resamples: 10 });
    expect(empty).toMatchObject({ delta: null, ci: null, n: 0, m: 1 });
    expect(empty.reason).toBeTruthy();
  });

  it("orders results measure by measure, then pairs i < j", () => {
    const r = cliffsPairsBootstrap([[[1, 2]], [[2, 1]], [[3, 3]]], 2, { resamples: 10 });
    expect(r.map((p) => `${p.measure}:${p.i}:${p.j}`)).toEqual(["0:0:1", "0:0:2", "0:1:2", "1:0:1", "1:0:2", "1:1:2"]);
    expect(r[0].delta).toBe(-1);
    expect(r[3].delta).toBe(1);
  });
});
