/**
 * Pure builders of the dashboard's radar and ranking blocks from the per-model
 * summaries (lib/results/summary.ts `modelSummaries`).
 */
import type { RubricDocument } from "@/lib/rubrics/document";
import { ordinalRange } from "@/lib/rubrics/document";
import { totalRange } from "@/lib/scoring/rubric-values";
import type { ModelSummary } from "@/lib/results/summary";
import type { RadarChart, RankingRow } from "./types";

/**
 * A radar profile per model over a rubric's ordinal dimensions (a radar needs
 * three or more): S.C.O.R.E. as the mean score per dimension (axes 0-5); any
 * rubric whose dimensions have different scales (SAFE-LLM 0-2 and 0-1) as
 * mean / the dimension's maximum, so that they share one 0-1 axis.
 */
export function radarChart(summaries: ModelSummary[], rubric: RubricDocument, specialty: string, models: string[]): RadarChart {
  const dims = rubric.dimensions.filter((d) => d.scale.kind === "ordinal");
  const maxima = dims.map((d) => ordinalRange(d).max);
  const scaled = new Set(maxima).size > 1 || rubric.key === "SAFE_LLM";
  const axes = dims.map((d, i) => ({ dimension: d.key, label: d.name, max: maxima[i] }));
  const series = models.flatMap((model) => {
    const s = summaries.find((x) => x.model === model && x.specialty === specialty);
    const stats = s?.dimensions[rubric.key];
    if (!s || !stats) return [];
    const n = s.totals[rubric.key]?.n ?? Math.max(0, ...Object.values(stats).map((x) => x.n));
    if (n === 0) return [];
    return [
      {
        model,
        n,
        points: dims.map((d, i) => {
          const st = stats[d.key];
          const mean = st?.mean ?? null;
          return { dimension: d.key, mean, sd: st?.sd ?? null, value: mean === null ? null : scaled ? mean / maxima[i] : mean };
        }),
      },
    ];
  });
  return { rubric: rubric.key, specialty, scale: scaled ? "fraction" : "mean", domainMax: scaled ? 1 : Math.max(...maxima), axes, series };
}

/**
 * Mean ± SD of the total per model per specialty, ranked within each
 * specialty and rubric by mean (highest first; equal means share a rank,
 * "1224" competition ranking). SAFE-LLM uses the study's headline total.
 */
export function rankingRows(summaries: ModelSummary[], rubrics: readonly RubricDocument[]): RankingRow[] {
  const out: RankingRow[] = [];
  const specialties = [...new Set(summaries.map((s) => s.specialty))];
  for (const r of rubrics) {
    const headline = r.totals.find((t) => t.key === r.headline);
    if (!headline) continue;
    const maxTotal = totalRange(r, headline).max;
    for (const specialty of specialties) {
      const rows = summaries
        .filter((s) => s.specialty === specialty)
        .map((s) => {
          const t = s.totals[r.key];
          return { rubric: r.key, specialty, model: s.model, rank: 0, n: t?.n ?? 0, mean: t?.mean ?? null, sd: t?.sd ?? null, maxTotal };
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
