/**
 * Bradley-Terry strengths from pairwise preferences, and Davidson's (1970) extension for ties.
 *
 *   plain:    P(i beats j) = pi_i / (pi_i + pi_j)
 *   Davidson: P(i beats j) = pi_i / D,  P(tie) = nu sqrt(pi_i pi_j) / D,
 *             D = pi_i + pi_j + nu sqrt(pi_i pi_j)
 *
 * Fitted by Newton-Raphson on the log-strengths (and log nu) with the first model's log-strength
 * fixed at 0, to a step below 1e-10; reported centred so the log-strengths' mean is 0 (the
 * convention of leaderboards and of BradleyTerry2's `BTabilities` after re-centring). Standard
 * errors come from the observed information, carried through the centring (Cov = M C M', M the
 * centring matrix), so they do not depend on which model was the reference.
 * Every preference is its own observation (each grader counts), as the issue asks.
 * The MLE exists only when the "beat or tied" graph is strongly connected (Ford 1957; for the
 * plain model, ties are not allowed); otherwise the result is degenerate with the reason.
 */
import type { Degenerate } from "./types";
import { invert } from "./linear";

export type PreferenceOutcome = "i" | "j" | "tie";

/** One preference between models `i` and `j` (indices into the model list). */
export interface Preference {
  i: number;
  j: number;
  outcome: PreferenceOutcome;
}

export interface BradleyTerryOptions {
  /** "auto" (default): Davidson when any tie was given, the plain model otherwise. */
  ties?: "auto" | "davidson" | "plain";
  /** Convergence: largest Newton step in log-strength (default 1e-10). */
  tolerance?: number;
  maxIterations?: number;
}

export interface BradleyTerryResult extends Degenerate {
  model: "plain" | "davidson";
  /** Centred log-strengths (mean 0), one per model; null when degenerate. */
  logStrength: number[] | null;
  /** Standard errors of the centred log-strengths (observed information). */
  se: number[] | null;
  /** Davidson's tie parameter (null for the plain model). */
  nu: number | null;
  nuSE: number | null;
  logLikelihood: number | null;
  iterations: number;
  /** Observations used (ties included). */
  n: number;
  ties: number;
  /** Predicted P(row model preferred over column model); the diagonal is null. */
  winProbability: (number | null)[][] | null;
  /** Predicted P(tie) under Davidson's model (null for the plain model). */
  tieProbability: (number | null)[][] | null;
}

/** Pairwise counts: wins[i][j] = times i was preferred over j; ties symmetric. */
export interface PreferenceCounts {
  wins: number[][];
  ties: number[][];
}

export function emptyCounts(nModels: number): PreferenceCounts {
  const grid = () => Array.from({ length: nModels }, () => new Array<number>(nModels).fill(0));
  return { wins: grid(), ties: grid() };
}

export function countPreferences(nModels: number, preferences: ReadonlyArray<Preference>, into = emptyCounts(nModels)): PreferenceCounts {
  for (const p of preferences) {
    if (!(p.i >= 0 && p.i < nModels && p.j >= 0 && p.j < nModels) || p.i === p.j) continue;
    if (p.outcome === "i") into.wins[p.i][p.j] += 1;
    else if (p.outcome === "j") into.wins[p.j][p.i] += 1;
    else {
      into.ties[p.i][p.j] += 1;
      into.ties[p.j][p.i] += 1;
    }
  }
  return into;
}

function degenerate(model: "plain" | "davidson", n: number, ties: number, reason: string): BradleyTerryResult {
  return { model, logStrength: null, se: null, nu: null, nuSE: null, logLikelihood: null, iterations: 0, n, ties, winProbability: null, tieProbability: null, reason };
}

/** Models that cannot reach every other one through "beat (or tied, for Davidson)" edges. */
function connectivityProblem(counts: PreferenceCounts, useTies: boolean): string | undefined {
  const k = counts.wins.length;
  const edge = (a: number, b: number) => counts.wins[a][b] > 0 || (useTies && counts.ties[a][b] > 0);
  const reach = (from: number, forward: boolean) => {
    const seen = new Array<boolean>(k).fill(false);
    const stack = [from];
    seen[from] = true;
    while (stack.length > 0) {
      const a = stack.pop()!;
      for (let b = 0; b < k; b++) if (!seen[b] && (forward ? edge(a, b) : edge(b, a))) { seen[b] = true; stack.push(b); }
    }
    return seen;
  };
  for (let a = 0; a < k; a++) {
    let compared = false;
    for (let b = 0; b < k; b++) if (counts.wins[a][b] + counts.wins[b][a] + counts.ties[a][b] > 0) compared = true;
    if (!compared) return `model ${a + 1} has no comparison`;
  }
  if (!reach(0, true).every(Boolean) || !reach(0, false).every(Boolean)) {
    return "a model won (or lost) every comparison it was in, or the models fall into groups never compared: the strengths are not finite";
  }
  return undefined;
}

interface Fit {
  x: number[];
  ll: number;
  hessian: number[][];
  gradient: number[];
}

/**
 * Log-likelihood, gradient and Hessian at x = (theta_1..theta_{k-1}, [log nu]); theta_0 = 0.
 * Each pair's log D is a log-sum-exp of linear functions of (theta_i, theta_j, log nu), so its
 * Hessian is sum p c c' - g g'.
 */
function evaluate(counts: PreferenceCounts, x: ReadonlyArray<number>, davidson: boolean): Fit {
  const k = counts.wins.length;
  const dim = k - 1 + (davidson ? 1 : 0);
  const theta = (m: number) => (m === 0 ? 0 : x[m - 1]);
  const lambda = davidson ? x[k - 1] : -Infinity;
  const gradient = new Array<number>(dim).fill(0);
  const hessian = Array.from({ length: dim }, () => new Array<number>(dim).fill(0));
  let ll = 0;
  // index in x of theta_m (-1 for the fixed reference) and of lambda
  const at = (m: number) => m - 1;
  const li = k - 1;
  for (let i = 0; i < k; i++) {
    for (let j = i + 1; j < k; j++) {
      const wij = counts.wins[i][j];
      const wji = counts.wins[j][i];
      const t = davidson ? counts.ties[i][j] : 0;
      const total = wij + wji + t;
      if (total === 0) continue;
      const a = theta(i);
      const b = theta(j);
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
      // d logD / d(a, b, lambda)
      const ga = pa + pt / 2;
      const gb = pb + pt / 2;
      const gl = pt;
      // Hessian of logD: sum_k p_k c_k c_k' - g g'
      const haa = pa + pt / 4 - ga * ga;
      const hbb = pb + pt / 4 - gb * gb;
      const hab = pt / 4 - ga * gb;
      const hal = pt / 2 - ga * gl;
      const hbl = pt / 2 - gb * gl;
      const hll = pt - gl * gl;
      const ia = at(i);
      const ib = at(j);
      if (ia >= 0) {
        gradient[ia] += wij + t / 2 - total * ga;
        hessian[ia][ia] -= total * haa;
      }
      if (ib >= 0) {
        gradient[ib] += wji + t / 2 - total * gb;
        hessian[ib][ib] -= total * hbb;
      }
      if (ia >= 0 && ib >= 0) {
        hessian[ia][ib] -= total * hab;
        hessian[ib][ia] -= total * hab;
      }
      if (davidson) {
        gradient[li] += t - total * gl;
        hessian[li][li] -= total * hll;
        if (ia >= 0) { hessian[ia][li] -= total * hal; hessian[li][ia] -= total * hal; }
        if (ib >= 0) { hessian[ib][li] -= total * hbl; hessian[li][ib] -= total * hbl; }
      }
    }
  }
  return { x: [...x], ll, hessian, gradient };
}

/** Equal strengths; for Davidson P(tie) = nu / (2 + nu), so nu starts at 2 t / (n - t). */
function startOf(k: number, davidson: boolean, n: number, ties: number): number[] {
  const start = new Array<number>(k - 1 + (davidson ? 1 : 0)).fill(0);
  if (davidson) start[k - 1] = Math.log((2 * ties) / (n - ties));
  return start;
}

/** Newton-Raphson with step halving from `start`, to a largest step below `tolerance`. */
function newton(counts: PreferenceCounts, davidson: boolean, start: number[], tolerance: number, maxIterations: number): { fit: Fit; iterations: number } | "singular" | "diverged" {
  let fit = evaluate(counts, start, davidson);
  let iterations = 0;
  while (iterations < maxIterations) {
    iterations += 1;
    const inverse = invert(fit.hessian.map((row) => row.map((v) => -v)));
    if (!inverse) return "singular";
    const step = inverse.map((row) => row.reduce((s, v, j) => s + v * fit.gradient[j], 0));
    let scale = 1;
    let next = evaluate(counts, fit.x.map((v, i) => v + step[i]), davidson);
    // Step halving keeps the likelihood from falling far from the optimum.
    while (next.ll < fit.ll - 1e-12 * Math.max(1, Math.abs(fit.ll)) && scale > 1e-8) {
      scale /= 2;
      next = evaluate(counts, fit.x.map((v, i) => v + scale * step[i]), davidson);
    }
    const largest = Math.max(...step.map((v) => Math.abs(v * scale)));
    fit = next;
    if (largest < tolerance) return { fit, iterations };
  }
  return "diverged";
}

/**
 * A bootstrap replicate's centred log-strengths only (no standard errors, no predicted matrix),
 * Newton started from `start` (the full data's estimate, close to every replicate's); null where
 * bradleyTerryFromCounts would be degenerate.
 */
export function replicateStrengths(counts: PreferenceCounts, davidson: boolean, start: number[] | null, options: BradleyTerryOptions): number[] | null {
  const k = counts.wins.length;
  let n = 0;
  let ties = 0;
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      n += counts.wins[i][j];
      if (j > i) ties += counts.ties[i][j];
    }
  }
  n += ties;
  if (n === 0 || (!davidson && ties > 0) || (davidson && (ties === n || ties === 0)) || connectivityProblem(counts, davidson)) return null;
  const run = newton(counts, davidson, start ? [...start] : startOf(k, davidson, n, ties), options.tolerance ?? 1e-10, options.maxIterations ?? 200);
  if (typeof run === "string") return null;
  const theta = [0, ...run.fit.x.slice(0, k - 1)];
  const mean = theta.reduce((s, v) => s + v, 0) / k;
  return theta.map((v) => v - mean);
}

/** Fits pairwise counts (see the module comment). */
export function bradleyTerryFromCounts(counts: PreferenceCounts, options: BradleyTerryOptions = {}): BradleyTerryResult {
  const k = counts.wins.length;
  let n = 0;
  let ties = 0;
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      n += counts.wins[i][j];
      if (j > i) ties += counts.ties[i][j];
    }
  }
  n += ties;
  const mode = options.ties ?? "auto";
  const davidson = mode === "davidson" || (mode === "auto" && ties > 0);
  const model = davidson ? "davidson" : "plain";
  if (k < 2) return degenerate(model, n, ties, "fewer than two models");
  if (n === 0) return degenerate(model, n, ties, "no preferences");
  if (!davidson && ties > 0) return degenerate(model, n, ties, "ties were given: the plain model has no tie; use Davidson's model");
  if (davidson && ties === n) return degenerate(model, n, ties, "every preference is a tie: the tie parameter is not finite");
  if (davidson && ties === 0) return degenerate(model, n, ties, "no tie was given: Davidson's tie parameter is not finite (use the plain model)");
  const problem = connectivityProblem(counts, davidson);
  if (problem) return degenerate(model, n, ties, problem);

  const maxIterations = options.maxIterations ?? 200;
  const run = newton(counts, davidson, startOf(k, davidson, n, ties), options.tolerance ?? 1e-10, maxIterations);
  if (run === "singular") return degenerate(model, n, ties, "the information matrix is singular");
  if (run === "diverged") return degenerate(model, n, ties, `did not converge in ${maxIterations} iterations`);
  const { fit, iterations } = run;
  const covariance = invert(fit.hessian.map((row) => row.map((v) => -v)));
  if (!covariance) return degenerate(model, n, ties, "the information matrix is singular");

  const theta = [0, ...fit.x.slice(0, k - 1)];
  const mean = theta.reduce((s, v) => s + v, 0) / k;
  const logStrength = theta.map((v) => v - mean);
  // Full covariance of theta (reference row and column zero), then centred: M C M'.
  const full = Array.from({ length: k }, (_, a) => Array.from({ length: k }, (_, b) => (a === 0 || b === 0 ? 0 : covariance[a - 1][b - 1])));
  const rowMean = full.map((row) => row.reduce((s, v) => s + v, 0) / k);
  const grand = rowMean.reduce((s, v) => s + v, 0) / k;
  const se = full.map((row, a) => Math.sqrt(Math.max(0, row[a] - 2 * rowMean[a] + grand)));
  const nu = davidson ? Math.exp(fit.x[k - 1]) : null;
  const nuSE = davidson && nu !== null ? nu * Math.sqrt(covariance[k - 1][k - 1]) : null;
  const { win, tie } = predicted(logStrength, nu);
  return { model, logStrength, se, nu, nuSE, logLikelihood: fit.ll, iterations, n, ties, winProbability: win, tieProbability: davidson ? tie : null };
}

/** Predicted win (and tie) probabilities from log-strengths and nu (null: plain model). */
export function predicted(logStrength: ReadonlyArray<number>, nu: number | null): { win: (number | null)[][]; tie: (number | null)[][] } {
  const k = logStrength.length;
  const win: (number | null)[][] = [];
  const tie: (number | null)[][] = [];
  for (let i = 0; i < k; i++) {
    win.push([]);
    tie.push([]);
    for (let j = 0; j < k; j++) {
      if (i === j) { win[i].push(null); tie[i].push(null); continue; }
      const pi = Math.exp(logStrength[i]);
      const pj = Math.exp(logStrength[j]);
      const t = nu === null ? 0 : nu * Math.sqrt(pi * pj);
      const d = pi + pj + t;
      win[i].push(pi / d);
      tie[i].push(t / d);
    }
  }
  return { win, tie };
}

export function bradleyTerry(nModels: number, preferences: ReadonlyArray<Preference>, options: BradleyTerryOptions = {}): BradleyTerryResult {
  return bradleyTerryFromCounts(countPreferences(nModels, preferences), options);
}
