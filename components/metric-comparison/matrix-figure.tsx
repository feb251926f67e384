/**
 * Small multiples of labelled matrices in one <svg data-chart> (so the dashboard's SVG/PNG
 * downloads take it whole): one panel per model in the metric heatmap, one in the correlation
 * figure. Each cell shows its value and n; hover gives its full description.
 */

export interface MatrixCell {
  value: number | null;
  /** The cell's big text (the value, formatted). */
  text: string;
  /** The small line under it ("n = 12"). */
  sub: string;
  /** Hover text: the whole reading. */
  title: string;
}

export interface MatrixPanel {
  title: string;
  rows: string[];
  cols: string[];
  cell: (row: string, col: string) => MatrixCell | null;
}

const CELL_W = 84;
const CELL_H = 44;
const TITLE = 24;
const COL_LABEL = 30;
const GAP = 28;
const FONT = "ui-sans-serif, system-ui, sans-serif";
/** A label's width at 11 px, generously: labels are never cut. */
const labelWidth = (s: string) => s.length * 6.6 + 8;

/** Sequential fill for a 0-1 metric: pale yellow-green (low) to dark blue (high). */
export function sequentialFill(v: number | null): string {
  if (v === null) return "#f1f5f9";
  const t = Math.max(0, Math.min(1, v));
  const lo = [237, 248, 177];
  const mid = [65, 182, 196];
  const hi = [8, 48, 107];
  const [a, b, u] = t < 0.5 ? [lo, mid, t / 0.5] : [mid, hi, (t - 0.5) / 0.5];
  return `rgb(${a.map((c, i) => Math.round(c + (b[i] - c) * u)).join(", ")})`;
}
export const sequentialText = (v: number | null) => (v !== null && v >= 0.45 ? "#ffffff" : "#0f172a");

export function MatrixFigure({
  panels,
  label,
  fill,
  text,
  legend,
}: {
  panels: MatrixPanel[];
  /** The figure's accessible name. */
  label: string;
  fill: (v: number | null) => string;
  text: (v: number | null) => string;
  /** The colour scale under the panels: its ends' values and words. */
  legend: { min: number; max: number; left: string; right: string };
}) {
  const rowLabel = Math.max(96, ...panels.flatMap((p) => p.rows.map(labelWidth)));
  const cols = Math.max(1, ...panels.map((p) => p.cols.length));
  const cellW = Math.max(CELL_W, ...panels.flatMap((p) => p.cols.map(labelWidth)));
  const maxRows = Math.max(1, ...panels.map((p) => p.rows.length));
  const panelW = rowLabel + cols * cellW + 8;
  const panelH = TITLE + COL_LABEL + maxRows * CELL_H;
  const perRow = Math.max(1, Math.min(panels.length, Math.floor((1160 + GAP) / (panelW + GAP)) || 1));
  const rows = Math.ceil(panels.length / perRow);
  const legendH = 46;
  const width = Math.max(360, perRow * panelW + (perRow - 1) * GAP);
  const height = rows * panelH + (rows - 1) * GAP + legendH;
  const steps = [0, 0.25, 0.5, 0.75, 1].map((f) => legend.min + f * (legend.max - legend.min));
  const gradientId = `matrix-scale-${label.replace(/[^A-Za-z0-9]+/g, "-")}`;
  return (
    <svg data-chart="matrix" viewBox={`0 0 ${width} ${height}`} width="100%" style={{ maxWidth: width }} role="img" aria-label={label} fontFamily={FONT}>
      {panels.map((p, k) => {
        const x0 = (k % perRow) * (panelW + GAP);
        const y0 = Math.floor(k / perRow) * (panelH + GAP);
        return (
          <g key={p.title} transform={`translate(${x0} ${y0})`} data-panel={p.title}>
            <text x={rowLabel} y={16} fontSize={13} fontWeight={600} fill="#0f172a">
              {p.title}
            </text>
            {p.cols.map((c, j) => (
              <text key={c} x={rowLabel + j * cellW + cellW / 2} y={TITLE + COL_LABEL - 10} textAnchor="middle" fontSize={11} fill="#334155">
                {c}
              </text>
            ))}
            {p.rows.map((r, i) => (
              <g key={r} transform={`translate(0 ${TITLE + COL_LABEL + i * CELL_H})`}>
                <text x={rowLabel - 8} y={CELL_H / 2 + 4} textAnchor="end" fontSize={11} fill="#334155">
                  {r}
                </text>
                {p.cols.map((c, j) => {
                  const x = rowLabel + j * cellW;
                  const cell = p.cell(r, c);
                  if (!cell) {
                    return (
                      <g key={c}>
                        <rect x={x + 1} y={1} width={cellW - 2} height={CELL_H - 2} rx={3} fill="#f8fafc" stroke="#e2e8f0" />
                        <text x={x + cellW / 2} y={CELL_H / 2 + 4} textAnchor="middle" fontSize={11} fill="#64748b">
                          no data
                        </text>
                      </g>
                    );
                  }
                  return (
                    <g key={c} data-cell={`${p.title}|${r}|${c}`}>
                      <title>{cell.title}</title>
                      <rect x={x + 1} y={1} width={cellW - 2} height={CELL_H - 2} rx={3} fill={fill(cell.value)} stroke="#ffffff" />
                      <text x={x + cellW / 2} y={CELL_H / 2 - 2} textAnchor="middle" fontSize={13} fontWeight={600} fill={text(cell.value)}>
                        {cell.text}
                      </text>
                      <text x={x + cellW / 2} y={CELL_H / 2 + 13} textAnchor="middle" fontSize={10} fill={text(cell.value)}>
                        {cell.sub}
                      </text>
                    </g>
                  );
                })}
              </g>
            ))}
          </g>
        );
      })}
      <g transform={`translate(${Math.max(0, width / 2 - 150)} ${height - legendH + 12})`}>
        <defs>
          <linearGradient id={gradientId} x1="0" x2="1" y1="0" y2="0">
            {steps.map((v, i) => (
              <stop key={i} offset={`${i * 25}%`} stopColor={fill(v)} />
            ))}
          </linearGradient>
        </defs>
        <rect x={0} y={0} width={300} height={10} rx={2} fill={`url(#${gradientId})`} stroke="#e2e8f0" />
        <text x={0} y={25} fontSize={10} fill="#475569">
          {legend.left}
        </text>
        <text x={300} y={25} fontSize={10} fill="#475569" textAnchor="end">
          {legend.right}
        </text>
      </g>
    </svg>
  );
}
