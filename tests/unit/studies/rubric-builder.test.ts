import { describe, expect, it } from "vitest";
import { documentOf, keyOf } from "@/components/studies/rubric-builder";
import { parseRubricDocument } from "@/lib/rubrics/document";
import { templateRubrics } from "@/lib/rubrics/study-rubrics";

const likert = { kind: "ordinal" as const, levels: [1, 2, 3, 4, 5].map((value) => ({ value, label: String(value) })) };

describe("the rubric builder's document", () => {
  it("makes keys a document accepts from any name", () => {
    expect(keyOf("Cardiology criteria", "x")).toBe("cardiology_criteria");
    expect(keyOf("Consensus & Context", "x")).toBe("consensus_context");
    expect(keyOf("Évaluation", "x")).toBe("evaluation");
    expect(keyOf("10-point scale", "x")).toBe("d10_point_scale");
    expect(keyOf("!!!", "criterion_3")).toBe("criterion_3");
  });

  it("sums the ordinal dimensions that always have a value into the headline total", () => {
    const doc = documentOf({
      name: "Cardiology criteria",
      instructions: "",
      sum: true,
      dimensions: [
        { key: "accuracy", name: "Accuracy", scope: "first_answer", scale: likert, threshold: 2 },
        { key: "visuals", name: "Visuals", scope: "first_answer", scale: { ...likert, allowNA: true } },
        { key: "harm", name: "Harm", scope: "first_answer", scale: { kind: "nominal", levels: [{ value: "none", label: "None" }, { value: "severe", label: "Severe" }] } },
      ],
    });
    expect(doc).toMatchObject({ key: "cardiology_criteria", version: 1, headline: "total" });
    expect(doc.totals).toEqual([{ key: "total", name: "Total (1-5)", method: "sum", dimensions: ["accuracy"] }]);
    expect(parseRubricDocument(doc).ok).toBe(true);
  });

  it("keeps an edited rubric's own totals (SAFE-LLM's two scorings) until the lead changes the total", () => {
    const [safe] = templateRubrics(["SAFE_LLM"]);
    const kept = documentOf({ name: safe.name, instructions: "", sum: true, dimensions: safe.dimensions, kept: { totals: safe.totals, headline: safe.headline } });
    expect(kept.totals).toEqual(safe.totals);
    expect(kept.headline).toBe("per_answer");
    expect(documentOf({ name: "x", instructions: "", sum: false, dimensions: safe.dimensions }).totals).toEqual([]);
  });
});
