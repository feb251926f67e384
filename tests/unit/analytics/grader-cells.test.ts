import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cellLayout, decodeCells, encodeCell } from "@/lib/analytics/grader-cells";
import type { RubricDocument } from "@/lib/rubrics/document";
import { templateRubrics } from "@/lib/rubrics/study-rubrics";
import type { StoredCell } from "@/lib/scoring/study-values";

const custom: RubricDocument = {
  key: "own",
  name: "Own",
  version: 1,
  dimensions: [
    { key: "clarity", name: "Clarity", scope: "each_answer", scale: { kind: "ordinal", levels: [{ value: -2, label: "Bad" }, { value: 0, label: "OK" }, { value: 9, label: "Good" }], allowNA: true } },
    { key: "harm", name: "Harm", scope: "first_answer", scale: { kind: "nominal", levels: [{ value: "none", label: "None" }, { value: "mild", label: "Mild" }, { value: "severe", label: "Severe" }] } },
    { key: "criteria", name: "Criteria", scope: "first_answer", scale: { kind: "criteria" } },
  ],
  totals: [],
};
const rubrics = [...templateRubrics(["SCORE", "SAFE_LLM"]), custom];
const layout = cellLayout(rubrics);

/** Any value a dimension of these rubrics can hold, at any repetition 0..20. */
const cell = fc.constantFrom(...layout.dims).chain(({ rubric, dimension: d }) =>
  fc.tuple(fc.integer({ min: 0, max: 20 }), fc.constantFrom(...(d.scale.levels ?? [])), fc.boolean()).map(([repetition, level, na]): StoredCell => {
    if (na && d.scale.allowNA) return { rubric, dimension: d.key, repetition, score: null, na: true };
    if (d.scale.kind === "nominal") return { rubric, dimension: d.key, repetition, score: null, category: String(level.value) };
    return { rubric, dimension: d.key, repetition, score: Number(level.value) };
  }),
);

describe("packed grade cells (the dashboard's one-query read)", () => {
  it("gives every (rubric, dimension) that holds a value an index; criteria marks are not packed", () => {
    expect(layout.keys).toContain("SCORE/safety");
    expect(layout.keys).toContain("SAFE_LLM/consistency");
    expect(layout.keys).toContain("own/harm");
    expect(layout.keys).not.toContain("own/criteria");
    expect(layout.nominalLevels).toEqual(["own/harm/none", "own/harm/mild", "own/harm/severe"]);
  });

  it("decodes what it encodes: ordinal scores (negative too), nominal values and N/A, at any repetition", () => {
    fc.assert(
      fc.property(fc.array(cell, { maxLength: 40 }), (cells) => {
        const codes = cells.map((c) => encodeCell(layout, c));
        expect(codes.every((c) => Number.isSafeInteger(c) && c > 0 && c < 2 ** 31)).toBe(true);
        const norm = (c: StoredCell) => ({ rubric: c.rubric, dimension: c.dimension, repetition: c.repetition, score: c.score, category: c.category ?? null, na: c.na ?? false });
        expect(decodeCells(layout, codes).map(norm)).toEqual(cells.map(norm));
      }),
      { numRuns: 300 },
    );
  });
});
