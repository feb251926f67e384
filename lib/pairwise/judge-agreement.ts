/**
 * Automated judges in a pairwise study against the clinician panel, per preference axis (and
 * pooled over the axes): the judge's own order effects (consistency across the two orders it was
 * asked in, position bias), its agreement with the panel's final majority (Cohen's kappa, AC1,
 * accuracy) and, beside it, the clinicians' agreement among themselves on the same comparisons
 * (the ceiling). Statistics are lib/stats/judge-preference.ts; this file loads and assembles.
 */
import { getDb } from "@/lib/db/client";
import { comparisonFinals } from "./finals";
import { preferenceAxes } from "@/lib/rubrics/preference";
import { storedRubrics } from "@/lib/rubrics/study-rubrics";
import { clinicianCeiling, judgeOrderEffects, judgeVsPanel, type SideChoice } from "@/lib/stats/judge-preference";
import type { Figure } from "@/lib/judges/types";

export const JUDGE_PREFERENCES_NOTE =
  "Each judge against the panel's final preference per comparison and axis (the majority of the submitted graders' choices, settled comparisons only), on three categories: left, tie, right. " +
  "A judge run asks every comparison in both orders; the judge's preference is the common answer of the two, a tie when they differ (imported preferences are taken as given). " +
  "Consistency: share of comparisons whose two replies agree after the swap; position bias: share of decisive replies choosing the answer shown first (binomial test against 1/2). " +
  "Ceiling: agreement among the primary graders of the same comparisons (percent, Fleiss' kappa, AC1).";

export interface JudgePreferenceAxisRow {
  /** null: pooled over every axis (each comparison and axis a unit). */
  rubric: string | null;
  axis: string | null;
  label: string;
  /** The judge's own order effects; n 0 when it was never asked in both orders (imported preferences). */
  orders: { n: number; consistency: Figure; positionBias: Figure & { pValue: number | null } };
  vsPanel: { n: number; accuracy: Figure; kappa: Figure; ac1: Figure };
  ceiling: { comparisons: number; percent: Figure; fleiss: Figure; ac1: Figure };
}

export interface JudgePreferenceComparison {
  judge: { id: string; name: string; model: string; version: string };
  /** Preferences stored (comparison x axis), run or imported. */
  preferences: number;
  axes: JudgePreferenceAxisRow[];
}

const fig = (value: number | null | undefined, n: number, reason?: string | null, ci?: readonly [number, number] | null): Figure => ({
  value: value ?? null,
  ci: value === null || value === undefined || !ci ? null : [ci[0], ci[1]],
  n,
  reason: value === null || value === undefined ? (reason ?? "not computable") : null,
});

export interface JudgePreferenceRow {
  comparisonId: string;
  rubric: string;
  axis: string;
  choice: SideChoice;
  leftFirst: SideChoice | null;
  rightFirst: SideChoice | null;
}

/** Pure: one judge's rows, the panel's finals and each comparison's primary choices, keyed `comparison/rubric/axis`. */
export function comparePreferenceJudge(
  axes: ReadonlyArray<{ rubric: string; axis: string; label: string }>,
  rows: readonly JudgePreferenceRow[],
  finals: ReadonlyMap<string, SideChoice>,
  primaries: ReadonlyMap<string, SideChoice[]>,
): JudgePreferenceAxisRow[] {
  const scopes: { rubric: string | null; axis: string | null; label: string }[] = [...axes];
  if (axes.length > 1) scopes.push({ rubric: null, axis: null, label: "All axes" });
  return scopes.map((scope) => {
    const mine = rows.filter((r) => scope.axis === null || (r.rubric === scope.rubric && r.axis === scope.axis));
    const both = mine.filter((r) => r.leftFirst !== null && r.rightFirst !== null) as { leftFirst: SideChoice; rightFirst: SideChoice }[];
    const o = judgeOrderEffects(both);
    const pairs: { judge: SideChoice; panel: SideChoice }[] = [];
    const units: SideChoice[][] = [];
    for (const r of mine) {
      const key = `${r.comparisonId}/${r.rubric}/${r.axis}`;
      const panel = finals.get(key);
      if (!panel) continue;
      pairs.push({ judge: r.choice, panel });
      units.push(primaries.get(key) ?? []);
    }
    const v = judgeVsPanel(pairs);
    const c = clinicianCeiling(units);
    const none = "no settled comparison with the judge's preference";
    return {
      rubric: scope.rubric,
      axis: scope.axis,
      label: scope.label,
      orders: {
        n: o.n,
        consistency: fig(o.consistency, o.n, "never asked in both orders (imported preferences)"),
        positionBias: { ...fig(o.positionBias.estimate, o.positionBias.n, o.positionBias.reason, o.positionBias.interval), pValue: o.positionBias.pValue ?? null },
      },
      vsPanel: { n: v.n, accuracy: fig(v.accuracy, v.n, none), kappa: fig(v.kappa.kappa, v.kappa.n, v.kappa.reason ?? none, v.kappa.ci), ac1: fig(v.ac1.coefficient, v.ac1.n, v.ac1.reason ?? none, v.ac1.ci) },
      ceiling: {
        comparisons: c.comparisons,
        percent: fig(c.percent, c.comparisons, "no comparison with two graders"),
        fleiss: fig(c.fleiss.kappa, c.comparisons, c.fleiss.reason ?? "no comparison with two graders"),
        ac1: fig(c.ac1.coefficient, c.comparisons, c.ac1.reason ?? "no comparison with two graders", c.ac1.ci),
      },
    };
  });
}

/** Every judge of a pairwise study against the panel (GET /api/v1/studies/{id}/judges/preferences and the dashboard). */
export async function judgePreferenceComparisons(studyId: string): Promise<{ note: string; judges: JudgePreferenceComparison[] }> {
  const db = getDb();
  const study = await db.study.findUniqueOrThrow({ where: { id: studyId }, select: { rubrics: true } });
  const axes = preferenceAxes(storedRubrics(study.rubrics)).map((a) => ({ rubric: a.rubric, axis: a.axis.key, label: a.axis.name }));
  const [judges, rows, finals, primaryRows] = await Promise.all([
    db.automatedJudge.findMany({ where: { studyId }, orderBy: { createdAt: "asc" }, select: { id: true, name: true, model: true, version: true } }),
    db.judgePreference.findMany({ where: { judge: { studyId } }, select: { judgeId: true, comparisonId: true, rubric: true, axis: true, choice: true, leftFirst: true, rightFirst: true } }),
    comparisonFinals(db, studyId),
    db.$queryRaw<{ key: string; choices: SideChoice[] }[]>`
      SELECT a."comparisonId"::text || '/' || p.rubric || '/' || p.axis AS key, array_agg(p.choice::text ORDER BY a.id) AS choices
      FROM "ComparisonAssignment" a JOIN "Preference" p ON p."assignmentId" = a.id
      WHERE a."studyId" = ${studyId}::uuid AND a.kind = 'PRIMARY' AND a.status = 'SUBMITTED'
      GROUP BY 1`,
  ]);
  const finalMap = new Map(finals.map((f) => [`${f.comparisonId}/${f.rubric}/${f.axis}`, f.choice]));
  const primaries = new Map(primaryRows.map((r) => [r.key, r.choices]));
  return {
    note: JUDGE_PREFERENCES_NOTE,
    judges: judges.map((j) => {
      const mine = rows.filter((r) => r.judgeId === j.id);
      return { judge: j, preferences: mine.length, axes: comparePreferenceJudge(axes, mine, finalMap, primaries) };
    }),
  };
}
