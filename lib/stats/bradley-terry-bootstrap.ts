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
import { bradleyTerryFromCounts, emptyCounts, type BradleyTerryOptions, type Preference } from "./bradley-terry";
import { pairsOf, replicateFitter, type Pairs } from "./bradley-terry-replicate";
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
