import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeCells, denseGraderValues, denseOverallValues, DIMENSION_ORDER, encodeCell, scoreAt } from "@/lib/analytics/grader-cells";
import { RUBRICS, type DimensionKey } from "@/lib/rubrics/definitions";
import { graderDimensionValues, safeLlmOverallValues, type ScoreCell } from "@/lib/scoring/grader-values";

const rubricOf = (d: DimensionKey) => (RUBRICS.SCORE.dimensions.some((x) => x.key === d) ? "SCORE" : "SAFE_LLM");

/** A grader's cells with any subset of (dimension, repetition) filled, scores in range: incomplete forms included. */
const cellsFor = (n: number) =>
  fc
    .array(
      fc.record({
        dimension: fc.constantFrom(...DIMENSION_ORDER),
        repetition: fc.integer({ min: 0, max: n + 1 }),
        score: fc.integer({ min: 0, max: 5 }),
      }),
      { maxLength: 60 },
    )
    .map((cs) => {
      // One score per (dimension, repetition), as the unique key guarantees; in each dimension's range.
      const seen = new Map<string, ScoreCell>();
      for (const c of cs) {
        const def = RUBRICS[rubricOf(c.dimension)].dimensions.find((d) => d.key === c.dimension)!;
        seen.set(`${c.dimension}:${c.repetition}`, { rubric: rubricOf(c.dimension), dimension: c.dimension, repetition: c.repetition, score: Math.min(def.max, Math.max(def.min, c.score)) });
      }
      return [...seen.values()];
    });

const forms = fc.integer({ min: 1, max: 6 }).chain((n) => fc.tuple(fc.constant(n), cellsFor(n)));

describe("packed grade cells", () => {
  it("round-trip: every (dimension, repetition, score) comes back from the packed code", () => {
    fc.assert(
      fc.property(forms, ([n, cells]) => {
        const table = decodeCells(cells.map(encodeCell), n);
        for (const c of cells) if (c.repetition <= n) expect(scoreAt(table, n, c.dimension, c.repetition)).toBe(c.score);
      }),
    );
  });

  it("denseGraderValues equals graderDimensionValues exactly, complete or not", () => {
    fc.assert(
      fc.property(forms, ([n, cells]) => {
        const table = decodeCells(cells.map(encodeCell), n);
        expect(denseGraderValues("SCORE", table, n)).toEqual(graderDimensionValues("SCORE", cells, n));
        expect(denseGraderValues("SAFE_LLM", table, n)).toEqual(graderDimensionValues("SAFE_LLM", cells, n));
      }),
      { numRuns: 300 },
    );
  });

  it("denseOverallValues equals safeLlmOverallValues exactly", () => {
    fc.assert(
      fc.property(forms, ([n, cells]) => {
        expect(denseOverallValues(decodeCells(cells.map(encodeCell), n), n)).toEqual(safeLlmOverallValues(cells, n));
      }),
      { numRuns: 300 },
    );
  });

  it("ignores repetitions beyond N and codes of unknown dimensions", () => {
    const table = decodeCells([encodeCell({ dimension: "safety", repetition: 4, score: 5 }), 99 * 10000 + 101], 3);
    expect(table.every((v) => v === -1)).toBe(true);
  });
});
