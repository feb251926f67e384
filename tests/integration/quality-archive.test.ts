/**
 * The study archive carries grader quality (issue #35): the study's gold, washout and calibration
 * settings, its calibration and gold sets, each grader's calibration, gold and re-grade tasks with
 * their grades, and when each grader passed calibration. A study with all of them survives
 * export -> import with the same grader-quality report and calibration feedback, and exports the
 * same document again; an archive written before grader quality still imports; a quality record
 * that does not fit is refused whole. On an instrument that is neither template.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as myAssignments } from "@/app/api/v1/me/assignments/route";
import { PUT as putGrades } from "@/app/api/v1/assignments/[id]/grades/route";
import { PUT as markSet } from "@/app/api/v1/studies/[id]/quality-sets/[setId]/route";
import { PUT as putSettings } from "@/app/api/v1/studies/[id]/quality-settings/route";
import { GET as exportRoute } from "@/app/api/v1/studies/[id]/export/route";
import { POST as importArchiveRoute } from "@/app/api/v1/study-archives/route";
import { assignGraders } from "@/lib/assignment/service";
import { getDb } from "@/lib/db/client";
import { closeExportPools } from "@/lib/exports/pool";
import { personPseudonym } from "@/lib/exports/people";
import { graderQuality } from "@/lib/grader-quality/service";
import { myCalibrations } from "@/lib/quality-tasks/calibration";
import { bearer, call as callRoute, makeUser } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";
import { CHECK_N as N, CHECK_RUBRIC, checkExpected as expectedFor, checkForm as formOf, checkTruth as truth } from "./helpers/check-rubric";
import { makeGradableStudy } from "./helpers/study-fixture";

useIsolatedDatabase();
afterAll(async () => closeExportPools());

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = any;
const call = async <P,>(handler: (req: Request, ctx: { params: Promise<P> }) => Promise<Response>, url: string, init?: RequestInit, params?: P) =>
  (await callRoute(handler, url, init, params)) as { status: number; body: Doc };
const json = (token: string, method: string, body: unknown) => bearer(token, { method, body: JSON.stringify(body), headers: { "content-type": "application/json" } });


async function exportDoc(token: string, studyId: string, query = "") {
  const res = await exportRoute(new Request(`http://localhost/api/v1/studies/${studyId}/export?dataset=study${query}`, bearer(token)), { params: Promise.resolve({ id: studyId }) });
  expect(res.status).toBe(200);
  return JSON.parse(await res.text());
}
const post = (token: string, body: unknown) =>
  importArchiveRoute(new Request("http://localhost/api/v1/study-archives", bearer(token, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })), {
    params: Promise.resolve({}),
  });
const problemsOf = async (res: Response) => ((await res.json()) as { details: { problems: { path: string; message: string }[] } }).details.problems;

/** The fields that may differ after an import and re-export (lib/exports/archive.ts). */
function modIdsAndTimestamps(doc: Doc) {
  const d = structuredClone(doc);
  delete d.exportedAt;
  delete d.source;
  delete d.study.createdAt;
  delete d.study.updatedAt;
  for (const g of d.graders) delete g.pseudonym;
  return d;
}

let f: Awaited<ReturnType<typeof makeGradableStudy>>;
let original: Doc;

beforeAll(async () => {
  f = await makeGradableStudy({ rubrics: [CHECK_RUBRIC], items: 10, models: 2, n: N, graders: 3, k: 2 });
  for (const [purpose, sets] of [["CALIBRATION", f.sets.slice(0, 2)], ["GOLD", f.sets.slice(2, 5)]] as const) {
    for (const s of sets) {
      const r = await call(markSet, "/x", json(f.lead.token, "PUT", { purpose, expected: expectedFor(s.id), tolerance: purpose === "GOLD" ? 1 : 0, rationale: `Why ${purpose}` }), { id: f.study.id, setId: s.id });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
  }
  await assignGraders(f.study.id, { seed: "arch" }, f.lead.id);
  const settings = { goldRate: 3, goldSeed: "gold", washoutShare: 0.5, washoutDays: 0, washoutSeed: "wash", calibrationRequired: true, calibrationPassShare: 0.75, calibrationRoundSize: 1 };
  expect((await call(putSettings, "/x", json(f.lead.token, "PUT", settings), { id: f.study.id })).status).toBe(200);

  // Grader 1 fails a round then passes; grader 2 passes at once; grader 3 has not started. The first two then grade
  // everything in their queue (gold one point off now and then, re-grades as they come back).
  let n = 0;
  for (const [gi, g] of f.graders.slice(0, 2).entries()) {
    let failed = gi === 0 ? 0 : 1;
    for (let pass = 0; pass < 8; pass++) {
      const q = await call(myAssignments, "/x", bearer(g.token));
      const todo = q.body.assignments.filter((a: Doc) => a.status !== "SUBMITTED");
      if (!todo.length) break;
      for (const a of todo) {
        const task = await getDb().qualityTask.findUnique({ where: { id: a.id } });
        const set = task?.responseSetId ?? (await getDb().assignment.findUniqueOrThrow({ where: { id: a.id } })).responseSetId;
        const order = task?.answerOrder.length ? task.answerOrder : [1, 2];
        const wrong = task?.purpose === "CALIBRATION" && failed++ === 0;
        const scores = formOf((d, shown) => {
          const s = truth(set, d, order[shown - 1]);
          if (wrong || (task && task.purpose !== "CALIBRATION" && n++ % 3 === 0)) return s === 5 ? 4 : s + 1;
          return s;
        });
        const saved = await call(putGrades, "/x", json(g.token, "PUT", { scores, submit: true }), { id: a.id });
        expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      }
    }
  }
  original = await exportDoc(f.lead.token, f.study.id);
}, 240_000);

describe("the study archive with grader quality", () => {
  it("carries the settings, the sets, every task and grade, and who passed calibration", async () => {
    expect(original.study.quality).toEqual({ goldRate: 3, goldSeed: "gold", washoutShare: 0.5, washoutDays: 0, washoutSeed: "wash", calibrationRequired: true, calibrationPassShare: 0.75, calibrationRoundSize: 1 });
    expect(original.qualitySets.map((s: Doc) => s.purpose).sort()).toEqual(["CALIBRATION", "CALIBRATION", "GOLD", "GOLD", "GOLD"]);
    const purposes = new Set(original.qualityTasks.map((t: Doc) => t.purpose));
    expect([...purposes].sort()).toEqual(["CALIBRATION", "GOLD", "REGRADE"]);
    expect(original.qualityTasks.length).toBe(await getDb().qualityTask.count({ where: { studyId: f.study.id } }));
    expect(original.qualityTasks.reduce((s: number, t: Doc) => s + t.grades.length, 0)).toBe(await getDb().qualityGrade.count({ where: { task: { studyId: f.study.id } } }));
    expect(original.graders.filter((g: Doc) => g.membership.calibrationPassedAt)).toHaveLength(2);
    expect(original.qualityTasks.some((t: Doc) => t.purpose === "CALIBRATION" && t.round === 2)).toBe(true);
    expect(original.qualityTasks.some((t: Doc) => t.purpose === "REGRADE" && t.answerOrder.length === N)).toBe(true);
  });

  it("imports to the same grader-quality report and calibration feedback, and exports the same document again", async () => {
    const importer = await makeUser("LEAD", "importer");
    const res = await post(importer.token, original);
    expect(res.status, await res.clone().text()).toBe(201);
    const { id } = (await res.json()) as { id: string };
    const again = await exportDoc(importer.token, id);
    expect(again.study.slug).toBe(`${original.study.slug}-2`); // the same database: the original holds the slug
    expect(modIdsAndTimestamps({ ...again, study: { ...again.study, slug: original.study.slug } })).toEqual(modIdsAndTimestamps(original));

    // Each grader by their document id: the original accounts by their pseudonym in the document, the imported ones by their name.
    const docIdOf = new Map<string, string>();
    for (const g of original.graders) docIdOf.set(f.graders.find((x) => personPseudonym(f.study.id, x.id, "GRADER") === g.pseudonym)!.id, g.id);
    const imported = await getDb().studyMember.findMany({ where: { studyId: id, role: "GRADER" }, include: { user: true } });
    for (const m of imported) docIdOf.set(m.userId, /Archived grader (G\d+) /.exec(m.user.name)![1]);

    // Imported graders are new, deactivated accounts: the figures are the same, not who they are.
    const figures = (r: Doc) =>
      Object.fromEntries(r.graders.map(({ graderId, name: _n, active: _a, ...rest }: Doc) => [docIdOf.get(graderId), rest]));
    const before = await graderQuality(f.study.id);
    const after = await graderQuality(id);
    expect(before!.graders.some((g) => g.gold.n > 0 && g.intraRater.n > 0 && g.calibration.failedRounds === 1)).toBe(true);
    expect(figures(after)).toEqual(figures(before));
    expect(after!.intraRaterPooled).toEqual(before!.intraRaterPooled);
    expect(after!.notCollected).toEqual(before!.notCollected);

    const feedback = async (graderId: string, studyId: string) => (await myCalibrations(graderId)).filter((c) => c.studyId === studyId).map(({ studyId: _s, title: _t, ...c }) => c);
    for (const [orig, copy] of f.graders.map((g) => [g.id, imported.find((m) => docIdOf.get(m.userId) === docIdOf.get(g.id))!.userId])) {
      expect(await feedback(copy, id)).toEqual(await feedback(orig, f.study.id));
    }
    expect((await feedback(f.graders[0].id, f.study.id))[0].rounds).toHaveLength(2);
  });

  it("still imports an archive written before grader quality (no settings, no quality sections)", async () => {
    const older = structuredClone(original);
    delete older.study.quality;
    delete older.qualitySets;
    delete older.qualityTasks;
    for (const g of older.graders) if (g.membership) delete g.membership.calibrationPassedAt;
    const importer = await makeUser("LEAD", "older");
    const res = await post(importer.token, older);
    expect(res.status, await res.clone().text()).toBe(201);
    const { id } = (await res.json()) as { id: string };
    expect(await getDb().qualityTask.count({ where: { studyId: id } })).toBe(0);
    expect(await getDb().study.findUniqueOrThrow({ where: { id }, select: { goldRate: true, calibrationRequired: true, calibrationPassShare: true } })).toEqual({
      goldRate: null,
      calibrationRequired: false,
      calibrationPassShare: 0.8,
    });
  });

  it("refuses quality records that do not fit, each named, and writes nothing", async () => {
    const bad = structuredClone(original);
    const gold = bad.qualitySets.findIndex((s: Doc) => s.purpose === "GOLD");
    bad.qualitySets[gold].expected[0].dimension = "kind"; // nominal: no expected score
    const assigned = bad.assignments[0];
    bad.qualitySets.push({ ...bad.qualitySets[0], item: assigned.item, model: assigned.model }); // a set dealt as real work
    const regrade = bad.qualityTasks.findIndex((t: Doc) => t.purpose === "REGRADE");
    bad.qualityTasks[regrade].grader = "G999";
    const cal = bad.qualityTasks.findIndex((t: Doc) => t.purpose === "CALIBRATION");
    bad.qualityTasks.push(structuredClone(bad.qualityTasks[cal])); // the same task twice
    bad.qualitySets[0].rationale = "half\u0000"; // PostgreSQL cannot store a NUL
    const orderAt = bad.qualityTasks.findIndex((t: Doc) => t.purpose === "GOLD");
    bad.qualityTasks[orderAt].answerOrder = [1, 1];
    const studies = await getDb().study.count();
    const tasks = await getDb().qualityTask.count();
    const badGrader = structuredClone(original);
    badGrader.graders[0].membership.calibrationPassedAt = "yesterday";
    const refused = await post(f.lead.token, badGrader);
    expect(refused.status).toBe(422);
    expect((await problemsOf(refused)).map((p) => p.path)).toContain("graders[0].membership.calibrationPassedAt");
    const res = await post(f.lead.token, bad);
    expect(res.status).toBe(422);
    const paths = (await problemsOf(res)).map((p) => p.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        "qualitySets[0].rationale",
        `qualitySets[${gold}].expected[0].dimension`,
        `qualitySets[${bad.qualitySets.length - 1}]`,
        `qualityTasks[${regrade}].grader`,
        `qualityTasks[${bad.qualityTasks.length - 1}]`,
        `qualityTasks[${orderAt}].answerOrder`,
      ]),
    );
    expect(await getDb().study.count()).toBe(studies);
    expect(await getDb().qualityTask.count()).toBe(tasks);
  });
});
