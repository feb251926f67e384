/**
 * The comparison's rows for its tables and CSV downloads, and the figures' captions. Pure, for
 * the client panels and the tests. Names come from the data: the metrics' labels
 * (lib/reference-metrics/metrics.ts) and the rubric documents' dimension and total names.
 */
import type { TableData } from "@/lib/analytics/tables";
import type { ExpertMeasure, MetricComparison } from "./assemble";

export const ALL_MODELS = "All models";
export const ALL_SPECIALTIES = "All specialties";
export const CORPUS_BLEU = "Corpus BLEU";

const r6 = (v: number | null | undefined): number | null => (v === null || v === undefined || !Number.isFinite(v) ? null : Math.round(v * 1e6) / 1e6);
const modelName = (m: string | null) => m ?? ALL_MODELS;
const specialtyName = (s: string | null) => s ?? ALL_SPECIALTIES;

/** A measure's name for a table: "Accuracy (1-5)", with its rubric's name when the study has several rubrics. */
export function measureLabel(m: ExpertMeasure, rubricName: (key: string) => string, severalRubrics: boolean): string {
  const own = `${m.kind === "total" ? `${m.label} (total, ${m.min}-${m.max})` : `${m.label} (${m.min}-${m.max})`}`;
  return severalRubrics ? `${rubricName(m.rubric)} · ${own}` : own;
}

export function heatmapTable(c: Pick<MetricComparison, "heatmap" | "corpusBleu" | "metrics">): TableData {
  const label = new Map(c.metrics.map((m) => [m.key, m.label]));
  return {
    header: ["Model", "Specialty", "Metric", "Mean (0-1)", "Answers (n)"],
    rows: [
      ...c.heatmap.map((h) => [modelName(h.model), specialtyName(h.specialty), label.get(h.metric) ?? h.metric, r6(h.mean), h.n]),
      ...c.corpusBleu.map((b) => [modelName(b.model), specialtyName(b.specialty), CORPUS_BLEU, r6(b.value), b.n]),
    ],
  };
}

export function correlationTable(c: Pick<MetricComparison, "correlation" | "metrics" | "measures">, rubricName: (key: string) => string): TableData {
  const label = new Map(c.metrics.map((m) => [m.key, m.label]));
  const several = new Set(c.measures.map((m) => m.rubric)).size > 1;
  const measure = new Map(c.measures.map((m) => [m.id, measureLabel(m, rubricName, several)]));
  const pct = Math.round(c.correlation.level * 100);
  return {
    header: ["Model", "Specialty", "Metric", "Expert measure", "Spearman rho", `${pct}% CI low`, `${pct}% CI high`, "Final sets (n)", "Note"],
    rows: c.correlation.rows.map((r) => [modelName(r.model), specialtyName(r.specialty), label.get(r.metric) ?? r.metric, measure.get(r.measure) ?? r.measure, r6(r.rho), r6(r.ci?.[0]), r6(r.ci?.[1]), r.n, r.reason ?? ""]),
  };
}

/** "n = 3" or "n = 2-5": the answers behind the heatmap's cells. */
export function nSpan(ns: number[]): string {
  const xs = ns.filter((n) => n > 0);
  if (xs.length === 0) return "0";
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  return lo === hi ? String(lo) : `${lo}-${hi}`;
}

export function heatmapSubtitle(c: Pick<MetricComparison, "heatmap">): string {
  return `Mean per answer against the question's reference answer (0-1); n = ${nSpan(c.heatmap.filter((h) => h.model !== null && h.specialty !== null).map((h) => h.n))} answers per model and specialty`;
}

export function correlationCaption(c: Pick<MetricComparison, "correlation">): string {
  return `Spearman's rho over final response sets (each set's metric: the mean over its answers; its expert value: the final score), ${Math.round(c.correlation.level * 100)}% CI: ${c.correlation.method}.`;
}
