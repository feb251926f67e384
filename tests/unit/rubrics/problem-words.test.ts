import { describe, expect, it } from "vitest";
import { parseRubricDocument, type RubricDocument } from "@/lib/rubrics/document";
import { describeProblem, placeOf, wordsOf } from "@/lib/rubrics/problem-words";

/** The rubric builder's problems in words, each with a place a lead recognises (issue 31, item 10). */
const likert = { kind: "ordinal" as const, levels: [1, 2, 3].map((value) => ({ value, label: String(value) })) };

describe("a rubric's problems in the builder's words", () => {
  it("names the place as the builder shows it, never a JSON path", () => {
    expect(placeOf("dimensions.1.scale.levels.2.label")).toEqual({ place: ["Dimension 2", "level 3"], field: "label" });
    expect(placeOf("totals.0.bands.2")).toEqual({ place: ["Total 1", "band 3"], field: null });
    expect(placeOf("name")).toEqual({ place: ["Rubric name"], field: null });
    expect(placeOf("dimensions.0.harmAtOrAbove").field).toBe("harm at or above");
  });

  it("says zod's messages in words, with the place: an empty label, a level missing, a value that is not a whole number", () => {
    const doc = {
      key: "survey",
      name: "",
      version: 1,
      dimensions: [
        { key: "a", name: "A", scope: "first_answer", scale: likert },
        { key: "b", name: "B", scope: "first_answer", scale: { kind: "ordinal", levels: [{ value: 1, label: "One" }, { value: 2, label: "Two" }, { value: 2.5, label: "" }] }, threshold: 0 },
        { key: "c", name: "C", scope: "first_answer", scale: { kind: "nominal", levels: [{ value: "x", label: "X" }] } },
      ],
      totals: [],
    } as unknown as RubricDocument;
    const parsed = parseRubricDocument(doc);
    expect(parsed.ok).toBe(false);
    const said = (parsed as { problems: { path: string; message: string }[] }).problems.map((p) => describeProblem(p, doc));
    expect(said).toEqual([
      "Rubric name: required",
      "Dimension 2, level 3: the value must be a whole number",
      "Dimension 2, level 3: the label is empty",
      "Dimension 2: the escalation spread must be more than 0",
      "Dimension 3, levels: needs at least 2 levels",
    ]);
    for (const s of said) expect(s).not.toMatch(/Too small|expected|dimensions\.\d/);
  });

  it("keeps the document's own messages, after the place they name", () => {
    const doc = { key: "s", name: "S", version: 1, dimensions: [{ key: "a", name: "A", scope: "each_answer", scale: { kind: "nominal", levels: [{ value: "x", label: "X" }, { value: "y", label: "Y" }] } }], totals: [] } as RubricDocument;
    const parsed = parseRubricDocument(doc);
    const [p] = (parsed as { problems: { path: string; message: string }[] }).problems;
    expect(describeProblem(p, doc)).toMatch(/^Dimension 1, “graded on”: a nominal dimension is graded once per set/);
    expect(wordsOf({ path: "dimensions", message: "Too small: expected array to have >=1 items" })).toBe("add a dimension: a rubric needs at least one");
  });
});
