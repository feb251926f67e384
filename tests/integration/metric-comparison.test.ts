/**
 * Reference metrics beside the experts' final scores (issue #33, item 2) through the API, on a
 * study with its own instrument: one answer per question, an ordinal dimension with N/A, a
 * nominal one, a second ordinal one, no total. The metrics are written by hand (UPDATE) so every
 * expected value below is worked from the plan; the correlations were checked in R:
 *   ci <- function(r, n) tanh(atanh(r) + c(-1, 1) * qnorm(.975) * sqrt((1 + r^2/2) / (n - 3)))
 */
import { describe, expect, it } from "vitest";
import { PUT as putGrades } from "@/app/api/v1/assignments/[id]/grades/route";
import { POST as assign } from "@/app/api/v1/studies/[id]/assignments/route";
import { GET as comparison } from "@/app/api/v1/studies/[id]/reference-metrics/comparison/route";
import { MetricComparisonSchema } from "@/lib/metric-comparison/contract";
import { getDb, getPool } from "@/lib/db/client";
import type { RubricDocument } from "@/lib/rubrics/document";
import { bearer, call as callRoute, makeUser } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";
import { makeGradableStudy, MODEL_NAMES } from "./helpers/study-fixture";

useIsolatedDatabase();

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = any;
const call = async <P,>(handler: (req: Request, ctx: { params: Promise<P> }) => Promise<Response>, url: string, init?: RequestInit, params?: P) =>
  (await callRoute(handler, url, init, params)) as { status: number; body: Body };
const json = (token: string, method: string, body: unknown) => bearer(token, { method, body: JSON.stringify(body), headers: { "content-type": "application/json" } });

const never = { rule: "never" as const };
const PANEL: RubricDocument = {
  key: "panel_custom",
  name: "Panel review",
  version: 1,
  dimensions: [
    { key: "accuracy", name: "Accuracy", scope: "first_answer", scale: { kind: "ordinal", allowNA: true, levels: [1, 2, 3, 4, 5].map((value) => ({ value, label: String(value) })) }, escalation: never },
    { key: "tone", name: "Tone", scope: "first_answer", scale: { kind: "nominal", levels: ["warm", "neutral", "cold"].map((value) => ({ value, label: value })) }, escalation: never },
    { key: "clarity", name: "Clarity", scope: "first_answer", scale: { kind: "ordinal", levels: [1, 2, 3].map((value) => ({ value, label: String(value) })) }, escalation: never },
  ],
  totals: [],
};
const ZETA = MODEL_NAMES[0];
const OMEGA = MODEL_NAMES[1];

/**
 * 6 questions (Q1, Q3, Q5 Ophthalmology; Q2, Q4, Q6 Anesthesia) x 2 models, N = 1, both graders give
 * the same scores. Zeta: accuracy 1-5 on Q1-Q5, N/A on Q6; clarity 2 everywhere; BLEU = i/10.
 * Omega: accuracy 1-5 on Q1-Q5, 3 on Q6; clarity 3,3,2,1,1,2; BLEU 0.6 down to 0.2, Q6 no metric.
 * ROUGE-1 = BLEU + 0.2, ROUGE-L = BLEU + 0.1. BLEU's statistics: every answer a perfect 4-word
 * match, except Omega's Q3 (4 words against a reference of 8).
 */
const accuracy = (model: number, q: number): number | null => (model === 0 ? (q === 6 ? null : q) : q === 6 ? 3 : q);
const clarity = (model: number, q: number) => (model === 0 ? 2 : [3, 3, 2, 1, 1, 2][q - 1]);
const bleu = (model: number, q: number) => (model === 0 ? q / 10 : q === 6 ? null : (7 - q) / 10);

async function seeded() {
  const f = await makeGradableStudy({ rubrics: [PANEL], items: 6, models: 2, n: 1, graders: 2, specialties: ["Ophthalmology", "Anesthesia"] });
  const r = await call(assign, `/api/v1/studies/${f.study.id}/assignments`, json(f.lead.token, "POST", { seed: "metrics" }), { id: f.study.id });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  for (const [at, s] of f.sets.entries()) {
    const q = Math.floor(at / 2) + 1;
    const m = at % 2;
    const b = bleu(m, q);
    const stats = b === null ? [] : m === 1 && q === 3 ? [4, 8, 4, 3, 2, 1, 4, 3, 2, 1] : [4, 4, 4, 3, 2, 1, 4, 3, 2, 1];
    await getPool().query(`UPDATE "Response" SET bleu = $2, rouge1 = $3, "rougeL" = $4, "bleuStats" = $5::int[] WHERE "responseSetId" = $1::uuid`, [
      s.id,
      b,
      b === null ? null : b + 0.2,
      b === null ? null : b + 0.1,
      stats,
    ]);
  }
  for (const a of await getDb().assignment.findMany({ where: { studyId: f.study.id } })) {
    const at = f.sets.findIndex((s) => s.id === a.responseSetId);
    const q = Math.floor(at / 2) + 1;
    const m = at % 2;
    const acc = accuracy(m, q);
    const scores = [
      { rubric: PANEL.key, dimension: "accuracy", repetition: 1, score: acc, ...(acc === null ? { na: true } : {}) },
      { rubric: PANEL.key, dimension: "tone", repetition: 1, score: m === 0 ? "warm" : "cold" },
      { rubric: PANEL.key, dimension: "clarity", repetition: 1, score: clarity(m, q) },
    ];
    const token = f.graders.find((x) => x.id === a.graderId)!.token;
    const put = await call(putGrades, `/api/v1/assignments/${a.id}/grades`, json(token, "PUT", { scores, submit: true }), { id: a.id });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
  }
  return f;
}

const get = (studyId: string, token: string, query = "") => call(comparison, `/api/v1/studies/${studyId}/reference-metrics/comparison${query}`, bearer(token), { id: studyId });
const ACC = "panel_custom:dimension:accuracy";
const CLARITY = "panel_custom:dimension:clarity";

describe("GET /api/v1/studies/{id}/reference-metrics/comparison", () => {
  it("gives the heatmap, corpus BLEU, the correlations and the disagreements, worked by hand", async () => {
    const f = await seeded();
    const r = await get(f.study.id, f.lead.token);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const body = MetricComparisonSchema.parse(r.body);
    expect(body.metrics.map((m) => m.key)).toEqual(["bleu", "rouge1", "rougeL"]);
    expect(body.answers).toBe(11);
    expect(body.finalSets).toBe(11);
    expect(body.judgedSets).toBe(0);
    // No total row: the rubric has none; the nominal item is listed as skipped.
    expect(body.measures.map((m) => m.id)).toEqual([ACC, CLARITY]);
    expect(body.skipped).toEqual([{ rubric: PANEL.key, key: "tone", label: "Tone", kind: "nominal" }]);

    const cell = (model: string | null, specialty: string | null, metric: string) => body.heatmap.find((c) => c.model === model && c.specialty === specialty && c.metric === metric)!;
    expect(cell(ZETA, "Ophthalmology", "bleu").mean).toBeCloseTo(0.3, 12);
    expect(cell(ZETA, "Ophthalmology", "bleu").n).toBe(3);
    expect(cell(OMEGA, "Anesthesia", "bleu")).toMatchObject({ n: 2 });
    expect(cell(OMEGA, "Anesthesia", "bleu").mean).toBeCloseTo(0.4, 12);
    expect(cell(ZETA, null, "rougeL").mean).toBeCloseTo(0.45, 12);
    expect(cell(null, "Anesthesia", "bleu").mean).toBeCloseTo(0.4, 12);
    expect(cell(null, "Anesthesia", "rouge1").mean).toBeCloseTo(0.6, 12);
    expect(cell(null, null, "bleu").n).toBe(11);

    const corpus = (model: string | null, specialty: string | null) => body.corpusBleu.find((c) => c.model === model && c.specialty === specialty)!;
    expect(corpus(ZETA, null).value).toBeCloseTo(1, 12);
    // Omega: 20 words against 24 of reference, every n-gram matched: the brevity penalty exp(1 - 24/20).
    expect(corpus(OMEGA, null)).toMatchObject({ n: 5 });
    expect(corpus(OMEGA, null).value).toBeCloseTo(Math.exp(-0.2), 12);
    expect(corpus(OMEGA, "Ophthalmology").value).toBeCloseTo(Math.exp(1 - 16 / 12), 12);

    const row = (model: string | null, specialty: string | null, metric: string, measure: string) =>
      body.correlation.rows.find((c) => c.model === model && c.specialty === specialty && c.metric === metric && c.measure === measure)!;
    expect(body.correlation.method).toMatch(/Bonett-Wright/);
    // Zeta: BLEU rises with accuracy on Q1-Q5 (Q6 is N/A: left out).
    expect(row(ZETA, null, "bleu", ACC)).toMatchObject({ rho: 1, n: 5, reason: null });
    expect(row(ZETA, null, "bleu", ACC).ci![0]).toBeCloseTo(1, 9);
    expect(row(OMEGA, null, "bleu", ACC)).toMatchObject({ rho: -1, n: 5 });
    // Zeta's clarity is 2 everywhere (Q6 counts: only its accuracy is N/A): no rank correlation.
    expect(row(ZETA, null, "bleu", CLARITY)).toMatchObject({ rho: null, ci: null, n: 6 });
    expect(row(ZETA, null, "bleu", CLARITY).reason).toMatch(/constant/);
    // R: cor(c(.6,.5,.4,.3,.2), c(3,3,2,1,1), method = "spearman") = 0.9486833; ci(., 5) = [0.1484912, 0.9981311].
    const omegaClarity = row(OMEGA, null, "bleu", CLARITY);
    expect(omegaClarity.n).toBe(5);
    expect(omegaClarity.rho!).toBeCloseTo(0.94868329805051377, 12);
    expect(omegaClarity.ci![0]).toBeCloseTo(0.14849119886649101, 12);
    expect(omegaClarity.ci![1]).toBeCloseTo(0.99813105101251132, 12);
    // Three pairs: rho, no interval.
    expect(row(ZETA, "Ophthalmology", "bleu", ACC)).toMatchObject({ rho: 1, n: 3, ci: null });
    expect(row(ZETA, "Ophthalmology", "bleu", ACC).reason).toMatch(/four/);
    // Both models, Ophthalmology: the two opposite trends cancel. R: rho 0, ci(0, 6) = +-0.8115613.
    const oph = row(null, "Ophthalmology", "bleu", ACC);
    expect(oph.n).toBe(6);
    expect(oph.rho!).toBeCloseTo(0, 12);
    expect(oph.ci![1]).toBeCloseTo(0.81156127850925153, 12);
    // Everything: 10 pairs, rho 0, ci(0, 10) = +-tanh(1.96 / sqrt(7)) = +-0.6296263.
    expect(row(null, null, "bleu", ACC).n).toBe(10);
    expect(row(null, null, "bleu", ACC).ci![0]).toBeCloseTo(-0.62962630038832934, 12);
    // ROUGE is BLEU shifted: the same ranks.
    expect(row(OMEGA, null, "rougeL", CLARITY).rho!).toBeCloseTo(0.94868329805051377, 12);

    // Disagreements on accuracy (the default without a total), ranked over the 10 final sets with both.
    expect(body.disagreements.measure).toBe(ACC);
    const bleuCases = body.disagreements.cases.filter((c) => c.metric === "bleu");
    const top = bleuCases.find((c) => c.direction === "metric_high")!;
    // Omega's Q1: the highest BLEU (0.6), the lowest accuracy (1, tied with Zeta's Q1: rank 1.5 of 10).
    expect(top).toMatchObject({ externalId: "Q1", model: OMEGA, specialty: "Ophthalmology", metricValue: 0.6, expertValue: 1, metricRank: 1 });
    expect(top.expertRank).toBeCloseTo(0.5 / 9, 12);
    const low = bleuCases.find((c) => c.direction === "expert_high")!;
    expect(low).toMatchObject({ externalId: "Q5", model: OMEGA, expertValue: 5 });
    expect(low.metricRank).toBeCloseTo(1.5 / 9, 12);
    expect(low.expertRank).toBeCloseTo(8.5 / 9, 12);
    expect(low.setId).toBe(f.sets[9].id);
    expect(bleuCases.filter((c) => c.direction === "metric_high").length).toBeLessThanOrEqual(5);

    // Another measure for the disagreements.
    const byClarity = await get(f.study.id, f.lead.token, `?measure=${encodeURIComponent(CLARITY)}`);
    expect(byClarity.status).toBe(200);
    expect(byClarity.body.disagreements.measure).toBe(CLARITY);
  });

  it("is for the study's leads: graders 403, another lead 404, a bad measure 422", async () => {
    const f = await makeGradableStudy({ rubrics: [PANEL], items: 1, models: 1, n: 1, graders: 1 });
    expect((await get(f.study.id, f.graders[0].token)).status).toBe(403);
    const other = await makeUser("LEAD", "other-lead");
    expect((await get(f.study.id, other.token)).status).toBe(404);
    const admin = await makeUser("ADMIN", "admin");
    const asAdmin = await get(f.study.id, admin.token);
    expect(asAdmin.status).toBe(200);
    // Nothing graded, no metric: empty blocks, never a 500.
    expect(asAdmin.body).toMatchObject({ answers: 0, finalSets: 0, heatmap: [], corpusBleu: [], disagreements: { measure: ACC, cases: [] } });
    expect(asAdmin.body.correlation.rows).toEqual([]);
    const unknown = await get(f.study.id, f.lead.token, "?measure=panel_custom:total:total");
    expect(unknown.status).toBe(422);
    expect(JSON.stringify(unknown.body)).toMatch(/not an ordinal dimension or total of this study's rubrics.*panel_custom:dimension:accuracy/);
    const nominal = await get(f.study.id, f.lead.token, "?measure=panel_custom:dimension:tone");
    expect(nominal.status).toBe(422);
    const garbage = await get(f.study.id, f.lead.token, "?measure=%00%27;DROP");
    expect(garbage.status).toBe(422);
    expect(JSON.stringify(garbage.body)).toMatch(/measure/);
  });
});
