/**
 * Grader quality (issue #35, items 4-5) on a seeded study whose instrument is neither template: a
 * nominal item, an ordinal item that may be N/A, no total. Three honest graders, one who scores
 * +1 above them, one at random and one who always gives 5: the quality view must rank them as
 * such; excluding the random grader must change the dashboard's alpha exactly as recomputing
 * without their grades does; the exclusion is audited and reversible; only the study's lead sees it.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { GET as quality } from "@/app/api/v1/studies/[id]/grader-quality/route";
import { GET as sensitivity } from "@/app/api/v1/studies/[id]/grader-quality/sensitivity/route";
import { DELETE as include, PUT as exclude } from "@/app/api/v1/studies/[id]/grader-quality/exclusions/[userId]/route";
import { GET as stats } from "@/app/api/v1/studies/[id]/stats/route";
import { GET as listSets } from "@/app/api/v1/studies/[id]/sets/route";
import { GET as exportRoute } from "@/app/api/v1/studies/[id]/export/route";
import { assembleStudyStats } from "@/lib/analytics/assemble";
import { loadStudy } from "@/lib/analytics/load";
import { assignGraders } from "@/lib/assignment/service";
import { getDb } from "@/lib/db/client";
import { saveGrades } from "@/lib/grading/service";
import { mulberry32 } from "@/lib/stats";
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

const CHECK = CHECK_RUBRIC;

const ITEMS = 14;
const N = 2;
type Seeded = Awaited<ReturnType<typeof seed>>;

async function seed() {
  const f = await makeGradableStudy({ rubrics: [CHECK], items: ITEMS, models: 2, n: N, graders: 6, k: 6 });
  await assignGraders(f.study.id, { seed: "quality" }, f.lead.id);
  const [h1, h2, h3, plus, random, five] = f.graders;
  const rng = mulberry32(35);
  const truth = new Map<string, number>();
  const t = (set: string, dim: string, rep: number) => {
    const key = `${set}/${dim}/${rep}`;
    if (!truth.has(key)) truth.set(key, 1 + Math.floor(rng() * 4)); // 1..4, so +1 stays on the scale
    return truth.get(key)!;
  };
  const scoreOf = (grader: string, set: string, dim: string, rep: number): number => {
    const base = t(set, dim, rep);
    if (grader === plus.id) return base + 1;
    if (grader === random.id) return 1 + Math.floor(rng() * 5);
    if (grader === five.id) return 5;
    if (grader === h3.id && rng() < 0.15) return Math.min(5, base + 1);
    return base;
  };
  // In the fixture's own order (sets as created, graders as listed), not by their random ids: the seeded
  // draws then land on the same cells in every run, so the figures checked below are the same each time.
  const setOrder = new Map(f.sets.map((x, i) => [x.id, i]));
  const graderOrder = new Map(f.graders.map((g, i) => [g.id, i]));
  const assignments = (await getDb().assignment.findMany({ where: { studyId: f.study.id, kind: "PRIMARY" } })).sort(
    (a, b) => setOrder.get(a.responseSetId)! - setOrder.get(b.responseSetId)! || graderOrder.get(a.graderId)! - graderOrder.get(b.graderId)!,
  );
  for (const a of assignments) {
    const scores: { rubric: string; dimension: string; repetition: number; score: number | string | null; na?: boolean }[] = [
      { rubric: "check", dimension: "kind", repetition: 1, score: rng() < 0.5 ? "advice" : "referral" },
    ];
    for (let rep = 1; rep <= N; rep++) {
      scores.push({ rubric: "check", dimension: "accuracy", repetition: rep, score: scoreOf(a.graderId, a.responseSetId, "accuracy", rep) });
      // An honest grader finds clarity not applicable to the second answers: N/A is skipped, never read as a score.
      if (a.graderId === h1.id && rep === 2) scores.push({ rubric: "check", dimension: "clarity", repetition: rep, score: null, na: true });
      else scores.push({ rubric: "check", dimension: "clarity", repetition: rep, score: scoreOf(a.graderId, a.responseSetId, "clarity", rep) });
    }
    await saveGrades(a.graderId, a.id, { scores, submit: true });
  }
  // Server time on task: the always-5 grader spends 4 s a set, the others a minute.
  await getDb().assignment.updateMany({ where: { studyId: f.study.id, graderId: five.id }, data: { timeSpentMs: 4000 } });
  await getDb().assignment.updateMany({ where: { studyId: f.study.id, graderId: { not: five.id } }, data: { timeSpentMs: 60000 } });
  return { f, h1, h2, h3, plus, random, five };
}

let s: Seeded;
beforeAll(async () => {
  s = await seed();
}, 120_000);

const q = (token: string, id = s.f.study.id) => call(quality, `/api/v1/studies/${id}/grader-quality`, bearer(token), { id });
const excl = (token: string, userId: string, reason = "Scores at random") =>
  call(exclude, `/api/v1/studies/${s.f.study.id}/grader-quality/exclusions/${userId}`, json(token, "PUT", { reason }), { id: s.f.study.id, userId });
const incl = (token: string, userId: string) =>
  call(include, `/api/v1/studies/${s.f.study.id}/grader-quality/exclusions/${userId}`, bearer(token, { method: "DELETE" }), { id: s.f.study.id, userId });
const alphaOf = (body: Body) => body.alpha.data.bars.find((b: Body) => b.specialty === "All specialties").alpha as number;

describe("the grader-quality view", () => {
  it("ranks the lenient, the random and the straight-lining grader as such", async () => {
    const r = await q(s.f.lead.token);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const by = (id: string) => r.body.graders.find((g: Body) => g.graderId === id);
    expect(r.body.graders).toHaveLength(6);
    // Only ordinal dimensions: the nominal item is skipped.
    expect(r.body.dimensions.map((d: Body) => d.key)).toEqual(["accuracy", "clarity"]);
    expect(r.body.notCollected.map((p: Body) => p.status)).toEqual(["not collected in this study", "not collected in this study"]);

    const bias = (g: Body) => g.bias.estimate as number;
    const sorted = [...r.body.graders].sort((a: Body, b: Body) => bias(b) - bias(a));
    // The always-5 and the +1 grader are the two most lenient, the +1 one with a CI above 0 (its peers include
    // the always-5 and the random grader, so its bias is below 1); the honest graders below them.
    expect(new Set(sorted.slice(0, 2).map((g: Body) => g.graderId))).toEqual(new Set([s.plus.id, s.five.id]));
    expect(by(s.plus.id).bias.ci[0]).toBeGreaterThan(0);
    expect(by(s.h2.id).bias.estimate).toBeLessThan(0);
    // Every ordinal cell of every set (2 dimensions x N answers): h1's N/A cells are still shared with four others.
    expect(by(s.plus.id).bias).toMatchObject({ n: ITEMS * 2 * 2 * N, sets: ITEMS * 2 });
    expect(by(s.h1.id).bias.n).toBe(ITEMS * 2 * (2 * N - 1));
    // Straight-lining: only the always-5 grader.
    const sl = [...r.body.graders].sort((a: Body, b: Body) => b.straightLining.share - a.straightLining.share);
    expect(sl[0].graderId).toBe(s.five.id);
    expect(by(s.five.id).straightLining).toMatchObject({ share: 1, n: ITEMS * 2 });
    expect(by(s.five.id).scaleUse.share).toBe(0.2);
    expect(sl[1].straightLining.share).toBeLessThan(0.5);
    // Agreement with peers: the random grader lowest, then the always-5 one, both well below every other grader
    // (the +1 grader may agree best: its peers include the always-5 one).
    const ac2 = [...r.body.graders].sort((a: Body, b: Body) => a.agreement.ac2 - b.agreement.ac2);
    expect(ac2.slice(0, 2).map((g: Body) => g.graderId)).toEqual([s.random.id, s.five.id]);
    expect(ac2[1].agreement.ac2).toBeLessThan(ac2[2].agreement.ac2 - 0.2);
    // Time: the always-5 grader far below the study's median.
    expect(by(s.five.id).time).toMatchObject({ medianMs: 4000, n: ITEMS * 2 });
    expect(by(s.five.id).time.ratio).toBeCloseTo(4000 / 60000, 3);
    // Trend: 28 sets in one block of 50.
    expect(by(s.plus.id).trend).toHaveLength(1);
    expect(by(s.plus.id).trend[0]).toMatchObject({ sets: ITEMS * 2, bias: by(s.plus.id).bias.estimate });
  });

  it("computes the +1 grader's bias as the definition says, from the grades themselves", async () => {
    const grades = await getDb().grade.findMany({ where: { assignment: { studyId: s.f.study.id, kind: "PRIMARY" }, score: { not: null }, na: false }, include: { assignment: true } });
    const cells = new Map<string, Map<string, number>>();
    for (const g of grades) {
      const key = `${g.assignment.responseSetId}/${g.dimension}/${g.repetition}`;
      if (!cells.has(key)) cells.set(key, new Map());
      cells.get(key)!.set(g.assignment.graderId, g.score!);
    }
    let sum = 0;
    let n = 0;
    for (const m of cells.values()) {
      const mine = m.get(s.plus.id);
      const others = [...m].filter(([g]) => g !== s.plus.id).map(([, v]) => v);
      if (mine === undefined || others.length === 0) continue;
      sum += mine - others.reduce((a, b) => a + b, 0) / others.length;
      n++;
    }
    const r = await q(s.f.lead.token);
    const plus = r.body.graders.find((g: Body) => g.graderId === s.plus.id);
    expect(plus.bias.n).toBe(n);
    expect(plus.bias.estimate).toBeCloseTo(sum / n, 4);
  });
});

describe("excluding a grader from the analysis", () => {
  it("changes the dashboard's alpha exactly as recomputing without their grades does, is audited and reversible, and keeps the grades", async () => {
    const id = s.f.study.id;
    const before = await call(stats, `/api/v1/studies/${id}/stats`, bearer(s.f.lead.token), { id });
    const gradesBefore = await getDb().grade.count({ where: { assignment: { studyId: id } } });

    // The figure without the random grader, computed separately: the same read, their assignments taken out by hand.
    const loaded = (await loadStudy(id))!;
    const without = assembleStudyStats({ ...loaded, excluded: new Set(), assignments: loaded.assignments.filter((a) => a.graderId !== s.random.id) }, {}, { resamples: 2 });
    const expected = without.alpha.data!.bars.find((b) => b.specialty === "All specialties")!.alpha!;
    expect(expected).not.toBeCloseTo(alphaOf(before.body), 6);

    const r = await excl(s.f.lead.token, s.random.id);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ userId: s.random.id, changed: true, excluded: { by: s.f.lead.id, reason: "Scores at random" } });
    expect((await excl(s.f.lead.token, s.random.id)).body.changed).toBe(false);

    const after = await call(stats, `/api/v1/studies/${id}/stats`, bearer(s.f.lead.token), { id });
    expect(alphaOf(after.body)).toBeCloseTo(expected, 12);
    // The results (sets API) leave them out too: five graders per set.
    const sets = await call(listSets, `/api/v1/studies/${id}/sets`, bearer(s.f.lead.token), { id });
    expect(sets.body.sets.every((x: Body) => x.graders === 5)).toBe(true);
    // The quality view still shows them, marked.
    const qv = await q(s.f.lead.token);
    expect(qv.body.graders.find((g: Body) => g.graderId === s.random.id).excluded).toMatchObject({ reason: "Scores at random" });
    // Sensitivity: the figures as shown, with every grader (the random one back), and without each other grader.
    const sens = await call(sensitivity, `/api/v1/studies/${id}/grader-quality/sensitivity`, bearer(s.f.lead.token), { id });
    expect(sens.status).toBe(200);
    const alphaFig = sens.body.figures.find((x: Body) => x.kind === "alpha");
    expect(alphaFig.main).toBeCloseTo(expected, 6);
    expect(alphaFig.allGraders).toBeCloseTo(alphaOf(before.body), 6);
    expect(alphaFig.withoutEach).toHaveLength(5);
    expect(sens.body.excluded).toEqual([s.random.id]);

    expect(await getDb().grade.count({ where: { assignment: { studyId: id } } })).toBe(gradesBefore);
    const back = await incl(s.f.lead.token, s.random.id);
    expect(back.body).toEqual({ userId: s.random.id, excluded: null, changed: true });
    const restored = await call(stats, `/api/v1/studies/${id}/stats`, bearer(s.f.lead.token), { id });
    expect(alphaOf(restored.body)).toBeCloseTo(alphaOf(before.body), 12);

    const events = await getDb().auditEvent.findMany({ where: { studyId: id, action: { in: ["study.grader.exclude", "study.grader.include"] } }, orderBy: { id: "asc" } });
    expect(events.map((e) => [e.action, e.entityId, e.actorId])).toEqual([
      ["study.grader.exclude", s.random.id, s.f.lead.id],
      ["study.grader.include", s.random.id, s.f.lead.id],
    ]);
    expect(events[0].after).toMatchObject({ reason: "Scores at random" });
  });

  it("refuses a missing reason (422) and a user who is not a grader of the study (404)", async () => {
    expect((await excl(s.f.lead.token, s.random.id, "")).status).toBe(422);
    expect((await excl(s.f.lead.token, s.f.lead.id)).status).toBe(404);
    expect((await excl(s.f.lead.token, "00000000-0000-4000-8000-000000000000")).status).toBe(404);
  });
});

describe("the grader-quality export", () => {
  it("is the table as CSV, one row per grader, pseudonyms by default, the exclusion's reason formula-guarded", async () => {
    const id = s.f.study.id;
    expect((await excl(s.f.lead.token, s.five.id, "=HYPERLINK(1)")).status).toBe(200);
    try {
      const res = await exportRoute(new Request(`http://localhost/api/v1/studies/${id}/export?dataset=grader-quality&format=csv`, bearer(s.f.lead.token)), { params: Promise.resolve({ id }) });
      expect(res.status).toBe(200);
      const lines = (await res.text()).trim().split("\n");
      expect(lines[0]).toMatch(/^grader,grader_name,excluded,excluded_at,excluded_reason,sets,/);
      expect(lines).toHaveLength(7);
      const report = (await q(s.f.lead.token)).body;
      const five = report.graders.find((g: Body) => g.graderId === s.five.id);
      const row = lines.find((l) => l.includes("HYPERLINK"))!;
      expect(row).toContain(",true,");
      expect(row).toContain(",'=HYPERLINK(1),");
      expect(row).toContain(`,${five.sets},${five.time.medianMs},`);
      expect(row).toContain(",1,28,0.2,");
      expect(row).not.toContain("grader6");
      expect(row).toMatch(/not collected in this study,not collected in this study$/);
      // The summary names the exclusion (pseudonym, when, why); the audit export has the event.
      const get = async (query: string) =>
        (await exportRoute(new Request(`http://localhost/api/v1/studies/${id}/export?${query}`, bearer(s.f.lead.token)), { params: Promise.resolve({ id }) })).text();
      const summary = (await get("dataset=summary&format=csv")).split("\n");
      const pseudonym = row.split(",")[0];
      expect(summary[1]).toMatch(new RegExp(`^excluded_grader,.*,excluded_at,.*,"?'?\\d{4}-.*: '?=HYPERLINK\\(1\\)"?,,,${pseudonym}$`));
      expect(await get("dataset=audit&format=csv")).toContain("study.grader.exclude");
    } finally {
      await incl(s.f.lead.token, s.five.id);
    }
  });
});

describe("who may see and change it", () => {
  it("graders get 403 and never see the figures; another lead 404; an admin reads it", async () => {
    const r = await q(s.h1.token);
    expect(r.status).toBe(403);
    expect(JSON.stringify(r.body)).not.toContain(s.plus.id);
    expect((await excl(s.h1.token, s.random.id)).status).toBe(403);
    const other = await makeUser("LEAD", "other-lead");
    expect((await q(other.token)).status).toBe(404);
    expect((await excl(other.token, s.random.id)).status).toBe(404);
    expect((await call(sensitivity, `/api/v1/studies/${s.f.study.id}/grader-quality/sensitivity`, bearer(s.h2.token), { id: s.f.study.id })).status).toBe(403);
    const admin = await makeUser("ADMIN", "admin");
    expect((await q(admin.token)).status).toBe(200);
  });
});
