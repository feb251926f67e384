"use client";

import { toCsv, type TableData } from "@/lib/analytics/tables";

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

/**
 * A chart's <svg> as a standalone SVG document: computed styles inlined (the page's
 * CSS does not travel with the file), a white background, the title on top and the
 * legend (which Recharts draws in HTML, outside the <svg>) drawn in at the bottom.
 */
export function serializeSvg(svg: SVGSVGElement, opts: { title?: string; legend?: LegendEntry[] } = {}): string {
  const box = svg.getBoundingClientRect();
  const width = Math.round(box.width) || Number(svg.getAttribute("width")) || 600;
  const height = Math.round(box.height) || Number(svg.getAttribute("height")) || 400;
  const clone = svg.cloneNode(true) as SVGSVGElement;
  const source = [svg, ...svg.querySelectorAll<SVGElement>("*")];
  const target = [clone, ...clone.querySelectorAll<SVGElement>("*")];
  source.forEach((el, i) => {
    const computed = getComputedStyle(el);
    const style = STYLE_PROPS.map((p) => `${p}:${computed.getPropertyValue(p)}`).join(";");
    target[i].setAttribute("style", style);
    target[i].removeAttribute("class");
  });
  const top = opts.title ? 28 : 0;
  const legendRows = opts.legend?.length ? Math.ceil(opts.legend.length / 3) : 0;
  const bottom = legendRows * 20 + (legendRows ? 8 : 0);
  const ns = "http://www.w3.org/2000/svg";
  const doc = document.createElementNS(ns, "svg");
  doc.setAttribute("xmlns", ns);
  doc.setAttribute("width", String(width));
  doc.setAttribute("height", String(height + top + bottom));
  doc.setAttribute("viewBox", `0 0 ${width} ${height + top + bottom}`);
  doc.setAttribute("font-family", "ui-sans-serif, system-ui, sans-serif");
  const bg = document.createElementNS(ns, "rect");
  bg.setAttribute("width", "100%");
  bg.setAttribute("height", "100%");
  bg.setAttribute("fill", "#ffffff");
  doc.appendChild(bg);
  if (opts.title) {
    const t = document.createElementNS(ns, "text");
    t.setAttribute("x", "12");
    t.setAttribute("y", "19");
    t.setAttribute("font-size", "14");
    t.setAttribute("font-weight", "600");
    t.setAttribute("fill", "#0f172a");
    t.textContent = opts.title;
    doc.appendChild(t);
  }
  const body = document.createElementNS(ns, "g");
  body.setAttribute("transform", `translate(0 ${top})`);
  clone.setAttribute("x", "0");
  clone.setAttribute("y", "0");
  clone.setAttribute("width", String(width));
  clone.setAttribute("height", String(height));
  body.appendChild(clone);
  doc.appendChild(body);
  opts.legend?.forEach((entry, i) => {
    const col = i % 3;
    const row = Math.floor(i / 3);
    const g = document.createElementNS(ns, "g");
    g.setAttribute("transform", `translate(${12 + col * Math.floor((width - 24) / 3)} ${height + top + 4 + row * 20})`);
    const sw = document.createElementNS(ns, "rect");
    sw.setAttribute("width", "12");
    sw.setAttribute("height", "12");
    sw.setAttribute("rx", "2");
    sw.setAttribute("fill", entry.color);
    const label = document.createElementNS(ns, "text");
    label.setAttribute("x", "18");
    label.setAttribute("y", "10");
    label.setAttribute("font-size", "12");
    label.setAttribute("fill", "#0f172a");
    label.textContent = entry.label;
    g.append(sw, label);
    doc.appendChild(g);
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(doc)}`;
}

export function downloadSvg(name: string, svg: SVGSVGElement, opts: { title?: string; legend?: LegendEntry[] } = {}) {
  saveBlob(name, new Blob([serializeSvg(svg, opts)], { type: "image/svg+xml;charset=utf-8" }));
}

/** The same picture as a PNG at twice the on-screen resolution, drawn through a canvas. */
export async function downloadPng(name: string, svg: SVGSVGElement, opts: { title?: string; legend?: LegendEntry[] } = {}) {
  const text = serializeSvg(svg, opts);
  const doc = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
  const width = Number(doc.getAttribute("width"));
  const height = Number(doc.getAttribute("height"));
  const url = URL.createObjectURL(new Blob([text], { type: "image/svg+xml;charset=utf-8" }));
  try {
    const img = new Image();
    img.decoding = "async";
    await new Promise<void>((resolve, reject) => {
      img.onload = () => resolve();
      img.onerror = () => reject(new Error("the chart could not be drawn as an image"));
      img.src = url;
    });
    const canvas = document.createElement("canvas");
    canvas.width = width * 2;
    canvas.height = height * 2;
    const ctx = canvas.getContext("2d")!;
    ctx.scale(2, 2);
    ctx.drawImage(img, 0, 0, width, height);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/png"));
    if (blob) saveBlob(name, blob);
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
