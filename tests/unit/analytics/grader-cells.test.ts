import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cellLayout, decodeCells, decodeRows, encodeCell, rowCategory, rowScore, rowSource, scoreAt, scoreAtSlot, slotIndex } from "@/lib/analytics/grader-cells";
import type { RubricDocument } from "@/lib/rubrics/document";
import { templateRubrics } from "@/lib/rubrics/study-rubrics";
import { graderRubricScores, graderRubricScoresFrom, type StoredCell } from "@/lib/scoring/study-values";

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
/** Totals of every kind over each-answer, first-answer, set and derived dimensions. */
const totalled: RubricDocument = {
  key: "tot",
  name: "Totals",
  version: 1,
  dimensions: [
    { key: "a", name: "A", scope: "each_answer", scale: { kind: "ordinal", levels: [1, 2, 3, 4, 5].map((value) => ({ value, label: String(value) })) } },
    { key: "b", name: "B", scope: "each_answer", scale: { kind: "ordinal", levels: [0, 1, 2].map((value) => ({ value, label: String(value) })), allowNA: true } },
    { key: "c", name: "C", scope: "set", scale: { kind: "ordinal", levels: [1, 2, 3].map((value) => ({ value, label: String(value) })) } },
    { key: "same", name: "Same", scope: "set", derived: { rule: "equal_across_answers", of: "a" }, scale: { kind: "ordinal", levels: [0, 1].map((value) => ({ value, label: String(value) })) } },
    { key: "kind", name: "Kind", scope: "each_answer", scale: { kind: "nominal", levels: [{ value: "x", label: "X" }, { value: "y", label: "Y" }] } },
  ],
  totals: [
    { key: "sum", name: "Sum", method: "sum", dimensions: ["a", "c", "same"], across: { a: "max" } },
    { key: "min", name: "Min", method: "sum", dimensions: ["a"], across: { a: "min" } },
    { key: "pct", name: "Pct", method: "percent_applicable", dimensions: ["b", "c"] },
  ],
} as RubricDocument;
const rubrics = [...templateRubrics(["SCORE", "SAFE_LLM"]), custom, totalled];
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
    expect(layout.nominalLevels.filter((l) => l.startsWith("own/"))).toEqual(["own/harm/none", "own/harm/mild", "own/harm/severe"]);
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

  it("scores a packed row exactly as the decoded cells (the dashboard's array path against the object path)", () => {
    // Few repetitions and levels so that complete, partial, N/A and nominal forms all come up.
    const dense = fc.constantFrom(...layout.dims).chain(({ rubric, dimension: d }) =>
      fc.tuple(fc.integer({ min: 0, max: 3 }), fc.constantFrom(...(d.scale.levels ?? [])), fc.integer({ min: 0, max: 5 })).map(([repetition, level, na]): StoredCell => {
        if (na === 0 && d.scale.allowNA) return { rubric, dimension: d.key, repetition, score: null, na: true };
        if (d.scale.kind === "nominal") return { rubric, dimension: d.key, repetition, score: null, category: String(level.value) };
        return { rubric, dimension: d.key, repetition, score: Number(level.value) };
      }),
    );
    fc.assert(
      // One cell per (rubric, dimension, repetition), as Grade's unique key stores them.
      fc.property(fc.uniqueArray(dense, { maxLength: 80, selector: (c) => `${c.rubric}/${c.dimension}/${c.repetition}` }), fc.integer({ min: 1, max: 3 }), (cells, n) => {
        const codes = cells.map((c) => encodeCell(layout, c));
        const decoded = decodeCells(layout, codes);
        // Decoded with another grader's row before it in the shared buffer.
        const row = decodeRows(layout, [[encodeCell(layout, { rubric: "tot", dimension: "a", repetition: 1, score: 3 })], codes])[1];
        const fromRow = graderRubricScoresFrom(rubrics, (r) => ({ source: rowSource(row, r), cells: [] }), n);
        expect(fromRow).toEqual(graderRubricScores(rubrics, decoded, n));
        for (const { rubric, dimension } of layout.dims) {
          for (let r = 0; r <= 3; r++) {
            expect(rowScore(row, rubric, dimension.key, r)).toBe(scoreAt(decoded, rubric, dimension.key, r));
            expect(scoreAtSlot(row, slotIndex(layout, rubric, dimension.key), r)).toBe(scoreAt(decoded, rubric, dimension.key, r));
            const c = decoded.find((x) => x.rubric === rubric && x.dimension === dimension.key && x.repetition === r);
            expect(rowCategory(row, rubric, dimension.key, r)).toBe(c?.category ?? null);
          }
        }
      }),
      { numRuns: 400 },
    );
  });
});
