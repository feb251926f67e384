import { differenceSets, type DifferenceTarget, type PlanResult } from "@/lib/stats/planner";

/** The simulation of the `difference` target, run in a worker thread (./worker.ts). */
export async function runPlannerJob(target: DifferenceTarget): Promise<PlanResult> {
  return differenceSets(target);
}
