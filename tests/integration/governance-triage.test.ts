import { describe, expect, it } from "vitest";
import { PUT as putGrades } from "@/app/api/v1/assignments/[id]/grades/route";
import { POST as assign } from "@/app/api/v1/studies/[id]/assignments/route";
import { GET as getTriage, PUT as putRule } from "@/app/api/v1/studies/[id]/triage/route";
import { PUT as putDecision } from "@/app/api/v1/studies/[id]/triage/[setId]/route";
import { GET as exportRoute } from "@/app/api/v1/studies/[id]/export/route";
import { TriageReportSchema } from "@/lib/governance/contract";
import { getDb } from "@/lib/db/client";
import type { RubricDocument } from "@/lib/rubrics/document";
import { bearer, call as callRoute } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";
import { makeGradableStudy, MODEL_NAMES } from "./helpers/study-fixture";

useIsolatedDatabase();

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = any;
const call = async <P,>(handler: (req: Request, ctx: { params: Promise<P> }) => Promise<Response>, url: string, init?: RequestInit, params?: P) =>
  (await callRoute(handler, url, init, params)) as { status: number; body: Body };
const json = (token: string, method: string, body: unknown) => bearer(token, { method, body: JSON.stringify(body), headers: { "content-type": "application/json" } });

const likert = { kind: "ordinal" as const, levels: [1, 2, 3, 4, 5].map((value) => ({ value, label: String(value) })) };
/** A study's own instrument with N = 3: accuracy on each answer, and one judgment of the answers' agreement. Nothing escalates. */
const STABILITY: RubricDocument = {
  key: "stability_panel",
  name: "Stability panel",
  version: 1,
  dimensions: [
    { key: "accuracy", name: "Accuracy", scope: "each_answer", scale: likert, escalation: { rule: "never" } },
    { key: "agreement", name: "Same advice in every answer", scope: "set", scale: likert, escalation: { rule: "never" } },
  ],
  totals: [],
};

/**
 * 3 questions x 2 models, N = 3, two graders on every set. Per set (question, model): each grader's accuracy
 * on answers 1-3, their agreement judgment and whether they flagged the answers as contradicting each other,
 * with the triage worked by hand (default rule: accept <= 0.25, review <= 0.5, reject above, one point on 1-5
 * being 0.25; one contradiction flag reviews, two reject; the worse of the two verdicts):
 *   Q1 Zeta  [4,4,5] [4,4,5] 5 5  spread 1 -> 0.25 accept;            flags 1 -> review   review
 *   Q1 Omega [3,5,4] [3,5,4] 5 5  spread 2 -> 0.5 review;             flags 0            review
 *   Q2 Zeta  [2,5,4] [2,5,4] 5 5  spread 3 -> 0.75 reject;            flags 1 -> review   reject (never softened)
 *   Q2 Omega [4,4,4] [4,4,4] 3 2  agreement 2.5 -> (5-2.5)/4 0.625 reject; flags 0     reject
 *   Q3 Zeta  [4,4,4] [4,4,2] 4 5  finals [4,4,3] 0.25; agreement 4.5 0.125 accept; flags 2 -> reject   reject
 *   Q3 Omega [5,5,5] [5,5,5] 4 3  agreement 3.5 -> 0.375 review;      flags 0            review
 */
type Verdict = "accept" | "review" | "reject";
const PLAN: Record<string, [number[], number[], number, number, [boolean, boolean], Verdict, number]> = {
  "Q1 0": [[4, 4, 5], [4, 4, 5], 5, 5, [false, true], "review", 0.25],
  "Q1 1": [[3, 5, 4], [3, 5, 4], 5, 5, [false, false], "review", 0.5],
  "Q2 0": [[2, 5, 4], [2, 5, 4], 5, 5, [true, false], "reject", 0.75],
  "Q2 1": [[4, 4, 4], [4, 4, 4], 3, 2, [false, false], "reject", 0.625],
  "Q3 0": [[4, 4, 4], [4, 4, 2], 4, 5, [true, true], "reject", 0.25],
  "Q3 1": [[5, 5, 5], [5, 5, 5], 4, 3, [false, false], "review", 0.375],
};
const DEFAULT_RULE = { acceptAtMost: 0.25, reviewAtMost: 0.5, reviewAtFlags: 1, rejectAtFlags: 2 };

async function gradedStudy() {
  const f = await makeGradableStudy({ rubrics: [STABILITY], items: 3, models: 2, n: 3, graders: 2 });
  const r = await call(assign, `/api/v1/studies/${f.study.id}/assignments`, json(f.lead.token, "POST", { seed: "triage" }), { id: f.study.id });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const graderIds = f.graders.map((g) => g.id).sort();
  for (const a of await getDb().assignment.findMany({ where: { studyId: f.study.id } })) {
    const at = f.sets.findIndex((s) => s.id === a.responseSetId);
    const [acc1, acc2, agree1, agree2, flags] = PLAN[`Q${Math.floor(at / 2) + 1} ${at % 2}`];
    const g = graderIds.indexOf(a.graderId);
    const acc = g === 0 ? acc1 : acc2;
    const scores = [
      ...acc.map((score, i) => ({ rubric: STABILITY.key, dimension: "accuracy", repetition: i + 1, score })),
      { rubric: STABILITY.key, dimension: "agreement", repetition: 0, score: g === 0 ? agree1 : agree2 },
    ];
    const token = f.graders.find((x) => x.id === a.graderId)!.token;
    const put = await call(putGrades, `/api/v1/assignments/${a.id}/grades`, json(token, "PUT", { scores, contradiction: { flag: flags[g], ...(flags[g] ? { note: `grader ${g + 1} sees a contradiction` } : {}) }, submit: true }), { id: a.id });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
  }
  return f;
}

describe("stability triage and governance decisions (stages 3-4)", () => {
  it("triages every final set by the hand-worked rule with the graders' contradiction flags, counts per model and specialty, and follows the lead's rule", async () => {
    const f = await gradedStudy();
    const get = () => call(getTriage, `/api/v1/studies/${f.study.id}/triage`, bearer(f.lead.token), { id: f.study.id });
    const r = await get();
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    TriageReportSchema.parse(r.body);
    expect(r.body.defaultRule).toBe(true);
    expect(r.body.rule).toEqual(DEFAULT_RULE);
    const byKey = Object.fromEntries(r.body.sets.map((s: Body) => [`${s.itemId} ${MODEL_NAMES.indexOf(s.model)}`, s]));
    expect(Object.keys(byKey).sort()).toEqual(Object.keys(PLAN).sort());
    for (const [key, plan] of Object.entries(PLAN)) {
      expect(byKey[key].verdict, key).toBe(plan[5]);
      expect(byKey[key].drift, key).toBeCloseTo(plan[6], 9);
      expect([byKey[key].contradictions, byKey[key].graders], key).toEqual([plan[4].filter(Boolean).length, 2]);
    }
    expect(byKey["Q3 0"].contradictionNotes.sort()).toEqual(["grader 1 sees a contradiction", "grader 2 sees a contradiction"]);
    expect(byKey["Q2 1"].sources[0]).toMatchObject({ dimension: "agreement", kind: "judged", values: [2.5] });
    expect(byKey["Q3 0"].sources[0]).toMatchObject({ dimension: "accuracy", kind: "spread", values: [4, 4, 3] });
    const perModel = (m: number) =>
      r.body.counts
        .filter((c: Body) => c.model === MODEL_NAMES[m])
        .reduce(
          (a: Body, c: Body) => ({ accept: a.accept + c.accept, review: a.review + c.review, reject: a.reject + c.reject, contradicted: a.contradicted + c.contradicted }),
          { accept: 0, review: 0, reject: 0, contradicted: 0 },
        );
    expect(perModel(0)).toEqual({ accept: 0, review: 1, reject: 2, contradicted: 3 });
    expect(perModel(1)).toEqual({ accept: 0, review: 2, reject: 1, contradicted: 0 });

    // The lead's own bands: accept up to half the scale, reject only above three quarters.
    const bad = await call(putRule, `/api/v1/studies/${f.study.id}/triage`, json(f.lead.token, "PUT", { rule: { acceptAtMost: 0.75, reviewAtMost: 0.5 } }), { id: f.study.id });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toMatch(/reviewAtMost cannot be below acceptAtMost/);
    const crossed = await call(putRule, `/api/v1/studies/${f.study.id}/triage`, json(f.lead.token, "PUT", { rule: { acceptAtMost: 0.25, reviewAtMost: 0.5, reviewAtFlags: 2, rejectAtFlags: 1 } }), { id: f.study.id });
    expect(crossed.status).toBe(422);
    expect(JSON.stringify(crossed.body)).toMatch(/rejectAtFlags cannot be below reviewAtFlags/);
    expect((await call(putRule, `/api/v1/studies/${f.study.id}/triage`, json(f.lead.token, "PUT", { rule: { ...DEFAULT_RULE, reviewAtFlags: 0 } }), { id: f.study.id })).status).toBe(422);
    // Flag counts left out keep their defaults.
    const set = await call(putRule, `/api/v1/studies/${f.study.id}/triage`, json(f.lead.token, "PUT", { rule: { acceptAtMost: 0.5, reviewAtMost: 0.75 } }), { id: f.study.id });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.rule).toEqual({ acceptAtMost: 0.5, reviewAtMost: 0.75, reviewAtFlags: 1, rejectAtFlags: 2 });
    const verdictsNow = async () => Object.fromEntries((await get()).body.sets.map((s: Body) => [`${s.itemId} ${MODEL_NAMES.indexOf(s.model)}`, s.verdict]));
    // Drift alone: Q1 0 accept, Q1 1 accept, Q2 0 review, Q2 1 review, Q3 0 accept, Q3 1 accept; then the flags: Q1 0 (1) review, Q2 0 (1) review, Q3 0 (2) reject.
    expect(await verdictsNow()).toEqual({ "Q1 0": "review", "Q1 1": "accept", "Q2 0": "review", "Q2 1": "review", "Q3 0": "reject", "Q3 1": "accept" });
    // Flags that only inform: the drift decides alone.
    const quiet = { acceptAtMost: 0.5, reviewAtMost: 0.75, reviewAtFlags: null, rejectAtFlags: null };
    expect((await call(putRule, `/api/v1/studies/${f.study.id}/triage`, json(f.lead.token, "PUT", { rule: quiet }), { id: f.study.id })).status).toBe(200);
    expect(await verdictsNow()).toEqual({ "Q1 0": "accept", "Q1 1": "accept", "Q2 0": "review", "Q2 1": "review", "Q3 0": "accept", "Q3 1": "accept" });
    const audit = await getDb().auditEvent.findMany({ where: { studyId: f.study.id, action: "study.triage_rule" }, orderBy: { id: "asc" } });
    expect(audit.map((a) => a.after)).toEqual([{ rule: { acceptAtMost: 0.5, reviewAtMost: 0.75, reviewAtFlags: 1, rejectAtFlags: 2 } }, { rule: quiet }]);
  });

  it("records the lead's decision with a required note, audited, replaced by a later one; refuses others' sets and graders", async () => {
    const f = await gradedStudy();
    const setId = f.sets[2].id;
    const url = `/api/v1/studies/${f.study.id}/triage/${setId}`;
    const noNote = await call(putDecision, url, json(f.lead.token, "PUT", { decision: "REJECTED", note: " " }), { id: f.study.id, setId });
    expect(noNote.status).toBe(422);
    expect(JSON.stringify(noNote.body)).toMatch(/a note of at least 3 characters is required/);
    const first = await call(putDecision, url, json(f.lead.token, "PUT", { decision: "REJECTED", note: "Answer 1 contradicts answers 2 and 3 on dosing" }), { id: f.study.id, setId });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ decision: "REJECTED", note: "Answer 1 contradicts answers 2 and 3 on dosing" });
    const second = await call(putDecision, url, json(f.lead.token, "PUT", { decision: "ACCEPTED", note: "Re-read: the dose differs only in units" }), { id: f.study.id, setId });
    expect(second.status).toBe(200);
    const audit = await getDb().auditEvent.findMany({ where: { studyId: f.study.id, action: "set.triage_decision" }, orderBy: { id: "asc" } });
    expect(audit.map((a) => [a.entityId, a.before, a.after])).toEqual([
      [setId, null, { decision: "REJECTED", note: "Answer 1 contradicts answers 2 and 3 on dosing" }],
      [setId, { decision: "REJECTED", note: "Answer 1 contradicts answers 2 and 3 on dosing" }, { decision: "ACCEPTED", note: "Re-read: the dose differs only in units" }],
    ]);
    const report = await call(getTriage, `/api/v1/studies/${f.study.id}/triage`, bearer(f.lead.token), { id: f.study.id });
    const row = report.body.sets.find((s: Body) => s.setId === setId);
    expect(row.decision).toMatchObject({ decision: "ACCEPTED", note: "Re-read: the dose differs only in units" });
    expect(report.body.counts.reduce((n: number, c: Body) => n + c.accepted, 0)).toBe(1);

    // The triage and the decisions leave as a dataset, CSV and JSON.
    const csv = await callRoute(exportRoute, `/api/v1/studies/${f.study.id}/export?dataset=triage&format=csv`, bearer(f.lead.token), { id: f.study.id });
    expect(csv.status).toBe(200);
    const lines = String(csv.body).replace(/^\uFEFF/, "").trim().split(/\r?\n/);
    expect(lines[0]).toBe(
      "set_id,item_id,specialty,model,drift,contradiction_flags,graders,verdict,mutual_rouge_l,read_from,read_from_kind,decision,decision_note,decided_at,accept_at_most,review_at_most,review_at_flags,reject_at_flags",
    );
    expect(lines).toHaveLength(7);
    const decided = lines.find((l) => l.startsWith(setId))!;
    expect(decided).toContain(",0.75,1,2,reject,0.9,stability_panel/accuracy,spread,accepted,Re-read: the dose differs only in units,");
    expect(decided).toMatch(/,0\.25,0\.5,1,2$/);
    const asJson = await callRoute(exportRoute, `/api/v1/studies/${f.study.id}/export?dataset=triage&format=json`, bearer(f.lead.token), { id: f.study.id });
    const rows = (typeof asJson.body === "string" ? JSON.parse(asJson.body) : asJson.body) as Body[];
    expect(rows.find((r) => r.set_id === setId)).toMatchObject({
      verdict: "reject",
      drift: 0.75,
      contradiction_flags: 1,
      graders: 2,
      decision: "accepted",
      accept_at_most: 0.25,
      review_at_most: 0.5,
      review_at_flags: 1,
      reject_at_flags: 2,
    });

    const other = await makeGradableStudy({ rubrics: [STABILITY], items: 1, models: 1, n: 3, graders: 1 });
    const foreign = other.sets[0].id;
    expect((await call(putDecision, `/api/v1/studies/${f.study.id}/triage/${foreign}`, json(f.lead.token, "PUT", { decision: "ACCEPTED", note: "fine" }), { id: f.study.id, setId: foreign })).status).toBe(404);
    expect((await call(putDecision, `/api/v1/studies/${f.study.id}/triage/nope`, json(f.lead.token, "PUT", { decision: "ACCEPTED", note: "fine" }), { id: f.study.id, setId: "nope" })).status).toBe(404);
    // Not final yet: no decision.
    const open = `/api/v1/studies/${other.study.id}/triage/${foreign}`;
    const notFinal = await call(putDecision, open, json(other.lead.token, "PUT", { decision: "ACCEPTED", note: "fine" }), { id: other.study.id, setId: foreign });
    expect(notFinal.status).toBe(409);
    const grader = f.graders[0];
    expect((await call(getTriage, `/api/v1/studies/${f.study.id}/triage`, bearer(grader.token), { id: f.study.id })).status).toBe(403);
    expect((await call(putDecision, url, json(grader.token, "PUT", { decision: "ACCEPTED", note: "fine" }), { id: f.study.id, setId })).status).toBe(403);
  });
});
