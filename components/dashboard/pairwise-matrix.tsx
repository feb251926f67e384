"use client";

import { useId, useState } from "react";
import type { PairwiseBlock } from "@/lib/analytics/pairwise-contract";
import { biasTable, pairsTable, pairwiseAgreementTable, winMatrix, winMatrixTable } from "@/lib/analytics/pairwise-tables";
import { fmt, fmtCi, fmtPct } from "@/lib/analytics/tables";
import type { Block } from "@/lib/analytics/types";
import { ChartPanel } from "./chart-panel";
import { fileName } from "./download";

const CELL = 56;
const LABEL = 150;

/** Blue above one half (the row model wins more), vermilion below, stronger further from it. */
function rateFill(rate: number | null): string {
  if (rate === null) return "#f1f5f9";
  const t = Math.min(1, Math.abs(rate - 0.5) * 2);
  const [r, g, b] = rate >= 0.5 ? [33, 102, 172] : [198, 61, 36];
  const mix = (c: number) => Math.round(255 + (c - 255) * (0.1 + 0.9 * t));
  return `rgb(${mix(r)}, ${mix(g)}, ${mix(b)})`;
}

const short = (m: string) => (m.length > 18 ? `${m.slice(0, 17)}…` : m);

/** The observed win-rate matrix of one axis as a heatmap (row model against column model), with the pair table beside it. */
export function PairwiseMatrixPanel({ block, slug, filterTag }: { block: Block<PairwiseBlock>; slug: string; filterTag: string }) {
  const data = block.data;
  const [axisIndex, setAxisIndex] = useState(0);
  const selectId = useId();
  const axis = data?.axes[Math.min(axisIndex, data.axes.length - 1)];
  const models = data?.models ?? [];
  const matrix = axis ? winMatrix(axis, models) : [];
  const size = LABEL + models.length * CELL + 8;
  return (
    <ChartPanel
      id="pairwise-matrix"
      title="Win rates per pair of models"
      description="Share of preferences the row model won against the column model (ties count against), with Wilson 95% intervals and CLEVER-style relative preference in the table."
      empty={block.reason}
      csv={data ? { name: fileName(slug, "pairwise-win-rates", filterTag), table: mergeTables(winMatrixTable(data), pairsTable(data)) } : undefined}
      image={data && axis ? { name: fileName(slug, `pairwise-win-matrix-${axis.axis ?? "overall"}`, filterTag), title: `Observed win rate, row model against column model: ${axis.label}`, subtitle: `n = ${axis.n} preferences` } : undefined}
      chart={
        data && axis ? (
          <figure className="flex flex-col gap-2">
            {data.axes.length > 1 ? (
              <div className="flex items-center gap-2 text-sm print:hidden">
                <label htmlFor={selectId}>Axis</label>
                <select id={selectId} value={axisIndex} onChange={(e) => setAxisIndex(Number(e.target.value))} className="h-8 rounded-md border border-border bg-background px-2 text-sm">
                  {data.axes.map((a, i) => (
                    <option key={a.axis ?? "overall"} value={i}>
                      {a.label}
                    </option>
                  ))}
                </select>
              </div>
            ) : null}
            <div className="overflow-x-auto">
              <svg data-chart="pairwise-matrix" role="img" aria-label={`Win-rate heatmap: ${axis.label}`} viewBox={`0 0 ${size} ${size}`} width={size} height={size} fontFamily="system-ui, sans-serif">
                {models.map((m, j) => (
                  <text key={`c${m}`} x={LABEL + j * CELL + CELL / 2} y={LABEL - 6} fontSize={11} fill="#334155" transform={`rotate(-40 ${LABEL + j * CELL + CELL / 2} ${LABEL - 6})`}>
                    {short(m)}
                  </text>
                ))}
                {models.map((row, i) => (
                  <g key={`r${row}`}>
                    <text x={LABEL - 6} y={LABEL + i * CELL + CELL / 2 + 4} fontSize={11} textAnchor="end" fill="#334155">
                      {short(row)}
                    </text>
                    {models.map((col, j) => {
                      const c = matrix[i][j];
                      return (
                        <g key={col}>
                          <rect x={LABEL + j * CELL} y={LABEL + i * CELL} width={CELL - 2} height={CELL - 2} fill={i === j ? "#e2e8f0" : rateFill(c.rate)} />
                          {i !== j ? (
                            <text x={LABEL + j * CELL + CELL / 2 - 1} y={LABEL + i * CELL + CELL / 2 + 4} fontSize={11} textAnchor="middle" fill={c.rate !== null && Math.abs(c.rate - 0.5) > 0.25 ? "#ffffff" : "#0f172a"}>
                              {c.rate === null ? "—" : fmt(c.rate, 2)}
                            </text>
                          ) : null}
                        </g>
                      );
                    })}
                  </g>
                ))}
              </svg>
            </div>
          </figure>
        ) : null
      }
      table={
        data && axis ? (
          <div className="overflow-x-auto rounded-md border border-border">
            <table className="w-full text-sm" aria-label={`Pairs of models: ${axis.label}`}>
              <thead className="bg-muted/60 text-left text-muted-foreground">
                <tr>
                  <th scope="col" className="px-3 py-2 font-medium">A vs B</th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">W / T / L</th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">A win rate (95% CI)</th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">A preferred more often</th>
                </tr>
              </thead>
              <tbody>
                {axis.pairs.map((p) => (
                  <tr key={`${p.a}-${p.b}`} className="border-t border-border">
                    <th scope="row" className="px-3 py-1.5 text-left font-medium">
                      {p.a} vs {p.b}
                    </th>
                    <td className="px-3 py-1.5 text-right tabular-nums">
                      {p.wins} / {p.ties} / {p.losses}
                    </td>
                    <td className="px-3 py-1.5 text-right tabular-nums">
                      {fmt(p.winRate.estimate, 2)} {fmtCi(p.winRate.ci, 2)}
                    </td>
                    <td className="px-3 py-1.5 text-right tabular-nums">{p.relativePreference === null ? "—" : fmtPct(p.relativePreference)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null
      }
    />
  );
}

/** Position and length bias, and the graders' agreement, per axis. */
export function PairwiseBiasPanel({ block, slug, filterTag }: { block: Block<PairwiseBlock>; slug: string; filterTag: string }) {
  const data = block.data;
  const derived = data?.source === "scores";
  return (
    <ChartPanel
      id="pairwise-bias"
      title={derived ? "Length bias of the derived preferences" : "Position and length bias, agreement"}
      description="Share of decisive preferences given to the left answer and to the longer answer (binomial test against one half); agreement of primary graders on left / tie / right."
      empty={block.reason}
      layout="stacked"
      csv={data ? { name: fileName(slug, "pairwise-bias-agreement", filterTag), table: mergeTables(biasTable(data), pairwiseAgreementTable(data)) } : undefined}
      table={
        data ? (
          <div className="overflow-x-auto rounded-md border border-border">
            <table className="w-full text-sm" aria-label="Position and length bias and agreement per axis">
              <thead className="bg-muted/60 text-left text-muted-foreground">
                <tr>
                  <th scope="col" className="px-3 py-2 font-medium">Axis</th>
                  {derived ? null : <th scope="col" className="px-3 py-2 text-right font-medium">Left preferred (95% CI)</th>}
                  {derived ? null : <th scope="col" className="px-3 py-2 text-right font-medium">p</th>}
                  <th scope="col" className="px-3 py-2 text-right font-medium">Longer preferred (95% CI)</th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">p</th>
                  {derived ? null : <th scope="col" className="px-3 py-2 text-right font-medium">Agreement</th>}
                  {derived ? null : <th scope="col" className="px-3 py-2 text-right font-medium">Fleiss κ</th>}
                  {derived ? null : <th scope="col" className="px-3 py-2 text-right font-medium">Gwet AC1</th>}
                  {derived ? null : <th scope="col" className="px-3 py-2 text-right font-medium">n comparisons</th>}
                </tr>
              </thead>
              <tbody>
                {data.axes.map((a) => (
                  <tr key={a.axis ?? "overall"} className="border-t border-border">
                    <th scope="row" className="px-3 py-1.5 text-left font-medium">{a.label}</th>
                    {derived ? null : (
                      <td className="px-3 py-1.5 text-right tabular-nums">
                        {fmtPct(a.positionBias.share, 1)} {fmtCi(a.positionBias.ci, 2)} (n = {a.positionBias.n})
                      </td>
                    )}
                    {derived ? null : <td className="px-3 py-1.5 text-right tabular-nums">{fmt(a.positionBias.pValue, 4)}</td>}
                    <td className="px-3 py-1.5 text-right tabular-nums">
                      {fmtPct(a.lengthBias.share, 1)} {fmtCi(a.lengthBias.ci, 2)} (n = {a.lengthBias.n})
                    </td>
                    <td className="px-3 py-1.5 text-right tabular-nums">{fmt(a.lengthBias.pValue, 4)}</td>
                    {derived ? null : <td className="px-3 py-1.5 text-right tabular-nums">{fmtPct(a.agreement?.percent, 1)}</td>}
                    {derived ? null : <td className="px-3 py-1.5 text-right tabular-nums">{fmt(a.agreement?.fleiss, 3)}</td>}
                    {derived ? null : (
                      <td className="px-3 py-1.5 text-right tabular-nums">
                        {fmt(a.agreement?.ac1, 3)} {fmtCi(a.agreement?.ac1Ci ?? null, 2)}
                      </td>
                    )}
                    {derived ? null : <td className="px-3 py-1.5 text-right tabular-nums">{a.agreement?.comparisons ?? 0}</td>}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null
      }
    />
  );
}

/** Two tables in one CSV: the second's header becomes a row, under a blank line. */
function mergeTables(a: ReturnType<typeof biasTable>, b: ReturnType<typeof biasTable>) {
  return { header: a.header, rows: [...a.rows, [], b.header, ...b.rows] };
}
