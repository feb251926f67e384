"use client";

import { PolarAngleAxis, PolarGrid, PolarRadiusAxis, Radar, RadarChart, Tooltip } from "recharts";
import { radarDescription, radarSubtitle, radarTick, radarTicks, scaleRange } from "@/lib/analytics/captions";
import { radarTable, fmt } from "@/lib/analytics/tables";
import type { RadarChart as RadarData, RubricBlock } from "@/lib/analytics/types";
import { ChartPanel } from "./chart-panel";
import { useRubricName } from "./rubric-names";
import { modelColor } from "./colors";
import { fileName } from "./download";
import { Legend } from "./legend";

/**
 * Mean score per dimension and model, its scale from the rubric document: one
 * shared scale in its points, the centre at its minimum; mixed scales each from
 * its lowest value (centre) to its highest (rim).
 */
export function RadarPanel({
  block,
  allModels,
  slug,
  filterTag,
  layout = "side",
}: {
  block: RubricBlock<RadarData>;
  allModels: string[];
  slug: string;
  filterTag: string;
  layout?: "side" | "stacked";
}) {
  const rubricName = useRubricName();
  const chart = block.data;
  const name = rubricName(block.rubric);
  const scaled = chart?.scale === "fraction";
  const legend = chart?.series.map((s) => ({ label: `${s.model} (n = ${s.n})`, color: modelColor(s.model, allModels) })) ?? [];
  const data =
    chart?.axes.map((a, i) => ({
      label: a.label,
      ...Object.fromEntries(chart.series.map((s, j) => [`s${j}`, s.points[i].value])),
      ...Object.fromEntries(chart.series.map((s, j) => [`m${j}`, s.points[i].mean])),
    })) ?? [];
  return (
    <ChartPanel
      id={`radar-${block.rubric.toLowerCase()}`}
      title={`${name} profile by model`}
      description={chart ? radarDescription(chart) : undefined}
      empty={block.reason}
      layout={layout}
      emphasis="table"
      csv={chart ? { name: fileName(slug, "radar", block.rubric, filterTag), table: radarTable(chart, rubricName) } : undefined}
      image={chart ? { name: fileName(slug, "radar", block.rubric, filterTag), title: `${name} profile by model — ${chart.specialty}`, subtitle: radarSubtitle(chart), legend } : undefined}
      chart={
        chart ? (
          <figure className="flex flex-col gap-2">
            <RadarChart responsive style={{ width: "100%", height: 360 }} data={data} outerRadius="66%" margin={{ top: 12, right: 84, bottom: 12, left: 84 }}>
              <PolarGrid stroke="#cbd5e1" />
              <PolarAngleAxis dataKey="label" tick={{ fontSize: 12, fill: "#334155" }} />
              <PolarRadiusAxis
                domain={[chart.domainMin, chart.domainMax]}
                ticks={radarTicks(chart)}
                angle={54}
                tick={{ fontSize: 10, fill: "#64748b" }}
                tickFormatter={(v: number) => radarTick(chart, v)}
                axisLine={false}
              />
              {chart.series.map((s, j) => (
                <Radar
                  key={s.model}
                  name={s.model}
                  dataKey={`s${j}`}
                  stroke={modelColor(s.model, allModels)}
                  strokeWidth={2}
                  fill={modelColor(s.model, allModels)}
                  fillOpacity={0.12}
                  dot={{ r: 3 }}
                  isAnimationActive={false}
                />
              ))}
              <Tooltip
                formatter={(value, _name, item) => {
                  const key = String(item.dataKey ?? "");
                  const mean = (item.payload as Record<string, number | null>)[key.replace("s", "m")];
                  return scaled ? [`${fmt(Number(value) * 100, 0)}% of the scale (mean ${fmt(mean)})`, item.name] : [fmt(Number(value)), item.name];
                }}
              />
            </RadarChart>
            <Legend entries={legend} />
            <figcaption className="sr-only">
              {name} radar chart for {chart.specialty}: {chart.series.map((s) => s.model).join(", ")}.
            </figcaption>
          </figure>
        ) : null
      }
      table={chart ? <RadarTable chart={chart} allModels={allModels} /> : null}
    />
  );
}

function RadarTable({ chart, allModels }: { chart: RadarData; allModels: string[] }) {
  const rubricName = useRubricName();
  const scaled = chart.scale === "fraction";
  return (
    <div className="overflow-x-auto rounded-md border border-border">
      <table className="w-full text-sm" aria-label={`${rubricName(chart.rubric)} means by dimension and model`}>
        <thead className="bg-muted/60 text-left text-muted-foreground">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">
              {scaled ? "Dimension (scale)" : "Dimension"}
            </th>
            {chart.series.map((s) => (
              <th key={s.model} scope="col" className="px-3 py-2 text-right font-medium">
                <span className="inline-flex items-center gap-1.5">
                  <span aria-hidden className="size-2.5 rounded-full" style={{ background: modelColor(s.model, allModels) }} />
                  <span className="max-w-[9rem] truncate" title={s.model}>
                    {s.model}
                  </span>
                </span>
                <span className="block text-xs font-normal">n = {s.n}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {chart.axes.map((a, i) => (
            <tr key={a.dimension} className="border-t border-border">
              <th scope="row" className="px-3 py-2 text-left font-medium">
                {a.label}
                {scaled ? <span className="text-muted-foreground"> ({scaleRange(a)})</span> : null}
              </th>
              {chart.series.map((s) => {
                const p = s.points[i];
                return (
                  <td key={s.model} className="px-2.5 py-2 text-right tabular-nums">
                    {fmt(p.mean)}
                    <span className="text-xs text-muted-foreground"> ± {fmt(p.sd)}</span>
                    {scaled ? <span className="block text-xs text-muted-foreground">{p.value === null ? "—" : `${Math.round(p.value * 100)}%`}</span> : null}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
