/**
 * Red-team pass over session 19's changes (quality tasks dealt to late joiners, expected scores from a
 * pilot, grader quality and comparisons in the study archive). Each case is a problem found and fixed:
 * - a grader told gold and re-grade tasks from real work by the shape of their set id (an md5, not a
 *   version-4 uuid) and a gold task by its position (the same as one of their assignments');
 * - a lead could re-mark a calibration set as gold once dealt (graders had seen its expected scores),
 *   or the last calibration set while calibration is required (graders waited for a round that could
 *   not be dealt, with no real work to do); an archive could import the same state;
 * - a pilot on another scale of the same dimension proposed levels of this one; `from` could be the study itself;
 * - an archive's comparison of a model with itself (two of its answers) failed the database's check: a 500.
 * On an instrument that is neither template (nominal item, N/A, no total).
 */
import { afterAll, describe, expect, it } from "vitest";
import { GET as myAssignments } from "@/app/api/v1/me/assignments/route";
import { PUT as putGrades } from "@/app/api/v1/assignments/[id]/grades/route";
import { PUT as markSet } from "@/app/api/v1/studies/[id]/quality-sets/[setId]/route";
import { GET as pilotExpected } from "@/app/api/v1/studies/[id]/quality-sets/[setId]/pilot-expected/route";
import { PUT as putSettings } from "@/app/api/v1/studies/[id]/quality-settings/route";
import { GET as exportRoute } from "@/app/api/v1/studies/[id]/export/route";
import { POST as importArchiveRoute } from "@/app/api/v1/study-archives/route";
import { assignGraders } from "@/lib/assignment/service";
import { getDb } from "@/lib/db/client";
import { closeExportPools } from "@/lib/exports/pool";
import { dealComparisons } from "@/lib/pairwise/assign-service";
import { planStudyComparisons } from "@/lib/pairwise/plan-service";
import type { RubricDocument } from "@/lib/rubrics/document";
import { bearer, call as callRoute, makeUser } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";
import { CHECK_RUBRIC } from "./helpers/check-rubric";
import { makePairwiseStudy } from "./helpers/pairwise-fixture";
import { makeGradableStudy } from "./helpers/study-fixture";

useIsolatedDatabase();
afterAll(async () => closeExportPools());

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = any;
const call = async <P,>(handler: (req: Request, ctx: { params: Promise<P> }) => Promise<Response>, url: string, init?: RequestInit, params?: P) =>
  (await callRoute(handler, url, init, params)) as { status: number; body: Body };
const json = (token: string, method: string, body: unknown) => bearer(token, { method, body: JSON.stringify(body), headers: { "content-type": "application/json" } });

const N = 2;
const expectedFor = () => ["accuracy", "clarity"].flatMap((d) => Array.from({ length: N }, (_, i) => ({ rubric: "check", dimension: d, repetition: i + 1, score: 3 })));
const form = (accuracy: number) => [
  { rubric: "check", dimension: "kind", repetition: 1, score: "advice" },
  ...Array.from({ length: N }, (_, i) => [
    { rubric: "check", dimension: "accuracy", repetition: i + 1, score: accuracy },
    { rubric: "check", dimension: "clarity", repetition: i + 1, score: 4 },
  ]).flat(),
];
const mark = (f: { lead: { token: string }; study: { id: string } }, setId: string, purpose: "CALIBRATION" | "GOLD") =>
  call(markSet, "/x", json(f.lead.token, "PUT", { purpose, expected: expectedFor(), tolerance: 0, rationale: "Panel" }), { id: f.study.id, setId });

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

async function exportDoc(token: string, studyId: string) {
  const res = await exportRoute(new Request(`http://localhost/api/v1/studies/${studyId}/export?dataset=study`, bearer(token)), { params: Promise.resolve({ id: studyId }) });
  expect(res.status).toBe(200);
  return JSON.parse(await res.text());
}
const postArchive = (token: string, body: unknown) =>
  importArchiveRoute(new Request("http://localhost/api/v1/study-archives", bearer(token, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })), {
    params: Promise.resolve({}),
  });

describe("blinding of quality tasks in the grader's own list", () => {
  it("gives gold and re-grade tasks set ids shaped as real ones, and never two items the same position", async () => {
    const f = await makeGradableStudy({ rubrics: [CHECK_RUBRIC], items: 8, models: 2, n: N, graders: 2, k: 1 });
    for (const s of f.sets.slice(0, 3)) expect((await mark(f, s.id, "GOLD")).status).toBe(200);
    await assignGraders(f.study.id, { seed: "rt" }, f.lead.id);
    const s = await call(putSettings, "/x", json(f.lead.token, "PUT", { goldRate: 2, goldSeed: "rt", washoutShare: 1, washoutDays: 0, washoutSeed: "w" }), { id: f.study.id });
    expect(s.status, JSON.stringify(s.body)).toBe(200);
    const g = f.graders[0];
    // One real set submitted: it comes back as a re-grade (share 1, no washout).
    const first = await getDb().assignment.findFirstOrThrow({ where: { graderId: g.id, studyId: f.study.id }, orderBy: { position: "asc" } });
    expect((await call(putGrades, "/x", json(g.token, "PUT", { scores: form(3), submit: true }), { id: first.id })).status).toBe(200);

    const q = await call(myAssignments, "/x", bearer(g.token));
    expect(q.status).toBe(200);
    const list = q.body.assignments as { id: string; responseSetId: string; position: number }[];
    const tasks = await getDb().qualityTask.findMany({ where: { graderId: g.id } });
    expect(tasks.filter((t) => t.purpose === "GOLD").length).toBeGreaterThan(0);
    expect(tasks.filter((t) => t.purpose === "REGRADE")).toHaveLength(1);
    expect(list.filter((a) => tasks.some((t) => t.id === a.id))).toHaveLength(tasks.length);
    // Every real set id is a version-4 uuid: a task's must look the same.
    for (const a of list) expect(a.responseSetId, a.id).toMatch(V4);
    // A gold task sits at one of the grader's assignments' places: the list must not show two at the same one.
    const positions = list.map((a) => a.position);
    expect(new Set(positions).size).toBe(positions.length);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    // The task's set id is stable from one read to the next (a page may keep it).
    const again = await call(myAssignments, "/x", bearer(g.token));
    expect(again.body.assignments.map((a: Body) => a.responseSetId)).toEqual(list.map((a) => a.responseSetId));

    // The same draft saved twice counts its changes alike on real work and on a gold task (the second time: none).
    const goldTask = tasks.find((t) => t.purpose === "GOLD")!;
    const real = await getDb().assignment.findFirstOrThrow({ where: { graderId: g.id, status: "PENDING" } });
    const counts = [];
    for (const id of [real.id, goldTask.id]) {
      const draft = { scores: form(2), submit: false, harm: { flag: false } };
      const one = await call(putGrades, "/x", json(g.token, "PUT", draft), { id });
      const two = await call(putGrades, "/x", json(g.token, "PUT", draft), { id });
      expect([one.status, two.status]).toEqual([200, 200]);
      counts.push([one.body.changed, two.body.changed]);
    }
    expect(counts[1]).toEqual(counts[0]);
    expect(counts[0][1]).toBe(0);

    // Submitting a gold task leads to the next set after it, as submitting an assignment does (not to the queue's first open one).
    const open = [
      ...(await getDb().assignment.findMany({ where: { graderId: g.id, status: { in: ["PENDING", "IN_PROGRESS"] } } })),
      ...(await getDb().qualityTask.findMany({ where: { graderId: g.id, status: { in: ["PENDING", "IN_PROGRESS"] } } })),
    ].map((x) => ({ id: x.id, position: x.position }));
    const firstOpen = Math.min(...open.map((x) => x.position));
    const gold = tasks.filter((t) => t.purpose === "GOLD" && t.position > firstOpen).sort((a, b) => a.position - b.position)[0];
    expect(gold, "a gold task after an open set").toBeDefined();
    const rank = (x: { id: string; position: number }) => [x.position < gold.position ? 1 : 0, x.position, x.id] as const;
    const [expectedNext] = open.filter((x) => x.id !== gold.id).sort((a, b) => {
      const [p, q] = [rank(a), rank(b)];
      return p[0] - q[0] || p[1] - q[1] || (p[2] < q[2] ? -1 : 1);
    });
    const saved = await call(putGrades, "/x", json(g.token, "PUT", { scores: form(3), submit: true }), { id: gold.id });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.nextAssignmentId).toBe(expectedNext.id);
  }, 120_000);
});

describe("a calibration set's purpose", () => {
  it("cannot change once dealt, nor leave a study that requires calibration without a calibration set", async () => {
    const f = await makeGradableStudy({ rubrics: [CHECK_RUBRIC], items: 4, models: 2, n: N, graders: 2, k: 1 });
    const [cal, spare] = f.sets.map((s) => s.id);
    expect((await mark(f, cal, "CALIBRATION")).status).toBe(200);
    expect((await mark(f, spare, "CALIBRATION")).status).toBe(200);
    await assignGraders(f.study.id, { seed: "rt" }, f.lead.id);
    const s = await call(putSettings, "/x", json(f.lead.token, "PUT", { calibrationRequired: true, calibrationRoundSize: 2 }), { id: f.study.id });
    expect(s.status, JSON.stringify(s.body)).toBe(200);
    expect(await getDb().qualityTask.count({ where: { responseSetId: cal, purpose: "CALIBRATION" } })).toBe(2);

    // Its graders will see its expected scores after their round: it can no longer become a gold set.
    const dealt = await mark(f, cal, "GOLD");
    expect(dealt.status).toBe(409);
    expect(JSON.stringify(dealt.body)).toMatch(/already dealt to graders as a calibration set/);
    // Its expected scores may still be corrected.
    expect((await mark(f, cal, "CALIBRATION")).status).toBe(200);

    // A study whose only calibration set (never dealt: everyone passed) turns gold leaves later graders waiting with nothing to do.
    const g = await makeGradableStudy({ rubrics: [CHECK_RUBRIC], items: 4, models: 2, n: N, graders: 1, k: 1 });
    expect((await mark(g, g.sets[0].id, "CALIBRATION")).status).toBe(200);
    expect((await call(putSettings, "/x", json(g.lead.token, "PUT", { calibrationRequired: true }), { id: g.study.id })).status).toBe(200);
    await getDb().qualityTask.deleteMany({ where: { studyId: g.study.id } });
    await getDb().studyMember.updateMany({ where: { studyId: g.study.id, role: "GRADER" }, data: { calibrationPassedAt: new Date() } });
    const last = await mark(g, g.sets[0].id, "GOLD");
    expect(last.status).toBe(409);
    expect(JSON.stringify(last.body)).toMatch(/last calibration set/);
    expect((await getDb().qualitySet.findUniqueOrThrow({ where: { responseSetId: g.sets[0].id } })).purpose).toBe("CALIBRATION");
    // With another calibration set marked first, it may.
    expect((await mark(g, g.sets[1].id, "CALIBRATION")).status).toBe(200);
    expect((await mark(g, g.sets[0].id, "GOLD")).status).toBe(200);
  }, 120_000);
});

describe("expected scores from a pilot", () => {
  it("proposes nothing for a dimension whose levels differ in the pilot, and refuses the study itself as its pilot", async () => {
    const pilot = await makeGradableStudy({ rubrics: [CHECK_RUBRIC], items: 1, models: 1, n: N, graders: 2, k: 2 });
    await assignGraders(pilot.study.id, { seed: "p" }, pilot.lead.id);
    for (const g of pilot.graders) {
      for (const a of await getDb().assignment.findMany({ where: { graderId: g.id, studyId: pilot.study.id } })) {
        const r = await call(putGrades, "/x", json(g.token, "PUT", { scores: form(2), submit: true }), { id: a.id });
        expect(r.status, JSON.stringify(r.body)).toBe(200);
      }
    }
    // The same instrument revised: accuracy now 0..10. A pilot median of 2 (of 1..5) is no level 2 of 0..10.
    const revised: RubricDocument = {
      ...CHECK_RUBRIC,
      dimensions: CHECK_RUBRIC.dimensions.map((d) =>
        d.key === "accuracy" ? { ...d, scale: { kind: "ordinal" as const, levels: Array.from({ length: 11 }, (_, v) => ({ value: v, label: `Point ${v}` })) } } : d,
      ),
    };
    const target = await makeGradableStudy({ rubrics: [revised], items: 1, models: 1, n: N, graders: 1, k: 1 });
    await getDb().studyMember.create({ data: { studyId: pilot.study.id, userId: target.lead.id, role: "LEAD" } });
    const set = target.sets[0].id;
    const ask = (from: string) =>
      call(pilotExpected, `/api/v1/studies/${target.study.id}/quality-sets/${set}/pilot-expected?from=${from}`, bearer(target.lead.token), { id: target.study.id, setId: set });
    const r = await ask(pilot.study.id);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.expected.map((e: Body) => `${e.dimension}/${e.repetition}=${e.score}`)).toEqual(["clarity/1=4", "clarity/2=4"]);
    expect(r.body.skipped).toEqual([
      { rubric: "check", dimension: "accuracy", repetition: 1, reason: "the pilot's Accuracy has other levels than this study's" },
      { rubric: "check", dimension: "accuracy", repetition: 2, reason: "the pilot's Accuracy has other levels than this study's" },
    ]);
    const self = await ask(target.study.id);
    expect(self.status).toBe(422);
    expect(JSON.stringify(self.body)).toMatch(/from is this study/);
    // Repeated, empty or huge `from`: a 4xx naming it, never a 500.
    for (const q of [`${pilot.study.id}&from=${target.study.id}`, "", "x".repeat(5000), "%00"]) {
      const res = await ask(q);
      expect(res.status, q.slice(0, 40)).toBeLessThan(500);
      expect(res.status, q.slice(0, 40)).toBeGreaterThanOrEqual(200);
    }
  }, 120_000);
});

describe("hostile study archives", () => {
  it("refuses a comparison of a model with itself (two of its answers) with a 422, not the database's 500", async () => {
    const p = await makePairwiseStudy({ items: 3, models: 2, n: 2, k: 1, graders: 2 });
    await planStudyComparisons(p.study.id, { design: { kind: "all_pairs" }, seed: "rt" }, p.lead.id);
    await dealComparisons(p.study.id, { seed: "rt" }, p.lead.id);
    const doc = await exportDoc(p.lead.token, p.study.id);
    expect(doc.comparisons.length).toBeGreaterThan(0);
    const importer = await makeUser("LEAD", "importer");
    const studies = await getDb().study.count();
    const bad = structuredClone(doc);
    bad.comparisons[0].right = { model: bad.comparisons[0].left.model, repetition: bad.comparisons[0].left.repetition === 1 ? 2 : 1 };
    const res = await postArchive(importer.token, bad);
    expect(res.status, await res.clone().text()).toBe(422);
    const problems = ((await res.json()) as { details: { problems: { path: string; message: string }[] } }).details.problems;
    expect(problems).toEqual([{ path: "comparisons[0].right", message: expect.stringMatching(/compares model .* with itself/) }]);
    expect(await getDb().study.count()).toBe(studies);

    // An escalation naming an axis the rubrics do not have.
    const axisDoc = structuredClone(doc);
    axisDoc.comparisons[0].escalation = {
      status: "NEEDS_GRADER",
      axes: [{ rubric: "nope", axis: "nothing", choices: {} }],
      adjudicator: null,
      createdAt: axisDoc.comparisons[0].createdAt,
      updatedAt: axisDoc.comparisons[0].createdAt,
      resolvedAt: null,
    };
    const axisRes = await postArchive(importer.token, axisDoc);
    expect(axisRes.status).toBe(422);
    expect(JSON.stringify(await axisRes.json())).toContain("comparisons[0].escalation.axes[0]");
    expect(await getDb().study.count()).toBe(studies);

    // The same pair of models on one question twice (here the other way round): a design never plans it, and the statistics would count it twice.
    const dupDoc = structuredClone(doc);
    const twin = structuredClone(dupDoc.comparisons[0]);
    [twin.left, twin.right] = [twin.right, twin.left];
    dupDoc.comparisons.push(twin);
    const dupRes = await postArchive(importer.token, dupDoc);
    expect(dupRes.status).toBe(422);
    const dupProblems = ((await dupRes.json()) as { details: { problems: { path: string; message: string }[] } }).details.problems;
    expect(dupProblems).toEqual([{ path: `comparisons[${dupDoc.comparisons.length - 1}]`, message: expect.stringMatching(/twice/) }]);
    expect(await getDb().study.count()).toBe(studies);
    // Scoring work in a pairwise study (the assignment run refuses to deal it there).
    const scoring = structuredClone(doc);
    const t = scoring.comparisons[0].createdAt;
    scoring.assignments = [
      { item: scoring.comparisons[0].item, model: scoring.comparisons[0].left.model, grader: scoring.graders[0].id, kind: "PRIMARY", position: 1, status: "PENDING", timeSpentMs: 0,
        harmFlag: false, harmComment: null, contradictionFlag: false, contradictionNote: null, createdAt: t, updatedAt: t, startedAt: null, submittedAt: null, grades: [] },
    ];
    const scoringRes = await postArchive(importer.token, scoring);
    expect(scoringRes.status).toBe(422);
    expect(((await scoringRes.json()) as { details: { problems: { path: string }[] } }).details.problems.map((x) => x.path)).toEqual(["assignments[0]"]);
    expect(await getDb().study.count()).toBe(studies);
    // The document as exported still imports.
    const ok = await postArchive(importer.token, doc);
    expect(ok.status, await ok.clone().text()).toBe(201);
  }, 120_000);

  it("refuses a queue position so large that the next one dealt would overflow its column", async () => {
    const f = await makeGradableStudy({ rubrics: [CHECK_RUBRIC], items: 2, models: 1, n: N, graders: 1, k: 1 });
    await assignGraders(f.study.id, { seed: "rt" }, f.lead.id);
    const doc = await exportDoc(f.lead.token, f.study.id);
    expect(doc.assignments.length).toBeGreaterThan(0);
    doc.assignments[0].position = 2_147_483_647;
    const studies = await getDb().study.count();
    const res = await postArchive(f.lead.token, doc);
    expect(res.status, await res.clone().text()).toBe(422);
    expect(((await res.json()) as { details: { problems: { path: string }[] } }).details.problems.map((x) => x.path)).toEqual(["assignments[0].position"]);
    expect(await getDb().study.count()).toBe(studies);
  }, 120_000);

  it("refuses a study that requires calibration without a calibration set", async () => {
    const f = await makeGradableStudy({ rubrics: [CHECK_RUBRIC], items: 2, models: 1, n: N, graders: 1, k: 1 });
    const doc = await exportDoc(f.lead.token, f.study.id);
    doc.study.quality = { goldRate: null, goldSeed: null, washoutShare: 0, washoutDays: 0, washoutSeed: null, calibrationRequired: true, calibrationPassShare: 0.8, calibrationRoundSize: 1 };
    const studies = await getDb().study.count();
    const res = await postArchive(f.lead.token, doc);
    expect(res.status, await res.clone().text()).toBe(422);
    expect(((await res.json()) as { details: { problems: { path: string }[] } }).details.problems.map((x) => x.path)).toEqual(["study.quality.calibrationRequired"]);
    expect(await getDb().study.count()).toBe(studies);
    // Without the requirement it imports.
    doc.study.quality.calibrationRequired = false;
    const ok = await postArchive(f.lead.token, doc);
    expect(ok.status, await ok.clone().text()).toBe(201);
  }, 120_000);
});
