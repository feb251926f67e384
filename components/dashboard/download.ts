"use client";

import { toCsv, type TableData } from "@/lib/analytics/tables";
import { withDpi } from "./png-dpi";

/** Saves a blob under a file name through a temporary link. */
export function saveBlob(name: string, blob: Blob) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function downloadCsv(name: string, table: TableData) {
  // A byte-order mark so that spreadsheet programs read the names as UTF-8.
  saveBlob(name, new Blob(["\ufeff", toCsv(table)], { type: "text/csv;charset=utf-8" }));
}

export interface LegendEntry {
  label: string;
  color: string;
}

const STYLE_PROPS = [
  "fill",
  "fill-opacity",
  "stroke",
  "stroke-width",
  "stroke-opacity",
  "stroke-dasharray",
  "opacity",
  "font-family",
  "font-size",
  "font-weight",
  "text-anchor",
  "dominant-baseline",
  "visibility",
] as const;

/** What a downloaded chart says around the picture: its title, its n, and the legend Recharts draws in HTML. */
export interface ImageText {
  title?: string;
  /** The sample the chart rests on ("n = 45 sets per model"). */
  subtitle?: string;
  legend?: LegendEntry[];
}

/** A figure's printed size: its width in inches and its resolution (a PNG's pixels are inches x dpi). */
export interface FigureSize {
  widthIn: number;
  dpi: number;
}

export const FIGURE_WIDTHS = [
  { widthIn: 3.5, label: "3.5 in (one column)" },
  { widthIn: 7, label: "7 in (two columns)" },
  { widthIn: 10, label: "10 in (slide)" },
] as const;
export const FIGURE_DPIS = [150, 300, 600] as const;
export const DEFAULT_FIGURE: FigureSize = { widthIn: 7, dpi: 300 };

const FONT = "ui-sans-serif, system-ui, sans-serif";
let measureCtx: CanvasRenderingContext2D | null = null;
/** A text's width as this browser draws it in the figure's font. */
function textWidth(text: string, size: number, weight = 400): number {
  measureCtx ??= document.createElement("canvas").getContext("2d");
  if (!measureCtx) return text.length * size * 0.6;
  measureCtx.font = `${weight} ${size}px ${FONT}`;
  return measureCtx.measureText(text).width;
}

/** Words wrapped to lines no wider than `max`: a long title never runs off the figure. */
function wrap(text: string, size: number, weight: number, max: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    const next = line ? `${line} ${word}` : word;
    if (line && textWidth(next, size, weight) > max) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

const SWATCH = 12;
const LEGEND_FONT = 12;
const PAD = 12;

/**
 * A chart's <svg> as a standalone SVG document: computed styles inlined (the page's
 * CSS does not travel with the file), a white background, the title and n on top,
 * and the legend drawn in at the bottom. The picture's box is grown to hold
 * everything it draws (Recharts places axis labels past its own edges), so no
 * label is clipped; with a size, the document says it in inches.
 */
export function serializeSvg(svg: SVGSVGElement, opts: ImageText = {}, size?: FigureSize): string {
  const box = svg.getBoundingClientRect();
  const vb = svg.viewBox?.baseVal;
  const own = vb && vb.width > 0 ? { x: vb.x, y: vb.y, width: vb.width, height: vb.height } : { x: 0, y: 0, width: Math.round(box.width) || 600, height: Math.round(box.height) || 400 };
  let bb = { x: own.x, y: own.y, width: own.width, height: own.height };
  try {
    const b = svg.getBBox();
    if (b.width > 0 && b.height > 0) bb = b;
  } catch {
    // Not rendered (display: none): its own box is all there is.
  }
  const x0 = Math.min(own.x, bb.x) - 4;
  const y0 = Math.min(own.y, bb.y) - 4;
  const pic = { x: x0, y: y0, width: Math.max(own.x + own.width, bb.x + bb.width) + 4 - x0, height: Math.max(own.y + own.height, bb.y + bb.height) + 4 - y0 };
  const width = Math.max(360, Math.ceil(pic.width));
  const inner = width - 2 * PAD;

  const clone = svg.cloneNode(true) as SVGSVGElement;
  const source = [svg, ...svg.querySelectorAll<SVGElement>("*")];
  const target = [clone, ...clone.querySelectorAll<SVGElement>("*")];
  source.forEach((el, i) => {
    const computed = getComputedStyle(el);
    const style = STYLE_PROPS.map((p) => `${p}:${computed.getPropertyValue(p)}`).join(";");
    target[i].setAttribute("style", style);
    target[i].removeAttribute("class");
  });

  const ns = "http://www.w3.org/2000/svg";
  const el = (name: string, attrs: Record<string, string | number>, text?: string) => {
    const e = document.createElementNS(ns, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const parts: SVGElement[] = [];
  let y = PAD;
  for (const line of opts.title ? wrap(opts.title, 14, 600, inner) : []) {
    parts.push(el("text", { x: PAD, y: y + 13, "font-size": 14, "font-weight": 600, fill: "#0f172a", "data-role": "title" }, line));
    y += 19;
  }
  for (const line of opts.subtitle ? wrap(opts.subtitle, 11, 400, inner) : []) {
    parts.push(el("text", { x: PAD, y: y + 11, "font-size": 11, fill: "#475569", "data-role": "subtitle" }, line));
    y += 16;
  }
  if (y > PAD) y += 6;
  const picY = y;
  clone.setAttribute("x", String((width - pic.width) / 2));
  clone.setAttribute("y", String(picY));
  clone.setAttribute("width", String(pic.width));
  clone.setAttribute("height", String(pic.height));
  clone.setAttribute("viewBox", `${pic.x} ${pic.y} ${pic.width} ${pic.height}`);
  clone.setAttribute("overflow", "visible");
  clone.removeAttribute("style");
  y += pic.height + 8;

  const legend = opts.legend ?? [];
  if (legend.length) {
    // A label wider than the figure is wrapped onto lines of its own; the rest flow in rows.
    const items = legend.map((e) => {
      const lines = wrap(e.label, LEGEND_FONT, 400, inner - SWATCH - 6);
      return { ...e, lines, width: SWATCH + 6 + Math.max(...lines.map((l) => textWidth(l, LEGEND_FONT))) };
    });
    const rows: (typeof items)[] = [];
    let row: typeof items = [];
    let rowW = 0;
    for (const it of items) {
      if (row.length && (it.lines.length > 1 || rowW + it.width > inner)) {
        rows.push(row);
        row = [];
        rowW = 0;
      }
      row.push(it);
      rowW += it.width + 18;
      if (it.lines.length > 1) {
        rows.push(row);
        row = [];
        rowW = 0;
      }
    }
    if (row.length) rows.push(row);
    for (const r of rows) {
      const rowWidth = r.reduce((n, it) => n + it.width, 0) + 18 * (r.length - 1);
      let x = PAD + Math.max(0, (inner - rowWidth) / 2);
      for (const it of r) {
        const g = el("g", { transform: `translate(${x} ${y})`, "data-role": "legend-entry" });
        g.appendChild(el("rect", { width: SWATCH, height: SWATCH, rx: 2, fill: it.color }));
        it.lines.forEach((line, i) => g.appendChild(el("text", { x: SWATCH + 6, y: 10 + i * 15, "font-size": LEGEND_FONT, fill: "#0f172a" }, line)));
        parts.push(g);
        x += it.width + 18;
      }
      y += Math.max(...r.map((it) => it.lines.length)) * 15 + 5;
    }
  }
  const height = Math.ceil(y + PAD);

  const doc = el("svg", {
    xmlns: ns,
    width: size ? `${size.widthIn}in` : width,
    height: size ? `${+((size.widthIn * height) / width).toFixed(4)}in` : height,
    viewBox: `0 0 ${width} ${height}`,
    "font-family": FONT,
  });
  doc.appendChild(el("rect", { width: "100%", height: "100%", fill: "#ffffff" }));
  for (const p of parts.filter((x) => x.getAttribute("data-role") !== "legend-entry")) doc.appendChild(p);
  doc.appendChild(clone);
  for (const p of parts.filter((x) => x.getAttribute("data-role") === "legend-entry")) doc.appendChild(p);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(doc)}`;
}

export function downloadSvg(name: string, svg: SVGSVGElement, opts: ImageText = {}, size: FigureSize = DEFAULT_FIGURE) {
  saveBlob(name, new Blob([serializeSvg(svg, opts, size)], { type: "image/svg+xml;charset=utf-8" }));
}

/**
 * The same figure as a PNG of inches x dpi pixels (7 in at 300 dpi: 2,100 px
 * wide), drawn from the vector picture at that size, its pHYs chunk saying the dpi.
 */
export async function downloadPng(name: string, svg: SVGSVGElement, opts: ImageText = {}, size: FigureSize = DEFAULT_FIGURE) {
  const text = serializeSvg(svg, opts);
  const doc = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
  const w = Number(doc.getAttribute("width"));
  const h = Number(doc.getAttribute("height"));
  const px = { width: Math.round(size.widthIn * size.dpi), height: Math.round((size.widthIn * size.dpi * h) / w) };
  // Rasterised at the final size, so the text is drawn sharp rather than scaled up.
  doc.setAttribute("width", String(px.width));
  doc.setAttribute("height", String(px.height));
  const sized = new XMLSerializer().serializeToString(doc);
  const url = URL.createObjectURL(new Blob([sized], { type: "image/svg+xml;charset=utf-8" }));
  try {
    const img = new Image();
    img.decoding = "async";
    await new Promise<void>((resolve, reject) => {
      img.onload = () => resolve();
      img.onerror = () => reject(new Error("the chart could not be drawn as an image"));
      img.src = url;
    });
    const canvas = document.createElement("canvas");
    canvas.width = px.width;
    canvas.height = px.height;
    canvas.getContext("2d")!.drawImage(img, 0, 0, px.width, px.height);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/png"));
    if (blob) saveBlob(name, new Blob([withDpi(new Uint8Array(await blob.arrayBuffer()), size.dpi) as Uint8Array<ArrayBuffer>], { type: "image/png" }));
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** File names: the study slug, the chart and the filters, lower-case with dashes. */
export function fileName(...parts: string[]): string {
  return parts
    .filter(Boolean)
    .join("-")
    .toLowerCase()
    .replace(/[^a-z0-9.]+/g, "-")
    .replace(/^-+|-+$/g, "");
}
