import { triggerRates, type PrimarySet } from "./agreement";
import type { LoadedAssignment } from "./assemble";
import { loadStudy } from "./load";
import type { EscalationOverrides } from "@/lib/rubrics/escalation-rule";
import type { Thresholds } from "@/lib/scoring/escalation";

/** How often a dimension's rule triggered: sets where it escalated, of the sets with two primary values. */
export interface TriggerRate {
  triggered: number;
  sets: number;
}

/**
 * The pilot's trigger rates under a rule set (the stored one, or one a lead is
 * trying): escalation's own rule (dimensionDisagrees, through the dashboard's
 * triggerRates) on the primaries' submitted grades. Keyed "rubric.dimension".
 */
export async function pilotTriggerRates(studyId: string, rules?: { thresholds: Thresholds; escalationRules: EscalationOverrides }): Promise<Record<string, TriggerRate>> {
  const loaded = await loadStudy(studyId);
  if (!loaded) return {};
  const bySet = new Map<string, LoadedAssignment[]>();
  for (const a of loaded.assignments) {
    if (a.kind !== "PRIMARY" || a.status !== "SUBMITTED" || !a.record) continue;
    bySet.set(a.setId, [...(bySet.get(a.setId) ?? []), a]);
  }
  const sets: PrimarySet[] = [];
  for (const [setId, prim] of bySet) {
    if (prim.length < 2) continue;
    sets.push({ setId, graderIds: prim.map((a) => a.graderId), tables: [], values: prim.map((a) => a.record!.values) });
  }
  const thresholds = rules?.thresholds ?? loaded.study.thresholds;
  const overrides = rules?.escalationRules ?? loaded.study.escalationRules;
  return Object.fromEntries(triggerRates(sets, loaded.study.rubrics, thresholds, overrides));
}
