/**
 * Sets for a confidence interval of Fleiss' kappa of a given width: any number of graders per set
 * and of categories (issue #36). Two graders on a yes/no item have Bloch & Kraemer's closed form
 * (planner.ts kappaSets); this is its generalisation and reduces to it exactly there.
 *
 * Model: the common correlation model of Fleiss (1971) and Fleiss, Nee & Landis (1979): for each
 * set, with probability kappa all m graders choose the same category (j with probability p_j),
 * otherwise each chooses independently by p. Two graders then agree with probability
 * kappa + (1 - kappa) sum p_j^2, so Fleiss' kappa estimates kappa.
 *
 * Variance: the delta method on Fleiss' estimator kappa = (P - Pe) / (1 - Pe), P the mean over sets
 * of a_i = sum_j n_ij (n_ij - 1) / (m (m - 1)) and Pe = sum_j pbar_j^2, pbar_j the mean of
 * x_ij = n_ij / m. The per-set moments of (a, x) are exact: factorial moments of the multinomial
 * (E n_j^(r) n_k^(s) = m^(r+s) p_j^r p_k^s for j != k) mixed with the all-agree part.
 * Then n = 4 z^2 n Var / w^2, as for the other interval targets.
 */
import { z2sided, type PlanResult } from "./planner";

/** n x the large-sample variance of Fleiss' kappa under the common correlation model. */
export function fleissKappaUnitVariance(kappa: number, p: readonly number[], graders: number): number {
  const m = graders;
  const c = p.length;
  const s2 = p.reduce((s, x) => s + x * x, 0);
  const s3 = p.reduce((s, x) => s + x * x * x, 0);
  const m2 = m * (m - 1);
  const m3 = m2 * (m - 2);
  const m4 = m3 * (m - 3);
  const ind = 1 - kappa;
  // E[a], E[a^2], E[a x_k], E[x_j x_k]: independent part weighted 1 - kappa, all-agree part kappa.
  const ea = ind * s2 + kappa;
  const eaa = (ind * (m4 * s2 * s2 + 4 * m3 * s3 + 2 * m2 * s2)) / (m2 * m2) + kappa;
  const eax = p.map((pk) => (ind * (m3 * pk * s2 + 2 * m2 * pk * pk)) / (m2 * m) + kappa * pk);
  const exx = (j: number, k: number) => (ind * (m2 * p[j] * p[k] + (j === k ? m * p[j] : 0))) / (m * m) + (j === k ? kappa * p[j] : 0);
  const g0 = 1 / (1 - s2);
  const g = p.map((pk) => (2 * pk * (ea - 1)) / (1 - s2) ** 2);
  let v = g0 * g0 * (eaa - ea * ea);
  for (let k = 0; k < c; k++) v += 2 * g0 * g[k] * (eax[k] - ea * p[k]);
  for (let j = 0; j < c; j++) for (let k = 0; k < c; k++) v += g[j] * g[k] * (exx(j, k) - p[j] * p[k]);
  return v;
}

export function fleissKappaSets(kappa: number, proportions: readonly number[], graders: number, ciWidth: number, level = 0.95): PlanResult {
  if (!(Number.isFinite(kappa) && kappa > 0 && kappa < 1)) return { problem: "the expected kappa must lie strictly between 0 and 1", path: "expected" };
  if (!(Number.isFinite(ciWidth) && ciWidth > 0 && ciWidth < 2)) return { problem: "the interval's width must lie strictly between 0 and 2", path: "ciWidth" };
  if (!Number.isInteger(graders) || graders < 2) return { problem: "graders per set must be a whole number of at least 2", path: "graders" };
  if (proportions.length < 2 || proportions.some((x) => !(Number.isFinite(x) && x > 0 && x < 1))) {
    return { problem: "give two or more category proportions, each strictly between 0 and 1", path: "proportions" };
  }
  const sum = proportions.reduce((s, x) => s + x, 0);
  if (Math.abs(sum - 1) > 1e-6) return { problem: `the category proportions must add up to 1 (they add up to ${Number(sum.toFixed(6))})`, path: "proportions" };
  const z = z2sided(level);
  const unitVariance = fleissKappaUnitVariance(kappa, proportions, graders);
  const n = (4 * z * z * unitVariance) / ciWidth ** 2;
  const shares = proportions.map((x) => Number(x.toFixed(4))).join(", ");
  return {
    sets: Math.ceil(n),
    method:
      "The large-sample (delta-method) variance of Fleiss' kappa under the common correlation model (Fleiss 1971; Fleiss, Nee & Landis 1979), which reduces to Bloch & Kraemer (1989) for two graders on a yes/no item: the sets for a confidence interval of the stated full width",
    assumptions: [
      `${graders} graders per set, ${proportions.length} categories with shares ${shares}, an expected kappa of ${kappa}, a ${Math.round(level * 100)}% interval of full width ${ciWidth}`,
      "every grader uses the categories in the same shares; a set's graders agree all together with probability kappa, or choose independently",
      "a large-sample approximation: below about 50 sets, or with a category seldom used, widen the margin",
    ],
    details: { unrounded: n, unitVariance },
  };
}
