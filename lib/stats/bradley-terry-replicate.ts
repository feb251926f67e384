/** The pairs table of a bootstrap replicate and its Newton fit (./bradley-terry-bootstrap.ts). */
import { emptyCounts, replicateStrengths, type BradleyTerryOptions } from "./bradley-terry";

/** Pair p <-> models (first[p] < second[p]), in the order i = 0..k-1, j = i+1..k-1. */
export interface Pairs {
  k: number;
  count: number;
  first: Int32Array;
  second: Int32Array;
  /** index[i * k + j] = the pair of {i, j} (either order); -1 on the diagonal. */
  index: Int32Array;
}

export function pairsOf(k: number): Pairs {
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
 * Fits one replicate's pairs table: Newton from `start` on preallocated buffers. Writes the
 * centred log-strengths into `out` and returns true, or false where bradleyTerryFromCounts would
 * be degenerate or the fit fails (as replicateStrengths).
 */
export function replicateFitter(pairs: Pairs, davidson: boolean, start: ReadonlyArray<number> | null, options: BradleyTerryOptions) {
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

