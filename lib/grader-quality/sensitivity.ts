import { assembleStudyStats, type LoadedStudy } from "@/lib/analytics/assemble";
import { loadStudy } from "@/lib/analytics/load";
import type { StudyStats } from "@/lib/analytics/types";
import { ALL_SPECIALTIES } from "@/lib/results/summary";
import type { Sensitivity, SensitivityFigure } from "./contract";

/**
 * Sensitivity analysis (issue #35, item 5): the dashboard's headline figures (final means per
 * model, Cronbach's alpha, Gwet's AC2 per dimension, Cliff's delta between models; all
 * specialties) as the dashboard shows them, with every grader, and without each analysed
 * grader in turn. Each variant is the dashboard's own computation (assembleStudyStats) on the
 * same one read with one more grader excluded, so a figure here is the figure the dashboard
 * would show. Cliff's delta is read as a point (no bootstrap: only its change matters here).
 */
export const SENSITIVITY_NOTE =
  "Each figure as the dashboard shows it (excluded graders left out), with every grader (the excluded ones too), and recomputed without each analysed grader in turn, on all specialties. The change is the figure without the grader minus the figure shown; the largest absolute change is named. A large change means the result leans on that grader.";

type Figures = Map<string, { kind: SensitivityFigure["kind"]; label: string; value: number | null }>;

/** The headline figures of one computation, by a stable key. */
export function headlineFigures(stats: StudyStats): Figures {
  const out: Figures = new Map();
  for (const r of stats.ranking.data?.rows ?? [])
    if (r.specialty === ALL_SPECIALTIES) out.set(`mean|${r.rubric}|${r.measure}|${r.model}`, { kind: "mean", label: `Mean ${r.label}: ${r.model}`, value: r.mean });
  for (const b of stats.alpha.data?.bars ?? []) if (b.specialty === ALL_SPECIALTIES) out.set(`alpha|${b.rubric}`, { kind: "alpha", label: `Cronbach's alpha (${b.rubric})`, value: b.alpha });
  for (const r of stats.agreement.data?.rows ?? []) out.set(`ac2|${r.rubric}|${r.dimension}`, { kind: "agreement", label: `Gwet's AC2: ${r.label}`, value: r.gwetAC2.value });
  for (const c of stats.cliffs.data?.cells ?? [])
    if (c.specialty === ALL_SPECIALTIES && c.rowModel < c.colModel)
      out.set(`delta|${c.rubric}|${c.measure}|${c.rowModel}|${c.colModel}`, { kind: "delta", label: `Cliff's delta ${c.label}: ${c.rowModel} vs ${c.colModel}`, value: c.delta });
  return out;
}

const figuresWithout = (loaded: LoadedStudy, excluded: ReadonlySet<string>) => headlineFigures(assembleStudyStats({ ...loaded, excluded }, {}, { resamples: 2 }));
const round = (x: number | null) => (x === null || !Number.isFinite(x) ? null : Math.round(x * 1e6) / 1e6);

/** Pure: the sensitivity of a loaded study. */
export function sensitivityOf(loaded: LoadedStudy): Sensitivity {
  const excluded = new Set(loaded.excluded ?? []);
  const main = figuresWithout(loaded, excluded);
  const all = excluded.size ? figuresWithout(loaded, new Set()) : main;
  const graded = new Set(loaded.assignments.filter((a) => a.status === "SUBMITTED").map((a) => a.graderId));
  const names = new Map(loaded.graders.map((g) => [g.id, g.name]));
  const analysed = [...graded].filter((g) => !excluded.has(g)).sort();
  const without = analysed.map((g) => ({ graderId: g, figures: figuresWithout(loaded, new Set([...excluded, g])) }));
  const figures = [...main].map(([key, f]): SensitivityFigure => {
    const withoutEach = without.map((w) => {
      const value = w.figures.get(key)?.value ?? null;
      return { graderId: w.graderId, value: round(value), change: value === null || f.value === null ? null : round(value - f.value) };
    });
    let largest: SensitivityFigure["largest"] = null;
    for (const w of withoutEach) if (w.change !== null && (largest === null || Math.abs(w.change) > Math.abs(largest.change))) largest = { graderId: w.graderId, change: w.change };
    return { key, kind: f.kind, label: f.label, main: round(f.value), allGraders: round(all.get(key)?.value ?? null), withoutEach, largest };
  });
  return {
    studyId: loaded.study.id,
    note: SENSITIVITY_NOTE,
    graders: [...graded].sort().map((g) => ({ graderId: g, name: names.get(g) ?? "Former grader", excluded: excluded.has(g) })),
    excluded: [...excluded].sort(),
    figures,
  };
}

/** The study's sensitivity analysis; null when the study does not exist. */
export async function graderSensitivity(studyId: string): Promise<Sensitivity | null> {
  const loaded = await loadStudy(studyId);
  return loaded && sensitivityOf(loaded);
}
