/**
 * Reference-based metrics beside the experts' final scores (issue #33, the comparison behind the
 * paper's Figure 3A). Pure: read.ts gives it rows, tests give it hand-made ones.
 *
 * - Heatmap: the mean of each metric over the answers with one, per model and specialty, per
 *   model (all specialties), per specialty (all models) and overall; n = answers.
 * - Corpus BLEU: sacreBLEU's corpus_bleu over the same groups (the stored n-gram statistics
 *   summed, as lib/reference-metrics/summary.ts does).
 * - Correlations: per group, metric and expert measure, Spearman's rho with a 95% Fisher-z
 *   interval (lib/stats/rank-correlation.ts) over the final sets. The unit is a response set, as
 *   experts grade sets: its metric is the mean over its answers (the score-long export's value),
 *   its expert value the set's final score (finalScoresOf, the one definition everywhere).
 *   Measures: every ordinal dimension and every total; nominal and criteria dimensions have no
 *   order to correlate and are listed as skipped.
 * - Disagreements: per metric, the final sets whose percentile ranks on the metric and on one
 *   expert measure differ most, each way, ranked over the whole study.
 */
import { ordinalRange, type RubricDocument } from "@/lib/rubrics/document";
import { totalRange } from "@/lib/scoring/rubric-values";
import { bleuFromStats } from "@/lib/stats/bleu";
import { rankDisagreements, spearmanCI, spearmanCIOfRanks, SPEARMAN_CI_METHOD } from "@/lib/stats/rank-correlation";
import { averageRanks } from "@/lib/stats/spearman";
import { REFERENCE_METRICS, type ReferenceMetricKey } from "@/lib/reference-metrics/metrics";
import type { FinalScores, FinalTotals } from "@/lib/scoring/final-scores";

export const CI_LEVEL = 0.95;
/** Cases listed per metric and direction. */
export const DISAGREEMENT_CASES = 5;

export interface ComparisonSet {
  id: string;
  externalId: string;
  model: string;
  specialty: string;
  /** The panel's final scores; null while the set is not final (it then counts in the heatmap only). */
  finalScores: FinalScores | null;
  totals: FinalTotals | null;
}

export interface ComparisonAnswer {
  setId: string;
  /** Each metric's value (0-1), null when not computed. */
  values: Partial<Record<ReferenceMetricKey, number | null>>;
  /** BLEU's stored statistics: [hyp length, ref length, matches 1-4, n-grams 1-4]; empty without. */
  bleuStats: readonly number[] | null;
}

export interface ExpertMeasure {
  /** "<rubric>:<dimension|total>:<key>" */
  id: string;
  rubric: string;
  kind: "dimension" | "total";
  key: string;
  label: string;
  min: number;
  max: number;
}

type Group = { model: string | null; specialty: string | null };

export interface HeatmapCell extends Group {
  metric: ReferenceMetricKey;
  mean: number | null;
  n: number;
}

export interface CorpusBleuCell extends Group {
  value: number | null;
  n: number;
}

export interface CorrelationRow extends Group {
  metric: ReferenceMetricKey;
  measure: string;
  rho: number | null;
  ci: [number, number] | null;
  n: number;
  reason: string | null;
}

export interface DisagreementCase {
  metric: ReferenceMetricKey;
  /** "metric_high": the metric ranks the set far above the experts; "expert_high": the reverse. */
  direction: "metric_high" | "expert_high";
  setId: string;
  externalId: string;
  model: string;
  specialty: string;
  metricValue: number;
  expertValue: number;
  metricRank: number;
  expertRank: number;
}

export interface MetricComparison {
  metrics: { key: ReferenceMetricKey; label: string }[];
  models: string[];
  specialties: string[];
  answers: number;
  finalSets: number;
  heatmap: HeatmapCell[];
  corpusBleu: CorpusBleuCell[];
  measures: ExpertMeasure[];
  skipped: { rubric: string; key: string; label: string; kind: "nominal" | "criteria" }[];
  correlation: { method: string; level: number; rows: CorrelationRow[] };
  disagreements: { measure: string | null; cases: DisagreementCase[] };
}

export const measureId = (rubric: string, kind: "dimension" | "total", key: string) => `${rubric}:${kind}:${key}`;

/** Every ordinal dimension, then every total, of each rubric: what a metric is correlated with. */
export function expertMeasures(rubrics: readonly RubricDocument[]): { measures: ExpertMeasure[]; skipped: MetricComparison["skipped"] } {
  const measures: ExpertMeasure[] = [];
  const skipped: MetricComparison["skipped"] = [];
  for (const r of rubrics) {
    for (const d of r.dimensions) {
      if (d.scale.kind === "ordinal" && (d.scale.levels?.length ?? 0) > 0) measures.push({ id: measureId(r.key, "dimension", d.key), rubric: r.key, kind: "dimension", key: d.key, label: d.name, ...ordinalRange(d) });
      else skipped.push({ rubric: r.key, key: d.key, label: d.name, kind: d.scale.kind === "criteria" ? "criteria" : "nominal" });
    }
    for (const t of r.totals) measures.push({ id: measureId(r.key, "total", t.key), rubric: r.key, kind: "total", key: t.key, label: t.name, ...totalRange(r, t) });
  }
  return { measures, skipped };
}

/** The measure the disagreement lists read when none is asked for: the first rubric's headline total, else its first ordinal dimension. */
export function defaultMeasure(rubrics: readonly RubricDocument[], measures: readonly ExpertMeasure[]): string | null {
  for (const r of rubrics) {
    const headline = measures.find((m) => m.rubric === r.key && m.kind === "total" && m.key === r.headline);
    if (headline) return headline.id;
    const first = measures.find((m) => m.rubric === r.key);
    if (first) return first.id;
  }
  return null;
}

function expertValue(s: ComparisonSet, m: ExpertMeasure): number | null {
  const v = m.kind === "total" ? s.totals?.[m.rubric]?.[m.key] : s.finalScores?.[m.rubric]?.[m.key];
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

const byName = (a: string, b: string) => a.localeCompare(b);

/** The groups a set belongs to, keyed "model\u0000specialty" with "" for "all". */
const groupKeys = (model: string, specialty: string) => [`${model}\u0000${specialty}`, `${model}\u0000`, `\u0000${specialty}`, `\u0000`];
const groupOf = (key: string): Group => {
  const [model, specialty] = key.split("\u0000");
  return { model: model || null, specialty: specialty || null };
};

export function assembleComparison(input: { rubrics: readonly RubricDocument[]; sets: readonly ComparisonSet[]; answers: readonly ComparisonAnswer[]; measure?: string | null }): MetricComparison {
  const setById = new Map(input.sets.map((s) => [s.id, s]));
  const metrics = REFERENCE_METRICS.map((m) => ({ key: m.key as ReferenceMetricKey, label: m.label }));
  const M = metrics.length;

  // Heatmap and corpus BLEU: per group, each metric's sum and count, and BLEU's summed statistics.
  type Acc = { sum: Float64Array; n: Int32Array; stats: Float64Array; statsN: number };
  const acc = new Map<string, Acc>();
  // Per set, each metric's sum and count over its answers (the set's value is their mean).
  const perSet = new Map<string, { sum: Float64Array; n: Int32Array }>();
  let answers = 0;
  for (const a of input.answers) {
    const s = setById.get(a.setId);
    if (!s) continue;
    answers++;
    let ps = perSet.get(s.id);
    if (!ps) perSet.set(s.id, (ps = { sum: new Float64Array(M), n: new Int32Array(M) }));
    for (let k = 0; k < M; k++) {
      const v = a.values[metrics[k].key];
      if (typeof v === "number" && Number.isFinite(v)) {
        ps.sum[k] += v;
        ps.n[k]++;
      }
    }
    for (const g of groupKeys(s.model, s.specialty)) {
      let c = acc.get(g);
      if (!c) acc.set(g, (c = { sum: new Float64Array(M), n: new Int32Array(M), stats: new Float64Array(10), statsN: 0 }));
      for (let k = 0; k < M; k++) {
        const v = a.values[metrics[k].key];
        if (typeof v === "number" && Number.isFinite(v)) {
          c.sum[k] += v;
          c.n[k]++;
        }
      }
      if (a.bleuStats && a.bleuStats.length === 10) {
        for (let i = 0; i < 10; i++) c.stats[i] += a.bleuStats[i];
        c.statsN++;
      }
    }
  }
  const groupOrder = (a: Group, b: Group) =>
    (a.model === null ? 1 : 0) - (b.model === null ? 1 : 0) || byName(a.model ?? "", b.model ?? "") || (a.specialty === null ? 1 : 0) - (b.specialty === null ? 1 : 0) || byName(a.specialty ?? "", b.specialty ?? "");
  const groups = [...acc.keys()].map((k) => ({ key: k, ...groupOf(k) })).sort(groupOrder);
  const heatmap: HeatmapCell[] = groups.flatMap((g) => {
    const c = acc.get(g.key)!;
    return metrics.map((m, k) => ({ model: g.model, specialty: g.specialty, metric: m.key, mean: c.n[k] > 0 ? c.sum[k] / c.n[k] : null, n: c.n[k] }));
  });
  const corpusBleu: CorpusBleuCell[] = groups.map((g) => {
    const c = acc.get(g.key)!;
    const s = c.stats;
    const value = c.statsN > 0 ? bleuFromStats({ hypLen: s[0], refLen: s[1], correct: [s[2], s[3], s[4], s[5]], total: [s[6], s[7], s[8], s[9]] }, false) : null;
    return { model: g.model, specialty: g.specialty, value, n: c.statsN };
  });

  // Correlations over the final sets with a metric.
  const { measures, skipped } = expertMeasures(input.rubrics);
  const finals = input.sets.filter((s) => s.finalScores !== null && perSet.has(s.id));
  const metricOf = finals.map((s) => {
    const ps = perSet.get(s.id)!;
    return metrics.map((_, k) => (ps.n[k] > 0 ? ps.sum[k] / ps.n[k] : null));
  });
  const expertOf = finals.map((s) => measures.map((m) => expertValue(s, m)));
  const members = new Map<string, number[]>();
  finals.forEach((s, i) => {
    for (const g of groupKeys(s.model, s.specialty)) {
      const list = members.get(g);
      if (list) list.push(i);
      else members.set(g, [i]);
    }
  });
  const rows: CorrelationRow[] = [];
  for (const g of [...members.keys()].map((k) => ({ key: k, ...groupOf(k) })).sort(groupOrder)) {
    const idx = members.get(g.key)!;
    // A side with a value for every set of the group is ranked once and paired with every other such
    // side (the same rho as spearmanCI, without ranking it again per pair); a side with gaps (N/A) is
    // paired the plain way, over the complete pairs.
    const xs = metrics.map((_, k) => idx.map((i) => metricOf[i][k]));
    const ys = measures.map((_, j) => idx.map((i) => expertOf[i][j]));
    const full = (v: (number | null)[]) => (v.every((x) => x !== null) ? averageRanks(v as number[]) : null);
    const xRanks = xs.map(full);
    const yRanks = ys.map(full);
    for (let k = 0; k < M; k++) {
      measures.forEach((m, j) => {
        const rx = xRanks[k];
        const ry = yRanks[j];
        const r = rx && ry ? spearmanCIOfRanks(rx, ry, CI_LEVEL) : spearmanCI(xs[k], ys[j], CI_LEVEL);
        rows.push({ model: g.model, specialty: g.specialty, metric: metrics[k].key, measure: m.id, rho: r.rho, ci: r.ci, n: r.n, reason: r.reason ?? null });
      });
    }
  }

  // Disagreements on one measure, ranked over every final set.
  const wanted = input.measure && measures.some((m) => m.id === input.measure) ? input.measure : defaultMeasure(input.rubrics, measures);
  const cases: DisagreementCase[] = [];
  const j = measures.findIndex((m) => m.id === wanted);
  if (j >= 0) {
    const y = expertOf.map((e) => e[j]);
    metrics.forEach((m, k) => {
      const { xHigh, yHigh } = rankDisagreements(metricOf.map((v) => v[k]), y, DISAGREEMENT_CASES);
      const add = (direction: DisagreementCase["direction"]) => (gap: (typeof xHigh)[number]) => {
        const s = finals[gap.index];
        cases.push({ metric: m.key, direction, setId: s.id, externalId: s.externalId, model: s.model, specialty: s.specialty, metricValue: metricOf[gap.index][k]!, expertValue: y[gap.index]!, metricRank: gap.xRank, expertRank: gap.yRank });
      };
      xHigh.forEach(add("metric_high"));
      yHigh.forEach(add("expert_high"));
    });
  }

  return {
    metrics,
    models: [...new Set(input.sets.map((s) => s.model))].sort(byName),
    specialties: [...new Set(input.sets.map((s) => s.specialty))].sort(byName),
    answers,
    finalSets: finals.length,
    heatmap,
    corpusBleu,
    measures,
    skipped,
    correlation: { method: SPEARMAN_CI_METHOD, level: CI_LEVEL, rows },
    disagreements: { measure: j >= 0 ? wanted : null, cases },
  };
}
