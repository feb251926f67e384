"use client";

import type { PairwiseBlock } from "@/lib/analytics/pairwise-contract";
import { strengthsTable } from "@/lib/analytics/pairwise-tables";
import { fmt, fmtCi } from "@/lib/analytics/tables";
import type { Block } from "@/lib/analytics/types";
import { ChartPanel } from "./chart-panel";
import { modelColor } from "./colors";
import { fileName } from "./download";

const ROW = 22;
const HEAD = 26;
const LEFT = 170;
const PLOT = 420;
const RIGHT = 150;

/**
 * Forest plot of the Bradley-Terry log-strengths (centred, mean 0) with their question-bootstrap
 * 95% intervals, one facet per axis and the pooled "Overall" last. Drawn as plain SVG so the
 * SVG/PNG download is the figure itself.
 */
export function PairwiseForestPanel({ block, slug, filterTag }: { block: Block<PairwiseBlock>; slug: string; filterTag: string }) {
  const data = block.data;
  const derived = data?.source === "scores";
  const title = derived ? "Preferences derived from final scores: strengths" : "Bradley-Terry strengths";
  const values = (data?.axes ?? []).flatMap((a) => a.strengths.rows.flatMap((r) => [r.logStrength, ...(r.ci ?? [])])).filter((v): v is number => v !== null && Number.isFinite(v));
  const span = Math.max(0.5, ...values.map(Math.abs));
  const lo = -Math.ceil(span * 2) / 2;
  const hi = -lo;
  const x = (v: number) => LEFT + ((v - lo) / (hi - lo)) * PLOT;
  const ticks: number[] = [];
  const step = hi - lo > 4 ? 1 : 0.5;
  for (let t = lo; t <= hi + 1e-9; t += step) ticks.push(Math.round(t * 100) / 100);
  const tops = (data?.axes ?? []).reduce<number[]>((acc, a, i, all) => [...acc, i === 0 ? 8 : acc[i - 1] + HEAD + all[i - 1].strengths.rows.length * ROW + 8], []);
  const facets = (data?.axes ?? []).map((a, i) => ({ a, top: tops[i] }));
  const last = data?.axes.at(-1);
  const y = last ? tops[tops.length - 1] + HEAD + last.strengths.rows.length * ROW + 8 : 8;
  const height = y + 28;
  const width = LEFT + PLOT + RIGHT;
  const n = data ? data.axes.map((a) => a.n) : [];
  return (
    <ChartPanel
      id="pairwise-forest"
      title={title}
      description={
        derived
          ? "A scoring study's final scores read as preferences (the higher-scored answer of each pair wins), fitted as a pairwise study's would be."
          : "Log-strengths centred to mean 0 with 95% bootstrap intervals over questions; every grader's preference counts. P(best): share of bootstrap replicates in which the model was strongest."
      }
      empty={block.reason}
      layout="stacked"
      csv={data ? { name: fileName(slug, "pairwise-strengths", filterTag), table: strengthsTable(data) } : undefined}
      image={data ? { name: fileName(slug, "pairwise-strengths", filterTag), title: `${title} (95% bootstrap CI, ${data.replicates} resamples of questions)`, subtitle: `n = ${Math.min(...n)}-${Math.max(...n)} preferences per axis` } : undefined}
      chart={
        data ? (
          <figure className="overflow-x-auto">
            <svg data-chart="pairwise-forest" role="img" aria-label={`${title}: forest plot per axis`} viewBox={`0 0 ${width} ${height}`} width="100%" style={{ maxWidth: width, minWidth: 560 }} fontFamily="system-ui, sans-serif">
              {facets.map(({ a, top }) => (
                <g key={a.axis ?? "overall"}>
                  <text x={8} y={top + 16} fontSize={13} fontWeight={600} fill="#0f172a">
                    {a.label}
                    {a.strengths.model === "davidson" && a.strengths.nu !== null ? ` (ties: ν = ${fmt(a.strengths.nu, 2)})` : ""}
                    {` · n = ${a.n}`}
                  </text>
                  <line x1={x(0)} x2={x(0)} y1={top + HEAD - 4} y2={top + HEAD + a.strengths.rows.length * ROW} stroke="#94a3b8" strokeDasharray="4 3" />
                  {a.strengths.rows.map((r, i) => {
                    const cy = top + HEAD + i * ROW + ROW / 2;
                    const color = modelColor(r.model, data.models);
                    return (
                      <g key={r.model}>
                        <text x={LEFT - 8} y={cy + 4} fontSize={12} textAnchor="end" fill="#334155">
                          {r.model.length > 24 ? `${r.model.slice(0, 23)}…` : r.model}
                        </text>
                        {r.ci ? <line x1={x(r.ci[0])} x2={x(r.ci[1])} y1={cy} y2={cy} stroke={color} strokeWidth={2} /> : null}
                        {r.logStrength !== null ? <rect x={x(r.logStrength) - 4} y={cy - 4} width={8} height={8} fill={color} /> : null}
                        <text x={LEFT + PLOT + 8} y={cy + 4} fontSize={11} fill="#334155">
                          {r.logStrength === null ? "n/a" : `${fmt(r.logStrength, 2)} ${fmtCi(r.ci, 2)}`}
                        </text>
                      </g>
                    );
                  })}
                  {a.strengths.reason ? (
                    <text x={LEFT} y={top + HEAD + 12} fontSize={11} fill="#b45309">
                      {a.strengths.reason}
                    </text>
                  ) : null}
                </g>
              ))}
              <line x1={LEFT} x2={LEFT + PLOT} y1={y} y2={y} stroke="#64748b" />
              {ticks.map((t) => (
                <g key={t}>
                  <line x1={x(t)} x2={x(t)} y1={y} y2={y + 4} stroke="#64748b" />
                  <text x={x(t)} y={y + 16} fontSize={11} textAnchor="middle" fill="#475569">
                    {fmt(t, 1)}
                  </text>
                </g>
              ))}
              <text x={LEFT + PLOT / 2} y={y + 27} fontSize={11} textAnchor="middle" fill="#475569">
                log-strength (0 = average model)
              </text>
            </svg>
          </figure>
        ) : null
      }
      table={
        data ? (
          <div className="overflow-x-auto rounded-md border border-border">
            <table className="w-full text-sm" aria-label="Bradley-Terry strengths per axis">
              <thead className="bg-muted/60 text-left text-muted-foreground">
                <tr>
                  <th scope="col" className="px-3 py-2 font-medium">Axis</th>
                  <th scope="col" className="px-3 py-2 font-medium">Model</th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">Log-strength</th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">SE</th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">95% CI</th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">P(best)</th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">n</th>
                </tr>
              </thead>
              <tbody>
                {data.axes.flatMap((a) =>
                  a.strengths.rows.map((r, i) => (
                    <tr key={`${a.axis}-${r.model}`} className="border-t border-border">
                      <th scope="row" className="px-3 py-1.5 text-left font-medium">{i === 0 ? a.label : ""}</th>
                      <td className="px-3 py-1.5">{r.model}</td>
                      <td className="px-3 py-1.5 text-right tabular-nums">{fmt(r.logStrength, 3)}</td>
                      <td className="px-3 py-1.5 text-right tabular-nums">{fmt(r.se, 3)}</td>
                      <td className="px-3 py-1.5 text-right tabular-nums">{fmtCi(r.ci, 3)}</td>
                      <td className="px-3 py-1.5 text-right tabular-nums">{fmt(r.probabilityBest, 3)}</td>
                      <td className="px-3 py-1.5 text-right tabular-nums">{a.n}</td>
                    </tr>
                  )),
                )}
              </tbody>
            </table>
          </div>
        ) : null
      }
      footer={data ? <p>{data.note}</p> : null}
    />
  );
}
