import { describe, expect, it } from "vitest";
import { POST as gradeImport } from "@/app/api/v1/studies/[id]/grade-imports/route";
import { POST as createStudyRoute } from "@/app/api/v1/studies/route";
import { POST as planPost } from "@/app/api/v1/studies/[id]/comparisons/route";
import { getDb } from "@/lib/db/client";
import { bearer, call, makeUser } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";
import { makePairwiseStudy } from "./helpers/pairwise-fixture";
import { MODEL_NAMES } from "./helpers/study-fixture";

useIsolatedDatabase();

const post = (studyId: string, token: string, csv: string, query = "") =>
  call(gradeImport, `/x${query}`, bearer(token, { method: "POST", body: csv, headers: { "content-type": "text/csv; charset=utf-8" } }), { id: studyId });

describe("importing preferences collected elsewhere", () => {
  it("creates questions, models, raters and comparisons, all or nothing, and a re-import changes nothing", async () => {
    const lead = await makeUser("LEAD");
    const created = await call(createStudyRoute, "/x", bearer(lead.token, { method: "POST", body: JSON.stringify({ name: "Outside preferences", design: "pairwise", rubrics: ["clever_preference"], repetitions: 1 }) }));
    const id = created.body.id as string;
    const csv = [
      "item_id,model_a,model_b,rater,axis,choice,strength",
      "Q1,Alpha,Beta,R1,factuality,a,clearly",
      "Q1,Alpha,Beta,R1,conciseness,tie,",
      "Q1,Beta,Alpha,R2,factuality,b,slightly",
      "Q2,Alpha,Gamma,R1,clinical_relevance,b,",
    ].join("\n");

    // One bad row: nothing is written, and the problems name their line and column.
    const bad = csv + "\nQ3,Alpha,Alpha,R1,factuality,left,\nQ3,Alpha,Beta,R1,nope,a,\nQ3,Alpha,Beta,R1,conciseness,tie,clearly\nQ3,Alpha,Beta,R\u0000x,factuality,a,\n";
    const refused = await post(id, lead.token, bad);
    expect(refused.status, JSON.stringify(refused.body)).toBe(422);
    const errors = (refused.body.details as { errors: { row: number; column: string | null }[] }).errors;
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ row: 6, column: "model_b" }),
        expect.objectContaining({ row: 6, column: "choice" }),
        expect.objectContaining({ row: 7, column: "axis" }),
        expect.objectContaining({ row: 8, column: "strength" }),
        expect.objectContaining({ row: 9, column: "rater" }),
      ]),
    );
    expect(await getDb().qaItem.count({ where: { studyId: id } })).toBe(0);
    expect(await getDb().preference.count({ where: { assignment: { studyId: id } } })).toBe(0);

    const dry = await post(id, lead.token, csv, "?dryRun=1");
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body).toMatchObject({ dryRun: true, grades: 4, created: 4 });
    expect(await getDb().comparison.count({ where: { studyId: id } })).toBe(0);

    const ok = await post(id, lead.token, csv);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ dryRun: false, items: 2, models: 3, raters: 2, grades: 4, created: 4, unchanged: 0, new: { items: 2, models: 3, raters: 2, responseSets: 4, comparisons: 2 } });
    const comparisons = await getDb().comparison.findMany({ where: { studyId: id }, include: { leftSet: { include: { model: true } }, rightSet: { include: { model: true } }, item: true } });
    const q1 = comparisons.find((c) => c.item.externalId === "Q1")!;
    expect([q1.leftSet.model.name, q1.rightSet.model.name]).toEqual(["Alpha", "Beta"]);
    const prefs = await getDb().preference.findMany({ where: { assignment: { comparisonId: q1.id } }, include: { assignment: { include: { grader: true } } } });
    const of = (rater: string, axis: string) => prefs.find((p) => p.assignment.grader.name === rater && p.axis === axis)!;
    expect(of("R1", "factuality")).toMatchObject({ choice: "LEFT", strength: "CLEARLY" });
    expect(of("R1", "conciseness")).toMatchObject({ choice: "TIE", strength: null });
    // R2 wrote Beta as model_a: "b" is Alpha, the comparison's left.
    expect(of("R2", "factuality")).toMatchObject({ choice: "LEFT", strength: "SLIGHTLY" });
    const r1 = await getDb().user.findFirstOrThrow({ where: { externalStudyId: id, name: "R1" } });
    expect(r1.active).toBe(false);
    expect(await getDb().comparisonAssignment.count({ where: { studyId: id, status: "SUBMITTED", kind: "PRIMARY" } })).toBe(3);

    const again = await post(id, lead.token, csv);
    expect(again.body).toMatchObject({ created: 0, unchanged: 4 });
    const changed = await post(id, lead.token, csv.replace("Q1,Alpha,Beta,R1,factuality,a,clearly", "Q1,Alpha,Beta,R1,factuality,b,clearly"));
    expect(changed.status).toBe(422);
    expect(JSON.stringify(changed.body)).toContain("not overwritten");
  });

  it("joins a planned comparison in either order, and refuses the wrong format for the study's design", async () => {
    const f = await makePairwiseStudy({ rubrics: ["overall_preference"], items: 1, models: 2, n: 1 });
    await call(planPost, "/x", bearer(f.lead.token, { method: "POST", body: JSON.stringify({ design: { kind: "all_pairs" }, seed: "imp" }) }), { id: f.study.id });
    const c = await getDb().comparison.findFirstOrThrow({ where: { studyId: f.study.id }, include: { leftSet: { include: { model: true } }, rightSet: { include: { model: true } } } });
    const [right, left] = [c.rightSet.model.name, c.leftSet.model.name];
    const ok = await post(f.study.id, f.lead.token, `item_id,model_a,model_b,rater,axis,choice\nQ1,${right},${left},Ext,overall,a\n`);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ new: { comparisons: 0, items: 0, models: 0 } });
    const p = await getDb().preference.findFirstOrThrow({ where: { assignment: { comparisonId: c.id } } });
    expect(p.choice).toBe("RIGHT");
    expect(MODEL_NAMES).toContain(right);

    // A grades file on a pairwise study, a preferences file on a scoring study: 422, nothing written.
    const grades = await post(f.study.id, f.lead.token, "item_id,model,rater,dimension,score\nQ1,X,R,overall,1\n");
    expect(grades.status).toBe(422);
    expect(JSON.stringify(grades.body)).toContain("a pairwise study imports preferences");
    const lead = await makeUser("LEAD");
    const scoring = await call(createStudyRoute, "/x", bearer(lead.token, { method: "POST", body: JSON.stringify({ name: "Scoring", rubrics: ["clear"], repetitions: 1 }) }));
    const wrong = await post(scoring.body.id as string, lead.token, "item_id,model_a,model_b,rater,axis,choice\nQ1,A,B,R,overall,a\n");
    expect(wrong.status).toBe(422);
    expect(JSON.stringify(wrong.body)).toContain("a scoring study imports grades");
  });
});
