"use client";

import { hasKappaMatrix, journalKappaMatrixCsv } from "@/lib/analytics/journal-tables";
import { fmt, fmtCi } from "@/lib/analytics/tables";
import type { JournalAgreement, JournalBlock } from "@/lib/analytics/types";
import { ChartPanel } from "./chart-panel";
import { deltaFill, deltaText } from "./colors";
import { fileName } from "./download";
import { useRubricName } from "./rubric-names";

const CELL_W = 60;
const CELL_H = 38;
const TITLE = 26;
const GAP = 28;
const MAX_WIDTH = 1160;
const SLANT = (35 * Math.PI) / 180;
/** A label's width at 11 px, generously: labels are never cut, the panel makes room. */
const labelWidth = (s: string, px = 11) => s.length * 0.6 * px + 4;

function panelSize(a: JournalAgreement, name: (id: string) => string) {
  const longest = Math.max(0, ...a.raters.map((r) => labelWidth(name(r))));
  const rowLabel = Math.max(80, longest + 12);
  const colLabel = Math.max(36, Math.sin(SLANT) * longest + 16);
  const overhang = Math.max(20, Math.cos(SLANT) * longest - CELL_W / 2 + 8);
  const title = a.label + (a.target === "total" ? " (total)" : "");
  const width = Math.max(rowLabel + a.raters.length * CELL_W + overhang, labelWidth(title, 13));
  return { rowLabel, colLabel, width, height: TITLE + colLabel + a.raters.length * CELL_H, title };
}

/** Small multiples: one graders x graders matrix of quadratic kappa per dimension and total. */
function Matrices({ rows, names, label, scaleId }: { rows: JournalAgreement[]; names: ReadonlyMap<string, string>; label: string; scaleId: string }) {
  const name = (id: string) => names.get(id) ?? "grader";
  const sizes = rows.map((a) => panelSize(a, name));
  // Panels flow left to right and wrap at the page's width; each row of panels is as tall as its tallest.
  const placed: { x: number; y: number }[] = [];
  let x = 0;
  let y = 0;
  let rowH = 0;
  let width = 0;
  sizes.forEach((s) => {
    if (x > 0 && x + s.width > MAX_WIDTH) {
      x = 0;
      y += rowH + GAP;
      rowH = 0;
    }
    placed.push({ x, y });
    width = Math.max(width, x + s.width);
    x += s.width + GAP;
    rowH = Math.max(rowH, s.height);
  });
  const legendW = 300;
  const legendH = 46;
  width = Math.max(width, legendW + 20);
  const height = y + rowH + GAP / 2 + legendH;
  return (
    <svg data-chart="kappa" viewBox={`0 0 ${width} ${height}`} width="100%" style={{ maxWidth: width }} role="img" aria-label={label} fontFamily="ui-sans-serif, system-ui, sans-serif">
      {rows.map((a, p) => {
        const s = sizes[p];
        const m = a.kappa!.ranks;
        return (
          <g key={`${a.target}-${a.key}`} transform={`translate(${placed[p].x} ${placed[p].y})`}>
            <text x={0} y={16} fontSize={13} fontWeight={600} fill="#0f172a">
              {s.title}
            </text>
            {a.raters.map((r, j) => (
              <text key={r} transform={`translate(${s.rowLabel + j * CELL_W + CELL_W / 2} ${TITLE + s.colLabel - 8}) rotate(-35)`} fontSize={11} fill="#334155">
                {name(r)}
              </text>
            ))}
            {a.raters.map((row, i) => (
              <g key={row} transform={`translate(0 ${TITLE + s.colLabel + i * CELL_H})`}>
                <text x={s.rowLabel - 8} y={CELL_H / 2 + 4} textAnchor="end" fontSize={11} fill="#334155">
                  {name(row)}
                </text>
                {a.raters.map((col, j) => {
                  const cx = s.rowLabel + j * CELL_W;
                  const k = i === j ? null : (m.matrix[i]?.[j] ?? null);
                  const pair = m.pairs.find((q) => (q.a === row && q.b === col) || (q.a === col && q.b === row));
                  if (i === j) {
                    return (
                      <rect key={col} x={cx + 1} y={1} width={CELL_W - 2} height={CELL_H - 2} rx={3} fill="#f8fafc" stroke="#e2e8f0" />
                    );
                  }
                  return (
                    <g key={col} data-cell={`${a.key}|${name(row)}|${name(col)}`}>
                      <title>{`${s.title}, ${name(row)} and ${name(col)}: kappa ${fmt(k, 3)}, 95% CI ${fmtCi(pair?.ci ?? null)}, n = ${pair?.n ?? 0}${pair?.reason ? `; ${pair.reason}` : ""}`}</title>
                      <rect x={cx + 1} y={1} width={CELL_W - 2} height={CELL_H - 2} rx={3} fill={deltaFill(k)} stroke="#ffffff" />
                      <text x={cx + CELL_W / 2} y={CELL_H / 2 + 4} textAnchor="middle" fontSize={12} fontWeight={600} fill={deltaText(k)}>
                        {k === null ? "n/a" : fmt(k, 2)}
                      </text>
                    </g>
                  );
                })}
              </g>
            ))}
          </g>
        );
      })}
      <g transform={`translate(${Math.max(0, width / 2 - legendW / 2)} ${height - legendH + 12})`}>
        <defs>
          <linearGradient id={scaleId} x1="0" x2="1" y1="0" y2="0">
            {[-1, -0.5, 0, 0.5, 1].map((v) => (
              <stop key={v} offset={`${(v + 1) * 50}%`} stopColor={deltaFill(v)} />
            ))}
          </linearGradient>
        </defs>
        <rect x={0} y={0} width={legendW} height={10} rx={2} fill={`url(#${scaleId})`} stroke="#e2e8f0" />
        <text x={0} y={25} fontSize={10} fill="#475569">
          −1
        </text>
        <text x={legendW / 2} y={25} fontSize={10} fill="#475569" textAnchor="middle">
          0 chance
        </text>
        <text x={legendW} y={25} fontSize={10} fill="#475569" textAnchor="end">
          perfect agreement +1
        </text>
      </g>
    </svg>
  );
}

/**
 * The journal statistics' pairwise kappa as matrices (issue 17: "pairwise
 * matrices for kappa"), one per ordinal dimension and total of a rubric, with
 * the chart's numbers as CSV and the chart as SVG or PNG.
 */
export function KappaMatricesPanel({ rubric, names, slug }: { rubric: JournalBlock["rubrics"][number]; names: ReadonlyMap<string, string>; slug: string }) {
  const rubricName = useRubricName();
  const rows = rubric.agreement.filter(hasKappaMatrix);
  const name = rubricName(rubric.rubric);
  const convention = rows[0]?.kappa?.ranks.convention;
  const file = fileName(slug, "kappa-matrices", rubric.rubric);
  const units = rows.map((a) => a.units);
  return (
    <ChartPanel
      id={`kappa-${rubric.rubric.toLowerCase()}`}
      title={`Pairwise kappa between graders — ${name}`}
      description={<>Quadratic-weighted Cohen&apos;s kappa for each pair of graders, per dimension and total{convention ? ` (${convention})` : ""}. Hover a cell for its 95% CI and n.</>}
      empty={rows.length ? null : "No ordinal dimension or total has two graders' ratings: kappa needs both (nominal scales have Fleiss' kappa and AC1 in the agreement panel)."}
      layout="stacked"
      csv={{ name: file, table: journalKappaMatrixCsv(rubric, names) }}
      image={{
        name: file,
        title: `Pairwise quadratic-weighted Cohen's kappa between graders, ${name}`,
        subtitle: `${units.length ? `${Math.min(...units)}${Math.max(...units) !== Math.min(...units) ? `-${Math.max(...units)}` : ""} units per matrix; ` : ""}${convention ?? ""}; 95% CIs in the CSV`,
      }}
      chart={
        <div className="flex justify-center overflow-x-auto">
          <Matrices rows={rows} names={names} scaleId={`kappa-scale-${rubric.rubric}`} label={`Pairwise kappa between graders, ${name}, per dimension and total`} />
        </div>
      }
    />
  );
}
