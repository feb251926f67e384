import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { orderForGrader, planAssignments, type PlanGrader, type PlanSet } from "@/lib/assignment/plan";

const sets = (n: number, specialty = (i: number) => (i % 3 === 0 ? "oph" : i % 3 === 1 ? "med" : "ane")): PlanSet[] =>
  Array.from({ length: n }, (_, i) => ({ id: `set-${String(i).padStart(4, "0")}`, specialtyId: specialty(i), graderIds: [], primaryCount: 0 }));
const graders = (n: number, specs: (i: number) => string[] = () => ["oph", "med", "ane"]): PlanGrader[] =>
  Array.from({ length: n }, (_, i) => ({ id: `g-${i}`, specialtyIds: specs(i), load: 0 }));

function loads(plan: ReturnType<typeof planAssignments>) {
  const m = new Map<string, number>();
  for (const a of plan.assignments) m.set(a.graderId, (m.get(a.graderId) ?? 0) + 1);
  return m;
}

describe("assignment planning", () => {
  it("gives every set exactly k distinct graders, with loads within one of each other", () => {
    const plan = planAssignments({ sets: sets(45), graders: graders(4), gradersPerSet: 2, seed: "s1", matchSpecialty: false });
    expect(plan.assignments).toHaveLength(90);
    expect(plan.short).toEqual([]);
    const perSet = new Map<string, Set<string>>();
    for (const a of plan.assignments) perSet.set(a.setId, (perSet.get(a.setId) ?? new Set()).add(a.graderId));
    expect([...perSet.values()].every((g) => g.size === 2)).toBe(true);
    const l = [...loads(plan).values()];
    expect(Math.max(...l) - Math.min(...l)).toBeLessThanOrEqual(1);
  });

  it("property: balance within one and never the same grader twice, for any k <= graders", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 1, max: 7 }), fc.integer({ min: 1, max: 3 }), fc.string(), (n, g, k, seed) => {
        fc.pre(k <= g);
        const plan = planAssignments({ sets: sets(n), graders: graders(g), gradersPerSet: k, seed, matchSpecialty: false });
        expect(plan.assignments).toHaveLength(n * k);
        const pairs = new Set(plan.assignments.map((a) => `${a.setId}|${a.graderId}`));
        expect(pairs.size).toBe(n * k);
        const l = graders(g).map((x) => loads(plan).get(x.id) ?? 0);
        expect(Math.max(...l) - Math.min(...l)).toBeLessThanOrEqual(1);
      }),
    );
  });

  it("is reproducible: the same seed on the same data gives the same plan, another seed another", () => {
    const input = { sets: sets(30), graders: graders(5), gradersPerSet: 2, matchSpecialty: false };
    const a = planAssignments({ ...input, seed: "alpha" });
    const b = planAssignments({ ...input, seed: "alpha", sets: [...input.sets].reverse(), graders: [...input.graders].reverse() });
    expect(b).toEqual(a);
    expect(planAssignments({ ...input, seed: "beta" })).not.toEqual(a);
  });

  it("matches specialties when asked, and reports sets short of eligible graders", () => {
    const gs = graders(3, (i) => (i === 0 ? ["oph"] : i === 1 ? ["oph", "med"] : ["med"]));
    const plan = planAssignments({ sets: sets(9), graders: gs, gradersPerSet: 2, seed: "x", matchSpecialty: true });
    const specialtyOf = new Map(sets(9).map((s) => [s.id, s.specialtyId]));
    for (const a of plan.assignments) expect(gs.find((g) => g.id === a.graderId)!.specialtyIds).toContain(specialtyOf.get(a.setId));
    // anesthesia sets have no eligible grader at all
    expect(plan.short.filter((s) => specialtyOf.get(s.setId) === "ane").map((s) => s.missing)).toEqual([2, 2, 2]);
  });

  it("is incremental: sets already covered get nothing, partly covered ones only what they lack, loads count", () => {
    const base = sets(4);
    base[0] = { ...base[0], graderIds: ["g-0", "g-1"], primaryCount: 2 };
    base[1] = { ...base[1], graderIds: ["g-0"], primaryCount: 1 };
    const gs = graders(3).map((g) => ({ ...g, load: g.id === "g-0" ? 2 : g.id === "g-1" ? 1 : 0 }));
    const plan = planAssignments({ sets: base, graders: gs, gradersPerSet: 2, seed: "inc", matchSpecialty: false });
    expect(plan.assignments.filter((a) => a.setId === base[0].id)).toEqual([]);
    const s1 = plan.assignments.filter((a) => a.setId === base[1].id);
    expect(s1).toHaveLength(1);
    expect(s1[0].graderId).not.toBe("g-0");
    expect(plan.assignments).toHaveLength(0 + 1 + 2 + 2);
    const final = new Map(gs.map((g) => [g.id, g.load]));
    for (const a of plan.assignments) final.set(a.graderId, final.get(a.graderId)! + 1);
    const l = [...final.values()];
    expect(Math.max(...l) - Math.min(...l)).toBeLessThanOrEqual(1);
  });

  it("gives each grader an own random order after their existing work", () => {
    const ids = sets(20).map((s) => s.id);
    const a = orderForGrader(ids, "g-0", "seed", 5);
    const b = orderForGrader(ids, "g-1", "seed", 5);
    expect([...a.values()].sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 5));
    expect(ids.map((id) => a.get(id))).not.toEqual(ids.map((id) => b.get(id)));
    expect(orderForGrader([...ids].reverse(), "g-0", "seed", 5)).toEqual(a);
  });
});
