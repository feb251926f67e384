/**
 * The `pairwise` block of GET /api/v1/studies/{id}/stats on a pairwise study graded through the
 * real services (plan, deal, submit, escalation) by simulated graders whose preferences follow
 * Davidson's model with known strengths; and a scoring study's table derived from final scores.
 */
import { describe, expect, it } from "vitest";
import { POST as postSubmit } from "@/app/api/v1/comparison-assignments/[id]/submit/route";
import { POST as dealRoute } from "@/app/api/v1/studies/[id]/comparison-assignments/route";
import { POST as planPost } from "@/app/api/v1/studies/[id]/comparisons/route";
import { GET as stats } from "@/app/api/v1/studies/[id]/stats/route";
import { StudyStatsSchema } from "@/lib/analytics/contract";
import type { PairwiseAxisBlock, PairwiseBlock } from "@/lib/analytics/pairwise-contract";
import { getDb } from "@/lib/db/client";
import { setGraderExclusion } from "@/lib/grader-quality/service";
import { mulberry32 } from "@/lib/stats";
import { DERIVED_ON_REQUEST } from "@/lib/analytics/pairwise";
import { PAIRWISE_JUDGES, PAIRWISE_NO_SCORES } from "@/lib/analytics/study-stats";
import { bearer, call, makeStudy, makeUser } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";
import { makePairwiseStudy } from "./helpers/pairwise-fixture";
import { MODEL_NAMES } from "./helpers/study-fixture";

useIsolatedDatabase();

const json = (token: string, method: string, body: unknown) => bearer(token, { method, body: JSON.stringify(body) });
/** True centred log-strengths of the three models, and Davidson's tie parameter. */
const TRUTH = [1, 0, -1];
const NU = 0.6;

/** Draws a Davidson outcome for left model l against right model r. */
function draw(rng: () => number, l: number, r: number): "a" | "b" | "tie" {
  const pl = Math.exp(TRUTH[l]);
  const pr = Math.exp(TRUTH[r]);
  const tie = NU * Math.sqrt(pl * pr);
  const u = rng() * (pl + pr + tie);
  return u < pl ? "a" : u < pl + tie ? "tie" : "b";
}

async function gradedStudy() {
  const f = await makePairwiseStudy({ rubrics: ["overall_preference"], items: 90, models: 3, n: 1, graders: 3, k: 3 });
  expect((await call(planPost, "/x", json(f.lead.token, "POST", { design: { kind: "all_pairs" }, seed: "bt" }), { id: f.study.id })).status).toBe(200);
  expect((await call(dealRoute, "/x", json(f.lead.token, "POST", {}), { id: f.study.id })).status).toBe(200);
  // Answers of different lengths, unrelated to the models' strengths, so length bias is measured; drawn from
  // the question and the model, not from random ids, so every run measures the same lengths.
  await getDb().$executeRaw`UPDATE "Response" r SET text = r.text || repeat('.', (abs(hashtext(q.question || m.name)) % 50) + 1)
    FROM "ResponseSet" s JOIN "QaItem" q ON q.id = s."itemId" JOIN "LlmModel" m ON m.id = s."modelId"
    WHERE s.id = r."responseSetId" AND s."studyId" = ${f.study.id}::uuid`;
  const modelIndex = new Map(f.models.map((m, i) => [m.id, i]));
  const comparisons = await getDb().comparison.findMany({ where: { studyId: f.study.id }, include: { leftSet: true, rightSet: true } });
  const sides = new Map(comparisons.map((c) => [c.id, [modelIndex.get(c.leftSet.modelId)!, modelIndex.get(c.rightSet.modelId)!]]));
  const items = new Map(f.items.map((it, i) => [it.id, i]));
  const itemOf = new Map(comparisons.map((c) => [c.id, items.get(c.itemId)!]));
  const leftist = f.graders[2];
  // Primaries first, then whatever adjudications their disagreements dealt, until nothing is left.
  for (let round = 0; round < 5; round++) {
    const open = await getDb().comparisonAssignment.findMany({ where: { studyId: f.study.id, status: { in: ["PENDING", "IN_PROGRESS"] } }, orderBy: [{ kind: "asc" }, { position: "asc" }] });
    if (open.length === 0) break;
    for (const a of open) {
      const g = f.graders.find((x) => x.id === a.graderId)!;
      const [l, r] = sides.get(a.comparisonId)!;
      // Seeded by question, models and grader, and drawn with the weaker-indexed model first, then put on the
      // sides: every grader grades every comparison (k = 3 of 3), so the outcomes between models are the
      // same in every run whichever model the plan put on the left. Only the bootstrap's resamples still
      // move the CI's ends (by about 0.02); with this seed the truths sit at least 0.15 inside them (ten
      // seeds tried: the fitted strengths spread with an SD of about 0.12 around the truth, as the CIs say).
      const [lo, hi] = l < r ? [l, r] : [r, l];
      const rng = mulberry32(40_000_000 + itemOf.get(a.comparisonId)! * 100 + lo * 10 + hi + f.graders.indexOf(g) * 10_000);
      rng();
      const outcome = draw(rng, lo, hi);
      const choice = g.id === leftist.id ? "a" : outcome === "tie" ? "tie" : (outcome === "a") === (l === lo) ? "a" : "b";
      const res = await call(postSubmit, "/x", json(g.token, "POST", { preferences: [{ rubric: "overall_preference", axis: "overall", choice }], elapsedMs: 1000 }), { id: a.id });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
  }
  return { f, leftist };
}

const pairwiseOf = async (token: string, id: string, query = "") => {
  const res = await call(stats, `/x${query}`, bearer(token), { id });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(() => StudyStatsSchema.parse(res.body)).not.toThrow();
  const block = res.body.pairwise as { data: PairwiseBlock | null; reason: string | null };
  expect(block.reason).toBeNull();
  return block.data!;
};

describe("pairwise statistics of a pairwise study", () => {
  it("detects a grader who always picks left; without them the fitted order is right and the bootstrap CIs cover the truth", async () => {
    const { f, leftist } = await gradedStudy();
    const all = await pairwiseOf(f.lead.token, f.study.id);
    expect(all.source).toBe("preferences");
    expect(all.models).toEqual([MODEL_NAMES[0], MODEL_NAMES[1], MODEL_NAMES[2]].sort());
    const axis = all.axes[0];
    expect(all.axes).toHaveLength(1);
    expect(axis.axis).toBe("overall");
    // Every grader's own preference is an observation: the count equals the submitted preferences.
    const submitted = await getDb().preference.count({ where: { assignment: { studyId: f.study.id, status: "SUBMITTED" } } });
    expect(axis.n).toBe(submitted);
    expect(axis.positionBias.pValue!).toBeLessThan(0.001);
    expect(axis.positionBias.share!).toBeGreaterThan(0.6);
    const leftistCount = await getDb().preference.count({ where: { assignment: { studyId: f.study.id, graderId: leftist.id, status: "SUBMITTED" } } });
    expect(leftistCount).toBeGreaterThan(30);

    await setGraderExclusion({ id: f.lead.id, role: "LEAD" } as never, f.study.id, leftist.id, { reason: "always picks the left answer" });
    const honest = await pairwiseOf(f.lead.token, f.study.id);
    const h = honest.axes[0];
    expect(h.n).toBe(submitted - leftistCount);
    // The honest graders' draws ignore the side, but which model sits left follows the study's random ids, so
    // their p-value is uniform from run to run: at 0.05 this failed one run in twenty (seen in CI); at 0.001,
    // one in a thousand, while the always-left grader's p-value above is far below it.
    expect(h.positionBias.pValue!).toBeGreaterThan(0.001);
    expect(h.strengths.model).toBe("davidson");
    expect(h.strengths.nu!).toBeGreaterThan(0);
    expect(h.strengths.replicates).toBe(1000);
    const byName = (m: string) => h.strengths.rows.find((r) => r.model === m)!;
    const truth = new Map(f.models.map((m, i) => [m.name, TRUTH[i]]));
    // The fitted order follows the truth.
    const fitted = [...h.strengths.rows].sort((x, y) => y.logStrength! - x.logStrength!).map((r) => r.model);
    expect(fitted).toEqual([MODEL_NAMES[0], MODEL_NAMES[1], MODEL_NAMES[2]]);
    for (const [model, t] of truth) {
      const row = byName(model);
      expect(row.ci![0], model).toBeLessThan(t);
      expect(row.ci![1], model).toBeGreaterThan(t);
      expect(row.se!).toBeGreaterThan(0);
    }
    expect(h.strengths.rows.reduce((s, r) => s + r.logStrength!, 0)).toBeCloseTo(0, 9);
    expect(byName(MODEL_NAMES[0]).probabilityBest!).toBeGreaterThan(0.9);
    // The predicted matrix: the strongest beats the weakest more often than not.
    const idx = (m: string) => honest.models.indexOf(m);
    expect(h.strengths.winProbability![idx(MODEL_NAMES[0])][idx(MODEL_NAMES[2])]!).toBeGreaterThan(0.6);
    // Per pair: counts add up, the win rate is wins / n with a Wilson interval around it.
    checkPairs(h);
    expect(h.agreement!.comparisons).toBeGreaterThan(0);
    expect(h.agreement!.percent!).toBeGreaterThan(0);
    expect(h.lengthBias.n).toBeGreaterThan(100);
    expect(h.lengthBias.pValue!).toBeGreaterThan(0.01);
    expect(h.pairs.reduce((s, p) => s + p.lengthBias.n, 0)).toBe(h.lengthBias.n);

    // One specialty's questions: only their comparisons' preferences, still without the excluded grader.
    const cardiology = await getDb().specialty.upsert({ where: { name: "Cardiology" }, create: { name: "Cardiology" }, update: {} });
    const moved = f.items.slice(0, 30).map((it) => it.id);
    await getDb().qaItem.updateMany({ where: { id: { in: moved } }, data: { specialtyId: cardiology.id } });
    const inCardiology = await getDb().preference.count({
      where: { assignment: { studyId: f.study.id, status: "SUBMITTED", graderId: { not: leftist.id }, comparison: { itemId: { in: moved } } } },
    });
    expect(inCardiology).toBeGreaterThan(0);
    const cardio = (await pairwiseOf(f.lead.token, f.study.id, "?specialty=Cardiology")).axes[0];
    expect(cardio.n).toBe(inCardiology);
    expect(cardio.pairs.reduce((s, p) => s + p.n, 0)).toBe(inCardiology);
  });

  it("refuses graders (403) and other leads (404); a study with no preferences says why", async () => {
    const f = await makePairwiseStudy({ rubrics: ["overall_preference"], items: 2, models: 2, n: 1 });
    expect((await call(stats, "/x", bearer(f.graders[0].token), { id: f.study.id })).status).toBe(403);
    const other = await makeUser("LEAD", "other");
    expect((await call(stats, "/x", bearer(other.token), { id: f.study.id })).status).toBe(404);
    const res = await call(stats, "/x", bearer(f.lead.token), { id: f.study.id });
    expect(res.status).toBe(200);
    expect(res.body.pairwise).toEqual({ data: null, reason: "no submitted preference yet" });
    // Its scoring blocks say why they are empty: graders give preferences, so no response set is ever scored.
    const body = StudyStatsSchema.parse(res.body);
    for (const b of ["alpha", "cliffs", "agreement", "ranking", "journal"] as const) expect(body[b], b).toEqual({ data: null, reason: PAIRWISE_NO_SCORES });
    expect(body.radar.length).toBeGreaterThan(0);
    for (const r of body.radar) expect(r).toMatchObject({ data: null, reason: PAIRWISE_NO_SCORES });
    expect(body.progress.data).toBeNull();
    expect(body.progress.reason).toContain("comparisons");
    expect(body.judges).toEqual({ data: null, reason: PAIRWISE_JUDGES });
  });
});

describe("a scoring study's derived preferences", () => {
  it("are computed only on request (?pairwise=1), and say why when there is nothing to derive", async () => {
    const lead = await makeUser("LEAD", "scorer");
    const study = await makeStudy(lead.id);
    const plain = await call(stats, "/x", bearer(lead.token), { id: study.id });
    expect(plain.status).toBe(200);
    expect(plain.body.pairwise).toEqual({ data: null, reason: DERIVED_ON_REQUEST });
    const asked = await call(stats, "/x?pairwise=1", bearer(lead.token), { id: study.id });
    expect(asked.status).toBe(200);
    expect(() => StudyStatsSchema.parse(asked.body)).not.toThrow();
    expect((asked.body.pairwise as { reason: string }).reason).toBe("preferences are derived from final scores of two or more models");
    expect((await call(stats, "/x?pairwise=maybe", bearer(lead.token), { id: study.id })).status).toBe(422);
  });
});

function checkPairs(axis: PairwiseAxisBlock) {
  expect(axis.pairs).toHaveLength(3);
  for (const p of axis.pairs) {
    expect(p.wins + p.ties + p.losses).toBe(p.n);
    expect(p.winRate.estimate).toBeCloseTo(p.wins / p.n, 12);
    expect(p.winRate.ci![0]).toBeLessThan(p.winRate.estimate!);
    expect(p.winRate.ci![1]).toBeGreaterThan(p.winRate.estimate!);
    if (p.losses > 0) expect(p.relativePreference).toBeCloseTo(p.wins / p.losses - 1, 12);
  }
  expect(axis.pairs.reduce((s, p) => s + p.n, 0)).toBe(axis.n);
}
