/**
 * Cliff's delta for every pair of models at once, per specialty and over all
 * specialties, with a percentile bootstrap fast enough for a 10,000-set study.
 *
 * The data are strata (specialties), each holding one group of units
 * (response sets) per model, with one or more measures per unit (the
 * S.C.O.R.E. total and the SAFE-LLM total of the same set). Each replicate
 * resamples, stratum by stratum and model by model in the given order, the
 * group's units with replacement at the group's own size: n indices
 * `floor(u * n)` from mulberry32(seed) (lib/stats' generator, inlined), as
 * `resample` draws them. From those draws:
 * - within a stratum, every pair of models and every measure: the models stay
 *   independent samples, as in `cliffsDeltaCI`, while the draws are shared;
 * - pooled over the strata ("All specialties"), each model's sample is the
 *   union of its stratum resamples: a bootstrap stratified by specialty, which
 *   keeps each specialty's share of the sets fixed, as the study design does.
 * Each replicate's delta is counted from tallies of the distinct values (final
 * totals take at most a few hundred values) instead of sorting: O(n + L).
 *
 * Point estimates are `cliffsDelta` itself. tests/unit/analytics/cliffs-fast.test.ts
 * checks every interval against the same bootstrap written plainly with lib/stats
 * (`resample`, `cliffsDelta` on each resample, `percentileInterval`).
 */
import { cliffsDelta, percentileInterval, type CliffMagnitude } from "@/lib/stats";

export interface PairResult {
  /** Index of the measure, and of the two models (i < j) in the input order. */
  measure: number;
  i: number;
  j: number;
  /** Positive = model i's values tend to be higher. */
  delta: number | null;
  magnitude: CliffMagnitude | null;
  ci: [number, number] | null;
  n: number;
  m: number;
  reason?: string;
}

export interface JointBootstrapOptions {
  resamples?: number;
  level?: number;
  seed?: number;
}

/** Units of one model in one stratum: `units[u][k]` = measure k of unit u (null = missing for that measure). */
export type Group = ReadonlyArray<ReadonlyArray<number | null>>;

const isValue = (v: number | null | undefined): v is number => typeof v === "number" && Number.isFinite(v);

function optionsReason(resamples: number, level: number, seed: number): string | undefined {
  if (!(Number.isFinite(level) && level > 0 && level < 1)) return `confidence level must be strictly between 0 and 1 (got ${String(level)})`;
  if (!(Number.isInteger(resamples) && resamples >= 2)) return `resamples must be an integer >= 2 (got ${String(resamples)})`;
  if (!Number.isFinite(seed)) return "seed must be a finite number";
  return undefined;
}

function pointEstimates(groups: ReadonlyArray<Group>, measures: number): PairResult[] {
  const out: PairResult[] = [];
  for (let k = 0; k < measures; k++) {
    for (let i = 0; i < groups.length; i++) {
      for (let j = i + 1; j < groups.length; j++) {
        const p = cliffsDelta(
          groups[i].map((u) => u[k]),
          groups[j].map((u) => u[k]),
        );
        out.push({ measure: k, i, j, delta: p.delta, magnitude: p.magnitude, ci: null, n: p.n, m: p.m, ...(p.reason ? { reason: p.reason } : {}) });
      }
    }
  }
  return out;
}

/** Sorted distinct values of measure k over some groups, and a value -> index map. */
function levelsOf(groups: ReadonlyArray<Group>, k: number): { values: number[]; index: Map<number, number> } {
  const set = new Set<number>();
  for (const g of groups) for (const u of g) if (isValue(u[k])) set.add(u[k] as number);
  const values = [...set].sort((a, b) => a - b);
  return { values, index: new Map(values.map((v, i) => [v, i])) };
}

/** sum over x's values of (#y below - #y above), from tallies over the same levels. */
function dominance(cx: Int32Array, cy: Int32Array, m: number): number {
  let below = 0;
  let d = 0;
  for (let l = 0; l < cx.length; l++) {
    if (cx[l] !== 0) d += cx[l] * (below - (m - below - cy[l]));
    below += cy[l];
  }
  return d;
}

interface ReplicateState {
  resamples: number;
  seed: number;
  measures: number;
  S: number;
  G: number;
  sizes: number[][];
  localLevel: Int32Array[][];
  globalLevel: Int32Array[][];
  complete: boolean[][];
  tallies: Int32Array[][][];
  counts: Int32Array[][];
  pooledTallies: Int32Array[][];
  pooledCounts: Int32Array[];
  stratumPairs: PairResult[][];
  stratumReps: Float64Array[][];
  pooledPairs: PairResult[];
  pooledReps: Float64Array[];
  pool: boolean;
}

/**
 * The hot loop, on its own with only locals (no variable shared with a closure, so V8 keeps
 * everything in registers). mulberry32(seed) is inlined: the same sequence as lib/stats'
 * generator (checked by the tests); a closure call per draw would cost as much as the draw.
 */
function runReplicates(a: ReplicateState): void {
  const { resamples, measures, S, G, sizes, localLevel, globalLevel, complete, tallies, counts, pooledTallies, pooledCounts, stratumPairs, stratumReps, pooledPairs, pooledReps, pool } = a;
  let state = a.seed >>> 0;
  for (let b = 0; b < resamples; b++) {
    if (pool) {
      for (let g = 0; g < G; g++) {
        for (let k = 0; k < measures; k++) pooledTallies[g][k].fill(0);
        pooledCounts[g].fill(0);
      }
    }
    for (let s = 0; s < S; s++) {
      for (let g = 0; g < G; g++) {
        const n = sizes[s][g];
        const lv = localLevel[s][g];
        const gv = globalLevel[s][g];
        const t = tallies[s][g];
        const c = counts[s][g];
        const pt = pooledTallies[g];
        const pc = pooledCounts[g];
        for (let k = 0; k < measures; k++) t[k].fill(0);
        const full = complete[s][g];
        c.fill(full ? n : 0);
        for (let draw = 0; draw < n; draw++) {
          state = (state + 0x6d2b79f5) >>> 0;
          let z = state;
          z = Math.imul(z ^ (z >>> 15), z | 1);
          z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
          const at = Math.floor((((z ^ (z >>> 14)) >>> 0) / 4294967296) * n) * measures;
          for (let k = 0; k < measures; k++) {
            const l = lv[at + k];
            if (l < 0) continue;
            t[k][l]++;
            if (!full) c[k]++;
            if (pool) pt[k][gv[at + k]]++;
          }
        }
        if (pool) for (let k = 0; k < measures; k++) pc[k] += c[k];
      }
      const pairs = stratumPairs[s];
      const reps = stratumReps[s];
      for (let q = 0; q < pairs.length; q++) {
        const r = pairs[q];
        const n = counts[s][r.i][r.measure];
        const m = counts[s][r.j][r.measure];
        reps[q][b] = n === 0 || m === 0 ? Number.NaN : dominance(tallies[s][r.i][r.measure], tallies[s][r.j][r.measure], m) / (n * m);
      }
    }
    if (pool) {
      for (let q = 0; q < pooledPairs.length; q++) {
        const r = pooledPairs[q];
        const n = pooledCounts[r.i][r.measure];
        const m = pooledCounts[r.j][r.measure];
        pooledReps[q][b] = n === 0 || m === 0 ? Number.NaN : dominance(pooledTallies[r.i][r.measure], pooledTallies[r.j][r.measure], m) / (n * m);
      }
    }
  }
}

/**
 * Bootstrap per stratum and pooled. `strata[s][g]` = the units of model g in stratum s
 * (the same number of models in every stratum; an absent model is an empty group).
 * Returns, per stratum and pooled, one result per measure and pair i < j, measures outermost.
 */
export function cliffsStratifiedBootstrap(
  strata: ReadonlyArray<ReadonlyArray<Group>>,
  measures: number,
  options: JointBootstrapOptions = {},
): { strata: PairResult[][]; pooled: PairResult[] } {
  const resamples = options.resamples ?? 1000;
  const level = options.level ?? 0.95;
  const seed = options.seed ?? 1;
  const S = strata.length;
  const G = S > 0 ? strata[0].length : 0;
  const pooledGroups: Group[] = Array.from({ length: G }, (_, g) => strata.flatMap((st) => st[g] as ReadonlyArray<number | null>[]));

  const perStratum = strata.map((st) => pointEstimates(st, measures));
  const pooled = pointEstimates(pooledGroups, measures);
  const bad = optionsReason(resamples, level, seed);
  if (bad) {
    const mark = (rs: PairResult[]) => rs.map((r) => (r.delta === null ? r : { ...r, reason: bad }));
    return { strata: perStratum.map(mark), pooled: mark(pooled) };
  }

  // Levels: per stratum (for its own sweeps) and global (for the pooled sweeps), per measure.
  const global = Array.from({ length: measures }, (_, k) => levelsOf(pooledGroups, k));
  const local = strata.map((st) => Array.from({ length: measures }, (_, k) => levelsOf(st, k)));
  // Flat layouts for the hot loop: per (stratum, model), unit u's local level for measure k at
  // [u * measures + k] (-1 = missing) and its global level likewise; tallies per measure.
  const localLevel = strata.map((st, s) =>
    st.map((grp) => {
      const a = new Int32Array(grp.length * measures);
      grp.forEach((u, i) => {
        for (let k = 0; k < measures; k++) a[i * measures + k] = isValue(u[k]) ? local[s][k].index.get(u[k] as number)! : -1;
      });
      return a;
    }),
  );
  const globalLevel = strata.map((st, s) =>
    st.map((_, g) => {
      const lv = localLevel[s][g];
      return Int32Array.from(lv, (l, x) => (l < 0 ? -1 : global[x % measures].index.get(local[s][x % measures].values[l])!));
    }),
  );
  // Groups with every measure of every unit present: their count of drawn values is simply n.
  const complete = localLevel.map((byG) => byG.map((a) => a.every((l) => l >= 0)));
  const tallies = strata.map((st, s) => st.map(() => Array.from({ length: measures }, (_, k) => new Int32Array(local[s][k].values.length))));
  const counts = strata.map((st) => st.map(() => new Int32Array(measures)));
  const pooledTallies = Array.from({ length: G }, () => Array.from({ length: measures }, (_, k) => new Int32Array(global[k].values.length)));
  const pooledCounts = Array.from({ length: G }, () => new Int32Array(measures));

  const stratumPairs = perStratum.map((rs) => rs.filter((r) => r.delta !== null));
  const pooledPairs = pooled.filter((r) => r.delta !== null);
  const stratumReps = stratumPairs.map((rs) => rs.map(() => new Float64Array(resamples)));
  const pooledReps = pooledPairs.map(() => new Float64Array(resamples));
  const pool = S > 1;

  runReplicates({ resamples, seed, measures, S, G, sizes: strata.map((st) => st.map((g) => g.length)), localLevel, globalLevel, complete, tallies, counts, pooledTallies, pooledCounts, stratumPairs, stratumReps, pooledPairs, pooledReps, pool });

  const finish = (rs: PairResult[], reps: Float64Array[]) =>
    rs.forEach((r, q) => {
      // A replicate where a group drew no value is undefined: percentileInterval leaves it out.
      r.ci = percentileInterval(Array.from(reps[q]), level);
      if (r.ci === null) r.reason = "bootstrap interval undefined";
    });
  stratumPairs.forEach((rs, s) => finish(rs, stratumReps[s]));
  if (pool) finish(pooledPairs, pooledReps);
  else
    pooled.forEach((r, q) => {
      r.ci = perStratum[0]?.[q]?.ci ?? null;
      if (perStratum[0]?.[q]?.reason) r.reason = perStratum[0][q].reason;
    });
  return { strata: perStratum, pooled };
}

/** One stratum: every pair of models (`groups[g]` = model g's units), as `cliffsStratifiedBootstrap` computes it. */
export function cliffsPairsBootstrap(groups: ReadonlyArray<Group>, measures: number, options: JointBootstrapOptions = {}): PairResult[] {
  return cliffsStratifiedBootstrap([groups], measures, options).strata[0];
}
