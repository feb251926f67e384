/**
 * Colours of the dashboard. Models take the Okabe-Ito palette (distinguishable
 * with the common colour-vision deficiencies), by their place among ALL the
 * study's models, so a model keeps its colour whatever the filters.
 */
const MODEL_PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#7F3C8D", "#44475A"];

export function modelColor(model: string, allModels: string[]): string {
  const i = allModels.indexOf(model);
  return MODEL_PALETTE[(i < 0 ? 0 : i) % MODEL_PALETTE.length];
}

export const STATUS_COLOR = {
  AGREED: "#15803d",
  ADJUDICATED: "#0f4c81",
  AWAITING_ADJUDICATION: "#d97706",
  AWAITING_GRADES: "#cbd5e1",
} as const;

/** Diverging fill for a Cliff's delta: blue when the row model is better, vermilion when worse, stronger with |delta|. */
export function deltaFill(delta: number | null): string {
  if (delta === null) return "#f1f5f9";
  const t = Math.min(1, Math.abs(delta));
  const [r, g, b] = delta >= 0 ? [33, 102, 172] : [198, 61, 36];
  const mix = (c: number) => Math.round(255 + (c - 255) * (0.12 + 0.88 * t));
  return `rgb(${mix(r)}, ${mix(g)}, ${mix(b)})`;
}

export const deltaText = (delta: number | null) => (delta !== null && Math.abs(delta) >= 0.45 ? "#ffffff" : "#0f172a");
