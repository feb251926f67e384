/**
 * Krippendorff's alpha in its coincidence-matrix form (Krippendorff 2011, "Computing
 * Krippendorff's alpha-reliability"), matching fast-krippendorff `krippendorff.alpha` and
 * irrCAC `krippen.alpha.raw`.
 *
 * For each unit u with m_u >= 2 ratings (units with fewer are unpairable and ignored) and
 * n_uc ratings of value c:  o_ck += n_uc (n_uk - [c = k]) / (m_u - 1).
 * With n_c = sum_k o_ck and n = sum_c n_c:
 *   alpha = 1 - (n - 1) * sum_ck o_ck d_ck / sum_ck n_c n_k d_ck
 * Distances d_ck (value domain = sorted distinct values, as fast-krippendorff's default):
 *   nominal  [c != k]
 *   ordinal  (sum_{g from c to k} n_g - (n_c + n_k) / 2)^2   (ranks via value frequencies)
 *   interval (v_c - v_k)^2
 *   ratio    ((v_c - v_k) / (v_c + v_k))^2, 0 when v_c + v_k = 0 (fast-krippendorff)
 */
import type { Degenerate } from "./types";
import { normalise, observedValues, type UnitCounts } from "./internal";
import { type NominalMatrix, encodeNominal, holdsLabels } from "./categories";
import { type BootstrapOptions, type BootstrapResult, mulberry32, percentileInterval, resolveBootstrapOptions } from "./bootstrap";

export type KrippendorffLevel = "nominal" | "ordinal" | "interval" | "ratio";

export interface KrippendorffOptions extends UnitCounts {
  level: KrippendorffLevel;
}

export interface KrippendorffResult extends Degenerate {
  alpha: number | null;
  /** Pairable values n (ratings in units with at least two ratings). */
  pairable: number;
  /** Units with at least two ratings. */
  units: number;
}

/**
 * Ratings may be labels ("a", "b") at the nominal level, where only equality matters; the other
 * levels need numbers and refuse labels with a reason.
 */
export function krippendorffAlpha(rows: NominalMatrix, options: KrippendorffOptions): KrippendorffResult {
  const level = options?.level;
  if (level !== "nominal" && level !== "ordinal" && level !== "interval" && level !== "ratio") {
    return { alpha: null, pairable: 0, units: 0, reason: `unknown level "${String(level)}"` };
  }
  if (level !== "nominal" && holdsLabels(rows)) {
    return { alpha: null, pairable: 0, units: 0, reason: `text labels need the nominal level, not ${level}` };
  }
  const { data } = normalise(encodeNominal(rows).rows);
  const values = observedValues(data);
  const v = values.length;
  const index = new Map<number, number>();
  values.forEach((x, i) => index.set(x, i));

  // Coincidence matrix o (v x v). The domain is the set of rating values (a Likert scale in
  // practice), so the quadratic size is small.
  const o: number[][] = Array.from({ length: v }, () => new Array<number>(v).fill(0));
  let units = 0;
  const tally = new Array<number>(v).fill(0);
  data.forEach((row, u) => {
    const present: number[] = [];
    for (const x of row) if (x !== null) present.push(index.get(x)!);
    const mu = present.length;
    if (mu < 2) return;
    const times = options.counts ? options.counts[u] : 1;
    units += times;
    for (const c of present) tally[c]++;
    const distinct = [...new Set(present)];
    for (const c of distinct) {
      for (const k of distinct) {
        o[c][k] += times * ((tally[c] * (tally[k] - (c === k ? 1 : 0))) / (mu - 1));
      }
    }
    for (const c of present) tally[c] = 0;
  });
  const nc = o.map((row) => row.reduce((s, x) => s + x, 0));
  const n = nc.reduce((s, x) => s + x, 0);
  if (units === 0) return { alpha: null, pairable: 0, units, reason: "no unit has two or more ratings" };

  const d = distanceMatrix(level, values, nc);
  let observedD = 0;
  let expectedD = 0;
  for (let c = 0; c < v; c++) {
    for (let k = 0; k < v; k++) {
      if (d[c][k] === 0) continue;
      observedD += o[c][k] * d[c][k];
      expectedD += nc[c] * nc[k] * d[c][k];
    }
  }
  if (!(expectedD > 0)) {
    return {
      alpha: null,
      pairable: n,
      units,
      reason: "the pairable ratings show no variation (one value only), so alpha is undefined",
    };
  }
  const alpha = 1 - ((n - 1) * observedD) / expectedD;
  if (!Number.isFinite(alpha)) {
    return { alpha: null, pairable: n, units, reason: "distances overflow double precision (ratings too large)" };
  }
  return { alpha, pairable: n, units };
}

function distanceMatrix(level: KrippendorffLevel, values: number[], nc: number[]): number[][] {
  const v = values.length;
  const d: number[][] = Array.from({ length: v }, () => new Array<number>(v).fill(0));
  // Prefix sums of n_g for the ordinal metric: sum_{g=c..k} n_g = prefix[k+1] - prefix[c].
  const prefix = [0];
  for (const x of nc) prefix.push(prefix[prefix.length - 1] + x);
  for (let c = 0; c < v; c++) {
    for (let k = 0; k < v; k++) {
      if (c === k) continue;
      const a = values[c];
      const b = values[k];
      switch (level) {
        case "nominal":
          d[c][k] = 1;
          break;
        case "ordinal": {
          const lo = Math.min(c, k);
          const hi = Math.max(c, k);
          d[c][k] = (prefix[hi + 1] - prefix[lo] - (nc[c] + nc[k]) / 2) ** 2;
          break;
        }
        case "interval":
          d[c][k] = (a - b) ** 2;
          break;
        case "ratio":
          d[c][k] = a + b === 0 ? 0 : ((a - b) / (a + b)) ** 2;
          break;
      }
    }
  }
  return d;
}

/**
 * Percentile bootstrap interval of alpha over units: each replicate draws as many units (rows)
 * as there are, with replacement, and recomputes alpha, so the value domain and its distances
 * are re-estimated per replicate. This is NOT Hayes & Krippendorff's (2007) bootstrap, which
 * resamples pairs of pairable values under a fixed expected disagreement; resampling units is
 * the ordinary nonparametric bootstrap for clustered ratings. Seeded (mulberry32, the draws of
 * `bootstrapCI`), so the same seed gives the same interval; replicates where alpha is undefined
 * are counted in `invalid`.
 *
 * Each unit's contribution to the coincidence matrix is computed once (per pattern of values)
 * and a replicate adds the drawn units' contributions: the same alpha, to rounding, as
 * recomputing it on the resampled rows (a value absent from a replicate has n_c = 0 and adds
 * nothing, also to the ordinal ranks), without re-reading the rows per replicate.
 */
export function krippendorffAlphaBootstrapCI(
  rows: NominalMatrix,
  options: KrippendorffOptions,
  bootstrap: BootstrapOptions = {},
): BootstrapResult & { units: number } {
  const point = krippendorffAlpha(rows, options);
  const { resamples, level, seed, reason } = resolveBootstrapOptions(bootstrap);
  const base = { level, resamples, invalid: 0, units: point.units };
  if (reason) return { ...base, estimate: point.alpha, ci: null, reason };
  if (point.alpha === null) return { ...base, estimate: null, ci: null, reason: point.reason };

  const { data } = normalise(encodeNominal(rows).rows);
  const values = observedValues(data);
  const v = values.length;
  const index = new Map<number, number>();
  values.forEach((x, i) => index.set(x, i));
  // Rows with the same multiset of values add the same coincidences; on a rating scale there are
  // few such patterns, so each row maps to its pattern and a replicate counts patterns.
  const patternOf = new Int32Array(data.length);
  const patterns: Float64Array[] = [];
  const pairable: boolean[] = [];
  const byKey = new Map<string, number>();
  data.forEach((row, i) => {
    const present: number[] = [];
    for (const x of row) if (x !== null) present.push(index.get(x)!);
    const key = present.length < 2 ? "" : [...present].sort((a, b) => a - b).join(",");
    let p = byKey.get(key);
    if (p === undefined) {
      p = patterns.length;
      byKey.set(key, p);
      const mu = present.length;
      const out: number[] = [];
      if (mu >= 2) {
        const counts = new Map<number, number>();
        for (const c of present) counts.set(c, (counts.get(c) ?? 0) + 1);
        for (const [c, nc] of counts) for (const [k, nk] of counts) out.push(c, k, (nc * (nk - (c === k ? 1 : 0))) / (mu - 1));
      }
      patterns.push(Float64Array.from(out));
      pairable.push(mu >= 2);
    }
    patternOf[i] = p;
  });
  const rng = mulberry32(seed);
  const o = new Float64Array(v * v);
  const drawn = new Float64Array(patterns.length);
  const replicates: number[] = [];
  let invalid = 0;
  const n = data.length;
  for (let b = 0; b < resamples; b++) {
    drawn.fill(0);
    for (let i = 0; i < n; i++) drawn[patternOf[Math.floor(rng() * n)]]++;
    o.fill(0);
    let units = 0;
    for (let p = 0; p < patterns.length; p++) {
      const times = drawn[p];
      if (times === 0 || !pairable[p]) continue;
      units += times;
      const t = patterns[p];
      for (let j = 0; j < t.length; j += 3) o[t[j] * v + t[j + 1]] += times * t[j + 2];
    }
    const a = units === 0 ? null : alphaFromCoincidences(o, v, values, options.level);
    if (a !== null && Number.isFinite(a)) replicates.push(a);
    else invalid++;
  }
  const ci = percentileInterval(replicates, level);
  if (ci === null) return { ...base, invalid, estimate: point.alpha, ci, reason: "fewer than two bootstrap replicates were defined" };
  return { ...base, invalid, estimate: point.alpha, ci };
}

/** Alpha from a flat v x v coincidence matrix (null when there is no expected disagreement). */
function alphaFromCoincidences(o: Float64Array, v: number, values: number[], level: KrippendorffLevel): number | null {
  const nc = new Array<number>(v).fill(0);
  for (let c = 0; c < v; c++) for (let k = 0; k < v; k++) nc[c] += o[c * v + k];
  const n = nc.reduce((s, x) => s + x, 0);
  const d = distanceMatrix(level, values, nc);
  let observedD = 0;
  let expectedD = 0;
  for (let c = 0; c < v; c++) {
    for (let k = 0; k < v; k++) {
      if (d[c][k] === 0) continue;
      observedD += o[c * v + k] * d[c][k];
      expectedD += nc[c] * nc[k] * d[c][k];
    }
  }
  if (!(expectedD > 0)) return null;
  return 1 - ((n - 1) * observedD) / expectedD;
}
