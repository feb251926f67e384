import { seededShuffle, seedToUint32 } from "@/lib/random/seeded";
import { mulberry32 } from "@/lib/stats";
import type { AssignmentDesign } from "@/lib/studies/assignment-design";

/**
 * Pure planning of PRIMARY assignments: which eligible graders get which
 * response sets, balanced and reproducible from a seed. The database side
 * (lib/assignment/service.ts) feeds it the current state and writes the result.
 */
export interface PlanSet {
  id: string;
  specialtyId: string;
  /** The question (QaItem) the set answers; a set without one stands alone. */
  itemId?: string;
  /** The model whose answers the set holds (for balancing models per grader). */
  modelId?: string;
  /** Graders with an active PRIMARY assignment on the set (their model counts); defaults to graderIds. */
  primaryGraderIds?: string[];
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
  /** Defaults to LOAD_BALANCED (today's design). */
  design?: AssignmentDesign;
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
  if (input.design === "ONE_MODEL_PER_QUESTION") return planOneModelPerQuestion(input);
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
 * One model per question: the sets of a question are filled together, each
 * grader at most once per question (counting every assignment they ever had on
 * it, so a grader who once saw one model's answers never gets another's). Among
 * the eligible (grader, set) pairs the least loaded grader goes first, then the
 * model that grader has seen least, so over the questions every grader sees each
 * model about equally often: a Latin square where the numbers allow it.
 */
function planOneModelPerQuestion(input: PlanInput): PlanResult {
  const graders = [...input.graders].sort((a, b) => a.id.localeCompare(b.id));
  const rank = new Map(seededShuffle(graders.map((g) => g.id), `${input.seed}:graders`).map((id, i) => [id, i]));
  const load = new Map(graders.map((g) => [g.id, g.load]));
  const sorted = [...input.sets].sort((a, b) => a.id.localeCompare(b.id));
  const models = [...new Set(sorted.map((s) => s.modelId ?? ""))];
  const seen = new Map(graders.map((g) => [g.id, new Map(models.map((m) => [m, 0]))]));
  const byItem = new Map<string, PlanSet[]>();
  for (const set of sorted) {
    const item = set.itemId ?? set.id;
    byItem.set(item, [...(byItem.get(item) ?? []), set]);
    for (const g of set.primaryGraderIds ?? set.graderIds) {
      const m = seen.get(g);
      if (m) m.set(set.modelId ?? "", (m.get(set.modelId ?? "") ?? 0) + 1);
    }
  }
  // How far above its own least-seen model this model is for the grader.
  const excess = (g: string, model: string) => {
    const m = seen.get(g)!;
    return m.get(model)! - Math.min(...m.values());
  };
  const assignments: PlanResult["assignments"] = [];
  const short: PlanResult["short"] = [];
  for (const item of seededShuffle([...byItem.keys()], `${input.seed}:items`)) {
    const sets = seededShuffle(byItem.get(item)!, `${input.seed}:item:${item}`);
    const used = new Set(sets.flatMap((s) => s.graderIds));
    // One slot per missing grader; all sets of a question share its specialty.
    const slots = sets.flatMap((s) => Array.from({ length: Math.max(0, input.gradersPerSet - s.primaryCount) }, () => s));
    if (slots.length === 0) continue;
    const eligible = graders
      .filter((g) => !used.has(g.id) && (!input.matchSpecialty || g.specialtyIds.includes(sets[0].specialtyId)))
      .sort((a, b) => load.get(a.id)! - load.get(b.id)! || rank.get(a.id)! - rank.get(b.id)!);
    // Who: the least loaded. Which model each: greedy on the model they have seen least,
    // then pairwise swaps while they even out the counts (sum of squares falls).
    const chosen = eligible.slice(0, slots.length);
    const model = (s: PlanSet) => s.modelId ?? "";
    const placed: { set: PlanSet; grader: string }[] = [];
    const free = [...chosen.map((g) => g.id)];
    for (const set of slots.slice(0, chosen.length)) {
      free.sort((a, b) => excess(a, model(set)) - excess(b, model(set)) || rank.get(a)! - rank.get(b)!);
      placed.push({ set, grader: free.shift()! });
    }
    const count = (g: string, m: string) => seen.get(g)!.get(m)!;
    for (let improved = true; improved; ) {
      improved = false;
      for (let i = 0; i < placed.length; i++) {
        for (let j = i + 1; j < placed.length; j++) {
          const [p, q] = [placed[i], placed[j]];
          if (model(p.set) === model(q.set)) continue;
          const delta = count(p.grader, model(q.set)) - count(p.grader, model(p.set)) + count(q.grader, model(p.set)) - count(q.grader, model(q.set));
          if (delta < 0) {
            [p.grader, q.grader] = [q.grader, p.grader];
            improved = true;
          }
        }
      }
    }
    for (const { set, grader } of placed) {
      assignments.push({ setId: set.id, graderId: grader });
      load.set(grader, load.get(grader)! + 1);
      seen.get(grader)!.set(model(set), count(grader, model(set)) + 1);
    }
    const missing = new Map<string, number>();
    for (const set of slots.slice(chosen.length)) missing.set(set.id, (missing.get(set.id) ?? 0) + 1);
    for (const [setId, n] of missing) short.push({ setId, missing: n });
  }
  return { assignments, short };
}

/**
 * Positions for a grader's new work: after what they already have, in their own
 * seeded random order, so no two graders see the sets in the same order. Two
 * sets of one question are never next to each other when it can be helped (a
 * short answer beside a long one gives the source away): each step takes a
 * question other than the last one placed, the one with the most sets left
 * (which keeps this possible to the end), ties at random; so a question's sets
 * come about a round of questions apart. `afterItemId` is the question of the
 * grader's last queued set.
 */
export function orderForGrader(
  sets: { id: string; itemId?: string }[],
  graderId: string,
  seed: string,
  startAt: number,
  afterItemId?: string | null,
): Map<string, number> {
  const rng = mulberry32(seedToUint32(`${seed}:order:${graderId}`));
  const left = new Map<string, string[]>();
  for (const s of [...sets].sort((a, b) => a.id.localeCompare(b.id))) {
    const item = s.itemId ?? s.id;
    left.set(item, [...(left.get(item) ?? []), s.id]);
  }
  for (const [item, ids] of left) left.set(item, seededShuffle(ids, `${seed}:order:${graderId}:${item}`));
  const items = [...left.keys()].sort();
  const order: string[] = [];
  let last = afterItemId ?? null;
  while (order.length < sets.length) {
    let candidates = items.filter((i) => left.get(i)!.length > 0 && i !== last);
    // Only the last question has sets left: adjacency cannot be helped.
    if (candidates.length === 0) candidates = items.filter((i) => left.get(i)!.length > 0);
    const most = Math.max(...candidates.map((i) => left.get(i)!.length));
    const top = candidates.filter((i) => left.get(i)!.length === most);
    const pick = top[Math.floor(rng() * top.length)];
    order.push(left.get(pick)!.shift()!);
    last = pick;
  }
  return new Map(order.map((id, i) => [id, startAt + i]));
}
