/**
 * Cliff's delta for every pair of models at once, per specialty and over all
 * specialties, with a percentile bootstrap fast enough for a 10,000-set study.
 *
 * The data are strata (specialties), each holding one group of units
 * (response sets) per model, with one or more measures per unit (each
 * rubric's total, or each dimension, of the same set). Each replicate
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
import { cliffsDelta, type CliffMagnitude } from "./cliffs";
import { percentileInterval } from "./bootstrap";

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
  /** Per stratum, the pairs to replicate as flat [measure, i, j, measure, i, j, ...]. */
  stratumPairs: Int32Array[];
  stratumReps: Float64Array[][];
  pooledPairs: Int32Array;
  pooledReps: Float64Array[];
  pool: boolean;
}

/**
 * The hot loop, on its own with only locals (no variable shared with a closure, so V8 keeps
 * everything in registers) and self-contained (it references nothing outside itself, so it
 * can also run in a worker thread from its source text). mulberry32(seed) is inlined: the
 * same sequence as lib/stats' generator (checked by the tests); a closure call per draw would
 * cost as much as the draw. Fills `stratumReps` and `pooledReps`.
 */
function runReplicates(a: ReplicateState): void {
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
      for (let q = 0; q < reps.length; q++) {
        const k = pairs[3 * q];
        const i = pairs[3 * q + 1];
        const j = pairs[3 * q + 2];
        const n = counts[s][i][k];
        const m = counts[s][j][k];
        reps[q][b] = n === 0 || m === 0 ? Number.NaN : dominance(tallies[s][i][k], tallies[s][j][k], m) / (n * m);
      }
    }
    if (pool) {
      for (let q = 0; q < pooledReps.length; q++) {
        const k = pooledPairs[3 * q];
        const i = pooledPairs[3 * q + 1];
        const j = pooledPairs[3 * q + 2];
        const n = pooledCounts[i][k];
        const m = pooledCounts[j][k];
        pooledReps[q][b] = n === 0 || m === 0 ? Number.NaN : dominance(pooledTallies[i][k], pooledTallies[j][k], m) / (n * m);
      }
    }
  }
}

type Result = { strata: PairResult[][]; pooled: PairResult[] };

interface Prepared {
  result: Result;
  /** Null when there is nothing to replicate (bad options: the reasons are already set). */
  job: ReplicateState | null;
  finish: (job: Pick<ReplicateState, "stratumReps" | "pooledReps">) => Result;
}

/** Everything up to the replicate loop: point estimates, level tables, the loop's state, and how to read its output. */
function prepare(strata: ReadonlyArray<ReadonlyArray<Group>>, measures: number, options: JointBootstrapOptions): Prepared {
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
    const result = { strata: perStratum.map(mark), pooled: mark(pooled) };
    return { result, job: null, finish: () => result };
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
  const stratumPairs = perStratum.map((rs) => rs.filter((r) => r.delta !== null));
  const pooledPairs = pooled.filter((r) => r.delta !== null);
  const flat = (rs: PairResult[]) => Int32Array.from(rs.flatMap((r) => [r.measure, r.i, r.j]));
  const pool = S > 1;
  const job: ReplicateState = {
    resamples,
    seed,
    measures,
    S,
    G,
    sizes: strata.map((st) => st.map((g) => g.length)),
    localLevel,
    globalLevel,
    // Groups with every measure of every unit present: their count of drawn values is simply n.
    complete: localLevel.map((byG) => byG.map((a) => a.every((l) => l >= 0))),
    tallies: strata.map((st, s) => st.map(() => Array.from({ length: measures }, (_, k) => new Int32Array(local[s][k].values.length)))),
    counts: strata.map((st) => st.map(() => new Int32Array(measures))),
    pooledTallies: Array.from({ length: G }, () => Array.from({ length: measures }, (_, k) => new Int32Array(global[k].values.length))),
    pooledCounts: Array.from({ length: G }, () => new Int32Array(measures)),
    stratumPairs: stratumPairs.map(flat),
    stratumReps: stratumPairs.map((rs) => rs.map(() => new Float64Array(resamples))),
    pooledPairs: flat(pooledPairs),
    pooledReps: pooledPairs.map(() => new Float64Array(resamples)),
    pool,
  };
  const finish = ({ stratumReps, pooledReps }: Pick<ReplicateState, "stratumReps" | "pooledReps">): Result => {
    const read = (rs: PairResult[], reps: Float64Array[]) =>
      rs.forEach((r, q) => {
        // A replicate where a group drew no value is undefined: percentileInterval leaves it out.
        r.ci = percentileInterval(Array.from(reps[q]), level);
        if (r.ci === null) r.reason = "bootstrap interval undefined";
      });
    stratumPairs.forEach((rs, s) => read(rs, stratumReps[s]));
    if (pool) read(pooledPairs, pooledReps);
    else
      pooled.forEach((r, q) => {
        r.ci = perStratum[0]?.[q]?.ci ?? null;
        if (perStratum[0]?.[q]?.reason) r.reason = perStratum[0][q].reason;
      });
    return { strata: perStratum, pooled };
  };
  return { result: { strata: perStratum, pooled }, job, finish };
}

/**
 * Bootstrap per stratum and pooled. `strata[s][g]` = the units of model g in stratum s
 * (the same number of models in every stratum; an absent model is an empty group).
 * Returns, per stratum and pooled, one result per measure and pair i < j, measures outermost.
 */
export function cliffsStratifiedBootstrap(strata: ReadonlyArray<ReadonlyArray<Group>>, measures: number, options: JointBootstrapOptions = {}): Result {
  const p = prepare(strata, measures, options);
  if (!p.job) return p.result;
  runReplicates(p.job);
  return p.finish(p.job);
}

/** How often the worker ran the loop, and how often it could not and the loop ran inline (for tests and diagnostics). */
export const workerStats = { completed: 0, fallbacks: 0 };

/** Draws below which a worker thread costs more (about 30 ms to start) than it saves. */
export const WORKER_MIN_DRAWS = 2_000_000;

/**
 * The same result as `cliffsStratifiedBootstrap`, with the replicate loop in a worker thread
 * when it is large, so that the caller can compute something else meanwhile (the dashboard
 * computes the agreement statistics). The worker runs the loop's own source text, so it needs
 * no bundler support; if it cannot start or fails, the loop runs here instead.
 */
export function cliffsStratifiedBootstrapAsync(strata: ReadonlyArray<ReadonlyArray<Group>>, measures: number, options: JointBootstrapOptions = {}): Promise<Result> {
  const p = prepare(strata, measures, options);
  const job = p.job;
  if (!job) return Promise.resolve(p.result);
  const draws = job.resamples * job.sizes.flat().reduce((a, b) => a + b, 0);
  const inline = () => {
    runReplicates(job);
    return p.finish(job);
  };
  if (draws < WORKER_MIN_DRAWS) return Promise.resolve(inline());
  return new Promise<Result>((resolve) => {
    let settled = false;
    const fallback = () => {
      if (settled) return;
      settled = true;
      workerStats.fallbacks++;
      resolve(inline());
    };
    try {
      // Loaded at run time only (the module stays importable from client components' type imports).
      const { Worker } = process.getBuiltinModule("node:worker_threads") as typeof import("node:worker_threads");
      // __name: esbuild (tsx, vitest) wraps nested functions with it to keep their names.
      const source = `const { parentPort, workerData } = require("node:worker_threads");
var __name = (f) => f;
const run = (${runReplicates.toString()});
run(workerData);
parentPort.postMessage({ stratumReps: workerData.stratumReps, pooledReps: workerData.pooledReps });`;
      const worker = new Worker(source, { eval: true, workerData: job });
      worker.once("message", (out: Pick<ReplicateState, "stratumReps" | "pooledReps">) => {
        if (settled) return;
        settled = true;
        workerStats.completed++;
        resolve(p.finish(out));
        void worker.terminate();
      });
      worker.once("error", fallback);
      worker.once("exit", fallback);
    } catch {
      fallback();
    }
  });
}

/** One stratum: every pair of models (`groups[g]` = model g's units), as `cliffsStratifiedBootstrap` computes it. */
export function cliffsPairsBootstrap(groups: ReadonlyArray<Group>, measures: number, options: JointBootstrapOptions = {}): PairResult[] {
  return cliffsStratifiedBootstrap([groups], measures, options).strata[0];
}
