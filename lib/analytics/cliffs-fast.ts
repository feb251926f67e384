/**
 * Cliff's delta with its percentile bootstrap interval, for samples with few
 * distinct values (final totals are means of 2-3 graders' integer sums, so a
 * study has at most a few hundred distinct totals however many sets it has).
 *
 * It returns exactly what `cliffsDeltaCI` (lib/stats) returns for the same
 * options: the same seeded generator draws the same indices in the same order
 * (all of x's resample, then all of y's), and each replicate's dominance count
 * is the same integer. Only the counting differs: instead of sorting every
 * resample (O(n log n)), it tallies how often each distinct value was drawn and
 * sweeps those tallies (O(n + m + L) per replicate, L = distinct values). On a
 * 10,000-set study this turns seconds into tens of milliseconds.
 * tests/unit/analytics/cliffs-fast.test.ts checks the equality on random samples.
 */
import { cliffsDelta, mulberry32, percentileInterval, type BootstrapOptions, type CliffsDeltaCIResult, type Rating } from "@/lib/stats";

function present(values: ReadonlyArray<Rating>): number[] {
  const out: number[] = [];
  for (const v of values) if (typeof v === "number" && Number.isFinite(v)) out.push(v);
  return out;
}

function levelReason(level: number): string | undefined {
  return Number.isFinite(level) && level > 0 && level < 1 ? undefined : `confidence level must be strictly between 0 and 1 (got ${String(level)})`;
}

export function cliffsDeltaCIFast(x: ReadonlyArray<Rating>, y: ReadonlyArray<Rating>, options: BootstrapOptions = {}): CliffsDeltaCIResult {
  const point = cliffsDelta(x, y);
  const resamples = options.resamples ?? 2000;
  const level = options.level ?? 0.95;
  const seed = options.seed ?? 1;
  if (point.delta === null) return { ...point, ci: null, level, resamples };
  const bad =
    levelReason(level) ??
    (Number.isInteger(resamples) && resamples >= 2 ? undefined : `resamples must be an integer >= 2 (got ${String(resamples)})`) ??
    (Number.isFinite(seed) ? undefined : "seed must be a finite number");
  if (bad) return { ...point, ci: null, level, resamples, reason: bad };

  const xv = present(x);
  const yv = present(y);
  const levels = [...new Set([...xv, ...yv])].sort((a, b) => a - b);
  const index = new Map(levels.map((v, i) => [v, i]));
  const L = levels.length;
  const n = xv.length;
  const m = yv.length;
  const xi = Int32Array.from(xv, (v) => index.get(v)!);
  const yi = Int32Array.from(yv, (v) => index.get(v)!);
  const cx = new Int32Array(L);
  const cy = new Int32Array(L);
  const rng = mulberry32(seed);
  const replicates = new Array<number>(resamples);
  for (let b = 0; b < resamples; b++) {
    cx.fill(0);
    cy.fill(0);
    for (let i = 0; i < n; i++) cx[xi[Math.floor(rng() * n)]]++;
    for (let j = 0; j < m; j++) cy[yi[Math.floor(rng() * m)]]++;
    // sum over x values of (#y below - #y above)
    let below = 0;
    let dominance = 0;
    for (let l = 0; l < L; l++) {
      const above = m - below - cy[l];
      if (cx[l] !== 0) dominance += cx[l] * (below - above);
      below += cy[l];
    }
    replicates[b] = dominance / (n * m);
  }
  const ci = percentileInterval(replicates, level);
  return ci === null ? { ...point, ci, level, resamples, reason: "bootstrap interval undefined" } : { ...point, ci, level, resamples };
}
