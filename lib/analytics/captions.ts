/**
 * The dashboard's captions, built from the study's rubric documents: what each
 * chart plots, on which scale, and how many sets are behind it. Pure, for the
 * client panels, the downloaded figures and the unit tests; no instrument is
 * named here, only what its document says.
 */
import type { ComparisonMeasure, RadarChart } from "./types";

type Names = (rubricKey: string) => string;

const range = (m: { min: number; max: number }) => `${m.min}-${m.max}`;

/** "1-3" or "0-25": a scale as its document gives it. */
export const scaleRange = range;

/** A measure's name with its scale: "Acceptability (1-3)", "Total (0-25)". */
export function measureName(m: Pick<ComparisonMeasure, "label" | "min" | "max">): string {
  return `${m.label} (${range(m)})`;
}

/** A measure named with its rubric, for a panel's title: "Survey · Acceptability (1-3)". */
export function measureTitle(m: ComparisonMeasure, names: Names): string {
  return `${names(m.rubric)} · ${measureName(m)}`;
}

/**
 * What the compared values are, per rubric: "Final values: Survey, Acceptability 1-3,
 * Extent of harm 1-5 (N/A left out)" or "Final values: Checklist, Total 0-25".
 */
export function measuresCaption(measures: readonly ComparisonMeasure[], names: Names): string {
  if (measures.length === 0) return "No ordinal dimension or total to compare models on.";
  const rubrics = [...new Set(measures.map((m) => m.rubric))];
  const parts = rubrics.map((r) => {
    const mine = measures.filter((m) => m.rubric === r);
    return `${names(r)}: ${mine.map((m) => `${m.kind === "total" ? `${m.label} (total)` : m.label} ${range(m)}`).join(", ")}`;
  });
  const dims = measures.some((m) => m.kind === "dimension");
  return `Final values compared — ${parts.join("; ")}${dims ? ". A dimension's N/A is left out of its n" : ""}.`;
}

/** How the ranking's chart places a mean: from the scale's minimum (0%) to its maximum (100%). */
export function rankingDescription(measures: readonly ComparisonMeasure[], names: Names, scope: string): string {
  return `Mean ± SD of the final values per model, with the number of final sets behind each mean (n). ${measuresCaption(measures, names)} The chart shows ${scope}, each mean placed on its own scale: 0% at its lowest value, 100% at its highest. Click a column header to sort the table.`;
}

/** The radar's description: its scale(s) from the document, the centre at the minimum. */
export function radarDescription(chart: Pick<RadarChart, "scale" | "axes" | "domainMin" | "domainMax">): string {
  if (chart.scale === "mean") return `Mean of the final scores per dimension, on the scale ${chart.domainMin}-${chart.domainMax}: the centre is ${chart.domainMin}, the rim ${chart.domainMax}.`;
  return `Mean of the final scores per dimension, placed on each dimension's own scale (${chart.axes.map((a) => `${a.label} ${range(a)}`).join(", ")}): the centre is each scale's lowest value, the rim its highest.`;
}

/** The downloaded radar's subtitle: the scale and n, the sets the radar plots per model. */
export function radarSubtitle(chart: Pick<RadarChart, "scale" | "domainMin" | "domainMax" | "series">): string {
  const ns = chart.series.map((s) => s.n);
  const scale = chart.scale === "mean" ? `Mean final score per dimension (${chart.domainMin}-${chart.domainMax})` : "Mean final score on each dimension's scale (centre = lowest value, rim = highest)";
  return `${scale}; n = ${nRange(ns)} final response sets per model`;
}

/** A radar tick: scale points, or for mixed scales the share of each scale's range, the ends named. */
export function radarTick(chart: Pick<RadarChart, "scale">, v: number): string {
  if (chart.scale === "mean") return String(v);
  if (v === 0) return "lowest";
  if (v === 1) return "highest";
  return `${Math.round(v * 100)}%`;
}

/** The radar's radial ticks, centre to rim. */
export function radarTicks(chart: Pick<RadarChart, "scale" | "domainMin" | "domainMax">): number[] {
  if (chart.scale === "fraction") return [0, 0.25, 0.5, 0.75, 1];
  const out: number[] = [];
  const step = chart.domainMax - chart.domainMin > 10 ? Math.ceil((chart.domainMax - chart.domainMin) / 5) : 1;
  for (let v = chart.domainMin; v <= chart.domainMax; v += step) out.push(v);
  return out;
}

/** "12" or "10-14": the spread of a sample size over a chart's series. */
export const nRange = (ns: number[]) => (ns.length === 0 ? "0" : Math.min(...ns) === Math.max(...ns) ? String(ns[0]) : `${Math.min(...ns)}-${Math.max(...ns)}`);

/** The Cliff's delta figure's subtitle: n as the cells count it (final sets with a value on the measure). */
export function cliffsSubtitle(ns: number[], resamples: number): string {
  return `n = ${nRange(ns)} final response sets per model and specialty with a value on this measure; ${resamples.toLocaleString("en")}-resample bootstrap 95% CIs in the CSV`;
}
