/**
 * Plain reference implementations, written directly with lib/stats, that the
 * fast code in lib/analytics must match exactly. Shared by the unit tests and
 * tests/integration/stats-api.test.ts.
 */
import { cliffsDelta, mulberry32, percentileInterval } from "@/lib/stats";
import { resample } from "@/lib/stats/bootstrap";

/**
 * The joint bootstrap of lib/analytics/cliffs-fast.ts written plainly: per replicate, resample
 * each group's unit indices in order with `resample`, then `cliffsDelta` on every pair and
 * measure; `percentileInterval` of the replicates.
 */
export function plainJointBootstrap(
  groups: (number | null)[][][],
  measures: number,
  opts: { resamples: number; seed: number; level?: number },
): Map<string, [number, number] | null> {
  const rng = mulberry32(opts.seed);
  const reps = new Map<string, number[]>();
  for (let b = 0; b < opts.resamples; b++) {
    const draws = groups.map((g) => resample(g.map((_, i) => i), rng));
    for (let k = 0; k < measures; k++) {
      for (let i = 0; i < groups.length; i++) {
        for (let j = i + 1; j < groups.length; j++) {
          const d = cliffsDelta(
            draws[i].map((t) => groups[i][t][k]),
            draws[j].map((t) => groups[j][t][k]),
          ).delta;
          const key = `${k}:${i}:${j}`;
          if (!reps.has(key)) reps.set(key, []);
          if (d !== null) reps.get(key)!.push(d);
        }
      }
    }
  }
  return new Map([...reps.entries()].map(([k, v]) => [k, percentileInterval(v, opts.level ?? 0.95)]));
}
