/**
 * Pure builders of the dashboard's radar and ranking blocks from the per-model
 * summaries (lib/results/summary.ts `modelSummaries`).
 */
import type { RubricDocument } from "@/lib/rubrics/document";
import { ordinalRange } from "@/lib/rubrics/document";
import type { Measure } from "@/lib/results/measures";
import type { ModelSummary } from "@/lib/results/summary";
import type { RadarChart, RankingRow } from "./types";

/**
 * A radar profile per model over a rubric's ordinal dimensions (a radar needs
 * three or more). Dimensions on one scale are plotted in its points, the
 * centre at its minimum; dimensions on different scales as their place on
 * each scale, (mean - min) / (max - min), so that they share one 0-1 axis
 * whose centre is every scale's minimum.
 */
export function radarChart(summaries: ModelSummary[], rubric: RubricDocument, specialty: string, models: string[]): RadarChart {
  const dims = rubric.dimensions.filter((d) => d.scale.kind === "ordinal");
  const ranges = dims.map(ordinalRange);
  const scaled = new Set(ranges.map((r) => `${r.min}:${r.max}`)).size > 1;
  const axes = dims.map((d, i) => ({ dimension: d.key, label: d.name, min: ranges[i].min, max: ranges[i].max }));
  const series = models.flatMap((model) => {
    const s = summaries.find((x) => x.model === model && x.specialty === specialty);
    const stats = s?.dimensions[rubric.key];
    if (!s || !stats) return [];
    // What the radar plots: sets with a final value on at least one axis (a total's n counts sets the axes may not all have).
    const n = Math.max(0, ...Object.values(stats).map((x) => x.n));
    if (n === 0) return [];
    return [
      {
        model,
        n,
        points: dims.map((d, i) => {
          const st = stats[d.key];
          const mean = st?.mean ?? null;
          const { min, max } = ranges[i];
          return { dimension: d.key, mean, sd: st?.sd ?? null, value: mean === null ? null : scaled ? (max > min ? (mean - min) / (max - min) : 0) : mean };
        }),
      },
    ];
  });
  const domainMin = scaled ? 0 : (ranges[0]?.min ?? 0);
  const domainMax = scaled ? 1 : (ranges[0]?.max ?? 1);
  return { rubric: rubric.key, specialty, scale: scaled ? "fraction" : "mean", domainMin, domainMax, axes, series };
}

/**
 * Mean ± SD per model per specialty on each measure (a rubric's headline
 * total, or a dimension when the rubric has no total or one was chosen),
 * ranked within each specialty and measure by mean (highest first; equal
 * means share a rank, "1224" competition ranking).
 */
export function rankingRows(summaries: ModelSummary[], measures: readonly Measure[]): RankingRow[] {
  const out: RankingRow[] = [];
  const specialties = [...new Set(summaries.map((s) => s.specialty))];
  for (const m of measures) {
    for (const specialty of specialties) {
      const rows = summaries
        .filter((s) => s.specialty === specialty)
        .map((s): RankingRow => {
          const t = m.kind === "total" ? s.totals[m.rubric] : s.dimensions[m.rubric]?.[m.key];
          return { rubric: m.rubric, measure: m.key, measureKind: m.kind, label: m.label, specialty, model: s.model, rank: 0, n: t?.n ?? 0, mean: t?.mean ?? null, sd: t?.sd ?? null, min: m.min, max: m.max, maxTotal: m.max };
        })
        .filter((x) => x.n > 0)
        .sort((a, b) => (b.mean ?? -Infinity) - (a.mean ?? -Infinity) || a.model.localeCompare(b.model));
      rows.forEach((row, i) => {
        row.rank = i > 0 && rows[i - 1].mean === row.mean ? rows[i - 1].rank : i + 1;
      });
      out.push(...rows);
    }
  }
  return out;
}
