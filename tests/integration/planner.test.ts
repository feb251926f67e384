/**
 * The study planner through its API (issue #36): each target answers the number with its method
 * and assumptions, the simulation runs off the request's thread, bad targets get a 422 naming the
 * field, and graders may not use it.
 */
import { describe, expect, it } from "vitest";
import { POST as planRoute } from "@/app/api/v1/planner/route";
import { PlannerAnswer } from "@/lib/planner/contract";
import { alphaSets, iccSets, kappaSets, pairwiseComparisons } from "@/lib/stats/planner";
import { fleissKappaSets } from "@/lib/stats/planner-kappa";
import { PUT as putGrades } from "@/app/api/v1/assignments/[id]/grades/route";
import { POST as assign } from "@/app/api/v1/studies/[id]/assignments/route";
import { getDb } from "@/lib/db/client";
import type { RubricDocument } from "@/lib/rubrics/document";
import { dStudy, gStudy } from "@/lib/stats/g-study";
import { bearer, call as callRoute, makeUser } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";
import { makeGradableStudy } from "./helpers/study-fixture";

useIsolatedDatabase();

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = any;
const post = async (token: string, body: unknown) =>
  (await callRoute(planRoute, "/api/v1/planner", bearer(token, { method: "POST", body: typeof body === "string" ? body : JSON.stringify(body), headers: { "content-type": "application/json" } }))) as { status: number; body: Body };

describe("POST /api/v1/planner", () => {
  it("answers every closed-form target with the same numbers as the statistics", async () => {
    const lead = await makeUser("LEAD");
    const icc = await post(lead.token, { target: "icc", expected: 0.7, graders: 3, ciWidth: 0.2 });
    expect(icc.status).toBe(200);
    expect(PlannerAnswer.parse(icc.body)).toBeTruthy();
    expect(icc.body.sets).toBe((iccSets(0.7, 3, 0.2) as { sets: number }).sets);
    expect(icc.body.method).toMatch(/Bonett \(2002\)/);
    expect(icc.body.assumptions.join(" ")).toMatch(/3 graders per set/);
    const alpha = await post(lead.token, { target: "alpha", expected: 0.7, items: 5, ciWidth: 0.1 });
    expect(alpha.body.sets).toBe(349);
    expect(alpha.body.sets).toBe((alphaSets(0.7, 5, 0.1) as { sets: number }).sets);
    const kappa = await post(lead.token, { target: "kappa", expected: 0.6, prevalence: 0.3, ciWidth: 0.3 });
    expect(kappa.body.sets).toBe((kappaSets(0.6, 0.3, 0.3) as { sets: number }).sets);
    // More graders and categories: Fleiss' kappa.
    const fleiss = await post(lead.token, { target: "kappa", expected: 0.5, proportions: [0.2, 0.5, 0.3], graders: 4, ciWidth: 0.2 });
    expect(fleiss.status, JSON.stringify(fleiss.body)).toBe(200);
    expect(PlannerAnswer.parse(fleiss.body)).toBeTruthy();
    expect(fleiss.body.sets).toBe((fleissKappaSets(0.5, [0.2, 0.5, 0.3], 4, 0.2) as { sets: number }).sets);
    expect(fleiss.body.method).toMatch(/Fleiss' kappa/);
    expect(fleiss.body.assumptions.join(" ")).toMatch(/4 graders per set, 3 categories/);
    // A yes/no item with more graders goes the same way; with two, Bloch & Kraemer.
    const yesNo = await post(lead.token, { target: "kappa", expected: 0.6, prevalence: 0.3, graders: 3, ciWidth: 0.3 });
    expect(yesNo.body.sets).toBe((fleissKappaSets(0.6, [0.3, 0.7], 3, 0.3) as { sets: number }).sets);
    const pairwise = await post(lead.token, { target: "pairwise", winProbability: 0.6, tieShare: 0.1 });
    expect(pairwise.body.sets).toBe((pairwiseComparisons(0.6, { tieShare: 0.1 }) as { sets: number }).sets);
  });

  it("simulates the power of a difference in a worker thread, with its Monte Carlo error", async () => {
    const lead = await makeUser("LEAD");
    const r = await post(lead.token, { target: "difference", meanDifference: 1, sd: 2, replicates: 1000, seed: 3 });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.sets).toBeGreaterThan(50);
    expect(r.body.sets).toBeLessThan(85);
    expect(r.body.details.powerReached).toBeGreaterThanOrEqual(0.8);
    expect(r.body.details.monteCarloSE).toBeGreaterThan(0);
    expect(r.body.method).toMatch(/Wilcoxon-Mann-Whitney test by simulation \(1000 simulated studies per size, seed 3\)/);
    // Seeded: the same request gives the same answer.
    expect((await post(lead.token, { target: "difference", meanDifference: 1, sd: 2, replicates: 1000, seed: 3 })).body).toEqual(r.body);
  }, 60_000);

  it("names the problem and the field with a 422", async () => {
    const lead = await makeUser("LEAD");
    const cases: [unknown, string][] = [
      [{ target: "icc", expected: 1.5, graders: 3, ciWidth: 0.2 }, "expected"],
      [{ target: "icc", expected: 0.7, graders: 1, ciWidth: 0.2 }, "graders"],
      [{ target: "alpha", expected: 0.7, items: 5 }, "ciWidth"],
      [{ target: "difference", sd: 2 }, "cliffsDelta"],
      [{ target: "difference", cliffsDelta: 0.3, meanDifference: 1, sd: 2 }, "meanDifference"],
      [{ target: "pairwise", winProbability: 0.4 }, "winProbability"],
      [{ target: "kappa", expected: 0.6, ciWidth: 0.2 }, "prevalence"],
      [{ target: "kappa", expected: 0.6, prevalence: 0.3, proportions: [0.3, 0.7], ciWidth: 0.2 }, "proportions"],
      [{ target: "kappa", expected: 0.6, proportions: [0.3, 0.3, 0.3], graders: 3, ciWidth: 0.2 }, "proportions"],
      [{ target: "kappa", expected: 0.6, prevalence: 0.3, graders: 1, ciWidth: 0.2 }, "graders"],
      [{ target: "icc", expected: 0.7, graders: 3, ciWidth: 0.2, extra: 1 }, "extra"],
      [{ target: "nonsense" }, "target"],
    ];
    for (const [body, path] of cases) {
      const r = await post(lead.token, body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(JSON.stringify(r.body.details), JSON.stringify(body)).toContain(path);
    }
    expect((await post(lead.token, "{not json")).status).toBe(400);
    // A difference too small to detect within the searched sizes is refused, not a stuck request.
    const tiny = await post(lead.token, { target: "difference", cliffsDelta: 0.001, replicates: 200 });
    expect(tiny.status).toBe(422);
    expect(tiny.body.error).toMatch(/more than 2000 answers per model/);
  }, 60_000);

  it("is for leads and admins", async () => {
    const grader = await makeUser("GRADER");
    expect((await post(grader.token, { target: "icc", expected: 0.7, graders: 3, ciWidth: 0.2 })).status).toBe(403);
    const admin = await makeUser("ADMIN");
    expect((await post(admin.token, { target: "icc", expected: 0.7, graders: 3, ciWidth: 0.2 })).status).toBe(200);
  });
});

describe("the D-study target from a study's own grades", () => {
  const likert = { kind: "ordinal" as const, levels: [1, 2, 3, 4, 5].map((value) => ({ value, label: String(value) })) };
  // A study's own instrument: one ordinal item on each answer, one nominal item with N/A, no total.
  const SURVEY: RubricDocument = {
    key: "pilot_survey",
    name: "Pilot survey",
    version: 1,
    dimensions: [
      { key: "written_by", name: "Written by", scope: "first_answer", scale: { kind: "nominal", allowNA: true, levels: [{ value: "ai", label: "AI" }, { value: "human", label: "Human" }] }, escalation: { rule: "never" } },
      { key: "clarity", name: "Clarity", scope: "each_answer", scale: likert, escalation: { rule: "never" } },
    ],
    totals: [],
  };
  /** Grader g's clarity score for question i, model m, answer rep: question and answer effects, a lenient grader, noise. */
  const scoreOf = (i: number, m: number, rep: number, g: number) => Math.min(5, 1 + ((i + 2 * m + rep) % 3) + (g % 2) + ((i * 3 + rep * 2 + m + g) % 2));

  async function gradedPilot(graders: number, skip?: (setIndex: number, grader: number) => boolean) {
    const f = await makeGradableStudy({ rubrics: [SURVEY], items: 5, models: 2, n: 2, graders });
    const a = await callRoute(assign, `/api/v1/studies/${f.study.id}/assignments`, bearer(f.lead.token, { method: "POST", body: JSON.stringify({ seed: "pilot" }), headers: { "content-type": "application/json" } }), { id: f.study.id });
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    const graderIds = f.graders.map((g) => g.id);
    const expected = new Map<string, Map<string, number[]>>();
    for (const asg of await getDb().assignment.findMany({ where: { studyId: f.study.id }, orderBy: { graderId: "asc" } })) {
      const at = f.sets.findIndex((s) => s.id === asg.responseSetId);
      const set = f.sets[at];
      const g = graderIds.indexOf(asg.graderId);
      if (skip?.(at, g)) continue;
      const item = Math.floor(at / 2);
      const model = at % 2;
      const scores = [
        ...[1, 2].map((rep) => ({ rubric: SURVEY.key, dimension: "clarity", repetition: rep, score: scoreOf(item, model, rep, g) })),
        { rubric: SURVEY.key, dimension: "written_by", repetition: 1, ...(g === 1 ? { score: null, na: true } : { score: "ai" }) },
      ];
      const token = f.graders[g].token;
      const put = await callRoute(putGrades, `/api/v1/assignments/${asg.id}/grades`, bearer(token, { method: "PUT", body: JSON.stringify({ scores, submit: true }), headers: { "content-type": "application/json" } }), { id: asg.id });
      expect(put.status, JSON.stringify(put.body)).toBe(200);
      const answers = expected.get(set.itemId) ?? expected.set(set.itemId, new Map()).get(set.itemId)!;
      for (const rep of [1, 2]) {
        const key = `${set.modelId}:${rep}`;
        answers.set(key, [...(answers.get(key) ?? []), scoreOf(item, model, rep, g)]);
      }
    }
    return { f, expected };
  }

  it("estimates the crossed design when the same graders scored everything, and tabulates other numbers of graders", async () => {
    const { f, expected } = await gradedPilot(2);
    const r = await post(f.lead.token, { target: "dstudy", studyId: f.study.id, ciWidth: 0.3 });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(PlannerAnswer.parse(r.body)).toBeTruthy();
    expect(r.body.gStudy).toMatchObject({ design: "crossed", questions: 5, answersPerQuestion: 4, gradersPerAnswer: 2, dropped: { answers: 0, questions: 0 } });
    // The same matrix built here from the plan (graders in id order) gives the same components.
    const matrix = [...expected.values()].map((answers) => [...answers.values()]);
    const g = gStudy(matrix, "crossed");
    for (const c of g.components) expect(r.body.gStudy.components.find((x: Body) => x.source === c.source).variance, c.source).toBeCloseTo(c.variance, 10);
    expect(r.body.dStudy.map((d: Body) => d.graders)).toEqual([1, 2, 3, 4, 5, 6]);
    const table = dStudy(g, [1, 2, 3]);
    expect(r.body.dStudy[2].relative).toBeCloseTo(table[2].relative!, 10);
    expect(r.body.dStudy[0].answers).toBeNull();
    expect(r.body.dStudy[1].answers).toBeGreaterThan(0);
    expect(r.body.dStudy[1].sets).toBe(Math.ceil(r.body.dStudy[1].answers / 2));
    expect(r.body.method).toMatch(/"Clarity"/);
  });

  it("uses the nested design when answers had different graders, and leaves incomplete answers out", async () => {
    const { f } = await gradedPilot(3, (setIndex, grader) => setIndex === 0 && grader === 0);
    const r = await post(f.lead.token, { target: "dstudy", studyId: f.study.id, dimension: "clarity", graders: [2, 3] });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.gStudy.design).toBe("nested");
    expect(r.body.gStudy.components.map((c: Body) => c.source)).toEqual(["q", "p:q", "r:p:q,e"]);
    expect(r.body.dStudy.map((d: Body) => d.graders)).toEqual([2, 3]);
  });

  it("refuses a nominal dimension, another lead's study and a study without grades", async () => {
    const { f } = await gradedPilot(2);
    const nominal = await post(f.lead.token, { target: "dstudy", studyId: f.study.id, dimension: "written_by" });
    expect(nominal.status).toBe(422);
    expect(nominal.body.error).toMatch(/"written_by" is not an ordinal dimension/);
    const other = await makeUser("LEAD");
    expect((await post(other.token, { target: "dstudy", studyId: f.study.id })).status).toBe(404);
    const empty = await makeGradableStudy({ rubrics: [SURVEY], items: 2, models: 2, n: 1, graders: 2 });
    const none = await post(empty.lead.token, { target: "dstudy", studyId: empty.study.id });
    expect(none.status).toBe(422);
    expect(none.body.error).toMatch(/cannot give variance components yet/);
  });
});
