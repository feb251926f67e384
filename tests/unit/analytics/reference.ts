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

/**
 * The stratified version, plainly: per replicate, for each stratum and each model in order,
 * `resample` its units; per stratum `cliffsDelta` on every pair and measure; pooled, each
 * model's sample is the concatenation of its stratum resamples.
 */
export function plainStratifiedBootstrap(
  strata: (number | null)[][][][],
  measures: number,
  opts: { resamples: number; seed: number; level?: number },
): { strata: Map<string, [number, number] | null>[]; pooled: Map<string, [number, number] | null> } {
  const rng = mulberry32(opts.seed);
  const G = strata[0]?.length ?? 0;
  const reps = strata.map(() => new Map<string, number[]>());
  const pooledReps = new Map<string, number[]>();
  const push = (m: Map<string, number[]>, key: string, d: number | null) => {
    if (!m.has(key)) m.set(key, []);
    if (d !== null) m.get(key)!.push(d);
  };
  for (let b = 0; b < opts.resamples; b++) {
    const drawn = strata.map((st) => st.map((g) => resample(g, rng)));
    for (let k = 0; k < measures; k++) {
      for (let i = 0; i < G; i++) {
        for (let j = i + 1; j < G; j++) {
          drawn.forEach((st, s) =>
            push(
              reps[s],
              `${k}:${i}:${j}`,
              cliffsDelta(
                st[i].map((u) => u[k]),
                st[j].map((u) => u[k]),
              ).delta,
            ),
          );
          push(
            pooledReps,
            `${k}:${i}:${j}`,
            cliffsDelta(
              drawn.flatMap((st) => st[i].map((u) => u[k])),
              drawn.flatMap((st) => st[j].map((u) => u[k])),
            ).delta,
          );
        }
      }
    }
  }
  const ci = (m: Map<string, number[]>) => new Map([...m.entries()].map(([k, v]) => [k, percentileInterval(v, opts.level ?? 0.95)]));
  return { strata: reps.map(ci), pooled: ci(pooledReps) };
}
