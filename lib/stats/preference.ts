/**
 * Proportions for pairwise preference studies: Wilson score intervals, the exact binomial test,
 * and the win/tie/loss summary of one pair of models.
 *
 * - Wilson interval without continuity correction (statsmodels `proportion_confint(method=
 *   "wilson")`, R `prop.test(correct = FALSE)$conf.int`).
 * - Two-sided exact binomial test as R's `binom.test` and scipy's `binomtest` compute it: the sum
 *   of the probabilities of every outcome no more likely than the observed one (relative
 *   tolerance 1e-7).
 * - Relative preference in CLEVER's words, "A preferred over B x% more often": wins / losses - 1.
 */
import normalQuantile from "@stdlib/stats-base-dists-normal-quantile";
import type { Degenerate, Interval } from "./types";

export interface ProportionResult extends Degenerate {
  successes: number;
  n: number;
  estimate: number | null;
  interval: Interval | null;
}

export function wilsonInterval(successes: number, n: number, level = 0.95): ProportionResult {
  if (!Number.isInteger(n) || n <= 0) return { successes, n, estimate: null, interval: null, reason: "no observations" };
  if (!Number.isInteger(successes) || successes < 0 || successes > n) return { successes, n, estimate: null, interval: null, reason: "successes must be a count between 0 and n" };
  if (!(level > 0 && level < 1)) return { successes, n, estimate: null, interval: null, reason: "level must lie in (0, 1)" };
  const z = normalQuantile(1 - (1 - level) / 2, 0, 1);
  const p = successes / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { successes, n, estimate: p, interval: [Math.max(0, centre - half), Math.min(1, centre + half)] };
}

/** Two-sided exact binomial test of `successes` in `n` trials against probability `p`. */
export function binomialTest(successes: number, n: number, p = 0.5): { pValue: number | null; reason?: string } {
  if (!Number.isInteger(n) || n <= 0) return { pValue: null, reason: "no observations" };
  if (!Number.isInteger(successes) || successes < 0 || successes > n) return { pValue: null, reason: "successes must be a count between 0 and n" };
  if (!(p > 0 && p < 1)) return { pValue: null, reason: "p must lie in (0, 1)" };
  // log pmf by the ratio recurrence: exact enough and O(n) without a log-gamma.
  const logPmf = new Float64Array(n + 1);
  logPmf[0] = n * Math.log1p(-p);
  const odds = Math.log(p) - Math.log1p(-p);
  for (let i = 0; i < n; i++) logPmf[i + 1] = logPmf[i] + Math.log((n - i) / (i + 1)) + odds;
  const observed = logPmf[successes];
  const threshold = observed + Math.log1p(1e-7);
  let total = 0;
  for (let i = 0; i <= n; i++) if (logPmf[i] <= threshold) total += Math.exp(logPmf[i]);
  return { pValue: Math.min(1, total) };
}

export interface PairSummary {
  wins: number;
  ties: number;
  losses: number;
  n: number;
  /** wins / n (ties count against), with its Wilson interval. */
  winRate: ProportionResult;
  /** wins / (wins + losses): the share of decisive preferences, with its Wilson interval. */
  decisiveWinRate: ProportionResult;
  /** wins / losses - 1 (null without a loss). */
  relativePreference: number | null;
}

export function pairSummary(wins: number, ties: number, losses: number, level = 0.95): PairSummary {
  const n = wins + ties + losses;
  return {
    wins,
    ties,
    losses,
    n,
    winRate: wilsonInterval(wins, n, level),
    decisiveWinRate: wilsonInterval(wins, wins + losses, level),
    relativePreference: losses > 0 ? wins / losses - 1 : null,
  };
}

export interface ShareTest extends ProportionResult {
  pValue: number | null;
}

/**
 * Share of decisive preferences that went one way (left position, longer answer), its Wilson
 * interval, and the binomial test against one half: position and length bias.
 */
export function shareTest(successes: number, n: number, level = 0.95): ShareTest {
  const share = wilsonInterval(successes, n, level);
  const test = binomialTest(successes, n, 0.5);
  return { ...share, pValue: test.pValue };
}
