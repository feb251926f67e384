import { describe, expect, it } from "vitest";
import { assignGraders } from "@/lib/assignment/service";
import { getDb } from "@/lib/db/client";
import { saveGrades } from "@/lib/grading/service";
import { reviewHarmFlag } from "@/lib/harm/service";
import { setDetail } from "@/lib/results/set-detail";
import { computeSetResults } from "@/lib/results/sets";
import { graderPseudonym } from "@/lib/users/pseudonym";
import { useIsolatedDatabase } from "./helpers/db";
import { form, makeGradableStudy } from "./helpers/study-fixture";

useIsolatedDatabase();

/** One set graded by two primaries who disagree on safety, one with a harm flag, then adjudicated by a third grader. */
async function adjudicatedSet() {
  const f = await makeGradableStudy({ items: 1, models: 1, graders: 3, rubrics: ["SCORE"] });
  await assignGraders(f.study.id, { seed: "detail" }, f.lead.id);
  const setId = f.sets[0].id;
  const [p1, p2] = await getDb().assignment.findMany({ where: { responseSetId: setId, kind: "PRIMARY" }, orderBy: { graderId: "asc" } });
  const withComment = (scores: ReturnType<typeof form>, comment: string) => scores.map((c) => (c.dimension === "safety" ? { ...c, comment } : c));
  await saveGrades(p1.graderId, p1.id, { scores: withComment(form({ score: [5, 4, 4, 4, 4] }), "Safe and guideline-concordant"), submit: true });
  await saveGrades(p2.graderId, p2.id, {
    scores: withComment(form({ score: [1, 4, 4, 3, 4] }), "Recommends an unsafe dose"),
    submit: true,
    harm: { flag: true, comment: "Dose ten times the maximum" },
  });
  await reviewHarmFlag(f.study.id, p2.id, { status: "ACKNOWLEDGED", note: "Sent to the safety board" }, f.lead.id);
  const adj = await getDb().assignment.findFirstOrThrow({ where: { responseSetId: setId, kind: "ADJUDICATOR" } });
  await saveGrades(adj.graderId, adj.id, { scores: form({ score: [3, 4, 4, 5, 4] }), submit: true });
  return { f, setId, p1, p2, adj };
}

describe("a set's detail for its lead", () => {
  it("gives each grader's scores and comments under a pseudonym, the harm flag and its review, the escalation, the final scores and the audit timeline", async () => {
    const { f, setId, p1, p2, adj } = await adjudicatedSet();
    const d = (await setDetail(f.study.id, setId))!;
    expect(d).toMatchObject({ id: setId, externalId: "Q1", model: { name: f.models[0].name }, status: "ADJUDICATED", question: "Clinical question 1?" });
    expect(d.answers.map((a) => a.repetition)).toEqual([1, 2, 3]);

    const pseudo = (id: string) => graderPseudonym(f.study.id, id);
    expect(d.graders.map((g) => [g.grader, g.kind, g.status]).sort()).toEqual(
      [
        [pseudo(p1.graderId), "PRIMARY", "SUBMITTED"],
        [pseudo(p2.graderId), "PRIMARY", "SUBMITTED"],
        [pseudo(adj.graderId), "ADJUDICATOR", "SUBMITTED"],
      ].sort(),
    );
    const second = d.graders.find((g) => g.assignmentId === p2.id)!;
    expect(second.cells.find((c) => c.dimension === "safety")).toMatchObject({ rubric: "SCORE", score: 1, comment: "Recommends an unsafe dose" });
    expect(second.cells).toHaveLength(5);
    expect(second.harm).toMatchObject({ comment: "Dose ten times the maximum", review: { status: "ACKNOWLEDGED", note: "Sent to the safety board", reviewer: f.lead.name } });
    expect(d.graders.find((g) => g.assignmentId === p1.id)!.harm).toBeNull();

    expect(d.escalation).toMatchObject({ status: "RESOLVED", adjudicator: pseudo(adj.graderId) });
    expect(d.escalation!.dimensions).toEqual([
      expect.objectContaining({ rubric: "SCORE", dimension: "safety", spread: 4, values: expect.arrayContaining([{ grader: pseudo(p1.graderId), value: 5 }, { grader: pseudo(p2.graderId), value: 1 }]) }),
    ]);

    // The same final scores as the Results tab, from the same function.
    const [row] = await computeSetResults(f.study.id);
    expect(d.finalScores).toEqual(row.finalScores);
    expect(d.totals).toEqual(row.totals);
    expect(d.finalScores!.SCORE.safety).toBeCloseTo((5 + 1 + 3) / 3, 12);

    // The audit timeline: every event about the set, its assignments and its escalation, oldest first.
    const actions = d.timeline.map((e) => e.action);
    expect(actions.filter((a) => a === "assignment.submit")).toHaveLength(3);
    expect(actions).toEqual(expect.arrayContaining(["escalation.create", "harm.review"]));
    expect(actions.indexOf("escalation.create")).toBeLessThan(actions.lastIndexOf("assignment.submit"));
    const times = d.timeline.map((e) => e.createdAt);
    expect([...times].sort()).toEqual(times);
    const submit = d.timeline.find((e) => e.action === "assignment.submit" && e.about.endsWith(pseudo(p2.graderId)))!;
    expect(submit.actor).toBe(pseudo(p2.graderId));
    expect(d.timeline.find((e) => e.action === "harm.review")!.actor).toBe(f.lead.name);

    // Pseudonymous: no grader's account id, name or e-mail anywhere in it.
    const json = JSON.stringify(d);
    for (const g of f.graders) {
      expect(json).not.toContain(g.id);
      expect(json).not.toContain(g.email);
    }
  });

  it("a set awaiting grades has no final scores, no escalation; another study's set, a malformed id or a missing one is null", async () => {
    const f = await makeGradableStudy({ items: 1, models: 2, graders: 2, rubrics: ["SCORE"] });
    const other = await makeGradableStudy({ items: 1, models: 1, graders: 2, rubrics: ["SCORE"] });
    const d = (await setDetail(f.study.id, f.sets[1].id))!;
    expect(d).toMatchObject({ status: "AWAITING_GRADES", graders: [], escalation: null, finalScores: null, totals: null, timeline: [] });
    expect(d.model.name).toBe(f.models[1].name);
    expect(await setDetail(f.study.id, other.sets[0].id)).toBeNull();
    expect(await setDetail(f.study.id, "not-a-uuid")).toBeNull();
    expect(await setDetail(f.study.id, "00000000-0000-4000-8000-000000000000")).toBeNull();
  });
});
