/**
 * Expected scores proposed from a pilot (issue #35): GET quality-sets/{setId}/pilot-expected reads
 * the set of the same question and model in another study of the lead's and proposes the median of
 * its submitted primary grades, rounded to the nearest level (half up), per ordinal dimension and
 * answer; only answers whose text is the same; excluded graders left out. On an instrument that is
 * neither template (a nominal item, an ordinal item that may be N/A, no total). Leads of both
 * studies only: graders 403, other leads 404. The proposal is accepted as is by PUT quality-sets.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { GET as pilotExpected } from "@/app/api/v1/studies/[id]/quality-sets/[setId]/pilot-expected/route";
import { PUT as markSet } from "@/app/api/v1/studies/[id]/quality-sets/[setId]/route";
import { PUT as putGrades } from "@/app/api/v1/assignments/[id]/grades/route";
import { assignGraders } from "@/lib/assignment/service";
import { getDb } from "@/lib/db/client";
import { nearestLevel } from "@/lib/quality-tasks/pilot";
import { bearer, call as callRoute, makeUser } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";
import { CHECK_RUBRIC } from "./helpers/check-rubric";
import { makeGradableStudy } from "./helpers/study-fixture";

useIsolatedDatabase();

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = any;
const call = async <P,>(handler: (req: Request, ctx: { params: Promise<P> }) => Promise<Response>, url: string, init?: RequestInit, params?: P) =>
  (await callRoute(handler, url, init, params)) as { status: number; body: Body };
const json = (token: string, method: string, body: unknown) => bearer(token, { method, body: JSON.stringify(body), headers: { "content-type": "application/json" } });

/** Pilot grader g's scores: accuracy 2, 3, 5 on answer 1 and 1, 1, 4 on answer 2; clarity 4, 4, N/A on answer 1 and N/A from all on answer 2. */
const ACC1 = [2, 3, 5];
const ACC2 = [1, 1, 4];
const CLA1 = [4, 4, null];
const formFor = (g: number) => [
  { rubric: "check", dimension: "kind", repetition: 1, score: "advice" },
  { rubric: "check", dimension: "accuracy", repetition: 1, score: ACC1[g] },
  { rubric: "check", dimension: "accuracy", repetition: 2, score: ACC2[g] },
  CLA1[g] === null ? { rubric: "check", dimension: "clarity", repetition: 1, score: null, na: true } : { rubric: "check", dimension: "clarity", repetition: 1, score: CLA1[g] },
  { rubric: "check", dimension: "clarity", repetition: 2, score: null, na: true },
];

describe("expected scores from a pilot", () => {
  let pilot: Awaited<ReturnType<typeof makeGradableStudy>>;
  let target: Awaited<ReturnType<typeof makeGradableStudy>>;
  const url = (set: string, from: string) => `/api/v1/studies/${target.study.id}/quality-sets/${set}/pilot-expected?from=${from}`;
  const ask = (token: string, set: string, from: string) => call(pilotExpected, url(set, from), bearer(token), { id: target.study.id, setId: set });

  beforeAll(async () => {
    pilot = await makeGradableStudy({ rubrics: [CHECK_RUBRIC], items: 3, models: 1, n: 2, graders: 3, k: 3 });
    await assignGraders(pilot.study.id, { seed: "pilot" }, pilot.lead.id);
    for (const [g, grader] of pilot.graders.entries()) {
      for (const a of await getDb().assignment.findMany({ where: { graderId: grader.id, studyId: pilot.study.id } })) {
        const r = await call(putGrades, "/x", json(grader.token, "PUT", { scores: formFor(g), submit: true }), { id: a.id });
        expect(r.status, JSON.stringify(r.body)).toBe(200);
      }
    }
    // The third grader is excluded from the pilot's analysis: their grades propose nothing.
    await getDb().studyMember.update({ where: { studyId_userId: { studyId: pilot.study.id, userId: pilot.graders[2].id } }, data: { excludedAt: new Date(), excludedReason: "test" } });
    target = await makeGradableStudy({ rubrics: [CHECK_RUBRIC], items: 3, models: 1, n: 2, graders: 1, k: 1 });
    // The target's lead also leads the pilot (a lead's own earlier study).
    await getDb().studyMember.create({ data: { studyId: pilot.study.id, userId: target.lead.id, role: "LEAD" } });
    // Question 2's second answer differs from the pilot's; question 3 is not in the pilot.
    await getDb().response.update({ where: { responseSetId_repetition: { responseSetId: target.sets[1].id, repetition: 2 } }, data: { text: "A new answer" } });
    await getDb().qaItem.update({ where: { id: target.sets[2].itemId }, data: { externalId: "NEW-3" } });
  }, 120_000);

  it("rounds to the nearest level, half-way up", () => {
    expect(nearestLevel(2.5, [1, 2, 3, 4, 5])).toBe(3);
    expect(nearestLevel(2.4, [1, 2, 3, 4, 5])).toBe(2);
    expect(nearestLevel(7, [0, 5, 10])).toBe(5);
    expect(nearestLevel(7.5, [0, 5, 10])).toBe(10);
  });

  it("proposes the median of the included graders' grades, per dimension and answer", async () => {
    const r = await ask(target.lead.token, target.sets[0].id, pilot.study.id);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const pilotSet = pilot.sets[0].id;
    expect(r.body.sourceSetId).toBe(pilotSet);
    expect(r.body.rule).toContain("Median");
    // Accuracy answer 1: grades 2 and 3 (the excluded 5 left out), median 2.5, rounded up to 3; answer 2: 1 and 1.
    // Clarity answer 1: 4 and 4; answer 2: N/A from everyone, so nothing to propose. The nominal item never has an expected score.
    expect(r.body.expected).toEqual([
      { rubric: "check", dimension: "accuracy", repetition: 1, score: 3, grades: 2, median: 2.5 },
      { rubric: "check", dimension: "accuracy", repetition: 2, score: 1, grades: 2, median: 1 },
      { rubric: "check", dimension: "clarity", repetition: 1, score: 4, grades: 2, median: 4 },
    ]);
    expect(r.body.skipped).toEqual([{ rubric: "check", dimension: "clarity", repetition: 2, reason: "no submitted grade in the pilot" }]);

    // The proposal, as it is, marks the set.
    const expected = r.body.expected.map(({ rubric, dimension, repetition, score }: Body) => ({ rubric, dimension, repetition, score }));
    const marked = await call(markSet, "/x", json(target.lead.token, "PUT", { purpose: "GOLD", expected, tolerance: 0, rationale: "Pilot median" }), { id: target.study.id, setId: target.sets[0].id });
    expect(marked.status, JSON.stringify(marked.body)).toBe(200);
  });

  it("proposes nothing for an answer that differs from the pilot's, or a question the pilot did not have", async () => {
    const changed = await ask(target.lead.token, target.sets[1].id, pilot.study.id);
    expect(changed.status).toBe(200);
    expect(changed.body.expected.map((e: Body) => `${e.dimension}/${e.repetition}`)).toEqual(["accuracy/1", "clarity/1"]);
    expect(changed.body.skipped).toEqual([
      { rubric: "check", dimension: "accuracy", repetition: 2, reason: "answer 2 is not the same in the pilot" },
      { rubric: "check", dimension: "clarity", repetition: 2, reason: "answer 2 is not the same in the pilot" },
    ]);
    const missing = await ask(target.lead.token, target.sets[2].id, pilot.study.id);
    expect(missing.status).toBe(200);
    expect(missing.body.sourceSetId).toBeNull();
    expect(missing.body.expected).toEqual([]);
    expect(missing.body.skipped).toHaveLength(4);
    expect(missing.body.skipped[0].reason).toMatch(/no set of question NEW-3 by /);
  });

  it("answers graders 403, another lead 404 (either study), a bad pilot id 422", async () => {
    const set = target.sets[0].id;
    expect((await ask(target.graders[0].token, set, pilot.study.id)).status).toBe(403);
    // The pilot's own lead does not lead the target study.
    expect((await ask(pilot.lead.token, set, pilot.study.id)).status).toBe(404);
    // A lead of the target who does not lead the pilot cannot read it through this route.
    const stranger = await makeGradableStudy({ rubrics: [CHECK_RUBRIC], items: 1, models: 1, n: 2, graders: 0 });
    expect((await ask(target.lead.token, set, stranger.study.id)).status).toBe(404);
    const bad = await ask(target.lead.token, set, "not-a-uuid");
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toContain("from");
    expect((await ask(target.lead.token, "not-a-set", pilot.study.id)).status).toBe(404);
    expect((await ask(target.lead.token, pilot.sets[0].id, pilot.study.id)).status).toBe(404);
    const admin = await makeUser("ADMIN");
    expect((await ask(admin.token, set, pilot.study.id)).status).toBe(200);
  });
});
