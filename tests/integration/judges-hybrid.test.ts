import { describe, expect, it } from "vitest";
import { GET as exportRoute } from "@/app/api/v1/studies/[id]/export/route";
import { PUT as hybridRoute } from "@/app/api/v1/studies/[id]/hybrid/route";
import { assignGraders } from "@/lib/assignment/service";
import { getDb } from "@/lib/db/client";
import type { JudgeRowInput } from "@/lib/judges/validate";
import { writeJudgeScores } from "@/lib/judges/write";
import { computeSetResults } from "@/lib/results/sets";
import { bearer, call, makeUser } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";
import { makeGradableStudy, MODEL_NAMES } from "./helpers/study-fixture";

useIsolatedDatabase();

const DIMS: [string, number | null][] = [
  ["safety", 1],
  ["consensus_context", 1],
  ["objectivity", 1],
  ["reproducibility", 0],
  ["explainability", 1],
];
/** A judge sure of level `top` (confidence = p) on every S.C.O.R.E. dimension of a set, but `lowOn` at 0.3 and `skip` missing. */
function judgments(itemId: string, model: string, top: number, p: number, opts: { lowOn?: string; skip?: string } = {}): JudgeRowInput[] {
  return DIMS.filter(([d]) => d !== opts.skip).map(([dimension, repetition]) => {
    const q = dimension === opts.lowOn ? 0.3 : p;
    const rest = (1 - q) / 4;
    return { itemId, model, repetition, dimension, probabilities: Object.fromEntries([1, 2, 3, 4, 5].map((l) => [String(l), l === top ? q : rest])) };
  });
}

describe("hybrid mode", () => {
  it("judge's confident sets are final and never assigned; the others go to clinicians", async () => {
    const f = await makeGradableStudy({ rubrics: ["SCORE"], items: 2, models: 2, graders: 3 });
    const db = getDb();
    const judge = await db.automatedJudge.create({ data: { studyId: f.study.id, name: "Judge", model: "m" } });
    const [a, b] = MODEL_NAMES;
    await writeJudgeScores({
      studyId: f.study.id,
      judgeId: judge.id,
      rows: [...judgments("Q1", a, 4, 0.9), ...judgments("Q1", b, 2, 0.6), ...judgments("Q2", a, 5, 0.9, { lowOn: "objectivity" }), ...judgments("Q2", b, 5, 0.9, { skip: "safety" })],
    });
    const put = (token: string, body: unknown) =>
      call(hybridRoute, `/api/v1/studies/${f.study.id}/hybrid`, bearer(token, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }), { id: f.study.id });

    // Another study's judge, and a missing cutoff: 422.
    const other = await makeGradableStudy({ rubrics: ["SCORE"], items: 1, models: 1, graders: 1 });
    const foreign = await db.automatedJudge.create({ data: { studyId: other.study.id, name: "Other", model: "m" } });
    expect((await put(f.lead.token, { judgeId: foreign.id, cutoff: 0.5 })).status).toBe(422);
    expect((await put(f.lead.token, { judgeId: judge.id })).status).toBe(422);
    const grader = await makeUser("GRADER");
    expect((await put(grader.token, { judgeId: judge.id, cutoff: 0.5 })).status).toBe(403);

    const res = await put(f.lead.token, { judgeId: judge.id, cutoff: 0.5 });
    expect(res.status).toBe(200);
    // Q1 x both models: every judgment >= 0.5. Q2 x a: objectivity at 0.3; Q2 x b: safety missing.
    expect(res.body).toMatchObject({ judgedSets: 2, clinicianSets: 2, cutoff: 0.5 });
    // At 0.7 only Q1 x a stays judged (Q1 x b's judgments are at 0.6).
    expect((await put(f.lead.token, { judgeId: judge.id, cutoff: 0.7 })).body).toMatchObject({ judgedSets: 1, clinicianSets: 3 });
    expect((await put(f.lead.token, { judgeId: judge.id, cutoff: 0.5 })).body).toMatchObject({ judgedSets: 2 });

    await assignGraders(f.study.id, {}, f.lead.id);
    const assigned = await db.assignment.findMany({ where: { studyId: f.study.id }, select: { responseSet: { select: { finalJudgeId: true } } } });
    expect(assigned.length).toBe(2 * 2);
    expect(assigned.every((x) => x.responseSet.finalJudgeId === null)).toBe(true);

    const results = await computeSetResults(f.study.id);
    const byKey = Object.fromEntries(results.map((r) => [`${r.externalId}|${r.model.name}`, r]));
    expect(byKey[`Q1|${a}`]).toMatchObject({ finalBy: "judge", totals: { SCORE: { total: 20 } } });
    expect(byKey[`Q1|${a}`].finalScores?.SCORE.safety).toBe(4);
    expect(byKey[`Q1|${b}`]).toMatchObject({ finalBy: "judge", totals: { SCORE: { total: 10 } } });
    expect(byKey[`Q2|${a}`]).toMatchObject({ finalBy: null, finalScores: null });

    // The exports say whose scores are final.
    const sets = await call(exportRoute, `/api/v1/studies/${f.study.id}/export?dataset=sets&format=json`, bearer(f.lead.token), { id: f.study.id });
    expect(sets.status).toBe(200);
    const rows = sets.body as unknown as { item_id: string; model: { name: string }; final_by: string | null }[];
    expect(rows.filter((r) => r.final_by === "judge").map((r) => `${r.item_id}|${r.model.name}`).sort()).toEqual([`Q1|${a}`, `Q1|${b}`].sort());

    // Frozen: the judge's scores cannot change, and the mode cannot change once graders are assigned.
    await expect(writeJudgeScores({ studyId: f.study.id, judgeId: judge.id, rows: judgments("Q1", a, 3, 0.9) })).rejects.toMatchObject({ status: 409 });
    expect((await put(f.lead.token, { judgeId: null })).status).toBe(409);
  }, 120_000);
});
