/**
 * The dashboard's `pairwise` block: lib/stats/pairwise.ts on a pairwise study's preferences
 * (every grader's own, read in one statement by pairwise-load.ts), or on a scoring study's final
 * scores read as preferences (the higher-scored answer of each pair wins), so a lead can set the
 * two designs side by side. The fit and its bootstrap run in a worker thread when they are large.
 */
import type { RubricDocument } from "@/lib/rubrics/document";
import { measureValue, type Measure } from "@/lib/results/measures";
import type { SetResult } from "@/lib/results/sets";
import { bootstrapBuffers, bootstrapInput, type BradleyTerryBootstrapResult } from "@/lib/stats/bradley-terry-bootstrap";
import { analysePreferences, axisPreferences, preferencesFromScores, type AxisAnalysis, type PairwiseAnalysis, type PreferenceObservation } from "@/lib/stats/pairwise";
import type { ShareTest } from "@/lib/stats/preference";
import type { PairwiseAxisBlock, PairwiseBlock } from "./pairwise-contract";
import { loadPreferences } from "./pairwise-load";
import type { Block } from "./types";

export const PAIRWISE_BOOTSTRAP = { replicates: 1000, seed: 20261205, level: 0.95 } as const;

/** Preferences times replicates above which the analysis runs in a worker (a thread costs ~30 ms to start). */
export const PAIRWISE_WORKER_MIN = 2_000_000;

export const PAIRWISE_NOTE =
  "Every grader's preference is its own observation. Strengths are Bradley-Terry log-strengths centred to mean 0 (Davidson's model, with tie parameter nu, when ties were given), " +
  "with standard errors from the observed information and percentile intervals of a bootstrap that resamples questions. Win rates count ties against; Wilson 95% intervals. " +
  "Position bias: share of decisive preferences for the left answer (binomial test against 1/2); length bias: share won by the longer answer. " +
  "Agreement: primary graders on left / tie / right.";

export const DERIVED_NOTE =
  "Derived from final scores: for each question and pair of models, the answer with the higher final score is preferred (equal scores: a tie). " +
  "One observation per question and pair, so there is no agreement between graders and no position bias.";

export const DERIVED_ON_REQUEST = "preferences derived from final scores are computed on request (?pairwise=1): they cost a bootstrap per measure";

export interface PairwiseRun {
  models?: string[];
  replicates?: number;
  seed?: number;
}

type RunAnalysis = (rows: PreferenceObservation[], options: { models?: string[]; replicates: number; seed: number; level: number }) => Promise<PairwiseAnalysis>;

/**
 * The analysis (analysePreferences). When it is large, its question bootstraps (nearly all of its
 * time) run in a worker thread (lib/workers) on the preferences as typed arrays, every axis and
 * the pooled one in turn, while this thread computes the tables and fits; each axis then takes
 * its bootstrap from the worker. The same result as analysePreferences (tested). Measured: a
 * thread per axis fed with the row objects cost more (four copies of the rows, four cold
 * compilers on two cores, the tables computed again in each) than the bootstraps themselves.
 */
export const runAnalysis: RunAnalysis = async (rows, options) => {
  if (rows.length * options.replicates < PAIRWISE_WORKER_MIN) return analysePreferences(rows, options);
  const models = options.models ? [...options.models] : [...new Set(rows.flatMap((r) => [r.leftModel, r.rightModel]))].sort();
  const byAxis = new Map<string, PreferenceObservation[]>();
  for (const r of rows) {
    const list = byAxis.get(r.axis);
    if (list) list.push(r);
    else byAxis.set(r.axis, [r]);
  }
  const groups = [...byAxis.values()];
  if (byAxis.size > 1) groups.push(rows);
  const inputs = groups.map((list) => bootstrapInput(models.length, axisPreferences(list, models)));
  const { runInWorker } = await import("@/lib/workers/run");
  const boot = { replicates: options.replicates, seed: options.seed, level: options.level };
  const bootstraps = runInWorker<BradleyTerryBootstrapResult[]>("pairwise-stats", { inputs, options: boot }, inputs.flatMap(bootstrapBuffers));
  bootstraps.catch(() => undefined);
  const analysis = analysePreferences(rows, { ...options, models, replicates: 0 });
  const results = await bootstraps;
  return { models: analysis.models, axes: analysis.axes.map((a, k) => ({ ...a, bootstrap: results[k] })) };
};

/** The `pairwise` block of a pairwise study. */
export async function pairwiseStudyBlock(studyId: string, rubrics: readonly RubricDocument[], query: { specialty?: string | null; models?: string[] | null }, run: PairwiseRun = {}): Promise<Block<PairwiseBlock>> {
  const axes = rubrics.flatMap((r) => r.dimensions.filter((d) => d.scale.kind === "preference").map((d) => ({ rubric: r.key, key: d.key, name: d.name, worse: d.scale.choiceIsWorse === true })));
  const qualify = rubrics.length > 1;
  const labels = new Map(axes.map((a) => [qualify ? `${a.rubric}.${a.key}` : a.key, a.name]));
  const worse = new Set(axes.filter((a) => a.worse).map((a) => `${a.rubric}.${a.key}`));
  let rows = await loadPreferences(studyId, { specialty: query.specialty ?? null, worse, qualify });
  if (query.models?.length) {
    const keep = new Set(query.models);
    rows = rows.filter((r) => keep.has(r.leftModel) && keep.has(r.rightModel));
  }
  if (rows.length === 0) return { data: null, reason: "no submitted preference yet" };
  const models = run.models ?? [...new Set(rows.flatMap((r) => [r.leftModel, r.rightModel]))].sort();
  return { data: await blockOf("preferences", rows, labels, models, run), reason: null };
}

/** The `pairwise` block of a scoring study: each comparison measure's final scores read as preferences. */
export async function derivedPairwiseBlock(finals: readonly SetResult[], measures: readonly Measure[], run: PairwiseRun = {}): Promise<Block<PairwiseBlock>> {
  const models = [...new Set(finals.map((s) => s.model.name))].sort();
  if (models.length < 2) return { data: null, reason: "preferences are derived from final scores of two or more models" };
  const labels = new Map<string, string>();
  const rows: PreferenceObservation[] = [];
  for (const m of measures) {
    const axis = `${m.rubric}.${m.key}`;
    labels.set(axis, m.label);
    const scores = finals.flatMap((s) => {
      const v = measureValue(s, m);
      return v === null ? [] : [{ question: s.itemId, model: s.model.name, score: v }];
    });
    rows.push(...preferencesFromScores(scores, axis));
  }
  if (rows.length === 0) return { data: null, reason: "no question has final scores of two models yet" };
  return { data: await blockOf("scores", rows, labels, models, run), reason: null };
}

async function blockOf(source: PairwiseBlock["source"], rows: PreferenceObservation[], labels: Map<string, string>, models: string[], run: PairwiseRun): Promise<PairwiseBlock> {
  const replicates = run.replicates ?? PAIRWISE_BOOTSTRAP.replicates;
  const seed = run.seed ?? PAIRWISE_BOOTSTRAP.seed;
  const level = PAIRWISE_BOOTSTRAP.level;
  const analysis = await runAnalysis(rows, { models, replicates, seed, level });
  return {
    source,
    note: source === "preferences" ? PAIRWISE_NOTE : DERIVED_NOTE,
    models: analysis.models,
    replicates,
    seed,
    level,
    axes: analysis.axes.map((a) => axisBlock(a, analysis.models, labels, source === "preferences")),
  };
}

const share = (s: ShareTest) => ({ successes: s.successes, n: s.n, share: s.estimate, ci: s.interval, pValue: s.pValue, reason: s.reason ?? null });

/** One axis's analysis as the API gives it (JSON: no NaN, no typed arrays). */
export function axisBlock(a: AxisAnalysis, models: string[], labels: ReadonlyMap<string, string>, withAgreement: boolean): PairwiseAxisBlock {
  const st = a.strengths;
  const boot = a.bootstrap;
  return {
    axis: a.axis,
    label: a.axis === null ? "Overall" : (labels.get(a.axis) ?? a.axis),
    n: a.n,
    pairs: a.pairs.map((p) => ({
      a: p.a,
      b: p.b,
      wins: p.summary.wins,
      ties: p.summary.ties,
      losses: p.summary.losses,
      n: p.summary.n,
      winRate: { estimate: p.summary.winRate.estimate, ci: p.summary.winRate.interval, reason: p.summary.winRate.reason ?? null },
      decisiveWinRate: { estimate: p.summary.decisiveWinRate.estimate, ci: p.summary.decisiveWinRate.interval, reason: p.summary.decisiveWinRate.reason ?? null },
      relativePreference: p.summary.relativePreference,
      lengthBias: share(p.lengthBias),
    })),
    strengths: {
      model: st.model,
      nu: st.nu,
      nuSE: st.nuSE,
      rows: models.map((model, i) => ({
        model,
        logStrength: st.logStrength?.[i] ?? null,
        se: st.se?.[i] ?? null,
        ci: boot.intervals[i] ?? null,
        probabilityBest: boot.replicates > 0 && !boot.reason ? (boot.probabilityBest[i] ?? null) : null,
      })),
      winProbability: st.winProbability,
      tieProbability: st.tieProbability,
      replicates: boot.replicates,
      failed: boot.failed,
      reason: st.reason ?? null,
      bootstrapReason: boot.reason ?? null,
    },
    positionBias: share(a.positionBias),
    lengthBias: share(a.lengthBias),
    agreement: withAgreement
      ? {
          comparisons: a.agreement.comparisons,
          percent: a.agreement.percent,
          fleiss: a.agreement.fleiss.kappa,
          ac1: a.agreement.ac1.coefficient,
          ac1Ci: a.agreement.ac1.ci,
          reason: a.agreement.comparisons === 0 ? "no comparison has two primary graders yet" : (a.agreement.fleiss.reason ?? a.agreement.ac1.reason ?? null),
        }
      : null,
  };
}
