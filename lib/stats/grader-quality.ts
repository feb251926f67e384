/**
 * Per-grader quality signals (issue #35, item 4), pure: the definitions are the issue's, so a
 * figure can be checked against an export by hand.
 *
 * Every function takes ordinal scores only: the caller leaves nominal items and "not applicable"
 * out (they have no distance to average or compare on a scale).
 */
import { cohenKappa } from "./cohen";
import { gwetAC2 } from "./gwet";
import { icc } from "./icc";
import { wilsonInterval } from "./preference";
import { tPpf } from "./quantiles";
import type { Interval } from "./types";

/**
 * Straight-lining: the share (0-1) of a grader's sets in which every ordinal score (all
 * dimensions, all answers) is the same value. `sets` holds each set's ordinal scores; a set with
 * fewer than two scores cannot show it and is not counted (n is the sets counted).
 */
export function straightLining(sets: ReadonlyArray<ReadonlyArray<number>>): { share: number | null; n: number } {
  let n = 0;
  let same = 0;
  for (const scores of sets) {
    if (scores.length < 2) continue;
    n++;
    if (scores.every((v) => v === scores[0])) same++;
  }
  return { share: n ? same / n : null, n };
}

/**
 * Share of the scale used: per ordinal dimension, the distinct declared levels the grader used
 * over the levels declared; the mean over the dimensions the grader scored at all. n: the scores read.
 */
export function scaleUse(dimensions: ReadonlyArray<{ levels: ReadonlyArray<number>; scores: ReadonlyArray<number> }>): { share: number | null; n: number } {
  let sum = 0;
  let dims = 0;
  let n = 0;
  for (const d of dimensions) {
    if (d.scores.length === 0 || d.levels.length === 0) continue;
    const declared = new Set(d.levels);
    const used = new Set(d.scores.filter((s) => declared.has(s)));
    sum += used.size / declared.size;
    dims++;
    n += d.scores.length;
  }
  return { share: dims ? sum / dims : null, n };
}

export interface ClusteredMean {
  /** Mean over every observation (not over clusters). */
  estimate: number | null;
  /** Cluster-robust standard error (see clusteredMean). */
  se: number | null;
  ci: Interval | null;
  /** Observations. */
  n: number;
  /** Clusters (sets). */
  clusters: number;
}

/**
 * The mean of observations grouped in clusters (a set's cells), with a confidence interval that
 * treats the clusters, not the observations, as independent: the cluster-robust (sandwich)
 * standard error of an intercept-only regression, as statsmodels' OLS with cov_type="cluster"
 * (small-sample factor G/(G-1)) and a t quantile with G-1 degrees of freedom.
 *   est = sum S_g / sum m_g,  se^2 = G/(G-1) * sum_g (S_g - est m_g)^2 / (sum m_g)^2
 * With equal cluster sizes this is the t-interval over the per-cluster means.
 * Needs two clusters for an interval.
 */
export function clusteredMean(clusters: ReadonlyArray<{ sum: number; count: number }>, level = 0.95): ClusteredMean {
  let total = 0;
  let n = 0;
  let g = 0;
  for (const c of clusters) {
    if (c.count <= 0) continue;
    total += c.sum;
    n += c.count;
    g++;
  }
  if (n === 0) return { estimate: null, se: null, ci: null, n: 0, clusters: 0 };
  const estimate = total / n;
  if (g < 2) return { estimate, se: null, ci: null, n, clusters: g };
  let ss = 0;
  for (const c of clusters) if (c.count > 0) ss += (c.sum - estimate * c.count) ** 2;
  const se = Math.sqrt((g / (g - 1)) * ss) / n;
  const t = tPpf(1 - (1 - level) / 2, g - 1);
  return { estimate, se, ci: [estimate - t * se, estimate + t * se], n, clusters: g };
}

/** One cell (set, dimension, answer) the grader and at least one other grader scored. */
export interface PeerCell {
  set: string;
  dimension: string;
  grader: number;
  /** The other primary graders' scores of the cell (at least one). */
  others: ReadonlyArray<number>;
}

export interface LeaveOneOutBias {
  overall: ClusteredMean;
  byDimension: Record<string, ClusteredMean>;
}

/**
 * Leave-one-out bias: over every cell the grader and at least one other grader scored, the mean
 * of the grader's score minus the mean of the others' scores in that cell, in scale points; the
 * 95% interval is clusteredMean's over sets. "overall" pools every ordinal dimension on its own
 * scale (a point is a point of the dimension's scale).
 */
export function leaveOneOutBias(cells: ReadonlyArray<PeerCell>, level = 0.95): LeaveOneOutBias {
  const overall = new Map<string, { sum: number; count: number }>();
  const byDim = new Map<string, Map<string, { sum: number; count: number }>>();
  const add = (m: Map<string, { sum: number; count: number }>, set: string, d: number) => {
    const c = m.get(set);
    if (c) {
      c.sum += d;
      c.count++;
    } else m.set(set, { sum: d, count: 1 });
  };
  for (const c of cells) {
    if (c.others.length === 0) continue;
    let s = 0;
    for (const o of c.others) s += o;
    const d = c.grader - s / c.others.length;
    add(overall, c.set, d);
    let m = byDim.get(c.dimension);
    if (!m) byDim.set(c.dimension, (m = new Map()));
    add(m, c.set, d);
  }
  const byDimension: Record<string, ClusteredMean> = {};
  for (const [dim, m] of [...byDim].sort(([a], [b]) => a.localeCompare(b))) byDimension[dim] = clusteredMean([...m.values()], level);
  return { overall: clusteredMean([...overall.values()], level), byDimension };
}

/**
 * Agreement with peers: Gwet's AC2 (quadratic weights, the dimension's declared levels) on the
 * two-column matrix of every (cell, peer) pair: one row per other grader of each cell the grader
 * scored, holding the grader's score and that peer's. Per dimension; "overall" is the mean of the
 * dimensions' coefficients weighted by their pairs (dimensions may have different scales, so
 * their pairs are not pooled into one matrix). No interval: the pairs of a cell share the
 * grader's score, so they are not independent units.
 */
export function peerAgreement(
  dimensions: ReadonlyArray<{ key: string; levels: ReadonlyArray<number>; cells: ReadonlyArray<{ grader: number; others: ReadonlyArray<number> }> }>,
): { overall: number | null; n: number; byDimension: Record<string, { ac2: number | null; n: number }> } {
  const byDimension: Record<string, { ac2: number | null; n: number }> = {};
  let weighted = 0;
  let pairs = 0;
  for (const d of dimensions) {
    const rows: [number, number][] = [];
    for (const c of d.cells) for (const o of c.others) rows.push([c.grader, o]);
    if (rows.length === 0) continue;
    const r = gwetAC2(rows, { categories: [...d.levels].sort((a, b) => a - b), weights: "quadratic" });
    byDimension[d.key] = { ac2: r.coefficient, n: rows.length };
    if (r.coefficient !== null) {
      weighted += r.coefficient * rows.length;
      pairs += rows.length;
    }
  }
  return { overall: pairs ? weighted / pairs : null, n: pairs, byDimension };
}

/** The median of a list (null when empty). */
export function median(values: ReadonlyArray<number>): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Consecutive blocks of `size` items (the last may be shorter), for the trend over time. */
export function blocksOf<T>(items: ReadonlyArray<T>, size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** One gold (or calibration) cell: the grader's score against the expected one, in its set. */
export interface GoldCell {
  set: string;
  score: number;
  expected: number;
  tolerance: number;
}

export interface GoldAccuracy {
  /** Share (0-1) of the cells within tolerance, with its Wilson interval. */
  accuracy: number | null;
  accuracyCi: Interval | null;
  /** Mean signed error (score - expected) in scale points, with a cluster-robust interval over sets (clusteredMean). */
  bias: number | null;
  biasCi: Interval | null;
  n: number;
  sets: number;
}

/** Accuracy within tolerance (|score - expected| <= tolerance) and mean signed error over gold cells. */
export function goldAccuracy(cells: ReadonlyArray<GoldCell>, level = 0.95): GoldAccuracy {
  const within = cells.filter((c) => Math.abs(c.score - c.expected) <= c.tolerance).length;
  const w = wilsonInterval(within, cells.length, level);
  const bySet = new Map<string, { sum: number; count: number }>();
  for (const c of cells) {
    const s = bySet.get(c.set) ?? { sum: 0, count: 0 };
    s.sum += c.score - c.expected;
    s.count++;
    bySet.set(c.set, s);
  }
  const m = clusteredMean([...bySet.values()], level);
  return { accuracy: w.estimate, accuracyCi: w.interval, bias: m.estimate, biasCi: m.ci, n: cells.length, sets: bySet.size };
}

export interface IntraRater {
  /** Quadratic-weighted kappa on the declared levels (Cohen's, scale distances), with its normal interval. */
  kappa: number | null;
  kappaCi: Interval | null;
  /** ICC(3,1) (consistency, single rating) with its F interval; raters = the first and the second grading. */
  icc: number | null;
  iccCi: Interval | null;
  /** Cells graded twice. */
  n: number;
}

/** Agreement of a grader with themself: the first and the washout grading of the same cells. */
export function intraRater(pairs: ReadonlyArray<{ first: number; second: number }>, levels: ReadonlyArray<number>, level = 0.95): IntraRater {
  const rows = pairs.map((p) => [p.first, p.second]);
  const k = cohenKappa(rows, { weights: "quadratic", categories: levels, convention: "scale", level });
  const i = icc(rows, { type: "ICC3", level });
  return { kappa: k.kappa, kappaCi: k.ci ?? null, icc: i.icc, iccCi: i.ci, n: pairs.length };
}
