import { seededShuffle } from "@/lib/random/seeded";

/**
 * Pure planning of PRIMARY assignments: which eligible graders get which
 * response sets, balanced and reproducible from a seed. The database side
 * (lib/assignment/service.ts) feeds it the current state and writes the result.
 */
export interface PlanSet {
  id: string;
  specialtyId: string;
  /** Graders already on the set (any non-cancelled assignment): never assigned twice. */
  graderIds: string[];
  /** Active PRIMARY assignments it already has. */
  primaryCount: number;
}

export interface PlanGrader {
  id: string;
  specialtyIds: string[];
  /** Active PRIMARY assignments already held in this study. */
  load: number;
}

export interface PlanInput {
  sets: PlanSet[];
  graders: PlanGrader[];
  gradersPerSet: number;
  seed: string;
  matchSpecialty: boolean;
}

export interface PlanResult {
  assignments: { setId: string; graderId: string }[];
  /** Sets left with fewer than k primary graders, because too few graders are eligible. */
  short: { setId: string; missing: number }[];
}

/**
 * Greedy least-loaded assignment: sets in a seeded random order, each given the
 * eligible graders with the lowest load (ties by a seeded random rank). Taking
 * the k least loaded at every step keeps any two graders eligible for the same
 * sets within one assignment of each other. Inputs are sorted by id first, so
 * the same seed on the same data gives the same plan.
 */
export function planAssignments(input: PlanInput): PlanResult {
  const graders = [...input.graders].sort((a, b) => a.id.localeCompare(b.id));
  const rank = new Map(seededShuffle(graders.map((g) => g.id), `${input.seed}:graders`).map((id, i) => [id, i]));
  const load = new Map(graders.map((g) => [g.id, g.load]));
  const sets = seededShuffle(
    [...input.sets].sort((a, b) => a.id.localeCompare(b.id)),
    `${input.seed}:sets`,
  );
  const assignments: PlanResult["assignments"] = [];
  const short: PlanResult["short"] = [];
  for (const set of sets) {
    const needed = input.gradersPerSet - set.primaryCount;
    if (needed <= 0) continue;
    const taken = new Set(set.graderIds);
    const eligible = graders
      .filter((g) => !taken.has(g.id) && (!input.matchSpecialty || g.specialtyIds.includes(set.specialtyId)))
      .sort((a, b) => load.get(a.id)! - load.get(b.id)! || rank.get(a.id)! - rank.get(b.id)!);
    const chosen = eligible.slice(0, needed);
    for (const g of chosen) {
      assignments.push({ setId: set.id, graderId: g.id });
      load.set(g.id, load.get(g.id)! + 1);
    }
    if (chosen.length < needed) short.push({ setId: set.id, missing: needed - chosen.length });
  }
  return { assignments, short };
}

/**
 * Positions for a grader's new work: after what they already have, in their own
 * seeded random order, so no two graders see the sets in the same order.
 */
export function orderForGrader(setIds: string[], graderId: string, seed: string, startAt: number): Map<string, number> {
  const order = seededShuffle([...setIds].sort(), `${seed}:order:${graderId}`);
  return new Map(order.map((id, i) => [id, startAt + i]));
}
