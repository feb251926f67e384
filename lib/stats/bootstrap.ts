/**
 * Seeded percentile bootstrap, for statistics whose interval has no closed form here
 * (Cliff's delta; Gwet's AC2 when the paper's paired-bootstrap intervals are wanted, as in
 * the judge-comparison study, paper 002).
 *
 * The PRNG is mulberry32 (Tommy Ettinger's 32-bit generator): tiny, fast, and deterministic
 * for a given seed, so an interval shown on a page is reproducible.
 */
import type { Degenerate, Interval } from "./types";
import { levelReason } from "./internal";

/** mulberry32: returns a function yielding uniform floats in [0, 1) from a 32-bit seed. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Draw `n` items from `data` with replacement. */
export function resample<T>(data: ReadonlyArray<T>, rng: () => number, n = data.length): T[] {
  const out = new Array<T>(n);
  const m = data.length;
  for (let i = 0; i < n; i++) out[i] = data[Math.floor(rng() * m)];
  return out;
}

/**
 * Percentile interval of bootstrap replicates: the (1-level)/2 and (1+level)/2 quantiles with
 * linear interpolation between order statistics (numpy's default "linear" method, R type 7).
 * Returns null for fewer than two replicates or an invalid level.
 */
export function percentileInterval(replicates: ReadonlyArray<number>, level = 0.95): Interval | null {
  if (levelReason(level) !== undefined) return null;
  const sorted = Float64Array.from(replicates.filter((v) => Number.isFinite(v))).sort();
  if (sorted.length < 2) return null;
  const a = (1 - level) / 2;
  return [quantileSorted(sorted, a), quantileSorted(sorted, 1 - a)];
}

function quantileSorted(sorted: Float64Array, p: number): number {
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

export interface BootstrapOptions {
  /** Number of bootstrap resamples (default 2000). */
  resamples?: number;
  /** Confidence level of the percentile interval (default 0.95). */
  level?: number;
  /** PRNG seed (default 1); the same seed gives the same interval. */
  seed?: number;
}

export interface BootstrapResult extends Degenerate {
  /** The statistic on the original data (null when it is undefined there). */
  estimate: number | null;
  /** Percentile interval, or null (see `reason`). */
  ci: Interval | null;
  level: number;
  resamples: number;
  /**
   * Replicates where the statistic was undefined (e.g. a resample with no variation). They are
   * left out of the percentile interval; a large count means the interval is unreliable.
   */
  invalid: number;
}

/** Validate bootstrap options; returns resolved values or a reason. */
export function resolveBootstrapOptions(options: BootstrapOptions): {
  resamples: number;
  level: number;
  seed: number;
  reason?: string;
} {
  const resamples = options.resamples ?? 2000;
  const level = options.level ?? 0.95;
  const seed = options.seed ?? 1;
  const bad = levelReason(level);
  if (bad) return { resamples, level, seed, reason: bad };
  if (!(Number.isInteger(resamples) && resamples >= 2)) {
    return { resamples, level, seed, reason: `resamples must be an integer >= 2 (got ${String(resamples)})` };
  }
  if (!Number.isFinite(seed)) return { resamples, level, seed, reason: "seed must be a finite number" };
  return { resamples, level, seed };
}

/**
 * Percentile bootstrap interval of `fn` over the units in `data` (each resample draws
 * `data.length` units with replacement). For a paired bootstrap, make each unit hold every
 * measurement of that unit (e.g. `[judgeScore, physicianScore]`) so pairs are resampled together.
 * `fn` should return null (not NaN) where the statistic is undefined.
 */
export function bootstrapCI<T>(
  fn: (sample: T[]) => number | null,
  data: ReadonlyArray<T>,
  options: BootstrapOptions = {},
): BootstrapResult {
  const { resamples, level, seed, reason } = resolveBootstrapOptions(options);
  const base = { level, resamples, invalid: 0 };
  if (reason) return { ...base, estimate: null, ci: null, reason };
  if (data.length === 0) return { ...base, estimate: null, ci: null, reason: "no data" };

  const raw = fn([...data]);
  const estimate = raw !== null && Number.isFinite(raw) ? raw : null;
  const rng = mulberry32(seed);
  const replicates: number[] = [];
  let invalid = 0;
  for (let b = 0; b < resamples; b++) {
    const v = fn(resample(data, rng));
    if (v !== null && Number.isFinite(v)) replicates.push(v);
    else invalid++;
  }
  const ci = percentileInterval(replicates, level);
  if (ci === null) {
    return { ...base, invalid, estimate, ci, reason: "fewer than two bootstrap replicates were defined" };
  }
  return { ...base, invalid, estimate, ci };
}
