"use client";

import { fmt, fmtCi } from "@/lib/analytics/tables";
import type { MetricComparison } from "@/lib/metric-comparison/assemble";
import { correlationCaption, correlationTable, measureLabel } from "@/lib/metric-comparison/tables";
import { ChartPanel } from "@/components/dashboard/chart-panel";
import { deltaFill, deltaText } from "@/components/dashboard/colors";
import { fileName } from "@/components/dashboard/download";
import { useRubricName } from "@/components/dashboard/rubric-names";
import { MatrixFigure } from "./matrix-figure";

/**
 * Metric against expert: Spearman's rho between each metric and each ordinal dimension and total,
 * for one group (a model and specialty, or all of either), as a figure and a table.
 */
export function CorrelationPanel({ data, model, specialty, scope, slug }: { data: MetricComparison; model: string | null; specialty: string | null; scope: string; slug: string }) {
  const rubricName = useRubricName();
  const several = new Set(data.measures.map((m) => m.rubric)).size > 1;
  const rows = data.correlation.rows.filter((r) => r.model === model && r.specialty === specialty);
  const label = new Map(data.measures.map((m) => [m.id, measureLabel(m, rubricName, several)]));
  const metricLabel = new Map(data.metrics.map((m) => [m.key, m.label]));
  const measureRows = data.measures.map((m) => label.get(m.id)!);
  const byLabel = new Map(data.measures.map((m) => [label.get(m.id)!, m.id]));
  const metricByLabel = new Map(data.metrics.map((m) => [m.label, m.key]));
  const pct = Math.round(data.correlation.level * 100);
  const empty =
    data.measures.length === 0
      ? "The study's rubrics have no ordinal dimension and no total to correlate with."
      : rows.length === 0
        ? "No final response set with a reference-based metric in this group yet."
        : null;
  const file = fileName(slug, "metric-vs-expert", model ?? "all-models", specialty ?? "all-specialties");
  return (
    <ChartPanel
      id="metric-correlation"
      title={`Metric against expert scores — ${scope}`}
      description={`Spearman's rho between each metric and each final score, with its ${pct}% confidence interval. Blue: the metric rises with the experts' score; vermilion: it falls.`}
      empty={empty}
      layout="side"
      emphasis="table"
      csv={empty ? undefined : { name: file, table: correlationTable({ ...data, correlation: { ...data.correlation, rows } }, rubricName) }}
      image={empty ? undefined : { name: file, title: `Reference-based metrics against expert final scores, ${scope} (Spearman's rho)`, subtitle: correlationCaption(data) }}
      chart={
        empty ? null : (
          <MatrixFigure
            panels={[
              {
                title: scope,
                rows: measureRows,
                cols: data.metrics.map((m) => m.label),
                cell: (r, c) => {
                  const hit = rows.find((x) => x.measure === byLabel.get(r) && x.metric === metricByLabel.get(c));
                  if (!hit) return null;
                  return { value: hit.rho, text: fmt(hit.rho), sub: `n = ${hit.n}`, title: `${c} vs ${r}: rho ${fmt(hit.rho)}, ${pct}% CI ${fmtCi(hit.ci)}, n = ${hit.n}${hit.reason ? ` (${hit.reason})` : ""}` };
                },
              },
            ]}
            label={`Spearman's rho between reference-based metrics (columns) and expert final scores (rows), ${scope}`}
            fill={deltaFill}
            text={deltaText}
            legend={{ min: -1, max: 1, left: "−1 metric falls as experts rise", right: "metric rises with experts +1" }}
          />
        )
      }
      table={
        empty ? null : (
          <div className="max-h-96 overflow-auto rounded-md border border-border" tabIndex={0} role="region" aria-label="Metric against expert table (scrolls)">
            <table className="w-full text-sm" aria-label={`Metric against expert scores, ${scope}`} data-testid="metric-expert-table">
              <thead className="sticky top-0 bg-muted text-left text-muted-foreground">
                <tr>
                  <th scope="col" className="px-3 py-2 font-medium">Expert measure</th>
                  <th scope="col" className="px-3 py-2 font-medium">Metric</th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">ρ</th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">{pct}% CI</th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">n</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={`${r.measure}-${r.metric}`} className="border-t border-border">
                    <td className="px-3 py-1.5">{label.get(r.measure)}</td>
                    <td className="px-3 py-1.5">{metricLabel.get(r.metric)}</td>
                    <td className="px-3 py-1.5 text-right font-medium tabular-nums" title={r.reason ?? undefined}>
                      {fmt(r.rho)}
                    </td>
                    <td className="px-3 py-1.5 text-right tabular-nums">{fmtCi(r.ci)}</td>
                    <td className="px-3 py-1.5 text-right tabular-nums">{r.n}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )
      }
      footer={
        <p>
          {correlationCaption(data)} A cell without a value had fewer than two sets or a constant side; an interval needs four sets.
        </p>
      }
    />
  );
}
