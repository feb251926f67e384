/**
 * Sample sizes for planning a grading study (issue #36). Each function answers the number asked
 * for, with the method and its assumptions in words, so the planner can show them verbatim.
 *
 * - ICC: Bonett (2002), Stat Med 21:1331, formula 3, with the author's +5 rho for k = 2 and
 *   rho >= 0.7; his example (k = 4, rho = 0.85, w = 0.2) gives 19.2.
 * - Cronbach's alpha: Bonett & Wright (2015), J Organ Behav 36:3 (Bonett 2002, JEBS 27:335):
 *   a first n0 = 8k/(k-1) (1-rho)^2 (z/w)^2 + 2, then rescaled by the width its interval has.
 * - Kappa (two raters, two categories): the large-sample variance of the intraclass kappa
 *   (Bloch & Kraemer 1989; Donner & Eliasziw 1992),
 *   Var = (1-k)/n [ (1-k)(1-2k) + k(2-k) / (2 p (1-p)) ], n = 4 z^2 n Var / w^2.
 *   More graders or categories: Fleiss' kappa, planner-kappa.ts.
 * - A difference between two models: power of the Wilcoxon-Mann-Whitney test by simulation
 *   (normal scores shifted to give the stated Cliff's delta or mean difference / SD), seeded,
 *   with the Monte Carlo standard error of the power reached.
 * - Two Bradley-Terry strengths: comparisons of the two models so that the Wald test of their
 *   log-strength difference reaches the power: n = (z_a/2 + z_b)^2 / (p (1-p) d^2) / (1 - ties).
 */
import normalQuantile from "@stdlib/stats-base-dists-normal-quantile";
import { mulberry32 } from "./bootstrap";

export interface PlanAnswer {
  /** The number asked for (sets, or comparisons for the pairwise target). */
  sets: number;
  method: string;
  assumptions: string[];
  /** Extra figures of the method (the width reached, the power reached and its error...). */
  details: Record<string, number>;
}

export type PlanResult = PlanAnswer | { problem: string; path: string };

export const z2sided = (level: number) => normalQuantile(1 - (1 - level) / 2, 0, 1);

function check(value: number, low: number, high: number, path: string, words: string): { problem: string; path: string } | null {
  return Number.isFinite(value) && value > low && value < high ? null : { problem: `${words} must lie strictly between ${low} and ${high}`, path };
}

export function iccSets(rho: number, graders: number, ciWidth: number, level = 0.95): PlanResult {
  const bad = check(rho, 0, 1, "expected", "the expected ICC") ?? check(ciWidth, 0, 2, "ciWidth", "the interval's width");
  if (bad) return bad;
  if (!Number.isInteger(graders) || graders < 2) return { problem: "graders per set must be a whole number of at least 2", path: "graders" };
  const z = z2sided(level);
  let n = (8 * z * z * (1 - rho) ** 2 * (1 + (graders - 1) * rho) ** 2) / (graders * (graders - 1) * ciWidth ** 2) + 1;
  const corrected = graders === 2 && rho >= 0.7;
  if (corrected) n += 5 * rho;
  return {
    sets: Math.ceil(n),
    method: "Bonett (2002), formula 3: the sets needed for a confidence interval of the ICC of the stated full width",
    assumptions: [
      `${graders} graders per set, an expected ICC of ${rho}, a ${Math.round(level * 100)}% interval of full width ${ciWidth}`,
      "a large-sample approximation that holds for one-way and two-way ICCs alike",
      ...(corrected ? ["5 x ICC sets added, as Bonett advises for two graders and an ICC of 0.7 or more"] : []),
    ],
    details: { unrounded: n },
  };
}

export function alphaSets(rho: number, items: number, ciWidth: number, level = 0.95): PlanResult {
  const bad = check(rho, 0, 1, "expected", "the expected alpha") ?? check(ciWidth, 0, 2, "ciWidth", "the interval's width");
  if (bad) return bad;
  if (!Number.isInteger(items) || items < 2) return { problem: "items (rubric dimensions) must be a whole number of at least 2", path: "items" };
  const z = z2sided(level);
  const n0 = Math.ceil(((8 * items) / (items - 1)) * (1 - rho) ** 2 * (z / ciWidth) ** 2 + 2);
  const b = Math.log(n0 / (n0 - 1));
  const half = z * Math.sqrt((2 * items) / ((items - 1) * (n0 - 2)));
  const lower = 1 - Math.exp(Math.log(1 - rho) - b + half);
  const upper = 1 - Math.exp(Math.log(1 - rho) - b - half);
  const w0 = upper - lower;
  const n = Math.ceil((n0 - 2) * (w0 / ciWidth) ** 2 + 2);
  return {
    sets: n,
    method: "Bonett & Wright (2015): the answers needed for a confidence interval of Cronbach's alpha of the stated full width",
    assumptions: [
      `${items} items, an expected alpha of ${rho}, a ${Math.round(level * 100)}% interval of full width ${ciWidth}`,
      "Bonett's log(1 - alpha) interval; the study reports Feldt's interval, which is close to it at these sizes",
    ],
    details: { firstApproximation: n0, widthAtFirst: w0 },
  };
}

export function kappaSets(kappa: number, prevalence: number, ciWidth: number, level = 0.95): PlanResult {
  const bad = check(kappa, 0, 1, "expected", "the expected kappa") ?? check(prevalence, 0, 1, "prevalence", "the prevalence") ?? check(ciWidth, 0, 2, "ciWidth", "the interval's width");
  if (bad) return bad;
  const z = z2sided(level);
  const unitVariance = (1 - kappa) * ((1 - kappa) * (1 - 2 * kappa) + (kappa * (2 - kappa)) / (2 * prevalence * (1 - prevalence)));
  const n = (4 * z * z * unitVariance) / ciWidth ** 2;
  return {
    sets: Math.ceil(n),
    method: "The large-sample variance of kappa for two graders and a yes/no item (Bloch & Kraemer 1989; Donner & Eliasziw 1992): the sets for a confidence interval of the stated full width",
    assumptions: [
      `two graders, a yes/no item with prevalence ${prevalence}, an expected kappa of ${kappa}, a ${Math.round(level * 100)}% interval of full width ${ciWidth}`,
      "both graders share the prevalence (the intraclass kappa)",
    ],
    details: { unrounded: n },
  };
}

/** Standard normal draws from a seeded uniform generator (Box-Muller). */
function normals(rng: () => number): () => number {
  let spare: number | null = null;
  return () => {
    if (spare !== null) { const s = spare; spare = null; return s; }
    let u = 0;
    while (u === 0) u = rng();
    const v = rng();
    const r = Math.sqrt(-2 * Math.log(u));
    spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  };
}

/**
 * Two-sided WMW test (normal approximation, continuous data: no ties) rejects at `alpha`?
 * U counts the pairs with x above y, by a merge of the two sorted samples (O(n log n)).
 */
function wmwRejects(x: Float64Array, y: Float64Array, zCrit: number): boolean {
  x.sort();
  y.sort();
  const n = x.length;
  const m = y.length;
  let u = 0;
  let j = 0;
  for (let i = 0; i < n; i++) {
    while (j < m && y[j] < x[i]) j++;
    u += j;
  }
  const mean = (n * m) / 2;
  const sd = Math.sqrt((n * m * (n + m + 1)) / 12);
  return Math.abs((u - mean) / sd) > zCrit;
}

/** Simulated power of the WMW test with `n` answers per model and a shift of `shift` SDs. */
export function wmwPower(n: number, shift: number, options: { replicates?: number; seed?: number; alpha?: number } = {}): { power: number; monteCarloSE: number } {
  const replicates = options.replicates ?? 2000;
  const zCrit = normalQuantile(1 - (options.alpha ?? 0.05) / 2, 0, 1);
  const draw = normals(mulberry32(options.seed ?? 36));
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  let hits = 0;
  for (let r = 0; r < replicates; r++) {
    for (let i = 0; i < n; i++) { x[i] = draw(); y[i] = draw() + shift; }
    if (wmwRejects(x, y, zCrit)) hits += 1;
  }
  const power = hits / replicates;
  return { power, monteCarloSE: Math.sqrt((power * (1 - power)) / replicates) };
}

export interface DifferenceTarget {
  /** Cliff's delta to detect, or a mean difference on the total with its SD. */
  cliffsDelta?: number;
  meanDifference?: number;
  sd?: number;
  power?: number;
  alpha?: number;
  replicates?: number;
  seed?: number;
  /** Largest answer count per model searched (bounds the work of one request). */
  maxSets?: number;
}

export function differenceSets(target: DifferenceTarget): PlanResult {
  const power = target.power ?? 0.8;
  const alpha = target.alpha ?? 0.05;
  const replicates = target.replicates ?? 2000;
  const seed = target.seed ?? 36;
  const maxSets = target.maxSets ?? 2000;
  let shift: number;
  let described: string;
  if (target.cliffsDelta !== undefined) {
    const bad = check(target.cliffsDelta, 0, 1, "cliffsDelta", "Cliff's delta");
    if (bad) return bad;
    // For normal scores shifted by d SDs, delta = 2 Phi(d / sqrt 2) - 1.
    shift = Math.SQRT2 * normalQuantile((target.cliffsDelta + 1) / 2, 0, 1);
    described = `a Cliff's delta of ${target.cliffsDelta} (normal scores ${shift.toFixed(3)} SD apart)`;
  } else if (target.meanDifference !== undefined && target.sd !== undefined) {
    if (!(target.sd > 0) || !(target.meanDifference > 0)) return { problem: "the mean difference and the SD must be positive", path: target.sd > 0 ? "meanDifference" : "sd" };
    shift = target.meanDifference / target.sd;
    described = `a difference of ${target.meanDifference} in the mean total with an SD of ${target.sd}`;
  } else {
    return { problem: "give cliffsDelta, or meanDifference with sd", path: "cliffsDelta" };
  }
  const badPower = check(power, 0, 1, "power", "the power") ?? check(alpha, 0, 1, "alpha", "alpha");
  if (badPower) return badPower;
  if (!(Number.isInteger(replicates) && replicates >= 200 && replicates <= 5000)) return { problem: "replicates must be a whole number from 200 to 5000", path: "replicates" };
  const at = (n: number) => wmwPower(n, shift, { replicates, seed, alpha });
  // Smallest n with simulated power >= target: bisection on common random numbers.
  let hi = 4;
  while (at(hi).power < power) {
    if (hi >= maxSets) return { problem: `more than ${maxSets} answers per model would be needed: the difference is too small to detect in a study of this size`, path: target.cliffsDelta !== undefined ? "cliffsDelta" : "meanDifference" };
    hi = Math.min(maxSets, hi * 2);
  }
  let lo = Math.max(2, Math.floor(hi / 2));
  if (lo === hi) lo = 2;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (at(mid).power >= power) hi = mid;
    else lo = mid;
  }
  const reached = at(hi);
  return {
    sets: hi,
    method: `Wilcoxon-Mann-Whitney test by simulation (${replicates} simulated studies per size, seed ${seed}): the answers per model for ${Math.round(power * 100)}% power at a two-sided alpha of ${alpha}`,
    assumptions: [
      `${described} between two models`,
      "answers scored independently; scores continuous (ties on a short scale lower the power a little)",
      "one comparison; with several models, adjust alpha for multiplicity",
    ],
    details: { powerReached: reached.power, monteCarloSE: reached.monteCarloSE, shiftInSD: shift },
  };
}

export function pairwiseComparisons(winProbability: number, options: { power?: number; alpha?: number; tieShare?: number } = {}): PlanResult {
  const bad = check(winProbability, 0.5, 1, "winProbability", "the stronger model's win probability");
  if (bad) return bad;
  const power = options.power ?? 0.8;
  const alpha = options.alpha ?? 0.05;
  const ties = options.tieShare ?? 0;
  if (!(ties >= 0 && ties < 1)) return { problem: "the share of ties must lie in [0, 1)", path: "tieShare" };
  const badPower = check(power, 0, 1, "power", "the power") ?? check(alpha, 0, 1, "alpha", "alpha");
  if (badPower) return badPower;
  const d = Math.log(winProbability / (1 - winProbability));
  const z = normalQuantile(1 - alpha / 2, 0, 1) + normalQuantile(power, 0, 1);
  const decisive = (z * z) / (winProbability * (1 - winProbability) * d * d);
  const n = decisive / (1 - ties);
  return {
    sets: Math.ceil(n),
    method: "Wald test of the difference of two Bradley-Terry log-strengths from their direct comparisons",
    assumptions: [
      `the stronger model preferred in ${Math.round(winProbability * 100)}% of decisive comparisons (a log-strength difference of ${d.toFixed(3)})`,
      `${Math.round(ties * 100)}% ties, which carry no information on the difference here`,
      `${Math.round(power * 100)}% power at a two-sided alpha of ${alpha}; comparisons with other models add information not counted here`,
    ],
    details: { decisiveComparisons: decisive, logStrengthDifference: d },
  };
}
