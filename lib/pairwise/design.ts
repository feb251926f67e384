/**
 * Which pairs of models are compared on each question of a pairwise preference study, which of
 * their N answers is shown, and which model sits on the left. Pure and seeded: the same seed and
 * inputs give the same comparisons, so a design can be shown, replayed and audited.
 *
 * - "all_pairs": every pair of models on every question; the left model by a seeded coin.
 * - "against_reference": each other model against one reference model (e.g. the clinicians' own
 *   answer); the left model by a seeded coin.
 * - "balanced": `perQuestion` comparisons per question, chosen greedily so that every model
 *   appears equally often and on each side equally often (within one), never the same pair twice
 *   on one question; ties broken by the seed.
 */
import { seedToUint32 } from "@/lib/random/seeded";
import { mulberry32 } from "@/lib/stats/bootstrap";

export type PairDesign =
  | { kind: "all_pairs" }
  | { kind: "against_reference"; reference: string }
  | { kind: "balanced"; perQuestion: number };

export interface DesignQuestion {
  id: string;
  /** Models with answers to this question, and how many answers (repetitions) each has. */
  models: ReadonlyArray<{ model: string; repetitions: ReadonlyArray<number> }>;
}

export interface PlannedComparison {
  questionId: string;
  leftModel: string;
  rightModel: string;
  leftRepetition: number;
  rightRepetition: number;
}

export type DesignResult = { comparisons: PlannedComparison[] } | { problem: string; path: string };

export function planComparisons(questions: ReadonlyArray<DesignQuestion>, design: PairDesign, seed: string): DesignResult {
  const rng = mulberry32(seedToUint32(seed));
  const pick = <T>(list: ReadonlyArray<T>): T => list[Math.floor(rng() * list.length)];
  const out: PlannedComparison[] = [];
  const planned: { questionId: string; a: string; b: string; reps: Map<string, ReadonlyArray<number>> }[] = [];
  const allModels = [...new Set(questions.flatMap((q) => q.models.map((m) => m.model)))].sort();
  if (design.kind === "against_reference" && !allModels.includes(design.reference)) {
    return { problem: `the reference model "${design.reference}" has no answers in this study`, path: "design.reference" };
  }
  if (design.kind === "balanced" && !(Number.isInteger(design.perQuestion) && design.perQuestion >= 1)) {
    return { problem: "comparisons per question must be a whole number of at least 1", path: "design.perQuestion" };
  }
  const appearances = new Map<string, number>(allModels.map((m) => [m, 0]));
  const pairCount = new Map<string, number>();
  const pairKey = (a: string, b: string) => (a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`);
  const tallyPair = (a: string, b: string) => {
    appearances.set(a, appearances.get(a)! + 1);
    appearances.set(b, appearances.get(b)! + 1);
    pairCount.set(pairKey(a, b), (pairCount.get(pairKey(a, b)) ?? 0) + 1);
  };

  for (const q of questions) {
    const reps = new Map(q.models.map((m) => [m.model, m.repetitions]));
    const models = q.models.map((m) => m.model).filter((m) => (reps.get(m)?.length ?? 0) > 0).sort();
    const allPairs: [string, string][] = [];
    for (let a = 0; a < models.length; a++) for (let b = a + 1; b < models.length; b++) allPairs.push([models[a], models[b]]);
    let pairs: [string, string][] = [];
    if (design.kind === "all_pairs") {
      pairs = allPairs;
    } else if (design.kind === "against_reference") {
      if (models.includes(design.reference)) pairs = allPairs.filter(([a, b]) => a === design.reference || b === design.reference);
    } else {
      const candidates = allPairs;
      if (candidates.length > 0 && design.perQuestion > candidates.length) {
        return { problem: `question ${q.id} has ${models.length} models, so at most ${candidates.length} different pairs, not ${design.perQuestion}`, path: "design.perQuestion" };
      }
      const used = new Set<string>();
      for (let slot = 0; slot < design.perQuestion && candidates.length > 0; slot++) {
        let best: [string, string][] = [];
        let bestScore: number[] = [];
        for (const [a, b] of candidates) {
          if (used.has(pairKey(a, b))) continue;
          const ca = appearances.get(a)!;
          const cb = appearances.get(b)!;
          const score = [ca + cb, Math.max(ca, cb), pairCount.get(pairKey(a, b)) ?? 0];
          const cmp = bestScore.length === 0 ? -1 : compare(score, bestScore);
          if (cmp < 0) { best = [[a, b]]; bestScore = score; } else if (cmp === 0) best.push([a, b]);
        }
        const chosen = pick(best);
        used.add(pairKey(chosen[0], chosen[1]));
        pairs.push(chosen);
        // Counted at once, so the next slot of this question sees it.
        tallyPair(chosen[0], chosen[1]);
      }
    }
    for (const [a, b] of pairs) planned.push({ questionId: q.id, a, b, reps });
  }
  // Sides: a coin per comparison, or, for the balanced design, an orientation in which every
  // model is left and right equally often within one (an Euler circuit of the comparison graph).
  const leftIsA = design.kind === "balanced" ? balancedSides(planned.map((p) => [p.a, p.b]), rng) : planned.map(() => rng() < 0.5);
  planned.forEach((p, i) => {
    const left = leftIsA[i] ? p.a : p.b;
    const right = leftIsA[i] ? p.b : p.a;
    out.push({
      questionId: p.questionId,
      leftModel: left,
      rightModel: right,
      leftRepetition: pick(p.reps.get(left)!),
      rightRepetition: pick(p.reps.get(right)!),
    });
  });
  return { comparisons: out };
}

function compare(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/**
 * Orients each edge (a, b) so that every vertex's left and right counts differ by at most one:
 * odd-degree vertices are joined to a virtual vertex, which makes every degree even; walking an
 * Euler circuit of each component and orienting edges along the walk gives in = out everywhere,
 * and dropping the virtual edges moves each vertex by at most one. Returns, per edge, whether
 * `a` goes left. Adjacency order is shuffled by the seed so the sides are not predictable.
 */
function balancedSides(edges: ReadonlyArray<[string, string]>, rng: () => number): boolean[] {
  const VIRTUAL = "\u0000virtual";
  const all: [string, string][] = edges.map(([a, b]) => [a, b]);
  const degree = new Map<string, number>();
  for (const [a, b] of all) {
    degree.set(a, (degree.get(a) ?? 0) + 1);
    degree.set(b, (degree.get(b) ?? 0) + 1);
  }
  for (const [v, d] of [...degree]) if (d % 2 === 1) all.push([v, VIRTUAL]);
  const adjacency = new Map<string, number[]>();
  all.forEach(([a, b], e) => {
    (adjacency.get(a) ?? adjacency.set(a, []).get(a)!).push(e);
    (adjacency.get(b) ?? adjacency.set(b, []).get(b)!).push(e);
  });
  for (const list of adjacency.values()) {
    for (let i = list.length - 1; i > 0; i--) {
      const j = Math.floor(rng() * (i + 1));
      [list[i], list[j]] = [list[j], list[i]];
    }
  }
  const used = new Array<boolean>(all.length).fill(false);
  const aFirst = new Array<boolean>(all.length).fill(true);
  const cursor = new Map<string, number>();
  for (const start of [...adjacency.keys()].sort()) {
    // Hierholzer, iterative: each edge is taken once, oriented from the vertex we leave by.
    const stack = [start];
    while (stack.length > 0) {
      const v = stack[stack.length - 1];
      const list = adjacency.get(v)!;
      let i = cursor.get(v) ?? 0;
      while (i < list.length && used[list[i]]) i++;
      cursor.set(v, i);
      if (i === list.length) { stack.pop(); continue; }
      const e = list[i];
      used[e] = true;
      const [a, b] = all[e];
      aFirst[e] = a === v;
      stack.push(a === v ? b : a);
    }
  }
  return aFirst.slice(0, edges.length);
}
