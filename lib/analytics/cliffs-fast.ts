/**
 * Cliff's delta for every pair of models at once, with a joint percentile
 * bootstrap, fast enough for a 10,000-set study.
 *
 * Each replicate resamples every model's units (response sets) once, with
 * replacement at the model's own size: models in the given order, each drawing
 * n indices `floor(u * n)` from mulberry32(seed) (lib/stats' generator), like `resample`.
 * Every pair of models and every measure of the units (the S.C.O.R.E. total and
 * the SAFE-LLM total of the same sets) is then computed from those same draws,
 * so the groups stay independent samples (as in `cliffsDeltaCI`) while the
 * draws are shared. Each replicate's delta is counted from tallies of the
 * distinct values (final totals take at most a few hundred values), not by
 * sorting, in O(n + L) instead of O(n log n).
 *
 * Point estimates are `cliffsDelta` itself. tests/unit/analytics/cliffs-fast.test.ts
 * checks every interval against the same bootstrap written plainly with lib/stats
 * (`resample`-style draws, `cliffsDelta` on each resample, `percentileInterval`).
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

/**
 * `groups[g][u][k]` = measure k of unit u of model g (a missing value is skipped for that
 * measure). Returns one result per measure and pair i < j, measures outermost.
 */
export function cliffsPairsBootstrap(groups: ReadonlyArray<ReadonlyArray<ReadonlyArray<number | null>>>, measures: number, options: JointBootstrapOptions = {}): PairResult[] {
  const resamples = options.resamples ?? 1000;
  const level = options.level ?? 0.95;
  const seed = options.seed ?? 1;
  const G = groups.length;
  const bad =
    !(Number.isFinite(level) && level > 0 && level < 1)
      ? `confidence level must be strictly between 0 and 1 (got ${String(level)})`
      : !(Number.isInteger(resamples) && resamples >= 2)
        ? `resamples must be an integer >= 2 (got ${String(resamples)})`
        : !Number.isFinite(seed)
          ? "seed must be a finite number"
          : undefined;

  // Per measure: the distinct values, and each unit's level index (-1 = missing).
  const levels: number[][] = [];
  const unitLevel: Int32Array[][] = []; // [measure][group] -> level per unit
  for (let k = 0; k < measures; k++) {
    const values = new Set<number>();
    for (const g of groups) for (const u of g) if (typeof u[k] === "number" && Number.isFinite(u[k])) values.add(u[k] as number);
    const sorted = [...values].sort((a, b) => a - b);
    const index = new Map(sorted.map((v, i) => [v, i]));
    levels.push(sorted);
    unitLevel.push(groups.map((g) => Int32Array.from(g, (u) => (typeof u[k] === "number" && Number.isFinite(u[k]) ? index.get(u[k] as number)! : -1))));
  }

  // Point estimates.
  const out: PairResult[] = [];
  for (let k = 0; k < measures; k++) {
    for (let i = 0; i < G; i++) {
      for (let j = i + 1; j < G; j++) {
        const x = groups[i].map((u) => u[k]);
        const y = groups[j].map((u) => u[k]);
        const p = cliffsDelta(x, y);
        out.push({ measure: k, i, j, delta: p.delta, magnitude: p.magnitude, ci: null, n: p.n, m: p.m, ...(p.reason ? { reason: p.reason } : {}) });
      }
    }
  }
  if (bad) return out.map((r) => (r.delta === null ? r : { ...r, reason: bad }));

  // Replicates: draw each group's units once, tally every measure, then sweep every pair.
  const pairs = out.filter((r) => r.delta !== null);
  const replicates = pairs.map(() => new Float64Array(resamples));
  const tallies = levels.map((lv) => groups.map(() => new Int32Array(lv.length))); // [measure][group][level]
  const counts = levels.map(() => new Int32Array(G)); // present draws per [measure][group]
  // mulberry32(seed) inlined (the same sequence as lib/stats' generator, checked by the tests): a
  // closure call per draw costs twice the draw itself, and there are millions of draws.
  let state = seed >>> 0;
  const drawn: Int32Array[] = groups.map((g) => new Int32Array(g.length));
  for (let b = 0; b < resamples; b++) {
    for (let g = 0; g < G; g++) {
      const n = groups[g].length;
      const d = drawn[g];
      for (let t = 0; t < n; t++) {
        state = (state + 0x6d2b79f5) >>> 0;
        let z = state;
        z = Math.imul(z ^ (z >>> 15), z | 1);
        z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
        d[t] = Math.floor((((z ^ (z >>> 14)) >>> 0) / 4294967296) * n);
      }
    }
    for (let k = 0; k < measures; k++) {
      const c = counts[k];
      for (let g = 0; g < G; g++) {
        const tally = tallies[k][g];
        tally.fill(0);
        const lv = unitLevel[k][g];
        const d = drawn[g];
        let p = 0;
        for (let t = 0; t < d.length; t++) {
          const l = lv[d[t]];
          if (l >= 0) {
            tally[l]++;
            p++;
          }
        }
        c[g] = p;
      }
    }
    for (let q = 0; q < pairs.length; q++) {
      const { measure: k, i, j } = pairs[q];
      const n = counts[k][i];
      const m = counts[k][j];
      if (n === 0 || m === 0) {
        replicates[q][b] = Number.NaN; // a resample with no value: undefined, left out below
        continue;
      }
      const cx = tallies[k][i];
      const cy = tallies[k][j];
      let below = 0;
      let dominance = 0;
      for (let l = 0; l < cx.length; l++) {
        if (cx[l] !== 0) dominance += cx[l] * (below - (m - below - cy[l]));
        below += cy[l];
      }
      replicates[q][b] = dominance / (n * m);
    }
  }
  pairs.forEach((r, q) => {
    const ci = percentileInterval(Array.from(replicates[q]), level);
    r.ci = ci;
    if (ci === null) r.reason = "bootstrap interval undefined";
  });
  return out;
}
