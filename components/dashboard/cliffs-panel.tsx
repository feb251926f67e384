"use client";

import { cliffsSubtitle, measureName, measuresCaption } from "@/lib/analytics/captions";
import { cliffsTable, fmtCi, fmtSigned } from "@/lib/analytics/tables";
import type { CliffsBlock, CliffsCell, ComparisonMeasure } from "@/lib/analytics/types";
import { Badge } from "@/components/ui/badge";
import { ChartPanel } from "./chart-panel";
import { useRubricName } from "./rubric-names";
import { deltaFill, deltaText } from "./colors";
import { fileName } from "./download";

const CELL_W = 72;
const CELL_H = 46;
const TITLE = 26;
const GAP = 28;
const SLANT = (35 * Math.PI) / 180;
/** A model name's width at the labels' 11 px, generously (wider than any sans-serif draws it): labels are never cut, so the panel makes room. */
const labelWidth = (s: string) => s.length * 6.6 + 4;

function describe(c: CliffsCell, level: number) {
  return `${c.rowModel} vs ${c.colModel} (${c.specialty}): delta = ${fmtSigned(c.delta)}${c.magnitude ? `, ${c.magnitude}` : ""}; ${Math.round(level * 100)}% bootstrap CI ${fmtCi(c.ci)}; n = ${c.n} vs ${c.m}${c.reason ? `; ${c.reason}` : ""}`;
}

/**
 * Small multiples: one models x models matrix per specialty. Each cell reads
 * across its row: positive (blue) = the row model's values tend to be higher.
 */
function Heatmap({ data, rubric, cells, label, id }: { data: CliffsBlock; rubric: string; cells: CliffsCell[]; label: string; id: string }) {
  const rubricName = useRubricName();
  const models = data.models;
  const M = models.length;
  // Full model names ("Claude 3.5 Sonnet"), never cut: the row labels' column and the slanted column labels' room grow with the longest.
  const longest = Math.max(0, ...models.map(labelWidth));
  const ROW_LABEL = Math.max(96, longest + 12);
  const COL_LABEL = Math.max(40, Math.sin(SLANT) * longest + 16);
  const LABEL_OVERHANG = Math.max(24, Math.cos(SLANT) * longest - CELL_W / 2 + 8);
  const panelW = ROW_LABEL + M * CELL_W + LABEL_OVERHANG;
  const panelH = TITLE + COL_LABEL + M * CELL_H;
  const perRow = Math.max(1, Math.min(data.specialties.length, Math.floor((1160 + GAP) / (panelW + GAP)) || 1));
  const rows = Math.ceil(data.specialties.length / perRow);
  const legendH = 52;
  const width = perRow * panelW + (perRow - 1) * GAP;
  const height = rows * panelH + (rows - 1) * GAP + legendH;
  const at = (sp: string, r: string, c: string) => cells.find((x) => x.specialty === sp && x.rowModel === r && x.colModel === c);
  return (
    <svg data-chart="cliffs" viewBox={`0 0 ${width} ${height}`} width="100%" style={{ maxWidth: width }} role="img" aria-label={`Cliff's delta between models, ${rubricName(rubric)} · ${label}, per specialty`} fontFamily="ui-sans-serif, system-ui, sans-serif">
      {data.specialties.map((sp, p) => {
        const x0 = (p % perRow) * (panelW + GAP);
        const y0 = Math.floor(p / perRow) * (panelH + GAP);
        const present = new Set(cells.filter((c) => c.specialty === sp).flatMap((c) => [c.rowModel, c.colModel]));
        return (
          <g key={sp} transform={`translate(${x0} ${y0})`}>
            <text x={ROW_LABEL} y={16} fontSize={13} fontWeight={600} fill="#0f172a">
              {sp}
            </text>
            {models.map((m, j) => (
              <text key={m} transform={`translate(${ROW_LABEL + j * CELL_W + CELL_W / 2} ${TITLE + COL_LABEL - 8}) rotate(-35)`} fontSize={11} fill="#334155">
                {m}
              </text>
            ))}
            {models.map((row, i) => (
              <g key={row} transform={`translate(0 ${TITLE + COL_LABEL + i * CELL_H})`}>
                <text x={ROW_LABEL - 8} y={CELL_H / 2 + 4} textAnchor="end" fontSize={11} fill="#334155">
                  {row}
                </text>
                {models.map((col, j) => {
                  const x = ROW_LABEL + j * CELL_W;
                  if (row === col || !present.has(row) || !present.has(col)) {
                    return (
                      <g key={col}>
                        <rect x={x + 1} y={1} width={CELL_W - 2} height={CELL_H - 2} rx={3} fill="#f8fafc" stroke="#e2e8f0" />
                        <text x={x + CELL_W / 2} y={CELL_H / 2 + 4} textAnchor="middle" fontSize={11} fill="#94a3b8">
                          {row === col ? "—" : "no data"}
                        </text>
                      </g>
                    );
                  }
                  const c = at(sp, row, col);
                  const d = c?.delta ?? null;
                  return (
                    <g key={col} data-cell={`${sp}|${row}|${col}`}>
                      <title>{c ? describe(c, data.level) : ""}</title>
                      <rect x={x + 1} y={1} width={CELL_W - 2} height={CELL_H - 2} rx={3} fill={deltaFill(d)} stroke="#ffffff" />
                      <text x={x + CELL_W / 2} y={CELL_H / 2 - 2} textAnchor="middle" fontSize={13} fontWeight={600} fill={deltaText(d)}>
                        {fmtSigned(d)}
                      </text>
                      <text x={x + CELL_W / 2} y={CELL_H / 2 + 13} textAnchor="middle" fontSize={10} fill={deltaText(d)}>
                        {c?.magnitude ?? "n/a"}
                      </text>
                    </g>
                  );
                })}
              </g>
            ))}
          </g>
        );
      })}
      <g transform={`translate(${Math.max(0, width / 2 - 170)} ${height - legendH + 14})`}>
        <defs>
          <linearGradient id={`cliffs-scale-${id}`} x1="0" x2="1" y1="0" y2="0">
            {[-1, -0.5, 0, 0.5, 1].map((v) => (
              <stop key={v} offset={`${(v + 1) * 50}%`} stopColor={deltaFill(v)} />
            ))}
          </linearGradient>
        </defs>
        <rect x={0} y={0} width={340} height={10} rx={2} fill={`url(#cliffs-scale-${id})`} stroke="#e2e8f0" />
        {[-1, -0.474, -0.33, -0.147, 0, 0.147, 0.33, 0.474, 1].map((v) => (
          <line key={v} x1={(v + 1) * 170} x2={(v + 1) * 170} y1={10} y2={14} stroke="#64748b" />
        ))}
        <text x={0} y={27} fontSize={10} fill="#475569">−1 row model worse</text>
        <text x={170} y={27} fontSize={10} fill="#475569" textAnchor="middle">0</text>
        <text x={340} y={27} fontSize={10} fill="#475569" textAnchor="end">row model better +1</text>
      </g>
    </svg>
  );
}

/**
 * Cliff's delta between models on one measure (a rubric's total or, without
 * one, each of its ordinal dimensions: lib/results/measures.ts); without data,
 * one panel per rubric says why.
 */
export function CliffsPanel({ data, reason, rubric, measure, slug, filterTag }: { data: CliffsBlock | null; reason: string | null; rubric: string; measure: ComparisonMeasure | null; slug: string; filterTag: string }) {
  const rubricName = useRubricName();
  const cells = data && measure ? data.cells.filter((c) => c.rubric === rubric && c.measure === measure.key && c.measureKind === measure.kind) : [];
  const upper = data ? cells.filter((c) => data.models.indexOf(c.rowModel) < data.models.indexOf(c.colModel)) : [];
  const name = rubricName(rubric);
  const what = measure ? measureName(measure) : "";
  const id = `${rubric.toLowerCase()}${measure && measure.kind === "dimension" ? `-${measure.key}` : ""}`;
  const file = fileName(slug, "cliffs-delta", rubric, ...(measure?.kind === "dimension" ? [measure.key] : []), filterTag);
  return (
    <ChartPanel
      id={`cliffs-${id}`}
      title={measure ? `Cliff's delta between models — ${name} · ${what}` : `Cliff's delta between models — ${name}`}
      description={
        <>
          Each pair of models per specialty. <strong className="font-medium text-foreground">Read across a row: positive (blue) = the row model scores higher</strong>{" "}
          than the column model; negative (vermilion) = lower. Hover a cell for its {data ? `${data.resamples.toLocaleString("en")}-resample` : ""} bootstrap 95% CI.
        </>
      }
      empty={reason}
      layout="stacked"
      csv={data && measure ? { name: file, table: cliffsTable(cells, rubricName) } : undefined}
      image={
        data && measure
          ? {
              name: file,
              title: `Cliff's delta between models, ${name} · ${what} (positive = row model better)`,
              subtitle: cliffsSubtitle(cells.flatMap((c) => [c.n, c.m]), data.resamples),
            }
          : undefined
      }
      chart={
        data && measure ? (
          <div className="flex justify-center overflow-x-auto">
            <Heatmap data={data} rubric={rubric} cells={cells} label={what} id={id} />
          </div>
        ) : null
      }
      table={
        data && measure ? (
          <div className="max-h-80 overflow-auto rounded-md border border-border" tabIndex={0} role="region" aria-label={`Cliff's delta table, ${name} (scrolls)`}>
            <table className="w-full text-sm" aria-label={`Cliff's delta, ${name}`}>
              <thead className="sticky top-0 bg-muted text-left text-muted-foreground">
                <tr>
                  <th scope="col" className="px-3 py-2 font-medium">Specialty</th>
                  <th scope="col" className="px-3 py-2 font-medium">Row model</th>
                  <th scope="col" className="px-3 py-2 font-medium">Column model</th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">δ</th>
                  <th scope="col" className="px-3 py-2 font-medium">Magnitude</th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">95% bootstrap CI</th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">n (row / column)</th>
                </tr>
              </thead>
              <tbody>
                {upper.map((c) => (
                  <tr key={`${c.specialty}-${c.rowModel}-${c.colModel}`} className="border-t border-border">
                    <td className="px-3 py-1.5">{c.specialty}</td>
                    <td className="px-3 py-1.5">{c.rowModel}</td>
                    <td className="px-3 py-1.5">{c.colModel}</td>
                    <td className="px-3 py-1.5 text-right font-medium tabular-nums">{fmtSigned(c.delta)}</td>
                    <td className="px-3 py-1.5">
                      {c.magnitude ? <Badge variant={c.magnitude === "large" ? "default" : c.magnitude === "negligible" ? "outline" : "secondary"}>{c.magnitude}</Badge> : "—"}
                    </td>
                    <td className="px-3 py-1.5 text-right tabular-nums">{fmtCi(c.ci)}</td>
                    <td className="px-3 py-1.5 text-right tabular-nums">
                      {c.n} / {c.m}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null
      }
      footer={
        <p>
          Magnitude (Romano et al.): |δ| &lt; 0.147 negligible, &lt; 0.33 small, &lt; 0.474 medium, otherwise large. The table lists each pair once; the mirrored cell is
          its negative. {measure ? measuresCaption([measure], rubricName) : null}
        </p>
      }
    />
  );
}
