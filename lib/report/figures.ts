import { esc, num } from "./format";

/**
 * The report's figures as SVG, drawn from numbers the dashboard's code computed. Plain shapes and
 * text only, so they rasterise the same everywhere (lib/report/raster.ts) and stay vector in HTML.
 */
const FONT = `font-family="DejaVu Sans, Lato, Helvetica, Arial, sans-serif"`;

function svg(width: number, height: number, body: string, title: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${esc(title)}"><title>${esc(title)}</title><rect width="${width}" height="${height}" fill="#ffffff"/>${body}</svg>`;
}

/** The study's flow, top to bottom, with exclusions to the right of the stage they leave from. */
export function flowDiagram(stages: { label: string; n: number }[], exclusions: { after: number; label: string; n: number }[], title: string): { svg: string; width: number; height: number } {
  const width = 640;
  const box = { w: 300, h: 34, gap: 18 };
  const height = stages.length * (box.h + box.gap) + 10;
  let body = "";
  stages.forEach((s, i) => {
    const y = 8 + i * (box.h + box.gap);
    body += `<rect x="20" y="${y}" width="${box.w}" height="${box.h}" rx="4" fill="#f4f6f8" stroke="#334155"/>`;
    body += `<text x="${20 + box.w / 2}" y="${y + 22}" text-anchor="middle" font-size="13" ${FONT} fill="#0f172a">${esc(s.label)}: ${s.n.toLocaleString("en-US")}</text>`;
    if (i < stages.length - 1) {
      const x = 20 + box.w / 2;
      body += `<line x1="${x}" y1="${y + box.h}" x2="${x}" y2="${y + box.h + box.gap - 4}" stroke="#334155"/><path d="M${x - 4} ${y + box.h + box.gap - 8} L${x} ${y + box.h + box.gap - 2} L${x + 4} ${y + box.h + box.gap - 8}" fill="none" stroke="#334155"/>`;
    }
    for (const e of exclusions.filter((x) => x.after === i)) {
      body += `<line x1="${20 + box.w}" y1="${y + box.h / 2}" x2="${20 + box.w + 30}" y2="${y + box.h / 2}" stroke="#94a3b8" stroke-dasharray="3 2"/>`;
      body += `<text x="${20 + box.w + 36}" y="${y + box.h / 2 + 4}" font-size="12" ${FONT} fill="#475569">${esc(e.label)}: ${e.n.toLocaleString("en-US")}</text>`;
    }
  });
  return { svg: svg(width, height, body, title), width, height };
}

/** Mean per model with a whisker of one SD either side, on the measure's own scale. */
export function meansPlot(rows: { label: string; mean: number | null; sd: number | null; n: number }[], scale: { min: number; max: number }, title: string): { svg: string; width: number; height: number } {
  const width = 640;
  const left = 200;
  const right = 40;
  const rowH = 26;
  const height = rows.length * rowH + 50;
  const x = (v: number) => left + ((v - scale.min) / (scale.max - scale.min || 1)) * (width - left - right);
  let body = `<line x1="${left}" y1="${rows.length * rowH + 12}" x2="${width - right}" y2="${rows.length * rowH + 12}" stroke="#334155"/>`;
  const ticks = 5;
  for (let t = 0; t <= ticks; t++) {
    const v = scale.min + ((scale.max - scale.min) * t) / ticks;
    body += `<line x1="${x(v)}" y1="${rows.length * rowH + 12}" x2="${x(v)}" y2="${rows.length * rowH + 17}" stroke="#334155"/><text x="${x(v)}" y="${rows.length * rowH + 30}" text-anchor="middle" font-size="11" ${FONT} fill="#334155">${num(v, 1)}</text>`;
  }
  rows.forEach((r, i) => {
    const y = 14 + i * rowH;
    body += `<text x="${left - 8}" y="${y + 4}" text-anchor="end" font-size="12" ${FONT} fill="#0f172a">${esc(r.label)} (n = ${r.n})</text>`;
    if (r.mean === null) return;
    if (r.sd !== null) {
      const lo = Math.max(scale.min, r.mean - r.sd);
      const hi = Math.min(scale.max, r.mean + r.sd);
      body += `<line x1="${x(lo)}" y1="${y}" x2="${x(hi)}" y2="${y}" stroke="#475569" stroke-width="1.5"/>`;
    }
    body += `<circle cx="${x(r.mean)}" cy="${y}" r="5" fill="#1d4ed8"/>`;
  });
  return { svg: svg(width, height, body, title), width, height };
}

/** Effect sizes with their intervals against zero, on [-1, 1] (Cliff's delta). */
export function forestPlot(rows: { label: string; value: number | null; ci: [number, number] | null }[], title: string): { svg: string; width: number; height: number } {
  const width = 640;
  const left = 320;
  const right = 30;
  const rowH = 24;
  const height = rows.length * rowH + 50;
  const x = (v: number) => left + ((v + 1) / 2) * (width - left - right);
  let body = `<line x1="${x(0)}" y1="4" x2="${x(0)}" y2="${rows.length * rowH + 12}" stroke="#94a3b8" stroke-dasharray="4 3"/>`;
  body += `<line x1="${left}" y1="${rows.length * rowH + 12}" x2="${width - right}" y2="${rows.length * rowH + 12}" stroke="#334155"/>`;
  for (const v of [-1, -0.5, 0, 0.5, 1]) body += `<text x="${x(v)}" y="${rows.length * rowH + 28}" text-anchor="middle" font-size="11" ${FONT} fill="#334155">${num(v, 1)}</text>`;
  rows.forEach((r, i) => {
    const y = 14 + i * rowH;
    body += `<text x="${left - 8}" y="${y + 4}" text-anchor="end" font-size="12" ${FONT} fill="#0f172a">${esc(r.label)}</text>`;
    if (r.ci) body += `<line x1="${x(r.ci[0])}" y1="${y}" x2="${x(r.ci[1])}" y2="${y}" stroke="#475569" stroke-width="1.5"/>`;
    if (r.value !== null) body += `<rect x="${x(r.value) - 4}" y="${y - 4}" width="8" height="8" fill="#1d4ed8"/>`;
  });
  return { svg: svg(width, height, body, title), width, height };
}
