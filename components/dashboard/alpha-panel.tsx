"use client";

import { Bar, BarChart, CartesianGrid, ErrorBar, ReferenceLine, Tooltip, XAxis, YAxis } from "recharts";
import { alphaTable, fmt, fmtCi } from "@/lib/analytics/tables";
import type { AlphaBlock, Block } from "@/lib/analytics/types";
import { ChartPanel } from "./chart-panel";
import { rubricColor, useRubricName } from "./rubric-names";
import { fileName } from "./download";
import { Legend } from "./legend";
import { nRange } from "@/lib/analytics/captions";

const LINES = [
  { y: 0.7, label: "acceptable" },
  { y: 0.8, label: "good" },
  { y: 0.9, label: "excellent" },
];

/** Cronbach's alpha per specialty with Feldt 95% CI whiskers and the usual 0.7 / 0.8 / 0.9 references. */
export function AlphaPanel({ block, rubrics, slug, filterTag }: { block: Block<AlphaBlock>; rubrics: string[]; slug: string; filterTag: string }) {
  const rubricName = useRubricName();
  const bars = block.data?.bars ?? [];
  const specialties = [...new Set(bars.map((b) => b.specialty))];
  const data = specialties.map((specialty) => {
    const row: Record<string, unknown> = { specialty };
    for (const r of rubrics) {
      const b = bars.find((x) => x.specialty === specialty && x.rubric === r);
      row[r] = b?.alpha ?? null;
      row[`${r}_err`] = b?.alpha !== null && b?.alpha !== undefined && b.ci ? [b.alpha - b.ci[0], b.ci[1] - b.alpha] : null;
      row[`${r}_ci`] = b?.ci ?? null;
    }
    return row;
  });
  const lows = bars.flatMap((b) => (b.ci ? [b.ci[0]] : b.alpha !== null ? [b.alpha] : []));
  const yMin = Math.min(0, Math.floor(Math.min(0, ...lows) * 5) / 5);
  const legend = rubrics.map((r) => ({ label: rubricName(r), color: rubricColor(r, rubrics) }));
  const undefinedBars = bars.filter((b) => b.alpha === null);
  return (
    <ChartPanel
      id="alpha"
      title="Cronbach's alpha per specialty"
      description="Internal consistency of each rubric's dimensions, with Feldt's 95% confidence interval."
      empty={block.reason}
      csv={block.data ? { name: fileName(slug, "alpha", filterTag), table: alphaTable(bars, rubricName) } : undefined}
      image={block.data ? { name: fileName(slug, "alpha", filterTag), title: "Cronbach's alpha per specialty (Feldt 95% CI)", subtitle: `n = ${nRange(bars.map((b) => b.n))} final response sets per bar`, legend } : undefined}
      chart={
        block.data ? (
          <figure className="flex flex-col gap-2">
            <BarChart responsive style={{ width: "100%", height: 320 }} data={data} margin={{ top: 16, right: 84, bottom: 8, left: 0 }} barCategoryGap="24%">
              <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e2e8f0" />
              <XAxis dataKey="specialty" tick={{ fontSize: 12, fill: "#334155" }} interval={0} tickLine={false} />
              <YAxis domain={[yMin, 1]} tickCount={Math.round((1 - yMin) * 5) + 1} tick={{ fontSize: 11, fill: "#64748b" }} tickFormatter={(v: number) => fmt(v, 1)} width={44} />
              {LINES.map((l) => (
                <ReferenceLine
                  key={l.y}
                  y={l.y}
                  stroke="#94a3b8"
                  strokeDasharray="4 3"
                  ifOverflow="extendDomain"
                  label={{ value: `${l.y} ${l.label}`, position: "right", fontSize: 11, fill: "#475569" }}
                />
              ))}
              <ReferenceLine y={0} stroke="#64748b" />
              <Tooltip
                formatter={(value, name, item) => {
                  const ci = (item.payload as Record<string, [number, number] | null>)[`${String(item.dataKey)}_ci`];
                  return [value === null || value === undefined ? "n/a" : `${fmt(Number(value), 3)}  CI ${fmtCi(ci, 3)}`, rubricName(String(name))];
                }}
              />
              {rubrics.map((r) => (
                <Bar key={r} dataKey={r} name={r} fill={rubricColor(r, rubrics)} radius={[3, 3, 0, 0]} maxBarSize={56} isAnimationActive={false}>
                  <ErrorBar dataKey={`${r}_err`} width={8} strokeWidth={1.5} stroke="#0f172a" direction="y" />
                </Bar>
              ))}
            </BarChart>
            {rubrics.length > 1 ? <Legend entries={legend} /> : null}
          </figure>
        ) : null
      }
      table={
        block.data ? (
          <div className="overflow-x-auto rounded-md border border-border">
            <table className="w-full text-sm" aria-label="Cronbach's alpha per specialty">
              <thead className="bg-muted/60 text-left text-muted-foreground">
                <tr>
                  <th scope="col" className="px-3 py-2 font-medium">Specialty</th>
                  {rubrics.length > 1 ? <th scope="col" className="px-3 py-2 font-medium">Rubric</th> : null}
                  <th scope="col" className="px-3 py-2 text-right font-medium">α</th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">95% CI</th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">n</th>
                </tr>
              </thead>
              <tbody>
                {bars.map((b) => (
                  <tr key={`${b.specialty}-${b.rubric}`} className="border-t border-border">
                    <th scope="row" className="px-3 py-1.5 text-left font-medium">{b.specialty}</th>
                    {rubrics.length > 1 ? <td className="px-3 py-1.5">{rubricName(b.rubric)}</td> : null}
                    <td className="px-3 py-1.5 text-right tabular-nums" title={b.reason ?? undefined}>
                      {b.alpha === null ? <span className="text-muted-foreground">n/a</span> : fmt(b.alpha, 3)}
                    </td>
                    <td className="px-3 py-1.5 text-right tabular-nums">{fmtCi(b.ci, 3)}</td>
                    <td className="px-3 py-1.5 text-right tabular-nums">{b.n}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null
      }
      footer={
        <>
          <p>
            Alpha measures the rubric&apos;s internal consistency (whether its dimensions rise and fall together across the final per-set scores), not agreement
            between graders: that is the inter-rater agreement table below. Dashed lines: 0.7 acceptable, 0.8 good, 0.9 excellent.
          </p>
          {undefinedBars.length ? (
            <p className="mt-1">
              n/a: {undefinedBars.map((b) => `${b.specialty}${rubrics.length > 1 ? ` (${rubricName(b.rubric)})` : ""}: ${b.reason}`).join("; ")}.
            </p>
          ) : null}
        </>
      }
    />
  );
}
