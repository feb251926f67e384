/** Journal-style numbers: stated decimals, a minus sign, p below 0.001 as "<0.001", missing as an en dash. */
export const DASH = "–";

export function num(value: number | null | undefined, decimals = 2): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return DASH;
  const text = Math.abs(value).toFixed(decimals);
  return Number(text) === 0 ? text : value < 0 ? `−${text}` : text;
}

export function ci(interval: readonly [number, number] | null | undefined, decimals = 2): string {
  return interval ? `${num(interval[0], decimals)} to ${num(interval[1], decimals)}` : DASH;
}

export function pValue(p: number | null | undefined): string {
  if (p === null || p === undefined || !Number.isFinite(p)) return DASH;
  return p < 0.001 ? "<0.001" : p.toFixed(3);
}

export function count(n: number): string {
  return n.toLocaleString("en-US");
}

/** Escapes text for SVG and HTML. */
export function esc(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}
