/**
 * Pure builders of the dashboard's radar and ranking blocks from the per-model
 * summaries (lib/results/summary.ts `modelSummaries`).
 */
import { RUBRICS, type RubricKey } from "@/lib/rubrics/definitions";
import type { ModelSummary } from "@/lib/results/summary";
import type { RadarChart, RankingRow } from "./types";

/**
 * A radar profile per model: S.C.O.R.E. as the mean score per dimension (axes
 * 0-5); SAFE-LLM per domain as mean / the domain's maximum (accuracy and
 * comprehensiveness / 2, the 0-1 domains / 1), so that the five domains share
 * one 0-1 axis.
 */
export function radarChart(summaries: ModelSummary[], rubric: RubricKey, specialty: string, models: string[]): RadarChart {
  const def = RUBRICS[rubric];
  const scaled = rubric === "SAFE_LLM";
  const axes = def.dimensions.map((d) => ({ dimension: d.key as string, label: d.name, max: d.max }));
  const series = models.flatMap((model) => {
    const s = summaries.find((x) => x.model === model && x.specialty === specialty);
    const dims = s?.dimensions[rubric];
    if (!s || !dims) return [];
    const n = (rubric === "SCORE" ? s.totals.SCORE?.n : s.totals.SAFE_LLM?.n) ?? 0;
    if (n === 0) return [];
    return [
      {
        model,
        n,
        points: def.dimensions.map((d) => {
          const st = dims[d.key];
          const mean = st?.mean ?? null;
          return { dimension: d.key as string, mean, sd: st?.sd ?? null, value: mean === null ? null : scaled ? mean / d.max : mean };
        }),
      },
    ];
  });
  return { rubric, specialty, scale: scaled ? "fraction" : "mean", domainMax: scaled ? 1 : 5, axes, series };
}

/**
 * Mean ± SD of the total per model per specialty, ranked within each
 * specialty and rubric by mean (highest first; equal means share a rank,
 * "1224" competition ranking). SAFE-LLM uses the study's headline total.
 */
export function rankingRows(summaries: ModelSummary[], rubrics: RubricKey[]): RankingRow[] {
  const out: RankingRow[] = [];
  const specialties = [...new Set(summaries.map((s) => s.specialty))];
  for (const r of rubrics) {
    for (const specialty of specialties) {
      const rows = summaries
        .filter((s) => s.specialty === specialty)
        .map((s) => {
          const t = r === "SCORE" ? s.totals.SCORE : s.totals.SAFE_LLM;
          return { rubric: r, specialty, model: s.model, rank: 0, n: t?.n ?? 0, mean: t?.mean ?? null, sd: t?.sd ?? null, maxTotal: RUBRICS[r].maxTotal };
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
