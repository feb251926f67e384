import { loadStudy } from "@/lib/analytics/load";
import { judgesBlock } from "@/lib/analytics/judges";
import type { Figure, JudgeComparison } from "@/lib/judges/types";
import type { Cell } from "./csv";

/**
 * The summary's judge-vs-panel rows: the dashboard's figures (lib/judges/compare.ts)
 * for every judge, one row per figure, section "judge_vs_panel", each with its n.
 */
export async function judgeComparisons(studyId: string): Promise<JudgeComparison[]> {
  const loaded = await loadStudy(studyId);
  if (!loaded) return [];
  return (await judgesBlock(studyId, loaded)).data?.judges ?? [];
}

type Row = Record<string, Cell>;

export function judgeSummaryRows(judges: readonly JudgeComparison[]): Row[] {
  const rows: Row[] = [];
  const push = (j: JudgeComparison, rubric: string, measure: string, reading: string, f: Figure) =>
    rows.push({ section: "judge_vs_panel", rubric, judge: j.judge.name, reading, measure, n: f.n, value: f.value, ci_low: f.ci?.[0] ?? null, ci_high: f.ci?.[1] ?? null, note: f.reason });
  for (const j of judges) {
    for (const d of j.dimensions) {
      for (const k of ["ac2", "kappa", "exact", "icc3k", "icc21", "spearman"] as const) push(j, d.rubric, `${d.dimension}.${k}`, d.reading, d[k]);
      if (d.macroF1) push(j, d.rubric, `${d.dimension}.macro_f1`, d.reading, d.macroF1);
      const ba = d.blandAltman;
      rows.push({ section: "judge_vs_panel", rubric: d.rubric, judge: j.judge.name, reading: d.reading, measure: `${d.dimension}.mean_difference`, n: ba.n, value: ba.bias, ci_low: ba.limits?.[0] ?? null, ci_high: ba.limits?.[1] ?? null, note: ba.reason ?? "ci: Bland-Altman 95% limits of agreement" });
      push(j, d.rubric, `${d.dimension}.ceiling_ac2`, d.reading, d.ceiling.ac2);
      for (const c of d.clinicians) push(j, d.rubric, `${d.dimension}.ac2_minus_clinician:${c.grader.name}`, d.reading, c.difference);
    }
    for (const t of j.totals) for (const k of ["icc3k", "icc21", "spearman"] as const) push(j, t.rubric, `${t.total}.${k}`, t.reading, t[k]);
    for (const r of j.ranking) push(j, r.rubric, `${r.total}.model_ranking_kendall_tau`, r.reading, r.tau);
    for (const l of j.lengthBias) {
      push(j, l.rubric, `${l.total}.length_spearman_judge`, l.reading, l.judge);
      push(j, l.rubric, `${l.total}.length_spearman_panel`, l.reading, l.panel);
    }
  }
  return rows;
}
