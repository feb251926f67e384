import type { RubricDocument, RubricTotal } from "@/lib/rubrics/document";
import { cliffsDelta, cliffsDeltaCI, cronbachAlpha, describe } from "@/lib/stats";
import { cliffsStratifiedBootstrap, cliffsStratifiedBootstrapAsync, type PairResult } from "@/lib/stats/cliffs-fast";
import type { SetResult } from "./sets";
import { CLIFFS_BOOTSTRAP } from "./cliffs-bootstrap";
import { comparisonMeasures, measureValue, type Measure } from "./measures";

export { CLIFFS_BOOTSTRAP };

/**
 * Per-model summaries of the FINAL scores (agreed or adjudicated sets only), per
 * specialty and overall, shared by the dashboard, the stats API and the exports.
 * Pure: it takes SetResult rows, so tests feed it hand-made data.
 */
export const ALL_SPECIALTIES = "All specialties";

export interface Stat {
  n: number;
  mean: number | null;
  sd: number | null;
}

export interface ModelSummary {
  model: string;
  specialty: string;
  /**
   * Per rubric key its headline total; a rubric with several totals also has
   * each as "<rubric>_<total>" (a total with an alias as "<rubric>_<alias>",
   * the name the summary export has always had: summaryTotalKey).
   */
  totals: Record<string, Stat>;
  /** Ordinal dimensions' final values (N/A left out). */
  dimensions: Record<string, Record<string, Stat>>;
}

const stat = (xs: number[]): Stat => {
  const d = describe(xs);
  return { n: d.n, mean: d.mean, sd: d.sd };
};

export function finalOnly(sets: SetResult[]): SetResult[] {
  return sets.filter((s) => s.finalScores !== null && s.totals !== null);
}

function groups(sets: SetResult[]): [string, SetResult[]][] {
  const bySpecialty = new Map<string, SetResult[]>();
  for (const s of sets) {
    const list = bySpecialty.get(s.specialty);
    if (list) list.push(s);
    else bySpecialty.set(s.specialty, [s]);
  }
  return [...[...bySpecialty.entries()].sort(([a], [b]) => a.localeCompare(b)), [ALL_SPECIALTIES, sets]];
}

/** A set's final value of a total (the headline unless named); null when it has none. */
export function totalOf(s: SetResult, rubric: string, total = "headline"): number | null {
  return s.totals?.[rubric]?.[total] ?? null;
}

const numbers = (xs: unknown[]) => xs.filter((x): x is number => typeof x === "number");

/** The dimensions that are numbers to summarise: ordinal ones. */
const ordinalDims = (r: RubricDocument) => r.dimensions.filter((d) => d.scale.kind === "ordinal");

/** A total's key among a model's summary totals (a rubric with several totals): `<rubric>_<alias or key>`. */
export const summaryTotalKey = (r: Pick<RubricDocument, "key">, t: Pick<RubricTotal, "key" | "alias">) => `${r.key}_${t.alias ?? t.key}`;

export function modelSummaries(allSets: SetResult[], rubrics: readonly RubricDocument[]): ModelSummary[] {
  const sets = finalOnly(allSets);
  const out: ModelSummary[] = [];
  for (const [specialty, inSpecialty] of groups(sets)) {
    const models = [...new Set(inSpecialty.map((s) => s.model.name))].sort();
    for (const model of models) {
      const mine = inSpecialty.filter((s) => s.model.name === model);
      const summary: ModelSummary = { model, specialty, totals: {}, dimensions: {} };
      for (const r of rubrics) {
        if (r.headline !== undefined) summary.totals[r.key] = stat(numbers(mine.map((s) => totalOf(s, r.key))));
        if (r.totals.length > 1) for (const t of r.totals) summary.totals[`${r.key}_${t.key}`] = stat(numbers(mine.map((s) => totalOf(s, r.key, t.key))));
        // A total with an alias is given under it (the name the summary always had), after the others.
        for (const t of r.totals) {
          const key = `${r.key}_${t.key}`;
          if (t.alias === undefined || !summary.totals[key]) continue;
          summary.totals[summaryTotalKey(r, t)] = summary.totals[key];
          delete summary.totals[key];
        }
        summary.dimensions[r.key] = Object.fromEntries(ordinalDims(r).map((d) => [d.key, stat(numbers(mine.map((s) => s.finalScores![r.key]?.[d.key])))]));
      }
      out.push(summary);
    }
  }
  return out;
}

export interface AlphaRow {
  specialty: string;
  rubric: string;
  alpha: number | null;
  ci: [number, number] | null;
  n: number;
  k: number;
  reason?: string;
}

/**
 * Cronbach's alpha per specialty as the rubric papers compute it: rows are
 * the final per-set scores, columns the rubric's dimensions (its items). It
 * measures the internal consistency of the rubric, not agreement between graders.
 */
export function alphaBySpecialty(allSets: SetResult[], rubrics: readonly RubricDocument[]): AlphaRow[] {
  const sets = finalOnly(allSets);
  const out: AlphaRow[] = [];
  for (const [specialty, inSpecialty] of groups(sets)) {
    for (const r of rubrics) {
      const dims = ordinalDims(r);
      const rows = inSpecialty.map((s) => dims.map((d) => {
        const v = s.finalScores![r.key]?.[d.key];
        return typeof v === "number" ? v : null;
      }));
      const a = cronbachAlpha(rows);
      out.push({ specialty, rubric: r.key, alpha: a.alpha, ci: a.ci, n: a.n, k: a.k, ...(a.reason ? { reason: a.reason } : {}) });
    }
  }
  return out;
}

export interface DeltaCell {
  specialty: string;
  rubric: string;
  /** What the models are compared on (measures.ts): the rubric's headline total or one of its dimensions. */
  measure: string;
  measureKind: Measure["kind"];
  label: string;
  /** Positive delta = the row model's totals tend to be higher (better). */
  rowModel: string;
  colModel: string;
  delta: number | null;
  magnitude: string | null;
  ci: [number, number] | null;
  n: number;
  m: number;
}

/** Pairwise Cliff's delta between models on final totals (or dimensions: measures.ts), per specialty, with a seeded bootstrap CI. */
export function cliffsMatrix(allSets: SetResult[], rubrics: readonly RubricDocument[], opts: { resamples?: number; seed?: number } = {}, measures: readonly Measure[] = comparisonMeasures(rubrics)): DeltaCell[] {
  const sets = finalOnly(allSets);
  const out: DeltaCell[] = [];
  const total = (s: SetResult, r: Measure) => measureValue(s, r);
  for (const [specialty, inSpecialty] of groups(sets)) {
    const models = [...new Set(inSpecialty.map((s) => s.model.name))].sort();
    for (const r of measures) {
      for (const a of models) {
        for (const b of models) {
          if (a === b) continue;
          const x = numbers(inSpecialty.filter((s) => s.model.name === a).map((s) => total(s, r)));
          const y = numbers(inSpecialty.filter((s) => s.model.name === b).map((s) => total(s, r)));
          const point = cliffsDelta(x, y);
          const ci = cliffsDeltaCI(x, y, { resamples: opts.resamples ?? CLIFFS_BOOTSTRAP.resamples, seed: opts.seed ?? CLIFFS_BOOTSTRAP.seed });
          out.push({
            specialty,
            rubric: r.rubric,
            measure: r.key,
            measureKind: r.kind,
            label: r.label,
            rowModel: a,
            colModel: b,
            delta: point.delta,
            magnitude: point.magnitude,
            ci: ci.ci ?? null,
            n: x.length,
            m: y.length,
          });
        }
      }
    }
  }
  return out;
}

export interface DeltaPairCell extends DeltaCell {
  /** Why `delta` or `ci` is null, when one is. */
  reason?: string;
}

/**
 * The same cells as `cliffsMatrix` (same order, same point estimates, same sign
 * convention: positive = the row model better), fast enough for large studies:
 * each unordered pair of models is computed once, as (earlier, later) in name
 * order, and its mirror is the same comparison read the other way round,
 * delta(b, a) = -delta(a, b) with the interval [-hi, -lo]. The intervals come
 * from one bootstrap (`cliffsStratifiedBootstrap`): in each replicate every
 * model's sets are resampled once per specialty, shared by all pairs and by
 * both rubrics' totals; "All specialties" pools those specialty resamples
 * (stratified by specialty), where `cliffsMatrix` draws a fresh resample per
 * pair and group.
 */
export function cliffsPairs(allSets: SetResult[], rubrics: readonly RubricDocument[], opts: { resamples?: number; seed?: number } = {}, measures: readonly Measure[] = comparisonMeasures(rubrics)): DeltaPairCell[] {
  const input = cliffsPairsInput(allSets, measures);
  return cliffsPairsCells(input, measures, cliffsStratifiedBootstrap(input.strata, measures.length, bootstrapOptions(opts)));
}

/** `cliffsPairs` with its bootstrap loop in a worker thread on large studies (the caller computes something else meanwhile). */
export async function cliffsPairsAsync(
  allSets: SetResult[],
  rubrics: readonly RubricDocument[],
  opts: { resamples?: number; seed?: number } = {},
  measures: readonly Measure[] = comparisonMeasures(rubrics),
): Promise<DeltaPairCell[]> {
  const input = cliffsPairsInput(allSets, measures);
  const boot = cliffsStratifiedBootstrapAsync(input.strata, measures.length, bootstrapOptions(opts));
  return cliffsPairsCells(input, measures, await boot);
}

const bootstrapOptions = (opts: { resamples?: number; seed?: number }) => ({ resamples: opts.resamples ?? CLIFFS_BOOTSTRAP.resamples, seed: opts.seed ?? CLIFFS_BOOTSTRAP.seed });

function cliffsPairsInput(allSets: SetResult[], rubrics: readonly Measure[]) {
  const sets = finalOnly(allSets);
  const total = (s: SetResult, r: Measure) => measureValue(s, r);
  const all = groups(sets);
  const specialties = all.slice(0, -1);
  const models = [...new Set(sets.map((s) => s.model.name))].sort();
  const strata = specialties.map(([, inSpecialty]) => {
    const units = new Map<string, (number | null)[][]>(models.map((m) => [m, []]));
    for (const s of inSpecialty) units.get(s.model.name)!.push(rubrics.map((r) => total(s, r) ?? null));
    return models.map((m) => units.get(m)!);
  });
  return { all, specialties, models, strata };
}

function cliffsPairsCells(input: ReturnType<typeof cliffsPairsInput>, rubrics: readonly Measure[], boot: { strata: PairResult[][]; pooled: PairResult[] }): DeltaPairCell[] {
  const { all, specialties, models } = input;
  const out: DeltaPairCell[] = [];
  const neg = (v: number) => (v === 0 ? 0 : -v);
  all.forEach(([specialty, inSpecialty], g) => {
    const results = g < specialties.length ? boot.strata[g] : boot.pooled;
    const at = new Map(results.map((p) => [`${p.measure}:${p.i}:${p.j}`, p]));
    const present = [...new Set(inSpecialty.map((s) => s.model.name))].sort();
    rubrics.forEach((r, k) => {
      for (const a of present) {
        for (const b of present) {
          if (a === b) continue;
          const i = models.indexOf(a);
          const j = models.indexOf(b);
          const flip = i > j;
          const c = at.get(flip ? `${k}:${j}:${i}` : `${k}:${i}:${j}`)!;
          out.push({
            specialty,
            rubric: r.rubric,
            measure: r.key,
            measureKind: r.kind,
            label: r.label,
            rowModel: a,
            colModel: b,
            delta: c.delta === null ? null : flip ? neg(c.delta) : c.delta,
            magnitude: c.magnitude,
            ci: c.ci === null ? null : flip ? [neg(c.ci[1]), neg(c.ci[0])] : c.ci,
            n: flip ? c.m : c.n,
            m: flip ? c.n : c.m,
            ...(c.reason ? { reason: c.reason } : {}),
          });
        }
      }
    });
  });
  return out;
}
