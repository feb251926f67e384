import { describe, expect, it } from "vitest";
import { documentOf, keyOf } from "@/components/studies/rubric-builder";
import { draftOf, renameInTotals } from "@/components/studies/rubric-draft";
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
    const kept = documentOf({ name: safe.name, instructions: "", sum: false, dimensions: safe.dimensions, totals: safe.totals, headline: safe.headline });
    expect(kept.totals).toEqual(safe.totals);
    expect(kept.headline).toBe("per_answer");
    expect(documentOf({ name: "x", instructions: "", sum: false, dimensions: safe.dimensions }).totals).toEqual([]);
  });

  it("gives back every template unchanged when nothing is edited: totals with across, bands, percent of applicable items, criteria", () => {
    const templates = templateRubrics(["SCORE", "SAFE_LLM", "discern", "pemat_p", "healthbench_criteria", "medpalm_axes"]);
    for (const t of templates) expect(documentOf(draftOf(t)), t.key).toEqual({ ...t, version: 1, key: keyOf(t.name, "rubric") });
    const safe = templates[1];
    expect(documentOf(draftOf(safe)).totals.find((t) => t.key === "overall")).toMatchObject({ method: "sum", across: expect.any(Object) });
  });

  it("writes the rubric's source, instructions, a dimension's escalation rules and levels' examples into the document", () => {
    const doc = documentOf({
      name: "Leaflet quality",
      instructions: "Read the answer as a patient would.\nThen grade.",
      source: "Adapted from Charnock et al. 1999",
      sum: false,
      totals: [],
      dimensions: [
        {
          key: "aims",
          name: "Aims clear",
          definition: "Line one.\nLine two.",
          scope: "each_answer",
          scale: { kind: "ordinal", levels: [{ value: 1, label: "No", example: "No aim stated" }, { value: 2, label: "Partly" }, { value: 3, label: "Yes" }], allowNA: true },
          threshold: 1,
          requireCommentAtOrBelow: 1,
          harmAtOrBelow: 1,
        },
      ],
    });
    expect(doc).toMatchObject({ source: "Adapted from Charnock et al. 1999", instructions: "Read the answer as a patient would.\nThen grade.", totals: [] });
    expect(doc.headline).toBeUndefined();
    expect(doc.dimensions[0]).toMatchObject({ threshold: 1, requireCommentAtOrBelow: 1, harmAtOrBelow: 1, scale: { allowNA: true } });
    expect(doc.dimensions[0].scale.levels![0].example).toBe("No aim stated");
    expect(parseRubricDocument(doc).ok).toBe(true);
    // Blank optional text is left out rather than stored as "".
    expect(documentOf({ ...draftOf(doc), source: "  ", instructions: "" })).not.toHaveProperty("source");
  });

  it("puts the automatic sum first, then the lead's totals (bands, percent applicable), with the headline the lead chose", () => {
    const yesNo = { kind: "ordinal" as const, levels: [{ value: 0, label: "No" }, { value: 1, label: "Yes" }], allowNA: true };
    const dimensions = [
      { key: "aims", name: "Aims", scope: "first_answer" as const, scale: likert },
      { key: "sources", name: "Sources", scope: "first_answer" as const, scale: likert },
      { key: "plain", name: "Plain language", scope: "first_answer" as const, scale: yesNo },
    ];
    const percent = { key: "understandability", name: "Understandability (%)", method: "percent_applicable" as const, dimensions: ["plain"] };
    const doc = documentOf({ name: "Leaflet", instructions: "", sum: true, dimensions, totals: [percent], headline: "understandability" });
    expect(doc.totals).toEqual([{ key: "total", name: "Total (2-10)", method: "sum", dimensions: ["aims", "sources"] }, percent]);
    expect(doc.headline).toBe("understandability");
    expect(parseRubricDocument(doc).ok).toBe(true);
    // A headline naming a removed total falls back to the first total.
    expect(documentOf({ name: "Leaflet", instructions: "", sum: true, dimensions, totals: [], headline: "understandability" }).headline).toBe("total");
    // Overlapping bands are refused with the band's path.
    const banded = { key: "total", name: "Total", method: "sum" as const, dimensions: ["aims", "sources"], bands: [{ min: 2, max: 6, label: "Poor" }, { min: 5, max: 10, label: "Good" }] };
    const bad = parseRubricDocument(documentOf({ name: "Leaflet", instructions: "", sum: false, dimensions, totals: [banded] }));
    expect(bad.ok ? [] : bad.problems.map((p) => p.path)).toEqual(["totals.0.bands.1"]);
  });

  it("follows a renamed dimension in the totals that count it, across included", () => {
    const [safe] = templateRubrics(["SAFE_LLM"]);
    const renamed = renameInTotals(safe.totals, "accuracy", "exactness");
    const overall = renamed.find((t) => t.key === "overall");
    expect(overall).toMatchObject({ method: "sum", dimensions: expect.arrayContaining(["exactness"]), across: expect.objectContaining({ exactness: "max" }) });
    expect(JSON.stringify(renamed)).not.toContain('"accuracy"');
    expect(renameInTotals([{ key: "c", name: "C", method: "criteria_score", dimension: "criteria" }], "criteria", "rubric_items")).toEqual([{ key: "c", name: "C", method: "criteria_score", dimension: "rubric_items" }]);
  });
});
