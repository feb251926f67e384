/**
 * The question (cluster) bootstrap of Bradley-Terry / Davidson strengths (lib/stats/bradley-terry.ts).
 *
 * A dashboard runs it four times (three axes and overall) with 1,000 replicates of 2,000
 * questions, so the replicate loop is written for speed, with the same draws and the same fits
 * as the plain formulation (tested against it):
 * - each question's counts are a few entries of a pairs-indexed table (i < j: wins of i, wins of
 *   j, ties), in typed arrays built once;
 * - a replicate draws its questions with the same generator calls as before, counts how often
 *   each was drawn, and adds count x entries into a pairs-sized table (45 pairs for 10 models);
 *   integer sums, so the replicate's counts are exactly those of adding each draw in turn;
 * - each fit is Newton from the full data's estimate on preallocated buffers, the step solved by
 *   a Cholesky factorisation of the (positive definite) information, no standard errors. Where
 *   that factorisation fails the replicate falls back to the general fit (Gauss-Jordan).
 */
import { mulberry32, percentileInterval } from "./bootstrap";
import { bradleyTerryFromCounts, emptyCounts, replicateStrengths, type BradleyTerryOptions, type Preference } from "./bradley-terry";
import type { Degenerate, Interval } from "./types";

export interface BradleyTerryBootstrapOptions extends BradleyTerryOptions {
  replicates?: number;
  seed?: number;
  level?: number;
}

export interface BradleyTerryBootstrapResult extends Degenerate {
  /** Percentile interval of each model's centred log-strength. */
  intervals: (Interval | null)[];
  /** Share of replicates in which each model had the largest strength (ties split). */
  probabilityBest: number[];
  replicates: number;
  /** Replicates whose resample had no finite fit (left out of the intervals). */
  failed: number;
}

/** Pair p <-> models (first[p] < second[p]), in the order i = 0..k-1, j = i+1..k-1. */
interface Pairs {
  k: number;
  count: number;
  first: Int32Array;
  second: Int32Array;
  /** index[i * k + j] = the pair of {i, j} (either order); -1 on the diagonal. */
  index: Int32Array;
}

function pairsOf(k: number): Pairs {
  const count = (k * (k - 1)) / 2;
  const first = new Int32Array(count);
  const second = new Int32Array(count);
  const index = new Int32Array(k * k).fill(-1);
  let p = 0;
  for (let i = 0; i < k; i++) {
    for (let j = i + 1; j < k; j++) {
      first[p] = i;
      second[p] = j;
      index[i * k + j] = p;
      index[j * k + i] = p;
      p++;
    }
  }
  return { k, count, first, second, index };
}

/**
 * The preferences as a table of entries grouped by pair: entries start[p]..start[p+1] are pair
 * p's non-zero counts in each question (questions numbered in sorted order), so a
 * replicate's sums for a pair run in registers.
 */
interface Entries {
  /** Questions (clusters) to resample. */
  clusters: number;
  start: Int32Array;
  cluster: Int32Array;
  winsFirst: Float64Array;
  winsSecond: Float64Array;
  ties: Float64Array;
}

/**
 * The preferences as typed arrays (what a worker thread is sent): models i and j, the outcome
 * (0: i preferred, 1: j, 2: tie) and the question, numbered in sorted order of the question ids,
 * so the draws depend on the questions, not on the order the rows came in.
 */
export interface BootstrapInput {
  nModels: number;
  i: Int32Array;
  j: Int32Array;
  outcome: Uint8Array;
  cluster: Int32Array;
  clusters: number;
}

export function bootstrapInput(nModels: number, preferences: ReadonlyArray<Preference & { cluster: string }>): BootstrapInput {
  const ids = new Map<string, number>();
  for (const p of preferences) ids.set(p.cluster, 0);
  const sorted = [...ids.keys()].sort();
  for (let c = 0; c < sorted.length; c++) ids.set(sorted[c], c);
  const n = preferences.length;
  const input: BootstrapInput = { nModels, i: new Int32Array(n), j: new Int32Array(n), outcome: new Uint8Array(n), cluster: new Int32Array(n), clusters: sorted.length };
  for (let r = 0; r < n; r++) {
    const p = preferences[r];
    input.i[r] = p.i;
    input.j[r] = p.j;
    input.outcome[r] = p.outcome === "i" ? 0 : p.outcome === "j" ? 1 : 2;
    input.cluster[r] = ids.get(p.cluster)!;
  }
  return input;
}

/** The buffers to transfer with postMessage. */
export const bootstrapBuffers = (input: BootstrapInput): ArrayBuffer[] => [input.i.buffer, input.j.buffer, input.outcome.buffer, input.cluster.buffer] as ArrayBuffer[];

function entriesOf(pairs: Pairs, input: BootstrapInput): Entries {
  const { k, index } = pairs;
  const { clusters: count, cluster: of } = input;
  // Counting sort of the preferences by question, then one pass per question over a scratch row.
  const first = new Int32Array(count + 1);
  for (let n = 0; n < of.length; n++) first[of[n] + 1] += 1;
  for (let c = 0; c < count; c++) first[c + 1] += first[c];
  const order = new Int32Array(of.length);
  const next = first.slice(0, count);
  for (let n = 0; n < of.length; n++) order[next[of[n]]++] = n;
  const scratch = new Float64Array(3 * pairs.count);
  const touched: number[] = [];
  const cell: number[] = []; // pair, question, wins of first, wins of second, ties
  for (let c = 0; c < count; c++) {
    for (let s = first[c]; s < first[c + 1]; s++) {
      const r = order[s];
      const pi = input.i[r];
      const pj = input.j[r];
      // The same preferences countPreferences counts; a question with none still counts as drawn.
      if (!(pi >= 0 && pi < k && pj >= 0 && pj < k) || pi === pj) continue;
      const q = index[pi * k + pj];
      if (scratch[3 * q] + scratch[3 * q + 1] + scratch[3 * q + 2] === 0) touched.push(q);
      const outcome = input.outcome[r];
      if (outcome === 2) scratch[3 * q + 2] += 1;
      else if ((outcome === 0) === pi < pj) scratch[3 * q] += 1;
      else scratch[3 * q + 1] += 1;
    }
    for (const q of touched) {
      cell.push(q, c, scratch[3 * q], scratch[3 * q + 1], scratch[3 * q + 2]);
      scratch[3 * q] = scratch[3 * q + 1] = scratch[3 * q + 2] = 0;
    }
    touched.length = 0;
  }
  const total = cell.length / 5;
  const start = new Int32Array(pairs.count + 1);
  for (let n = 0; n < total; n++) start[cell[5 * n] + 1] += 1;
  for (let q = 0; q < pairs.count; q++) start[q + 1] += start[q];
  const fill = start.slice(0, pairs.count);
  const out: Entries = { clusters: count, start, cluster: new Int32Array(total), winsFirst: new Float64Array(total), winsSecond: new Float64Array(total), ties: new Float64Array(total) };
  for (let n = 0; n < total; n++) {
    const at = fill[cell[5 * n]]++;
    out.cluster[at] = cell[5 * n + 1];
    out.winsFirst[at] = cell[5 * n + 2];
    out.winsSecond[at] = cell[5 * n + 3];
    out.ties[at] = cell[5 * n + 4];
  }
  return out;
}

/**
 * Fits one replicate's pairs table: Newton from `start` on preallocated buffers. Writes the
 * centred log-strengths into `out` and returns true, or false where bradleyTerryFromCounts would
 * be degenerate or the fit fails (as replicateStrengths).
 */
function replicateFitter(pairs: Pairs, davidson: boolean, start: ReadonlyArray<number> | null, options: BradleyTerryOptions) {
  const { k, first, second } = pairs;
  const P = pairs.count;
  const dim = k - 1 + (davidson ? 1 : 0);
  const tolerance = options.tolerance ?? 1e-10;
  const maxIterations = options.maxIterations ?? 200;
  let x = new Float64Array(dim);
  let g = new Float64Array(dim);
  let h = new Float64Array(dim * dim);
  let xTrial = new Float64Array(dim);
  let gTrial = new Float64Array(dim);
  let hTrial = new Float64Array(dim * dim);
  const step = new Float64Array(dim);
  const chol = new Float64Array(dim * dim);
  const reachForward = new Uint8Array(k);
  const reachBackward = new Uint8Array(k);

  /** Log-likelihood at `at`, its gradient into `grad` and Hessian into `hess` (bradley-terry.ts's evaluate, per pair). */
  function evaluate(wi: Float64Array, wj: Float64Array, wt: Float64Array, at: Float64Array, grad: Float64Array, hess: Float64Array): number {
    grad.fill(0);
    hess.fill(0);
    let ll = 0;
    const lambda = davidson ? at[k - 1] : -Infinity;
    const li = k - 1;
    for (let p = 0; p < P; p++) {
      const wij = wi[p];
      const wji = wj[p];
      const t = davidson ? wt[p] : 0;
      const total = wij + wji + t;
      if (total === 0) continue;
      const ia = first[p] - 1;
      const ib = second[p] - 1;
      const a = ia < 0 ? 0 : at[ia];
      const b = at[ib];
      const c = davidson ? lambda + (a + b) / 2 : -Infinity;
      const top = Math.max(a, b, c);
      const ea = Math.exp(a - top);
      const eb = Math.exp(b - top);
      const ec = davidson ? Math.exp(c - top) : 0;
      const sum = ea + eb + ec;
      const logD = top + Math.log(sum);
      const pa = ea / sum;
      const pb = eb / sum;
      const pt = ec / sum;
      ll += wij * (a - logD) + wji * (b - logD) + (t > 0 ? t * (c - logD) : 0);
      const ga = pa + pt / 2;
      const gb = pb + pt / 2;
      const gl = pt;
      const haa = pa + pt / 4 - ga * ga;
      const hbb = pb + pt / 4 - gb * gb;
      const hab = pt / 4 - ga * gb;
      const hal = pt / 2 - ga * gl;
      const hbl = pt / 2 - gb * gl;
      const hll = pt - gl * gl;
      if (ia >= 0) {
        grad[ia] += wij + t / 2 - total * ga;
        hess[ia * dim + ia] -= total * haa;
      }
      grad[ib] += wji + t / 2 - total * gb;
      hess[ib * dim + ib] -= total * hbb;
      if (ia >= 0) {
        hess[ia * dim + ib] -= total * hab;
        hess[ib * dim + ia] -= total * hab;
      }
      if (davidson) {
        grad[li] += t - total * gl;
        hess[li * dim + li] -= total * hll;
        if (ia >= 0) {
          hess[ia * dim + li] -= total * hal;
          hess[li * dim + ia] -= total * hal;
        }
        hess[ib * dim + li] -= total * hbl;
        hess[li * dim + ib] -= total * hbl;
      }
    }
    return ll;
  }

  /** Solves (-hess) s = grad by Cholesky into `step`; false where -hess is not positive definite to working precision. */
  function solve(hess: Float64Array, grad: Float64Array): boolean {
    let scale = 0;
    for (let n = 0; n < dim * dim; n++) scale = Math.max(scale, Math.abs(hess[n]));
    const tiny = (scale || 1) * 1e-13;
    for (let j = 0; j < dim; j++) {
      let d = -hess[j * dim + j];
      for (let m = 0; m < j; m++) d -= chol[j * dim + m] * chol[j * dim + m];
      if (!(d > tiny)) return false;
      const l = Math.sqrt(d);
      chol[j * dim + j] = l;
      for (let i = j + 1; i < dim; i++) {
        let v = -hess[i * dim + j];
        for (let m = 0; m < j; m++) v -= chol[i * dim + m] * chol[j * dim + m];
        chol[i * dim + j] = v / l;
      }
    }
    for (let i = 0; i < dim; i++) {
      let v = grad[i];
      for (let m = 0; m < i; m++) v -= chol[i * dim + m] * step[m];
      step[i] = v / chol[i * dim + i];
    }
    for (let i = dim - 1; i >= 0; i--) {
      let v = step[i];
      for (let m = i + 1; m < dim; m++) v -= chol[m * dim + i] * step[m];
      step[i] = v / chol[i * dim + i];
    }
    return true;
  }

  /** Every model reaches, and is reached from, model 0 through "beat (or tied)" edges (connectivityProblem). */
  function connected(wi: Float64Array, wj: Float64Array, wt: Float64Array): boolean {
    reachForward.fill(0);
    reachBackward.fill(0);
    for (let p = 0; p < P; p++) {
      if (wi[p] + wj[p] + wt[p] > 0) {
        reachForward[first[p]] = 2;
        reachForward[second[p]] = 2;
      }
    }
    for (let m = 0; m < k; m++) if (reachForward[m] !== 2) return false;
    reachForward.fill(0);
    reachForward[0] = 1;
    reachBackward[0] = 1;
    for (let changed = true; changed; ) {
      changed = false;
      for (let p = 0; p < P; p++) {
        const i = first[p];
        const j = second[p];
        const tie = davidson && wt[p] > 0;
        const ij = wi[p] > 0 || tie;
        const ji = wj[p] > 0 || tie;
        if (ij && reachForward[i] && !reachForward[j]) { reachForward[j] = 1; changed = true; }
        if (ji && reachForward[j] && !reachForward[i]) { reachForward[i] = 1; changed = true; }
        if (ij && reachBackward[j] && !reachBackward[i]) { reachBackward[i] = 1; changed = true; }
        if (ji && reachBackward[i] && !reachBackward[j]) { reachBackward[j] = 1; changed = true; }
      }
    }
    for (let m = 0; m < k; m++) if (!reachForward[m] || !reachBackward[m]) return false;
    return true;
  }

  /** The general fit, on a models x models grid of the same counts. */
  function fallback(wi: Float64Array, wj: Float64Array, wt: Float64Array, out: Float64Array): boolean {
    const counts = emptyCounts(k);
    for (let p = 0; p < P; p++) {
      counts.wins[first[p]][second[p]] = wi[p];
      counts.wins[second[p]][first[p]] = wj[p];
      counts.ties[first[p]][second[p]] = counts.ties[second[p]][first[p]] = wt[p];
    }
    const strengths = replicateStrengths(counts, davidson, start ? [...start] : null, options);
    if (!strengths) return false;
    out.set(strengths);
    return true;
  }

  return function fit(wi: Float64Array, wj: Float64Array, wt: Float64Array, out: Float64Array): boolean {
    let n = 0;
    let ties = 0;
    for (let p = 0; p < P; p++) {
      n += wi[p] + wj[p];
      ties += wt[p];
    }
    n += ties;
    if (n === 0 || (!davidson && ties > 0) || (davidson && (ties === n || ties === 0)) || !connected(wi, wj, wt)) return false;
    // Without the full data's estimate, the general fit's own start (equal strengths).
    if (!start) return fallback(wi, wj, wt, out);
    x.set(start);
    let ll = evaluate(wi, wj, wt, x, g, h);
    for (let iteration = 1; iteration <= maxIterations; iteration++) {
      if (!solve(h, g)) return fallback(wi, wj, wt, out);
      let scale = 1;
      for (let d = 0; d < dim; d++) xTrial[d] = x[d] + step[d];
      let next = evaluate(wi, wj, wt, xTrial, gTrial, hTrial);
      // Step halving keeps the likelihood from falling far from the optimum.
      while (next < ll - 1e-12 * Math.max(1, Math.abs(ll)) && scale > 1e-8) {
        scale /= 2;
        for (let d = 0; d < dim; d++) xTrial[d] = x[d] + scale * step[d];
        next = evaluate(wi, wj, wt, xTrial, gTrial, hTrial);
      }
      let largest = 0;
      for (let d = 0; d < dim; d++) largest = Math.max(largest, Math.abs(step[d] * scale));
      [x, xTrial] = [xTrial, x];
      [g, gTrial] = [gTrial, g];
      [h, hTrial] = [hTrial, h];
      ll = next;
      if (largest < tolerance) {
        let mean = 0;
        for (let m = 1; m < k; m++) mean += x[m - 1];
        mean /= k;
        out[0] = -mean;
        for (let m = 1; m < k; m++) out[m] = x[m - 1] - mean;
        return true;
      }
    }
    return false;
  };
}

/** Each pair's counts in the resample: its entries times the number of times their question was drawn. */
function accumulate(table: Entries, drawn: Int32Array, wi: Float64Array, wj: Float64Array, wt: Float64Array): void {
  const { start, cluster, winsFirst, winsSecond, ties } = table;
  for (let p = 0; p + 1 < start.length; p++) {
    let a = 0;
    let b = 0;
    let t = 0;
    for (let e = start[p]; e < start[p + 1]; e++) {
      const times = drawn[cluster[e]];
      a += times * winsFirst[e];
      b += times * winsSecond[e];
      t += times * ties[e];
    }
    wi[p] = a;
    wj[p] = b;
    wt[p] = t;
  }
}

/**
 * Cluster bootstrap: resamples questions (each preference's `cluster`), since one question's
 * preferences are not independent of each other. Seeded, and independent of the preferences' order. The model (plain or Davidson) is fixed to the
 * full data's, so every replicate estimates the same quantities.
 */
export function bradleyTerryBootstrap(
  nModels: number,
  preferences: ReadonlyArray<Preference & { cluster: string }>,
  options: BradleyTerryBootstrapOptions = {},
): BradleyTerryBootstrapResult {
  return bootstrapFromInput(bootstrapInput(nModels, preferences), options);
}

/** bradleyTerryBootstrap on preferences already as typed arrays (a worker thread's job). */
export function bootstrapFromInput(input: BootstrapInput, options: BradleyTerryBootstrapOptions = {}): BradleyTerryBootstrapResult {
  const { nModels } = input;
  const replicates = options.replicates ?? 1000;
  const level = options.level ?? 0.95;
  const anyTie = input.outcome.includes(2);
  const ties = options.ties === "auto" || options.ties === undefined ? (anyTie ? "davidson" : "plain") : options.ties;
  const empty: BradleyTerryBootstrapResult = { intervals: new Array(nModels).fill(null), probabilityBest: new Array(nModels).fill(0), replicates: 0, failed: 0 };
  if (input.clusters < 2) return { ...empty, reason: "fewer than two questions to resample" };
  if (replicates <= 0) return { ...empty, replicates, failed: replicates, reason: "too few resamples had finite strengths" };
  const pairs = pairsOf(nModels);
  const table = entriesOf(pairs, input);
  // Every replicate starts from the full data's estimate (uncentred, reference model at 0).
  const counts = emptyCounts(nModels);
  for (let r = 0; r < input.i.length; r++) {
    const pi = input.i[r];
    const pj = input.j[r];
    // As countPreferences counts.
    if (!(pi >= 0 && pi < nModels && pj >= 0 && pj < nModels) || pi === pj) continue;
    if (input.outcome[r] === 0) counts.wins[pi][pj] += 1;
    else if (input.outcome[r] === 1) counts.wins[pj][pi] += 1;
    else {
      counts.ties[pi][pj] += 1;
      counts.ties[pj][pi] += 1;
    }
  }
  const full = bradleyTerryFromCounts(counts, { ...options, ties });
  const start = full.logStrength ? [...full.logStrength.slice(1).map((v) => v - full.logStrength![0]), ...(full.nu !== null ? [Math.log(full.nu)] : [])] : null;
  const fit = replicateFitter(pairs, ties === "davidson", start, options);
  const rng = mulberry32(options.seed ?? 20261205);
  const C = table.clusters;
  const drawn = new Int32Array(C);
  const wi = new Float64Array(pairs.count);
  const wj = new Float64Array(pairs.count);
  const wt = new Float64Array(pairs.count);
  const strengths = new Float64Array(nModels);
  const draws = Array.from({ length: nModels }, () => new Float64Array(replicates));
  const best = new Array<number>(nModels).fill(0);
  let ok = 0;
  for (let r = 0; r < replicates; r++) {
    drawn.fill(0);
    for (let c = 0; c < C; c++) drawn[Math.floor(rng() * C)] += 1;
    wi.fill(0);
    wj.fill(0);
    wt.fill(0);
    accumulate(table, drawn, wi, wj, wt);
    if (!fit(wi, wj, wt, strengths)) continue;
    let top = -Infinity;
    for (let m = 0; m < nModels; m++) top = Math.max(top, strengths[m]);
    let leaders = 0;
    for (let m = 0; m < nModels; m++) if (strengths[m] === top) leaders += 1;
    for (let m = 0; m < nModels; m++) {
      if (strengths[m] === top) best[m] += 1 / leaders;
      draws[m][ok] = strengths[m];
    }
    ok += 1;
  }
  const failed = replicates - ok;
  if (ok < 2) return { ...empty, replicates, failed, reason: "too few resamples had finite strengths" };
  return {
    intervals: draws.map((d) => percentileInterval(Array.from(d.subarray(0, ok)), level)),
    probabilityBest: best.map((b) => b / ok),
    replicates,
    failed,
  };
}
