/**
 * Calibration, gold sets and washout re-grades (issue #35, items 1-3) through the API, on an
 * instrument that is neither template (a nominal item, an ordinal item that may be N/A, no total):
 * gold accuracy and bias match a separate computation; re-grades come back to the same grader
 * only, once, in a new answer order, and the dashboard is the same with or without every quality
 * grade; a gold task's queue entry and page have the shape of a real one; calibration blocks real
 * work until passed, and a grader can fail and then pass.
 */
import { execFileSync } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as myAssignments } from "@/app/api/v1/me/assignments/route";
import { GET as myCalibration } from "@/app/api/v1/me/calibration/route";
import { GET as getAssignment } from "@/app/api/v1/assignments/[id]/route";
import { PUT as putGrades } from "@/app/api/v1/assignments/[id]/grades/route";
import { PUT as markSet } from "@/app/api/v1/studies/[id]/quality-sets/[setId]/route";
import { PUT as putSettings } from "@/app/api/v1/studies/[id]/quality-settings/route";
import { GET as quality } from "@/app/api/v1/studies/[id]/grader-quality/route";
import { GET as stats } from "@/app/api/v1/studies/[id]/stats/route";
import { GET as listSets } from "@/app/api/v1/studies/[id]/sets/route";
import { GET as exportRoute } from "@/app/api/v1/studies/[id]/export/route";
import { assignGraders } from "@/lib/assignment/service";
import { getDb } from "@/lib/db/client";
import { bearer, call as callRoute } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";
import { CHECK_RUBRIC } from "./helpers/check-rubric";
import { makeGradableStudy } from "./helpers/study-fixture";
import { drawnForWashout } from "@/lib/quality-tasks/washout";

useIsolatedDatabase();

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = any;
const call = async <P,>(handler: (req: Request, ctx: { params: Promise<P> }) => Promise<Response>, url: string, init?: RequestInit, params?: P) =>
  (await callRoute(handler, url, init, params)) as { status: number; body: Body };
const json = (token: string, method: string, body: unknown) => bearer(token, { method, body: JSON.stringify(body), headers: { "content-type": "application/json" } });

const CHECK = CHECK_RUBRIC;
const N = 2;
const ORDINAL = ["accuracy", "clarity"] as const;

/** A deterministic "true" score per (set, dimension, answer's own repetition), 1..5. */
const truth = (set: string, dim: string, rep: number) => (parseInt(set.replace(/-/g, "").slice(0, 6), 16) + dim.length * 7 + rep * 3) % 5 + 1;

type Score = { rubric: string; dimension: string; repetition: number; score: number | string | null; na?: boolean };
const formOf = (score: (dim: string, shown: number) => number): Score[] => {
  const scores: Score[] = [{ rubric: "check", dimension: "kind", repetition: 1, score: "advice" }];
  for (let rep = 1; rep <= N; rep++) for (const d of ORDINAL) scores.push({ rubric: "check", dimension: d, repetition: rep, score: score(d, rep) });
  return scores;
};

const expectedFor = (set: string) =>
  ORDINAL.flatMap((d) => Array.from({ length: N }, (_, i) => ({ rubric: "check", dimension: d, repetition: i + 1, score: truth(set, d, i + 1) })));

/** A value's shape: its keys and the JSON types of their values, recursively (arrays by their first element). */
function shape(v: unknown): unknown {
  if (Array.isArray(v)) return v.length ? [shape(v[0])] : [];
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)).map(([k, x]) => [k, shape(x)]));
  return v === null ? "null" : typeof v;
}

describe("gold sets and washout re-grades", () => {
  let f: Awaited<ReturnType<typeof makeGradableStudy>>;
  let gold: string[];
  /** What each grader meant to give: task id -> answer's own repetition -> dimension -> score. */
  const meant = new Map<string, Map<string, number>>();
  let statsWith: Body;
  let setsWith: Body;

  beforeAll(async () => {
    f = await makeGradableStudy({ rubrics: [CHECK], items: 10, models: 2, n: N, graders: 3, k: 2 });
    gold = f.sets.slice(0, 3).map((s) => s.id);
    for (const id of gold) {
      const r = await call(markSet, `/x`, json(f.lead.token, "PUT", { purpose: "GOLD", expected: expectedFor(id), tolerance: 0, rationale: "Panel consensus" }), { id: f.study.id, setId: id });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
    await assignGraders(f.study.id, { seed: "gold" }, f.lead.id);
    const r = await call(putSettings, `/x`, json(f.lead.token, "PUT", { goldRate: 4, goldSeed: "g", washoutShare: 0.5, washoutDays: 0, washoutSeed: "w" }), { id: f.study.id });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.placed.gold).toBeGreaterThan(0);

    // Every grader works through their queue as the API shows it, until nothing is left (re-grades come back at once).
    for (const g of f.graders) {
      const rng = { n: 0 };
      for (let pass = 0; pass < 5; pass++) {
        const q = await call(myAssignments, "/x", bearer(g.token));
        const todo = q.body.assignments.filter((a: Body) => a.status !== "SUBMITTED");
        if (!todo.length) break;
        for (const a of todo) {
          const task = await getDb().qualityTask.findUnique({ where: { id: a.id } });
          const set = task?.responseSetId ?? (await getDb().assignment.findUniqueOrThrow({ where: { id: a.id } })).responseSetId;
          const order = task?.answerOrder.length ? task.answerOrder : [1, 2];
          const mine = new Map<string, number>();
          const form = formOf((d, shown) => {
            const real = order[shown - 1];
            // Gold: one point high on every other accuracy cell below 5 (a lenient grader); a re-grade: sometimes one point off.
            let s = truth(set, d, real);
            if (task?.purpose === "GOLD" && d === "accuracy" && s < 5 && rng.n++ % 2 === 0) s += 1;
            if (task?.purpose === "REGRADE" && (rng.n++ % 3 === 0)) s = s === 1 ? 2 : s - 1;
            mine.set(`${d}/${real}`, s);
            return s;
          });
          meant.set(a.id, mine);
          const saved = await call(putGrades, "/x", json(g.token, "PUT", { scores: form, submit: true }), { id: a.id });
          expect(saved.status, JSON.stringify(saved.body)).toBe(200);
        }
      }
    }
    statsWith = (await call(stats, "/x", bearer(f.lead.token), { id: f.study.id })).body;
    setsWith = (await call(listSets, "/x", bearer(f.lead.token), { id: f.study.id })).body;
  }, 180_000);

  it("refuses to mark a set already dealt, and expected scores that do not fit the instrument", async () => {
    const assigned = f.sets[5].id;
    const r = await call(markSet, `/x`, json(f.lead.token, "PUT", { purpose: "GOLD", expected: expectedFor(assigned), tolerance: 0 }), { id: f.study.id, setId: assigned });
    expect(r.status).toBe(409);
    const bad = await call(markSet, `/x`, json(f.lead.token, "PUT", { purpose: "GOLD", expected: [{ rubric: "check", dimension: "kind", repetition: 1, score: 1 }], tolerance: 0 }), { id: f.study.id, setId: gold[0] });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toContain("not on an ordinal scale");
    // Gold sets are never dealt as primary work.
    expect(await getDb().assignment.count({ where: { responseSetId: { in: gold } } })).toBe(0);
  });

  it("places gold at the chosen rate and scores accuracy and bias as a separate computation does", async () => {
    const tasks = await getDb().qualityTask.findMany({ where: { studyId: f.study.id, purpose: "GOLD" }, include: { grades: true } });
    const report = (await call(quality, "/x", bearer(f.lead.token), { id: f.study.id })).body;
    expect(report.notCollected.map((p: Body) => p.signal)).not.toContain("goldAccuracy");
    for (const g of f.graders) {
      const primaries = await getDb().assignment.count({ where: { studyId: f.study.id, graderId: g.id, kind: "PRIMARY" } });
      const mine = tasks.filter((t) => t.graderId === g.id);
      expect(mine.length).toBe(Math.min(3, Math.ceil(primaries / 3)));
      let within = 0;
      let sum = 0;
      let n = 0;
      for (const t of mine)
        for (const e of expectedFor(t.responseSetId)) {
          const got = t.grades.find((x) => x.dimension === e.dimension && x.repetition === e.repetition)!.score!;
          n++;
          sum += got - e.score;
          if (got === e.score) within++;
        }
      const row = report.graders.find((x: Body) => x.graderId === g.id);
      expect(row.gold.n).toBe(n);
      expect(row.gold.accuracy).toBeCloseTo(within / n, 3);
      expect(row.gold.bias).toBeCloseTo(sum / n, 3);
      expect(row.gold.bias).toBeGreaterThan(0);
      expect(row.gold.accuracyCi[0]).toBeLessThan(row.gold.accuracy);
    }
  });

  it("brings re-grades back to the same grader once, in a new answer order, stored under each answer's own repetition", async () => {
    const regrades = await getDb().qualityTask.findMany({ where: { studyId: f.study.id, purpose: "REGRADE" }, include: { grades: true } });
    const primaries = await getDb().assignment.findMany({ where: { studyId: f.study.id, kind: "PRIMARY" } });
    // Exactly the submitted primaries the seed draws (about half: the ids are random, so a count's bounds failed one run in a few hundred).
    const drawn = primaries.filter((p) => p.status === "SUBMITTED" && drawnForWashout("w", p.id, 0.5)).map((p) => p.id);
    expect(drawn.length).toBeGreaterThan(0);
    expect(regrades.map((t) => t.sourceAssignmentId).sort()).toEqual(drawn.sort());
    const sources = new Set<string>();
    for (const t of regrades) {
      const src = primaries.find((p) => p.id === t.sourceAssignmentId)!;
      expect(t.graderId).toBe(src.graderId);
      expect(t.responseSetId).toBe(src.responseSetId);
      expect(sources.has(src.id)).toBe(false);
      sources.add(src.id);
      expect(t.answerOrder).not.toEqual([1, 2]);
      expect(t.status).toBe("SUBMITTED");
      for (const gr of t.grades.filter((x) => x.dimension !== "kind")) expect(gr.score).toBe(meant.get(t.id)!.get(`${gr.dimension}/${gr.repetition}`));
    }
    // Revising a sampled primary set does not bring it back a second time.
    const again = regrades[0];
    const src = primaries.find((p) => p.id === again.sourceAssignmentId)!;
    const grader = f.graders.find((g) => g.id === src.graderId)!;
    const r = await call(putGrades, "/x", json(grader.token, "PUT", { scores: formOf((d, rep) => truth(src.responseSetId, d, rep)), submit: true }), { id: src.id });
    expect(r.status).toBe(200);
    expect(await getDb().qualityTask.count({ where: { sourceAssignmentId: src.id } })).toBe(1);
    // Revised to the same values as first given: nothing in results moved.
  });

  it("reports intra-rater kappa as scikit-learn computes it, per grader and pooled", async () => {
    const report = (await call(quality, "/x", bearer(f.lead.token), { id: f.study.id })).body;
    const regrades = await getDb().qualityTask.findMany({ where: { studyId: f.study.id, purpose: "REGRADE" }, include: { grades: true } });
    const pairs: Record<string, [number[], number[]]> = {};
    for (const t of regrades) {
      const first = await getDb().grade.findMany({ where: { assignmentId: t.sourceAssignmentId!, dimension: "accuracy" } });
      for (const gr of t.grades.filter((x) => x.dimension === "accuracy")) {
        const a = first.find((x) => x.repetition === gr.repetition)!;
        (pairs[t.graderId] ??= [[], []])[0].push(a.score!);
        pairs[t.graderId][1].push(gr.score!);
      }
    }
    const py = `import json,sys\nfrom sklearn.metrics import cohen_kappa_score as k\nd=json.load(sys.stdin)\nprint(json.dumps({g:k(a,b,weights="quadratic",labels=[1,2,3,4,5]) for g,(a,b) in d.items()}))`;
    const want = JSON.parse(execFileSync("/usr/bin/python3", ["-c", py], { input: JSON.stringify(pairs) }).toString()) as Record<string, number>;
    for (const [g, kappa] of Object.entries(want)) {
      const row = report.graders.find((x: Body) => x.graderId === g).intraRater.byDimension.find((x: Body) => x.dimension === "accuracy");
      expect(row.n).toBe(pairs[g][0].length);
      expect(row.kappa).toBeCloseTo(kappa, 3);
      expect(row.icc).not.toBeNull();
    }
    const pooled = report.intraRaterPooled.find((x: Body) => x.dimension === "accuracy");
    expect(pooled.n).toBe(Object.values(pairs).reduce((s, p) => s + p[0].length, 0));
  });

  it("exports the quality grades as their own dataset, with expected and first scores, and none in the grades dataset", async () => {
    const r = await call(exportRoute, `/api/v1/studies/${f.study.id}/export?dataset=quality-grades&format=json`, bearer(f.lead.token), { id: f.study.id });
    expect(r.status).toBe(200);
    const rows = r.body as Body[];
    expect(rows.length).toBe(await getDb().qualityGrade.count({ where: { task: { studyId: f.study.id } } }));
    const regrade = rows.filter((x) => x.purpose === "REGRADE" && x.dimension === "accuracy");
    expect(regrade.length).toBeGreaterThan(0);
    for (const x of regrade) {
      const t = await getDb().qualityTask.findUniqueOrThrow({ where: { id: x.task_id } });
      const first = await getDb().grade.findFirstOrThrow({ where: { assignmentId: t.sourceAssignmentId!, dimension: "accuracy", repetition: x.repetition } });
      expect(x.first_score).toBe(first.score);
      expect(x.expected_score).toBeNull();
    }
    for (const x of rows.filter((y) => y.purpose === "GOLD" && y.dimension !== "kind")) {
      const t = await getDb().qualityTask.findUniqueOrThrow({ where: { id: x.task_id } });
      expect(x.expected_score).toBe(truth(t.responseSetId, x.dimension, x.repetition));
    }
    const table = await call(exportRoute, `/api/v1/studies/${f.study.id}/export?dataset=grader-quality&format=json`, bearer(f.lead.token), { id: f.study.id });
    const report = (await call(quality, "/x", bearer(f.lead.token), { id: f.study.id })).body;
    for (const row of table.body as Body[]) expect(typeof row.gold_accuracy).toBe("number");
    expect((table.body as Body[]).map((x) => x.gold_accuracy).sort()).toEqual(report.graders.map((g: Body) => g.gold.accuracy).sort());
    const grades = await call(exportRoute, `/api/v1/studies/${f.study.id}/export?dataset=grades&format=json`, bearer(f.lead.token), { id: f.study.id });
    expect((grades.body as Body[]).length).toBe(await getDb().grade.count({ where: { assignment: { studyId: f.study.id } } }));
  });

  it("leaves the dashboard and the set list exactly as they are without any quality grade", async () => {
    await getDb().qualityGrade.deleteMany({ where: { task: { studyId: f.study.id } } });
    await getDb().qualityTask.deleteMany({ where: { studyId: f.study.id } });
    const statsWithout = (await call(stats, "/x", bearer(f.lead.token), { id: f.study.id })).body;
    const setsWithout = (await call(listSets, "/x", bearer(f.lead.token), { id: f.study.id })).body;
    const strip = (b: Body) => JSON.parse(JSON.stringify(b, (k, v) => (k === "generatedAt" || k === "computedAt" ? undefined : v)));
    expect(strip(statsWithout)).toEqual(strip(statsWith));
    expect(strip(setsWithout)).toEqual(strip(setsWith));
  });
});

describe("a gold task in the grader's queue and page", () => {
  it("has the shape of a real assignment, and names neither its set nor its purpose", async () => {
    const f = await makeGradableStudy({ rubrics: [CHECK], items: 4, models: 2, n: N, graders: 2, k: 1 });
    const g = f.sets[0].id;
    expect((await call(markSet, `/x`, json(f.lead.token, "PUT", { purpose: "GOLD", expected: expectedFor(g), tolerance: 1 }), { id: f.study.id, setId: g })).status).toBe(200);
    await assignGraders(f.study.id, { seed: "shape" }, f.lead.id);
    expect((await call(putSettings, `/x`, json(f.lead.token, "PUT", { goldRate: 2 }), { id: f.study.id })).status).toBe(200);
    const grader = f.graders[0];
    const task = await getDb().qualityTask.findFirstOrThrow({ where: { graderId: grader.id, purpose: "GOLD" } });
    const real = await getDb().assignment.findFirstOrThrow({ where: { graderId: grader.id } });
    const q = await call(myAssignments, "/x", bearer(grader.token));
    const entry = (id: string) => q.body.assignments.find((a: Body) => a.id === id);
    expect(shape(entry(task.id))).toEqual(shape(entry(real.id)));
    expect(entry(task.id).kind).toBe("PRIMARY");
    expect(entry(task.id).responseSetId).not.toBe(g);
    const pageGold = await call(getAssignment, "/x", bearer(grader.token), { id: task.id });
    const pageReal = await call(getAssignment, "/x", bearer(grader.token), { id: real.id });
    expect(pageGold.status).toBe(200);
    expect(shape(pageGold.body)).toEqual(shape(pageReal.body));
    const text = JSON.stringify(pageGold.body) + JSON.stringify(q.body);
    for (const word of ["GOLD", "gold", "expected", "tolerance", g]) expect(text).not.toContain(word);
    // Someone else's gold task is not there.
    expect((await call(getAssignment, "/x", bearer(f.graders[1].token), { id: task.id })).status).toBe(404);
  });
});

describe("calibration before real work", () => {
  it("blocks real work until a round is passed, tells the lead of a failed round, and deals new sets", async () => {
    const f = await makeGradableStudy({ rubrics: [CHECK], items: 6, models: 2, n: N, graders: 2, k: 1 });
    // Without a calibration set, requiring calibration would block everyone: refused.
    expect((await call(putSettings, `/x`, json(f.lead.token, "PUT", { calibrationRequired: true }), { id: f.study.id })).status).toBe(409);
    const cal = f.sets.slice(0, 2).map((s) => s.id);
    for (const id of cal) {
      const r = await call(markSet, `/x`, json(f.lead.token, "PUT", { purpose: "CALIBRATION", expected: expectedFor(id), tolerance: 0, rationale: `Why ${id.slice(0, 4)}` }), { id: f.study.id, setId: id });
      expect(r.status).toBe(200);
    }
    await assignGraders(f.study.id, { seed: "cal" }, f.lead.id);
    const s = await call(putSettings, `/x`, json(f.lead.token, "PUT", { calibrationRequired: true, calibrationPassShare: 0.75, calibrationRoundSize: 1 }), { id: f.study.id });
    expect(s.body.placed.calibration).toBe(2);
    const grader = f.graders[0];
    const real = await getDb().assignment.findFirstOrThrow({ where: { graderId: grader.id } });

    // Only the calibration set is in the queue; real work answers 409 to a read and a save.
    let q = await call(myAssignments, "/x", bearer(grader.token));
    expect(q.body.assignments).toHaveLength(1);
    const round1 = q.body.assignments[0].id;
    expect((await call(getAssignment, "/x", bearer(grader.token), { id: real.id })).status).toBe(409);
    const blocked = await call(putGrades, "/x", json(grader.token, "PUT", { scores: formOf(() => 3), submit: true }), { id: real.id });
    expect(blocked.status).toBe(409);
    expect(await getDb().grade.count({ where: { assignmentId: real.id } })).toBe(0);

    // Round 1: every score one off: failed, audited for the lead, a new set dealt.
    const set1 = (await getDb().qualityTask.findUniqueOrThrow({ where: { id: round1 } })).responseSetId;
    const wrong = formOf((d, rep) => (truth(set1, d, rep) === 5 ? 4 : truth(set1, d, rep) + 1));
    expect((await call(putGrades, "/x", json(grader.token, "PUT", { scores: wrong, submit: true }), { id: round1 })).status).toBe(200);
    expect(await getDb().auditEvent.count({ where: { studyId: f.study.id, action: "quality.calibration.fail", actorId: grader.id } })).toBe(1);
    const fbs = await call(myCalibration, "/x", bearer(grader.token));
    expect(fbs.body.studies).toHaveLength(1);
    const fb = { body: fbs.body.studies[0] };
    expect(fb.body.studyId).toBe(f.study.id);
    expect(fb.body.title).not.toContain(f.study.name);
    expect(fb.body.passed).toBe(false);
    expect(fb.body.rounds[0]).toMatchObject({ round: 1, complete: true, passed: false, share: 0 });
    expect(fb.body.rounds[0].sets[0].rationale).toBe(`Why ${set1.slice(0, 4)}`);
    expect(fb.body.rounds[0].sets[0].cells.find((c: Body) => c.dimension === "accuracy" && c.repetition === 1)).toMatchObject({ expected: truth(set1, "accuracy", 1), within: false });
    const report = (await call(quality, "/x", bearer(f.lead.token), { id: f.study.id })).body;
    expect(report.graders.find((x: Body) => x.graderId === grader.id).calibration).toMatchObject({ passedAt: null, rounds: 2, failedRounds: 1 });

    q = await call(myAssignments, "/x", bearer(grader.token));
    expect(q.body.assignments.filter((a: Body) => a.status !== "SUBMITTED")).toHaveLength(1);
    const round2 = q.body.assignments.find((a: Body) => a.status !== "SUBMITTED").id;
    const set2 = (await getDb().qualityTask.findUniqueOrThrow({ where: { id: round2 } })).responseSetId;
    expect(set2).not.toBe(set1);
    expect((await call(getAssignment, "/x", bearer(grader.token), { id: real.id })).status).toBe(409);

    // Round 2 right: passed; the real work is open and the calibration sets leave the queue.
    expect((await call(putGrades, "/x", json(grader.token, "PUT", { scores: formOf((d, rep) => truth(set2, d, rep)), submit: true }), { id: round2 })).status).toBe(200);
    expect((await getDb().studyMember.findUniqueOrThrow({ where: { studyId_userId: { studyId: f.study.id, userId: grader.id } } })).calibrationPassedAt).not.toBeNull();
    q = await call(myAssignments, "/x", bearer(grader.token));
    const ids = q.body.assignments.map((a: Body) => a.id);
    expect(ids).toContain(real.id);
    expect(ids).not.toContain(round1);
    expect((await call(putGrades, "/x", json(grader.token, "PUT", { scores: formOf(() => 3), submit: true }), { id: real.id })).status).toBe(200);
    // The other grader has not passed: still blocked.
    const other = await getDb().assignment.findFirstOrThrow({ where: { graderId: f.graders[1].id } });
    expect((await call(getAssignment, "/x", bearer(f.graders[1].token), { id: other.id })).status).toBe(409);
  }, 60_000);
});

describe("a calibration round submitted all at once", () => {
  it("is judged exactly once, whichever save commits last", async () => {
    const f = await makeGradableStudy({ rubrics: [CHECK], items: 4, models: 2, n: N, graders: 1, k: 1 });
    const cal = f.sets.slice(0, 2).map((s) => s.id);
    for (const id of cal) {
      expect((await call(markSet, `/x`, json(f.lead.token, "PUT", { purpose: "CALIBRATION", expected: expectedFor(id), tolerance: 0 }), { id: f.study.id, setId: id })).status).toBe(200);
    }
    await assignGraders(f.study.id, { seed: "race" }, f.lead.id);
    expect((await call(putSettings, `/x`, json(f.lead.token, "PUT", { calibrationRequired: true, calibrationRoundSize: 2 }), { id: f.study.id })).status).toBe(200);
    const grader = f.graders[0];
    const tasks = await getDb().qualityTask.findMany({ where: { graderId: grader.id, purpose: "CALIBRATION" } });
    expect(tasks).toHaveLength(2);
    const saves = await Promise.all(
      tasks.map((t) => call(putGrades, "/x", json(grader.token, "PUT", { scores: formOf((d, rep) => truth(t.responseSetId, d, rep)), submit: true }), { id: t.id })),
    );
    expect(saves.map((s) => s.status)).toEqual([200, 200]);
    expect(await getDb().auditEvent.count({ where: { studyId: f.study.id, action: { startsWith: "quality.calibration." } } })).toBe(1);
    expect((await getDb().studyMember.findUniqueOrThrow({ where: { studyId_userId: { studyId: f.study.id, userId: grader.id } } })).calibrationPassedAt).not.toBeNull();
  });
});
