import { describe, expect, it } from "vitest";
import { POST as importRoute } from "@/app/api/v1/studies/[id]/import/route";
import { getDb } from "@/lib/db/client";
import { templateRubrics } from "@/lib/rubrics/study-rubrics";
import { bearer, call, makeStudy, makeUser } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";

useIsolatedDatabase();

const HEADER = "item_id,specialty,question,reference_answer,criteria,model,repetition,response";
const cell = (s: string) => `"${s.replace(/"/g, '""')}"`;
const C1 = [
  { id: "urgent", text: "Advises urgent care for chest pain", points: 8 },
  { id: "dose", text: "States an aspirin dose", points: 2 },
  { id: "harm", text: "Recommends driving to hospital alone", points: -5 },
];
const C2 = [{ id: "c1", text: "Names the first-line drug", points: 5 }];

function csv(rows: { id: string; criteria: unknown; model?: string }[]): string {
  return [
    HEADER,
    ...rows.map((r) =>
      [r.id, "Cardiology", cell(`Question ${r.id}?`), "", typeof r.criteria === "string" ? cell(r.criteria) : cell(JSON.stringify(r.criteria)), r.model ?? "m1", 1, "An answer"].join(","),
    ),
  ].join("\n");
}

async function criteriaStudy() {
  const lead = await makeUser("LEAD");
  const study = await makeStudy(lead.id, "HealthBench");
  await getDb().study.update({ where: { id: study.id }, data: { rubrics: templateRubrics(["healthbench_criteria"]), repetitions: 1 } });
  const post = (body: BodyInit, type = "text/csv", query = "") =>
    call(importRoute, `/api/v1/studies/${study.id}/import${query}`, bearer(lead.token, { method: "POST", body, headers: { "content-type": type } }), { id: study.id });
  const stored = async () =>
    Object.fromEntries((await getDb().qaItem.findMany({ where: { studyId: study.id }, select: { externalId: true, criteria: true } })).map((q) => [q.externalId, q.criteria]));
  return { study, post, stored };
}

describe("import of questions' HealthBench criteria (criteria column)", () => {
  it("stores each question's criteria from CSV and JSON, idempotently, and changes them only while ungraded", async () => {
    const { study, post, stored } = await criteriaStudy();
    const r = await post(csv([{ id: "Q1", criteria: C1 }, { id: "Q1", criteria: C1, model: "m2" }, { id: "Q2", criteria: C2 }]));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await stored()).toEqual({ Q1: C1, Q2: C2 });

    const again = await post(csv([{ id: "Q1", criteria: C1 }, { id: "Q1", criteria: C1, model: "m2" }, { id: "Q2", criteria: C2 }]));
    expect(again.body).toMatchObject({ questions: { updated: 0 }, created: 0 });

    // JSON rows may give the list itself; a file without the column keeps what is stored.
    const changed = [{ ...C2[0], points: 6 }];
    const json = await post(JSON.stringify([{ item_id: "Q2", specialty: "Cardiology", question: "Question Q2?", reference_answer: "", criteria: changed }]), "application/json");
    expect(json.status, JSON.stringify(json.body)).toBe(200);
    expect(json.body).toMatchObject({ questions: { updated: 1 } });
    const without = await post(["item_id,specialty,question,reference_answer", 'Q1,Cardiology,"Question Q1?",'].join("\n"));
    expect(without.status, JSON.stringify(without.body)).toBe(200);
    expect(await stored()).toEqual({ Q1: C1, Q2: changed });

    // Once an answer to Q1 is scored, its criteria are what the score was given against.
    const db = getDb();
    const set = await db.responseSet.findFirstOrThrow({ where: { studyId: study.id, item: { externalId: "Q1" } } });
    const judge = await db.automatedJudge.create({ data: { studyId: study.id, name: "j", kind: "LLM_JUDGE" } });
    await db.judgeScore.create({ data: { judgeId: judge.id, responseSetId: set.id, rubric: "healthbench_criteria", dimension: "criteria", repetition: 1, score: 1 } });
    const refused = await post(csv([{ id: "Q1", criteria: C2 }]));
    expect(refused.status).toBe(409);
    expect(JSON.stringify(refused.body)).toContain("item Q1 already has grades, so its criteria cannot be changed");
    expect(await stored()).toEqual({ Q1: C1, Q2: changed });
  });

  it("refuses bad criteria with 422 naming row, column and path, and writes nothing", async () => {
    const { post, stored } = await criteriaStudy();
    const r = await post(
      csv([
        { id: "Q1", criteria: "not json" },
        { id: "Q2", criteria: [{ id: "a", text: "x", points: 1 }, { id: "a", text: "y", points: 2 }] },
        { id: "Q3", criteria: [{ id: "a b", text: "x", points: 1 }] },
        { id: "Q4", criteria: [{ id: "bad", text: "only harm", points: -3 }] },
        { id: "Q5", criteria: C1 },
        { id: "Q5", criteria: C2, model: "m2" },
        { id: "Q6", criteria: "" },
      ]),
    );
    expect(r.status).toBe(422);
    const problems = (r.body as { details: { errors: { row: number; column: string; message: string }[] } }).details.errors;
    const at = (row: number) => problems.filter((p) => p.row === row).map((p) => `${p.column}: ${p.message}`);
    expect(at(1)[0]).toMatch(/^criteria: criteria must be a JSON list/);
    expect(at(2)[0]).toContain('the id "a" is used twice');
    expect(at(3)[0]).toMatch(/^criteria: criteria\[0\]\.id: a criterion id is letters/);
    expect(at(4)[0]).toContain("at least one criterion must be worth positive points");
    expect(at(6)[0]).toContain("item Q5 has different criteria than in row 5");
    expect(at(7)[0]).toContain("item Q6 has no criteria, but this study grades each question's own criteria");
    expect(await stored()).toEqual({});
  });

  it("requires criteria for new questions of a criteria study, and not elsewhere", async () => {
    const { post } = await criteriaStudy();
    const r = await post(["item_id,specialty,question,reference_answer,model,repetition,response", 'Q1,Cardiology,"Q?",,m1,1,A'].join("\n"));
    expect(r.status).toBe(422);
    expect(JSON.stringify(r.body)).toContain("item Q1 has no criteria");

    const lead = await makeUser("LEAD");
    const plain = await makeStudy(lead.id);
    const ok = await call(
      importRoute,
      `/api/v1/studies/${plain.id}/import`,
      bearer(lead.token, { method: "POST", body: ["item_id,specialty,question,reference_answer", 'Q1,Cardiology,"Q?",'].join("\n"), headers: { "content-type": "text/csv" } }),
      { id: plain.id },
    );
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });
});
