/**
 * Computed figures in exports (means of graders' values, totals, percents,
 * summary statistics) are written to EXPORT_DECIMALS decimals: 2.6666666666666665
 * becomes 2.6667. Only what is written is rounded: stored values, the API and
 * the dashboard keep full precision, and the analyses behind the summary run
 * on unrounded values. Values graders gave are integers and never change.
 */
export const EXPORT_DECIMALS = 4;

/** A number to EXPORT_DECIMALS decimals (integers, NaN and infinities unchanged; never -0). */
export function roundForExport(x: number): number {
  if (!Number.isFinite(x) || Number.isInteger(x)) return x;
  const r = Number(x.toFixed(EXPORT_DECIMALS));
  return r === 0 ? 0 : r;
}

/** Every number in a plain value (records, arrays) rounded by roundForExport; anything else as it is. */
export function roundDeep<T>(value: T): T {
  if (typeof value === "number") return roundForExport(value) as T;
  if (Array.isArray(value)) return value.map(roundDeep) as T;
  if (value && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, roundDeep(v)])) as T;
  }
  return value;
}
