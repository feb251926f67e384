/**
 * GET /api/v1/studies/{id}/stats on a study graded through the real services
 * (assignGraders, saveGrades: escalations and adjudications included): every
 * number equals lib/stats (and lib/results) computed directly on the same data,
 * read back through Prisma the plain way.
 */
import { templateRubrics } from "@/lib/rubrics/study-rubrics";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as stats } from "@/app/api/v1/studies/[id]/stats/route";
import { assembleStudyStats } from "@/lib/analytics/assemble";
import { StudyStatsSchema } from "@/lib/analytics/contract";
import { loadStudy } from "@/lib/analytics/load";
import type { StudyStats } from "@/lib/analytics/types";
import { assignGraders } from "@/lib/assignment/service";
import { getDb } from "@/lib/db/client";
import { saveGrades } from "@/lib/grading/service";
import { RUBRICS, type RubricKey } from "@/lib/rubrics/templates/published-definitions";
import { computeSetResults } from "@/lib/results/sets";
import { ALL_SPECIALTIES, alphaBySpecialty, modelSummaries } from "@/lib/results/summary";
import { deriveConsistency } from "../unit/rubrics/oracle/grader-values";
import { cliffsDelta, cliffsMagnitude, cohenKappa, gwetAC2, icc, kendallW, krippendorffAlpha, mulberry32 } from "@/lib/stats";
import { plainStratifiedBootstrap } from "../unit/analytics/reference";
import { bearer, call, makeStudy, makeUser } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";
import { form, makeGradableStudy } from "./helpers/study-fixture";

useIsolatedDatabase();

type Fixture = Awaited<ReturnType<typeof makeGradableStudy>>;
const get = async (token: string, id: string, query = "") => call(stats, `/x${query}`, bearer(token), { id });

/** A grader's form for a set: model quality plus seeded noise, sometimes far apart (escalations). */
function simulated(setIndex: number, model: number, grader: string, n: number) {
  let h = 0;
  for (const ch of `${setIndex}:${grader}`) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  const rng = mulberry32(h);
  const base = 4.5 - model * 0.9;
  const noise = () => (rng() < 0.25 ? (rng() < 0.5 ? -1 : 1) : 0);
  const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, Math.round(v)));
  const swing = rng() < 0.15 ? -2 : 0;
  const score = [0, 1, 2, 3, 4].map((i) => clamp(base + noise() + (i === 0 ? swing : 0), 1, 5)) as [number, number, number, number, number];
  const safe = Array.from({ length: n }, () => [clamp(2 - model * 0.6 + noise(), 0, 2), clamp(1.6 - model * 0.5 + noise(), 0, 2), rng() < 0.6 - model * 0.2 ? 1 : 0, rng() < 0.85 ? 1 : 0] as [number, number, number, number]);
  return form({ score, safe });
}

async function gradeAll(f: Fixture, opts: { leaveOpen?: number } = {}) {
  const db = getDb();
  const modelIndex = new Map(f.models.map((m, i) => [m.id, i]));
  const setIndex = new Map(f.sets.map((s, i) => [s.id, i]));
  // Primaries first; leave the last `leaveOpen` sets with one grade missing.
  const primaries = await db.assignment.findMany({ where: { responseSet: { studyId: f.study.id }, kind: "PRIMARY" }, orderBy: [{ responseSetId: "asc" }, { graderId: "asc" }] });
  const openSets = new Set(f.sets.slice(f.sets.length - (opts.leaveOpen ?? 0)).map((s) => s.id));
  for (const a of primaries) {
    const lastOfSet = !primaries.some((b) => b.responseSetId === a.responseSetId && b.graderId > a.graderId);
    if (openSets.has(a.responseSetId) && lastOfSet) continue;
    const set = f.sets[setIndex.get(a.responseSetId)!];
    await saveGrades(a.graderId, a.id, { scores: simulated(setIndex.get(a.responseSetId)!, modelIndex.get(set.modelId)!, a.graderId, f.n), submit: true });
  }
  // Then every adjudication the escalations created.
  const adjudications = await db.assignment.findMany({ where: { responseSet: { studyId: f.study.id }, kind: "ADJUDICATOR", status: { not: "CANCELLED" } } });
  for (const a of adjudications) {
    const set = f.sets[setIndex.get(a.responseSetId)!];
    await saveGrades(a.graderId, a.id, { scores: simulated(setIndex.get(a.responseSetId)! + 1000, modelIndex.get(set.modelId)!, a.graderId, f.n), submit: true });
  }
}

/** The primaries' raw grades, straight from Prisma: per set with two or more submitted primaries, graders by id. */
async function primaryGrades(studyId: string) {
  const rows = await getDb().assignment.findMany({
    where: { responseSet: { studyId }, kind: "PRIMARY", status: "SUBMITTED" },
    select: { responseSetId: true, graderId: true, grades: { select: { rubric: true, dimension: true, repetition: true, score: true } } },
  });
  const bySet = new Map<string, typeof rows>();
  for (const r of rows) bySet.set(r.responseSetId, [...(bySet.get(r.responseSetId) ?? []), r]);
  // In the order the stats read sets (computeSetResults' order: question, then model), so sums run in the same order.
  const order = (await computeSetResults(studyId)).map((s) => s.id);
  return order
    .map((id) => bySet.get(id) ?? [])
    .filter((g) => g.length >= 2)
    .map((g) => g.sort((a, b) => (a.graderId < b.graderId ? -1 : 1)));
}

describe("GET /api/v1/studies/{id}/stats", () => {
  let f: Fixture;
  let body: StudyStats;

  beforeAll(async () => {
    f = await makeGradableStudy({ items: 9, models: 3, graders: 4 });
    await assignGraders(f.study.id, { seed: "stats" }, f.lead.id);
    await gradeAll(f, { leaveOpen: 2 });
    const r = await get(f.lead.token, f.study.id);
    expect(r.status).toBe(200);
    body = r.body as unknown as StudyStats;
  }, 120_000);

  it("answers in the documented shape, with the study's state", async () => {
    expect(() => StudyStatsSchema.parse(body)).not.toThrow();
    const statuses = await getDb().responseSet.groupBy({ by: ["status"], where: { studyId: f.study.id }, _count: { _all: true } });
    const count = (s: string) => statuses.find((x) => x.status === s)?._count._all ?? 0;
    expect(count("ADJUDICATED")).toBeGreaterThan(0); // the fixture really exercises escalation
    expect(count("AWAITING_GRADES")).toBe(2);
    expect(body.progress.data!.sets.byStatus).toEqual({ AWAITING_GRADES: 2, AGREED: count("AGREED"), AWAITING_ADJUDICATION: count("AWAITING_ADJUDICATION"), ADJUDICATED: count("ADJUDICATED") });
    const assignments = await getDb().assignment.findMany({ where: { responseSet: { studyId: f.study.id }, status: { not: "CANCELLED" } } });
    expect(body.progress.data!.assignments).toEqual({ done: assignments.filter((a) => a.status === "SUBMITTED").length, assigned: assignments.length });
    for (const g of body.progress.data!.graders) {
      const mine = assignments.filter((a) => a.graderId === g.id);
      expect(g).toMatchObject({ done: mine.filter((a) => a.status === "SUBMITTED").length, assigned: mine.length, adjudications: mine.filter((a) => a.kind === "ADJUDICATOR").length });
    }
  });

  it("the reader's graders scored as their rows arrive give the figures assemble scores itself from the packed cells", async () => {
    const loaded = (await loadStudy(f.study.id))!;
    const submitted = loaded.assignments.filter((a) => a.status === "SUBMITTED");
    expect(submitted.length).toBeGreaterThan(0);
    expect(submitted.every((a) => a.record !== undefined)).toBe(true);
    const unscored = { ...loaded, assignments: loaded.assignments.map(({ record: _record, ...a }) => a) };
    expect(assembleStudyStats(loaded)).toEqual(assembleStudyStats(unscored));
  });

  it("radar, ranking and alpha equal lib/results' summaries of computeSetResults", async () => {
    const sets = await computeSetResults(f.study.id);
    const rubrics = templateRubrics(["SCORE", "SAFE_LLM"]);
    const summaries = modelSummaries(sets, rubrics);
    expect(body.scope.finalSets).toBe(sets.filter((s) => s.finalScores).length);
    for (const radar of body.radar) {
      const rubric = radar.rubric;
      for (const series of radar.data!.series) {
        const s = summaries.find((x) => x.model === series.model && x.specialty === ALL_SPECIALTIES)!;
        RUBRICS[rubric as RubricKey].dimensions.forEach((d, i) => {
          const st = s.dimensions[rubric]![d.key];
          expect(series.points[i].mean).toBe(st.mean);
          expect(series.points[i].value).toBe(rubric === "SAFE_LLM" ? st.mean! / d.max : st.mean);
        });
      }
    }
    for (const row of body.ranking.data!.rows) {
      const s = summaries.find((x) => x.model === row.model && x.specialty === row.specialty)!;
      expect({ n: row.n, mean: row.mean, sd: row.sd }).toEqual(row.rubric === "SCORE" ? s.totals.SCORE : s.totals.SAFE_LLM);
    }
    expect(body.ranking.data!.rows).toHaveLength(summaries.length * 2);
    const alpha = alphaBySpecialty(sets, rubrics);
    expect(body.alpha.data!.bars).toEqual(alpha.map((a) => ({ rubric: a.rubric, specialty: a.specialty, alpha: a.alpha, ci: a.ci, n: a.n, k: a.k, reason: a.reason ?? null })));
    expect(body.alpha.data!.bars.some((b) => b.alpha !== null && b.ci !== null)).toBe(true);
  });

  it("Cliff's delta equals lib/stats on the final totals, with the stratified bootstrap interval", async () => {
    const sets = (await computeSetResults(f.study.id)).filter((s) => s.totals);
    const cliffs = body.cliffs.data!;
    expect(cliffs.models).toEqual([...new Set(sets.map((s) => s.model.name))].sort());
    // The same bootstrap written plainly: strata = specialties, each with every model's final sets.
    const specialties = cliffs.specialties.filter((sp) => sp !== ALL_SPECIALTIES);
    const models = cliffs.models;
    const strata = specialties.map((sp) => models.map((m) => sets.filter((s) => s.specialty === sp && s.model.name === m).map((s) => [s.totals!.SCORE!.total, s.totals!.SAFE_LLM!.headline])));
    const ref = plainStratifiedBootstrap(strata, 2, { resamples: cliffs.resamples, seed: cliffs.seed });
    for (const cell of cliffs.cells) {
      const k = cell.rubric === "SCORE" ? 0 : 1;
      const s = specialties.indexOf(cell.specialty);
      const i = models.indexOf(cell.rowModel);
      const j = models.indexOf(cell.colModel);
      const x = (g: number) => (s < 0 ? strata.flatMap((st) => st[g]) : strata[s][g]).map((u) => u[k]);
      const d = cliffsDelta(x(i), x(j));
      expect(cell.delta).toBe(d.delta);
      expect(cell.magnitude).toBe(cliffsMagnitude(d.delta!));
      expect([cell.n, cell.m]).toEqual([d.n, d.m]);
      const cis = s < 0 ? ref.pooled : ref.strata[s];
      const expected = i < j ? cis.get(`${k}:${i}:${j}`)! : cis.get(`${k}:${j}:${i}`)!.map((v) => (v === 0 ? 0 : -v)).reverse();
      expect(cell.ci).toEqual(expected);
    }
  });

  it("agreement of the primaries equals lib/stats on the raw grades: AC2, Krippendorff, ICC(1,k), exact %, trigger rate", async () => {
    const bySet = await primaryGrades(f.study.id);
    const agreement = body.agreement.data!;
    expect(agreement.design).toBe("pool");
    for (const row of agreement.rows) {
      const def = RUBRICS[row.rubric as RubricKey].dimensions.find((d) => d.key === row.dimension)!;
      const score = (g: (typeof bySet)[number][number], rep: number) => g.grades.find((x) => x.rubric === row.rubric && x.dimension === row.dimension && x.repetition === rep)?.score ?? null;
      let matrix: (number | null)[][];
      if (row.dimension === "consistency") {
        matrix = bySet.map((gs) => gs.map((g) => deriveConsistency([1, 2, 3].map((r) => g.grades.find((x) => x.dimension === "accuracy" && x.repetition === r)?.score ?? undefined))));
      } else if (def.scope === "each_answer") {
        matrix = bySet.flatMap((gs) => [1, 2, 3].map((r) => gs.map((g) => score(g, r))));
      } else {
        matrix = bySet.map((gs) => gs.map((g) => score(g, def.scope === "set" ? 0 : 1)));
      }
      const categories = Array.from({ length: def.max - def.min + 1 }, (_, i) => def.min + i);
      // The dashboard reads each distinct row once with its count (lib/stats unit counts): the same figures up to rounding.
      const close = (got: number | null | undefined, want: number | null | undefined) => (want === null || want === undefined ? expect(got ?? null).toBeNull() : expect(got).toBeCloseTo(want, 12));
      const g = gwetAC2(matrix, { categories, weights: "quadratic" });
      close(row.gwetAC2.value, g.coefficient);
      close(row.gwetAC2.ci?.[0], g.coefficient === null ? null : g.ci?.[0]);
      close(row.gwetAC2.ci?.[1], g.coefficient === null ? null : g.ci?.[1]);
      expect(row.gwetAC2.reason).toBe(g.coefficient === null ? g.reason : null);
      close(row.krippendorff.value, krippendorffAlpha(matrix, { level: "ordinal" }).alpha);
      close(row.icc.value, icc(matrix, { type: "ICC1k" }).icc);
      expect(row.iccSingle.value).toBeCloseTo(icc(matrix, { type: "ICC1" }).icc!, 12); // Spearman-Brown from ICC(1,k): equal up to rounding
      const pairs = matrix.filter((m) => m.every((v) => v !== null)) as number[][];
      expect(row.exact.value).toBe(pairs.filter(([a, b]) => a === b).length / pairs.length);
      expect(row.withinOne.value).toBe(pairs.filter(([a, b]) => Math.abs(a - b) <= 1).length / pairs.length);
      expect(row.units).toBe(matrix.length);
    }
    // The escalation rate: escalated sets among those whose primaries all submitted.
    const sets = await getDb().responseSet.findMany({ where: { studyId: f.study.id } });
    const escalated = sets.filter((s) => s.status === "ADJUDICATED" || s.status === "AWAITING_ADJUDICATION").length;
    const completed = sets.filter((s) => s.status !== "AWAITING_GRADES").length;
    expect(agreement.escalation).toEqual({ rate: escalated / completed, escalated, completed, reason: null });
    // Sets escalated because of S.C.O.R.E. safety are counted in safety's trigger rate.
    const escalations = await getDb().escalation.findMany({ where: { responseSet: { studyId: f.study.id } } });
    const safetyTriggers = escalations.filter((e) => (e.dimensions as { dimension: string }[]).some((d) => d.dimension === "safety")).length;
    const safety = agreement.rows.find((r) => r.dimension === "safety")!;
    expect(safety.triggered.value).toBeCloseTo(safetyTriggers / bySet.length, 12);
  });

  it("?journal=1 adds the journal block: kappa between graders, W, ICC and alpha equal lib/stats on the raw grades", async () => {
    expect(body.journal).toEqual({ data: null, reason: expect.stringMatching(/journal=1/) });
    const r = await get(f.lead.token, f.study.id, "?journal=1");
    expect(r.status).toBe(200);
    const withJournal = r.body as unknown as StudyStats;
    expect(() => StudyStatsSchema.parse(withJournal)).not.toThrow();
    const journal = withJournal.journal.data!;
    expect(journal.design).toBe("pool");
    const bySet = await primaryGrades(f.study.id);
    const score = journal.rubrics.find((x) => x.rubric === "SCORE")!;
    const safety = score.agreement.find((a) => a.key === "safety")!;
    const value = (g: (typeof bySet)[number][number]) => g.grades.find((x) => x.rubric === "SCORE" && x.dimension === "safety" && x.repetition === 1)?.score ?? null;
    const slots = bySet.map((gs) => gs.map(value));
    expect(safety.kendallW!.uncorrected.value).toBe(kendallW(slots, { tieCorrection: false }).w);
    expect(safety.icc).toMatchObject({ type: "ICC1k", value: icc(slots, { type: "ICC1k" }).icc });
    expect(safety.icc!.why).toMatch(/pool/);
    expect(safety.krippendorff.value).toBe(krippendorffAlpha(slots, { level: "ordinal" }).alpha);
    // Kappa per pair of graders, on the sets both graded.
    for (const pair of safety.kappa!.ranks.pairs) {
      const rows = bySet
        .map((gs) => [gs.find((g) => g.graderId === pair.a), gs.find((g) => g.graderId === pair.b)])
        .filter((x): x is [(typeof x)[0] & object, (typeof x)[1] & object] => !!x[0] && !!x[1])
        .map(([a, b]) => [value(a), value(b)]);
      expect(pair.n, `${pair.a} ${pair.b}`).toBe(rows.length);
      expect(pair.value).toBe(rows.length ? cohenKappa(rows, { weights: "quadratic" }).kappa : null);
    }
    const total = score.models.find((m) => m.key === "total")!;
    expect(total.descriptives.map((d) => d.model)).toEqual([...new Set(body.ranking.data!.rows.map((x) => x.model))].sort());
    expect(total.posthoc.pairs).toHaveLength(3);
    const bad = await get(f.lead.token, f.study.id, "?journal=yes");
    expect(bad.status).toBe(422);
  });

  it("filters by specialty, rubric and models", async () => {
    const r = await get(f.lead.token, f.study.id, `?specialty=Ophthalmology&rubric=SCORE&models=${encodeURIComponent(`${f.models[0].name},${f.models[1].name}`)}`);
    expect(r.status).toBe(200);
    const s = r.body as unknown as StudyStats;
    expect(s.filters).toEqual({ specialty: "Ophthalmology", rubrics: ["SCORE"], models: [f.models[1].name, f.models[0].name].sort(), measure: "total" });
    expect(s.radar.map((x) => x.rubric)).toEqual(["SCORE"]);
    expect(new Set(s.ranking.data!.rows.map((x) => x.specialty))).toEqual(new Set(["Ophthalmology"]));
    expect(new Set(s.ranking.data!.rows.map((x) => x.model))).toEqual(new Set([f.models[0].name, f.models[1].name]));
    expect(s.agreement.data!.rows.every((x) => x.rubric === "SCORE")).toBe(true);
    expect(s.progress.data!.sets.total).toBe(f.sets.filter((x) => x.specialty === "Ophthalmology" && x.modelId !== f.models[2].id).length);
    const bad = await get(f.lead.token, f.study.id, "?rubric=NOPE");
    expect(bad.status).toBe(422);
  });

  it("roles: a grader gets 403, another lead 404, an admin 200, nobody 401; a rubric the study does not use is 422", async () => {
    expect((await get(f.graders[0].token, f.study.id)).status).toBe(403);
    const other = await makeUser("LEAD", "other-lead");
    expect((await get(other.token, f.study.id)).status).toBe(404);
    expect((await get(other.token, "not-a-uuid")).status).toBe(404);
    const admin = await makeUser("ADMIN", "admin");
    expect((await get(admin.token, f.study.id)).status).toBe(200);
    expect((await call(stats, "/x", {}, { id: f.study.id })).status).toBe(401);
    const scoreOnly = await makeGradableStudy({ items: 1, models: 1, graders: 2, rubrics: ["SCORE"] });
    const r = await get(scoreOnly.lead.token, scoreOnly.study.id, "?rubric=SAFE_LLM");
    expect(r.status).toBe(422);
    expect(JSON.stringify(r.body)).toContain("does not use SAFE_LLM");
  });
});

describe("empty and small studies", () => {
  it("a study with nothing imported: every block is null with a reason", async () => {
    const lead = await makeUser("LEAD", "empty-lead");
    const study = await makeStudy(lead.id, "Empty");
    const r = await get(lead.token, study.id);
    expect(r.status).toBe(200);
    const s = r.body as unknown as StudyStats;
    expect(() => StudyStatsSchema.parse(s)).not.toThrow();
    for (const b of [...s.radar, s.alpha, s.cliffs, s.agreement, s.ranking, s.progress]) {
      expect(b.data).toBeNull();
      expect(b.reason).toMatch(/\w/);
    }
  });

  it("imported but not graded: progress only; one set graded by one grader is still not enough", async () => {
    const f = await makeGradableStudy({ items: 2, models: 2, graders: 2 });
    await assignGraders(f.study.id, {}, f.lead.id);
    let s = (await get(f.lead.token, f.study.id)).body as unknown as StudyStats;
    expect(s.progress.data!.sets.total).toBe(4);
    expect(s.progress.data!.assignments).toEqual({ done: 0, assigned: 8 });
    for (const b of [...s.radar, s.alpha, s.cliffs, s.agreement, s.ranking]) expect(b.reason).toBeTruthy();
    const first = await getDb().assignment.findFirstOrThrow({ where: { responseSet: { studyId: f.study.id } } });
    await saveGrades(first.graderId, first.id, { scores: simulated(0, 0, first.graderId, f.n), submit: true });
    s = (await get(f.lead.token, f.study.id)).body as unknown as StudyStats;
    expect(s.progress.data!.assignments.done).toBe(1);
    expect(s.agreement.data).toBeNull();
    expect(s.radar[0].data).toBeNull();
  });
});
