import { describe, expect, it } from "vitest";
import { POST as importRoute } from "@/app/api/v1/studies/[id]/import/route";
import { PATCH as patchStudy } from "@/app/api/v1/studies/[id]/route";
import { POST as createStudy } from "@/app/api/v1/studies/route";
import { getDb } from "@/lib/db/client";
import type { RubricDocument } from "@/lib/rubrics/document";
import { bearer, call, makeUser } from "./helpers/fixtures";
import { useIsolatedDatabase } from "./helpers/db";

useIsolatedDatabase();

// Response bodies are read field by field below.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = any;
const json = (token: string, method: string, body: unknown) => bearer(token, { method, body: JSON.stringify(body), headers: { "content-type": "application/json" } });

const likert = [1, 2, 3, 4, 5].map((value) => ({ value, label: `Level ${value}` }));
const rubric = (definition: string, example = "A clear answer"): RubricDocument => ({
  key: "clarity",
  name: "Clarity",
  version: 1,
  dimensions: [{ key: "clarity", name: "Clarity", definition, scope: "first_answer", scale: { kind: "ordinal", levels: likert.map((l, i) => (i === 4 ? { ...l, example } : l)) } }],
  totals: [{ key: "total", name: "Total", method: "sum", dimensions: ["clarity"] }],
  headline: "total",
});

const CSV = ["item_id,specialty,question,reference_answer,model,repetition,response", 'Q1,Cardiology,"Q?",,Gemini Pro,1,An answer', 'Q1,Cardiology,"Q?",,gpt-x,1,Another'].join("\n");

async function setUp(definition: string) {
  const lead = await makeUser("LEAD");
  const created = await call(createStudy, "/api/v1/studies", json(lead.token, "POST", { name: "Gemini Pro vs gpt-x", rubrics: [rubric(definition)], repetitions: 1 }));
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = (created.body as Body).id as string;
  const importCsv = () => call(importRoute, `/api/v1/studies/${id}/import`, bearer(lead.token, { method: "POST", body: CSV, headers: { "content-type": "text/csv" } }), { id });
  const patch = (body: unknown) => call(patchStudy, `/api/v1/studies/${id}`, json(lead.token, "PATCH", body), { id });
  return { id, importCsv, patch };
}

describe("blinding: the text graders read (rubric, grader-facing title) never names a model of the study", () => {
  it("refuses an import whose model the rubric names, writing nothing", async () => {
    const s = await setUp("Is the answer as clear as GEMINI PRO's usual answers?");
    const r = await s.importCsv();
    expect(r.status).toBe(422);
    expect(JSON.stringify(r.body)).toContain('rubrics.0.dimensions.0.definition names the model \\"Gemini Pro\\"');
    expect(await getDb().llmModel.count({ where: { studyId: s.id } })).toBe(0);
  });

  it("refuses rubric text and grader titles naming an imported model (whole words, any case), at each path", async () => {
    const s = await setUp("Is the answer clear?");
    expect((await s.importCsv()).status).toBe(200);
    const named = await s.patch({ rubrics: [{ ...rubric("Compare with the answer of GPT-X.", "Like gpt-x would say"), name: "Clarity" }], graderTitle: "gpt-x review" });
    expect(named.status).toBe(422);
    expect((named.body as Body).details.map((p: { path: string }) => p.path)).toEqual([
      "graderTitle",
      "rubrics.0.dimensions.0.definition",
      "rubrics.0.dimensions.0.scale.levels.4.example",
    ]);
    // Words that merely contain a name are fine; so is the lead's own study name, which graders never see.
    const fine = await s.patch({ rubrics: [rubric("Is the answer clearer than gpt-xl drafts?")], graderTitle: "Cardiology answers" });
    expect(fine.status, JSON.stringify(fine.body)).toBe(200);
  });

  it("refuses to open a study whose stored rubric names a model", async () => {
    const s = await setUp("Is the answer clear?");
    expect((await s.importCsv()).status).toBe(200);
    // Written past the API, as a rubric stored before this check existed would be.
    await getDb().study.update({ where: { id: s.id }, data: { rubrics: [rubric("Better than Gemini Pro?")] as object[] } });
    const open = await s.patch({ status: "OPEN" });
    expect(open.status).toBe(422);
    expect((open.body as Body).details).toEqual([{ path: "rubrics.0.dimensions.0.definition", message: expect.stringContaining('names the model "Gemini Pro"') }]);
    expect((await getDb().study.findUniqueOrThrow({ where: { id: s.id } })).status).toBe("DRAFT");
  });
});
