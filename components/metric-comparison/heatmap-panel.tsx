"use client";

import { fmt } from "@/lib/analytics/tables";
import type { MetricComparison } from "@/lib/metric-comparison/assemble";
import { ALL_MODELS, ALL_SPECIALTIES, CORPUS_BLEU, heatmapSubtitle, heatmapTable } from "@/lib/metric-comparison/tables";
import { ChartPanel } from "@/components/dashboard/chart-panel";
import { fileName } from "@/components/dashboard/download";
import { MatrixFigure, sequentialFill, sequentialText, type MatrixCell } from "./matrix-figure";

/**
 * The reference metrics' heatmap (the paper's Figure 3A): one panel per model and one for all
 * models; rows are specialties (and all of them), columns the metrics' means and corpus BLEU.
 */
export function MetricHeatmapPanel({ data, slug }: { data: MetricComparison; slug: string }) {
  const models = [...data.models.filter((m) => data.heatmap.some((h) => h.model === m)), ALL_MODELS];
  const specialties = [...data.specialties.filter((s) => data.heatmap.some((h) => h.specialty === s)), ALL_SPECIALTIES];
  const cols = [...data.metrics.map((m) => m.label), CORPUS_BLEU];
  const keyOf = new Map(data.metrics.map((m) => [m.label, m.key]));
  const un = (v: string, all: string) => (v === all ? null : v);
  const cell = (model: string, specialty: string, col: string): MatrixCell | null => {
    const m = un(model, ALL_MODELS);
    const s = un(specialty, ALL_SPECIALTIES);
    const hit =
      col === CORPUS_BLEU
        ? data.corpusBleu.find((c) => c.model === m && c.specialty === s)
        : (() => {
            const h = data.heatmap.find((c) => c.model === m && c.specialty === s && c.metric === keyOf.get(col));
            return h ? { value: h.mean, n: h.n } : undefined;
          })();
    if (!hit || hit.n === 0) return null;
    return { value: hit.value, text: fmt(hit.value, 3), sub: `n = ${hit.n}`, title: `${model}, ${specialty}: ${col} ${fmt(hit.value, 3)} over ${hit.n} answers` };
  };
  const panels = models.map((model) => ({ title: model, rows: specialties, cols, cell: (r: string, c: string) => cell(model, r, c) }));
  const file = fileName(slug, "reference-metrics-heatmap");
  const empty = data.answers === 0 ? "No answer has reference-based metrics: import answers with a reference_answer for their question." : null;
  return (
    <ChartPanel
      id="metric-heatmap"
      title="Reference-based metrics per model and specialty"
      description="Mean of each metric over the answers, against each question's reference answer (0-1; darker is closer to the reference). Corpus BLEU pools each group's n-gram counts. Hover a cell for its reading."
      empty={empty}
      layout="stacked"
      csv={empty ? undefined : { name: file, table: heatmapTable(data) }}
      image={empty ? undefined : { name: file, title: "Reference-based metrics per model and specialty", subtitle: heatmapSubtitle(data) }}
      chart={
        empty ? null : (
          <div className="flex justify-center overflow-x-auto">
            <MatrixFigure
              panels={panels}
              label="Heatmap of reference-based metrics per model (panels), specialty (rows) and metric (columns)"
              fill={sequentialFill}
              text={sequentialText}
              legend={{ min: 0, max: 1, left: "0 no overlap", right: "identical to the reference 1" }}
            />
          </div>
        )
      }
      footer={
        <p>
          BLEU as sacreBLEU computes it by default (13a tokens, exponential smoothing), ROUGE-1 and ROUGE-L F1 as rouge-score does (lower-cased, no stemming), all divided to 0-1.
          Questions without a reference answer are left out.
        </p>
      }
    />
  );
}
