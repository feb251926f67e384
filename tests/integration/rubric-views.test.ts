import { describe, expect, it } from "vitest";
import { PUT as putGrades } from "@/app/api/v1/assignments/[id]/grades/route";
import { POST as assign } from "@/app/api/v1/studies/[id]/assignments/route";
import { GET as stats } from "@/app/api/v1/studies/[id]/stats/route";
import { StudyStatsSchema } from "@/lib/analytics/contract";
import { getDb } from "@/lib/db/client";
import { resultPageQuerySchema } from "@/lib/escalation/list-params";
import { setDetail } from "@/lib/results/set-detail";
import { resultsTablePage } from "@/lib/results/table";
import type { RubricDocument } from "@/lib/rubrics/document";
import { bearer, call as callRoute } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";
import { makeGradableStudy, MODEL_NAMES } from "./helpers/study-fixture";

useIsolatedDatabase();

// Response bodies are read field by field below, each against a literal expectation.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = any;
const call = async <P,>(handler: (req: Request, ctx: { params: Promise<P> }) => Promise<Response>, url: string, init?: RequestInit, params?: P) =>
  (await callRoute(handler, url, init, params)) as { status: number; body: Body };
const json = (token: string, method: string, body: unknown) => bearer(token, { method, body: JSON.stringify(body), headers: { "content-type": "application/json" } });

const levels = (n: number) => Array.from({ length: n }, (_, i) => ({ value: i + 1, label: `Level ${i + 1}` }));

/** The oncology survey of issue 31: ordinal items on 1-3 and 1-5, two with N/A, a nominal "written by"; no total (a sum of these means nothing). */
const SURVEY: RubricDocument = {
  key: "oncology_survey",
  name: "Oncology reply survey",
  version: 1,
  dimensions: [
    { key: "acceptability", name: "Acceptability", scope: "each_answer", scale: { kind: "ordinal", levels: levels(3) } },
    { key: "likelihood", name: "Likelihood of harm", scope: "each_answer", scale: { kind: "ordinal", levels: levels(3) } },
    { key: "extent", name: "Extent of harm", scope: "each_answer", scale: { kind: "ordinal", levels: levels(5), allowNA: true } },
    { key: "efficiency", name: "Efficiency", scope: "each_answer", scale: { kind: "ordinal", levels: levels(3), allowNA: true } },
    { key: "written_by", name: "Written by", scope: "first_answer", scale: { kind: "nominal", levels: [{ value: "ai", label: "AI" }, { value: "human", label: "Human" }] } },
  ],
  totals: [],
};

/**
 * 4 questions x 2 models, N = 1, both graders on every set, agreeing on "written by" so every set is final.
 * Model 0 (Zeta): acceptability 3, likelihood 1, extent 2 (N/A on Q1), efficiency 2, written by AI.
 * Model 1 (Omega): acceptability 1 and 2 (final 1.5), likelihood 2, extent 3 and 4 (3.5), efficiency 2 (Q1: N/A and 3, final 3), written by a human.
 */
async function gradedSurvey() {
  const f = await makeGradableStudy({ rubrics: [SURVEY], items: 4, models: 2, n: 1, graders: 2 });
  const r = await call(assign, `/api/v1/studies/${f.study.id}/assignments`, json(f.lead.token, "POST", { seed: "views" }), { id: f.study.id });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const graderIds = f.graders.map((g) => g.id).sort();
  for (const a of await getDb().assignment.findMany({ where: { studyId: f.study.id } })) {
    const at = f.sets.findIndex((s) => s.id === a.responseSetId);
    const item = Math.floor(at / 2);
    const model = at % 2;
    const g = graderIds.indexOf(a.graderId);
    const cell = (dimension: string, score: number | string | null) => ({ rubric: SURVEY.key, dimension, repetition: 1, score, ...(score === null ? { na: true } : {}) });
    const scores =
      model === 0
        ? [cell("acceptability", 3), cell("likelihood", 1), cell("extent", item === 0 ? null : 2), cell("efficiency", 2), cell("written_by", "ai")]
        : [cell("acceptability", 1 + g), cell("likelihood", 2), cell("extent", 3 + g), cell("efficiency", item === 0 ? (g === 0 ? null : 3) : 2), cell("written_by", "human")];
    const token = f.graders.find((x) => x.id === a.graderId)!.token;
    const put = await call(putGrades, `/api/v1/assignments/${a.id}/grades`, json(token, "PUT", { scores, submit: true }), { id: a.id });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
  }
  return f;
}

const [ZETA, OMEGA] = MODEL_NAMES;
const ALL = "All specialties";

describe("a study whose rubric has no total, on every lead view", () => {
  it("the dashboard compares models per dimension: Cliff's delta, ranking and radar with n counting what they plot", async () => {
    const f = await gradedSurvey();
    const get = (query = "") => call(stats, `/api/v1/studies/${f.study.id}/stats${query}`, bearer(f.lead.token), { id: f.study.id });
    const r = await get();
    expect(r.status).toBe(200);
    StudyStatsSchema.parse(r.body);
    expect(r.body.scope.finalSets).toBe(8);
    expect(r.body.filters.measure).toBe("total");
    // No total: each ordinal dimension, its scale from the document; the nominal item is not an order to compare on.
    expect(r.body.measures).toEqual([
      { rubric: SURVEY.key, key: "acceptability", kind: "dimension", label: "Acceptability", min: 1, max: 3 },
      { rubric: SURVEY.key, key: "likelihood", kind: "dimension", label: "Likelihood of harm", min: 1, max: 3 },
      { rubric: SURVEY.key, key: "extent", kind: "dimension", label: "Extent of harm", min: 1, max: 5 },
      { rubric: SURVEY.key, key: "efficiency", kind: "dimension", label: "Efficiency", min: 1, max: 3 },
    ]);

    const cell = (measure: string, row = ZETA, col = OMEGA) => r.body.cliffs.data.cells.find((c: Body) => c.specialty === ALL && c.measure === measure && c.rowModel === row && c.colModel === col);
    expect(cell("acceptability")).toMatchObject({ measureKind: "dimension", label: "Acceptability", delta: 1, magnitude: "large", n: 4, m: 4 });
    expect(cell("acceptability", OMEGA, ZETA)).toMatchObject({ delta: -1, n: 4, m: 4 });
    expect(cell("likelihood")).toMatchObject({ delta: -1, n: 4, m: 4 });
    // N/A is left out of n: Zeta's Q1 extent of harm was not applicable.
    expect(cell("extent")).toMatchObject({ delta: -1, n: 3, m: 4 });
    // Omega's Q1 efficiency: N/A and 3, final 3; 4 of 16 pairs lower, the rest tied.
    expect(cell("efficiency")).toMatchObject({ delta: -0.25, magnitude: "small", n: 4, m: 4 });
    expect(r.body.cliffs.data.cells.every((c: Body) => c.ci !== null)).toBe(true);

    const rank = (measure: string) => r.body.ranking.data.rows.filter((x: Body) => x.specialty === ALL && x.measure === measure).map((x: Body) => [x.model, x.rank, x.n, x.mean, x.min, x.max]);
    expect(rank("acceptability")).toEqual([
      [ZETA, 1, 4, 3, 1, 3],
      [OMEGA, 2, 4, 1.5, 1, 3],
    ]);
    expect(rank("extent")).toEqual([
      [OMEGA, 1, 4, 3.5, 1, 5],
      [ZETA, 2, 3, 2, 1, 5],
    ]);

    // The radar: mixed scales, each mean placed on its own (centre = the scale's minimum); n = sets it plots.
    const radar = r.body.radar[0].data;
    expect(radar).toMatchObject({ scale: "fraction", domainMin: 0, domainMax: 1 });
    expect(radar.axes.map((a: Body) => [a.dimension, a.min, a.max])).toEqual([
      ["acceptability", 1, 3],
      ["likelihood", 1, 3],
      ["extent", 1, 5],
      ["efficiency", 1, 3],
    ]);
    const zeta = radar.series.find((s: Body) => s.model === ZETA);
    expect(zeta.n).toBe(4);
    expect(zeta.points.map((p: Body) => p.value)).toEqual([1, 0, 0.25, 0.5]);
    expect(JSON.stringify(r.body)).not.toMatch(/S\.C\.O\.R\.E\.|SAFE-LLM/);
  });

  it("the lead chooses one dimension (?measure=); a nominal or unknown one is a 422 naming the choices", async () => {
    const f = await gradedSurvey();
    const get = (query: string) => call(stats, `/api/v1/studies/${f.study.id}/stats${query}`, bearer(f.lead.token), { id: f.study.id });
    const one = await get("?measure=extent");
    expect(one.status).toBe(200);
    expect(one.body.filters.measure).toBe("extent");
    expect(one.body.measures.map((m: Body) => m.key)).toEqual(["extent"]);
    expect(new Set(one.body.cliffs.data.cells.map((c: Body) => c.measure))).toEqual(new Set(["extent"]));
    expect(new Set(one.body.ranking.data.rows.map((c: Body) => c.measure))).toEqual(new Set(["extent"]));
    for (const bad of ["written_by", "nope", "Bad-Key"]) {
      const r = await get(`?measure=${bad}`);
      expect(r.status, bad).toBe(422);
      expect(r.body.details[0].path).toBe("measure");
    }
    expect((await get("?measure=written_by")).body.details[0].message).toContain("acceptability, likelihood, extent, efficiency");
  });

  it("the set detail gives the final value of each answer; Results sorts and filters on a dimension's final value", async () => {
    const f = await gradedSurvey();
    const omegaQ1 = (await setDetail(f.study.id, f.sets[1].id))!;
    expect(omegaQ1.finalScores![SURVEY.key]).toMatchObject({ acceptability: 1.5, efficiency: 3, written_by: "human" });
    expect(omegaQ1.finalPerAnswer![SURVEY.key]).toEqual({ acceptability: [1.5], likelihood: [2], extent: [3.5], efficiency: [3] });
    const zetaQ1 = (await setDetail(f.study.id, f.sets[0].id))!;
    expect(zetaQ1.finalPerAnswer![SURVEY.key].extent).toEqual(["N/A"]);

    const page = (q: Record<string, string>) => resultsTablePage(f.study.id, resultPageQuerySchema.parse(q));
    const byAcceptability = await page({ sort: "-d.oncology_survey.acceptability" });
    expect(byAcceptability.rows.map((x) => x.model.name)).toEqual([ZETA, ZETA, ZETA, ZETA, OMEGA, OMEGA, OMEGA, OMEGA]);
    const human = await page({ final: "oncology_survey.written_by=human" });
    expect(human.total).toBe(4);
    expect(human.rows.every((x) => x.model.name === OMEGA)).toBe(true);
    const na = await page({ final: "oncology_survey.extent=na", sort: "d.oncology_survey.extent" });
    expect(na.rows.map((x) => x.id)).toEqual([f.sets[0].id]);
    expect(resultPageQuerySchema.safeParse({ sort: "d.oncology survey" }).success).toBe(false);
  });
});
