import { describe, expect, it } from "vitest";
import { StudyStatsSchema } from "@/lib/analytics/contract";
import { assembleStudyStats, type LoadedStudy } from "@/lib/analytics/assemble";
import type { SetStatusKey } from "@/lib/analytics/types";
import { loadedStudy, scoreStudy, type ScoreForm } from "./loaded-study";

const { study: STUDY, layout: LAYOUT } = scoreStudy(3);

/** One set graded by two primaries with the given S.C.O.R.E. forms (null = still pending). */
function study(rows: { model: string; specialty: string; status: SetStatusKey; forms: (ScoreForm | null)[] }[]): LoadedStudy {
  return loadedStudy(3, rows.map((r, i) => ({ ...r, forms: r.forms.map((form, g) => ({ grader: (i + g) % 3, form })) })));
}

describe("the dashboard's not-enough-data states", () => {
  it("an empty study: every block is null with a reason, and the output fits the API contract", () => {
    const s = assembleStudyStats({ study: STUDY, layout: LAYOUT, models: [], sets: [], assignments: [], graders: [] });
    expect(s.radar).toEqual([{ rubric: "SCORE", data: null, reason: expect.stringMatching(/No response sets yet/) }]);
    for (const b of [s.alpha, s.cliffs, s.agreement, s.ranking, s.progress]) {
      expect(b.data).toBeNull();
      expect(b.reason).toBeTruthy();
    }
    expect(s.scope).toEqual({ specialty: "All specialties", sets: 0, finalSets: 0 });
    expect(() => StudyStatsSchema.parse(s)).not.toThrow();
  });

  it("sets but nothing final: progress shows, the score blocks explain why they are empty", () => {
    const s = assembleStudyStats(
      study([
        { model: "A", specialty: "Oph", status: "AWAITING_GRADES", forms: [[4, 4, 4, 4, 4], null] },
        { model: "B", specialty: "Oph", status: "AWAITING_GRADES", forms: [null, null] },
      ]),
    );
    expect(s.radar[0].reason).toMatch(/No response set is final yet/);
    expect(s.alpha.reason).toMatch(/final/);
    expect(s.cliffs.data).toBeNull();
    expect(s.agreement.reason).toMatch(/at least two primary graders/);
    expect(s.progress.data).toMatchObject({ sets: { total: 2, byStatus: { AWAITING_GRADES: 2, AGREED: 0 } }, assignments: { done: 1, assigned: 4 } });
    expect(s.progress.data!.graders.map((g) => [g.name, g.done, g.assigned])).toEqual([
      ["Grader 1", 1, 1],
      ["Grader 2", 0, 2],
      ["Grader 3", 0, 1],
    ]);
    expect(() => StudyStatsSchema.parse(s)).not.toThrow();
  });

  it("one model: Cliff's delta needs two; one set per specialty: alpha says why it is undefined", () => {
    const s = assembleStudyStats(study([{ model: "A", specialty: "Oph", status: "AGREED", forms: [[4, 4, 4, 4, 4], [4, 5, 4, 4, 4]] }]));
    expect(s.cliffs).toEqual({ data: null, reason: expect.stringMatching(/at least two models/) });
    expect(s.radar[0].data!.series).toHaveLength(1);
    expect(s.alpha.data!.bars[0]).toMatchObject({ specialty: "Oph", alpha: null, n: 1 });
    expect(s.alpha.data!.bars[0].reason).toBeTruthy();
    expect(s.agreement.data!.rows[0].units).toBe(1);
    expect(s.ranking.data!.rows).toEqual([
      expect.objectContaining({ model: "A", specialty: "Oph", rank: 1, n: 1, mean: 20.5, sd: null }),
      expect.objectContaining({ model: "A", specialty: "All specialties", rank: 1, n: 1, mean: 20.5 }),
    ]);
  });
});

describe("filters", () => {
  const loaded = study([
    { model: "A", specialty: "Oph", status: "AGREED", forms: [[5, 5, 4, 4, 5], [5, 4, 4, 4, 5]] },
    { model: "B", specialty: "Oph", status: "AGREED", forms: [[3, 2, 3, 3, 2], [3, 3, 3, 3, 2]] },
    { model: "A", specialty: "Med", status: "AGREED", forms: [[4, 4, 4, 4, 4], [4, 4, 4, 4, 4]] },
    { model: "B", specialty: "Med", status: "ADJUDICATED", forms: [[2, 2, 2, 2, 2], [5, 2, 2, 2, 2]] },
    { model: "C", specialty: "Med", status: "AWAITING_ADJUDICATION", forms: [[1, 1, 1, 1, 1], [5, 1, 1, 1, 1]] },
  ]);

  it("all specialties: rows per specialty plus 'All specialties'; the radar describes all of them", () => {
    const s = assembleStudyStats(loaded, {}, { resamples: 50 });
    expect(s.options).toEqual({ specialties: ["Med", "Oph"], models: ["A", "B", "C"], rubrics: ["SCORE"] });
    expect(s.alpha.data!.bars.map((b) => b.specialty)).toEqual(["Med", "Oph", "All specialties"]);
    expect(s.cliffs.data!.specialties).toEqual(["Med", "Oph", "All specialties"]);
    expect(s.cliffs.data!.models).toEqual(["A", "B"]); // C has no final set
    expect(s.radar[0].data!.specialty).toBe("All specialties");
    expect(s.agreement.data!.escalation).toEqual({ rate: 2 / 5, escalated: 2, completed: 5, reason: null });
    const ab = s.cliffs.data!.cells.find((c) => c.specialty === "Oph" && c.rowModel === "A" && c.colModel === "B")!;
    const ba = s.cliffs.data!.cells.find((c) => c.specialty === "Oph" && c.rowModel === "B" && c.colModel === "A")!;
    expect(ab).toMatchObject({ delta: 1, magnitude: "large" });
    expect(ba.delta).toBe(-1);
    expect(ba.ci).toEqual([-ab.ci![1], -ab.ci![0]]);
  });

  it("one specialty: only that specialty's rows, no duplicate 'All specialties'", () => {
    const s = assembleStudyStats(loaded, { specialty: "Oph" }, { resamples: 50 });
    expect(s.filters.specialty).toBe("Oph");
    expect(s.scope).toEqual({ specialty: "Oph", sets: 2, finalSets: 2 });
    expect(s.alpha.data!.bars.map((b) => b.specialty)).toEqual(["Oph"]);
    expect(new Set(s.ranking.data!.rows.map((r) => r.specialty))).toEqual(new Set(["Oph"]));
    expect(s.cliffs.data!.specialties).toEqual(["Oph"]);
    expect(s.radar[0].data!.specialty).toBe("Oph");
  });

  it("a model subset restricts every block; unknown names are ignored", () => {
    const s = assembleStudyStats(loaded, { models: ["A", "nope"] }, { resamples: 50 });
    expect(s.filters.models).toEqual(["A"]);
    expect(s.cliffs.data).toBeNull();
    expect(s.ranking.data!.rows.every((r) => r.model === "A")).toBe(true);
    expect(s.progress.data!.sets.total).toBe(2);
    const none = assembleStudyStats(loaded, { specialty: "Cardiology" });
    expect(none.progress.reason).toMatch(/match these filters/);
  });
});
