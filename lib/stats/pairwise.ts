/**
 * The statistics of a pairwise preference study, from its preferences as a flat list (one row
 * per grader, comparison and axis). Pure: the stats API reads the rows and calls this.
 *
 * Per axis, and pooled over all axes ("overall": every axis's preference is an observation; the
 * question bootstrap accounts for their dependence):
 * - per pair of models: wins, ties, losses, win rates with Wilson intervals, CLEVER's relative
 *   preference (lib/stats/preference.ts);
 * - Bradley-Terry strengths on every grader's preference (Davidson's model when ties were
 *   given), the question bootstrap, the probability each model is best, predicted win matrix;
 * - position bias: the share of decisive preferences that went to the left answer, binomial test
 *   against one half; length bias: the share won by the longer answer, overall and per pair;
 * - agreement of the graders on each comparison over the three categories: percent agreement
 *   (Fleiss' observed agreement), Fleiss' kappa and Gwet's AC1.
 */
import type { BradleyTerryResult, Preference } from "./bradley-terry";
import { bradleyTerry } from "./bradley-terry";
import { bradleyTerryBootstrap, type BradleyTerryBootstrapResult } from "./bradley-terry-bootstrap";
import { fleissKappa, type FleissResult } from "./fleiss";
import { gwetAC1, type GwetResult } from "./gwet";
import { pairSummary, shareTest, type PairSummary, type ShareTest } from "./preference";

export type PreferenceChoice = "left" | "right" | "tie";
export const PREFERENCE_CHOICES: ReadonlyArray<PreferenceChoice> = ["left", "tie", "right"];

export interface PreferenceObservation {
  comparison: string;
  question: string;
  axis: string;
  grader: string;
  leftModel: string;
  rightModel: string;
  /** Characters of each answer shown (for length bias); omitted: not counted. */
  leftLength?: number;
  rightLength?: number;
  choice: PreferenceChoice;
  /** Agreement is measured on primary graders only (an adjudicator is chosen for disagreeing). */
  primary?: boolean;
}

export interface PairwiseOptions {
  /** Model order for the tables (default: sorted). */
  models?: ReadonlyArray<string>;
  replicates?: number;
  seed?: number;
  level?: number;
}

export interface PairRow {
  /** Model a (earlier in the order) against model b: wins are a's. */
  a: string;
  b: string;
  summary: PairSummary;
  /** Share of decisive preferences won by the longer answer in this pair. */
  lengthBias: ShareTest;
}

export interface AxisAnalysis {
  /** null: pooled over every axis. */
  axis: string | null;
  n: number;
  pairs: PairRow[];
  strengths: BradleyTerryResult;
  bootstrap: BradleyTerryBootstrapResult;
  positionBias: ShareTest;
  lengthBias: ShareTest;
  agreement: { percent: number | null; fleiss: FleissResult; ac1: GwetResult; comparisons: number };
}

export interface PairwiseAnalysis {
  models: string[];
  axes: AxisAnalysis[];
}

export function analysePreferences(rows: ReadonlyArray<PreferenceObservation>, options: PairwiseOptions = {}): PairwiseAnalysis {
  const models = options.models ? [...options.models] : [...new Set(rows.flatMap((r) => [r.leftModel, r.rightModel]))].sort();
  const axes = [...new Set(rows.map((r) => r.axis))];
  const out: AxisAnalysis[] = axes.map((axis) => analyseAxis(axis, rows.filter((r) => r.axis === axis), models, options));
  if (axes.length > 1) out.push(analyseAxis(null, rows, models, options));
  return { models, axes: out };
}

/** One axis (`axis` null: every row pooled, "overall"), as analysePreferences computes each; callers may run axes in parallel. */
export function analyseAxis(axis: string | null, rows: ReadonlyArray<PreferenceObservation>, models: string[], options: PairwiseOptions): AxisAnalysis {
  const index = new Map(models.map((m, i) => [m, i]));
  const level = options.level ?? 0.95;
  const k = models.length;
  // Per ordered pair a < b (at a * k + b): a's wins, ties, a's losses, wins of the longer answer, decisive with unequal lengths.
  const wins = new Float64Array(k * k);
  const ties = new Float64Array(k * k);
  const losses = new Float64Array(k * k);
  const longer = new Float64Array(k * k);
  const decisiveUnequal = new Float64Array(k * k);
  const seen = new Uint8Array(k * k);
  const prefs: (Preference & { cluster: string })[] = [];
  let leftWins = 0;
  let decisive = 0;
  let longerWins = 0;
  let unequal = 0;
  for (const r of rows) {
    const li = index.get(r.leftModel);
    const ri = index.get(r.rightModel);
    if (li === undefined || ri === undefined || li === ri) continue;
    const key = li < ri ? li * k + ri : ri * k + li;
    seen[key] = 1;
    const winner = r.choice === "tie" ? null : r.choice === "left" ? li : ri;
    if (winner === null) ties[key] += 1;
    else if (winner === Math.min(li, ri)) wins[key] += 1;
    else losses[key] += 1;
    prefs.push({ i: li, j: ri, outcome: r.choice === "tie" ? "tie" : r.choice === "left" ? "i" : "j", cluster: r.question });
    if (r.choice !== "tie") {
      decisive += 1;
      if (r.choice === "left") leftWins += 1;
      if (r.leftLength !== undefined && r.rightLength !== undefined && r.leftLength !== r.rightLength) {
        const longerSide = r.leftLength > r.rightLength ? "left" : "right";
        unequal += 1;
        decisiveUnequal[key] += 1;
        if (r.choice === longerSide) { longerWins += 1; longer[key] += 1; }
      }
    }
  }
  const pairs: PairRow[] = [];
  for (let a = 0; a < k; a++) {
    for (let b = a + 1; b < k; b++) {
      const key = a * k + b;
      if (!seen[key]) continue;
      pairs.push({ a: models[a], b: models[b], summary: pairSummary(wins[key], ties[key], losses[key], level), lengthBias: shareTest(longer[key], decisiveUnequal[key], level) });
    }
  }
  return {
    axis,
    n: prefs.length,
    pairs,
    strengths: bradleyTerry(models.length, prefs),
    bootstrap: bradleyTerryBootstrap(models.length, prefs, { replicates: options.replicates ?? 1000, seed: options.seed, level }),
    positionBias: shareTest(leftWins, decisive, level),
    lengthBias: shareTest(longerWins, unequal, level),
    agreement: agreement(rows, axis),
  };
}

/** The Bradley-Terry preferences analyseAxis fits, one per row between two known, different models (for a bootstrap run elsewhere). */
export function axisPreferences(rows: ReadonlyArray<PreferenceObservation>, models: ReadonlyArray<string>): (Preference & { cluster: string })[] {
  const index = new Map(models.map((m, i) => [m, i]));
  const out: (Preference & { cluster: string })[] = [];
  for (const r of rows) {
    const li = index.get(r.leftModel);
    const ri = index.get(r.rightModel);
    if (li === undefined || ri === undefined || li === ri) continue;
    out.push({ i: li, j: ri, outcome: r.choice === "tie" ? "tie" : r.choice === "left" ? "i" : "j", cluster: r.question });
  }
  return out;
}

/** Units = (comparison, axis); raters = the primary graders in the order of their rows. */
function agreement(rows: ReadonlyArray<PreferenceObservation>, axis: string | null): AxisAnalysis["agreement"] {
  // Pooled: one unit per comparison and axis, kept per axis (no key built per row).
  const byAxis = new Map<string, Map<string, PreferenceChoice[]>>();
  for (const r of rows) {
    if (r.primary === false) continue;
    const unitAxis = axis === null ? r.axis : "";
    let units = byAxis.get(unitAxis);
    if (!units) byAxis.set(unitAxis, (units = new Map()));
    const list = units.get(r.comparison);
    if (list) list.push(r.choice);
    else units.set(r.comparison, [r.choice]);
  }
  const matrix = [...byAxis.values()].flatMap((units) => [...units.values()]).filter((u) => u.length >= 2);
  const fleiss = fleissKappa(matrix, { categories: PREFERENCE_CHOICES });
  const ac1 = gwetAC1(matrix, { categories: PREFERENCE_CHOICES });
  return { percent: fleiss.pa, fleiss, ac1, comparisons: matrix.length };
}

export interface AnswerScore {
  question: string;
  model: string;
  /** The answer's final score (a dimension or the total), averaged over repetitions by the caller. */
  score: number;
  length?: number;
}

/**
 * A scoring study's scores as preferences: for each question and each pair of its models, the
 * higher-scored answer is preferred (equal: a tie). One "grader" (the final scores), so the table
 * compares with a pairwise study's; agreement is not defined for it.
 */
export function preferencesFromScores(scores: ReadonlyArray<AnswerScore>, axis: string): PreferenceObservation[] {
  const byQuestion = new Map<string, AnswerScore[]>();
  for (const s of scores) {
    if (!Number.isFinite(s.score)) continue;
    const list = byQuestion.get(s.question);
    if (list) list.push(s);
    else byQuestion.set(s.question, [s]);
  }
  const out: PreferenceObservation[] = [];
  for (const [question, list] of byQuestion) {
    const sorted = [...list].sort((x, y) => (x.model < y.model ? -1 : x.model > y.model ? 1 : 0));
    for (let i = 0; i < sorted.length; i++) {
      for (let j = i + 1; j < sorted.length; j++) {
        const l = sorted[i];
        const r = sorted[j];
        out.push({
          comparison: `${question}\u0000${l.model}\u0000${r.model}`,
          question,
          axis,
          grader: "final scores",
          leftModel: l.model,
          rightModel: r.model,
          leftLength: l.length,
          rightLength: r.length,
          choice: l.score > r.score ? "left" : l.score < r.score ? "right" : "tie",
          primary: false,
        });
      }
    }
  }
  return out;
}
