import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RUBRICS, type RubricKey } from "@/lib/rubrics/templates/published-definitions";
import { parseRubricDocument, repetitionProblems, type RubricDocument } from "@/lib/rubrics/document";
import { safeLlmTemplate, scoreTemplate } from "@/lib/rubrics/templates/published";
import { graderDimensionValues, rubricTotal, safeLlmOverallValues, type ScoreCell } from "./oracle/grader-values";
import { bandOf, criteriaScore, graderTotal, graderValues, totalRange, type RubricCell } from "@/lib/scoring/rubric-values";

const total = (doc: RubricDocument, key: string, cells: RubricCell[], n: number, ctx = {}) =>
  graderTotal(doc, doc.totals.find((t) => t.key === key)!, cells, n, ctx);

/** Random cells of one of today's rubrics: every cell scored, except now and then one left out. */
const cellsOf = (rubric: RubricKey, n: number) => {
  const slots = RUBRICS[rubric].dimensions
    .filter((d) => !d.derived)
    .flatMap((d) => (d.scope === "set" ? [0] : d.scope === "first_answer" ? [1] : Array.from({ length: n }, (_, r) => r + 1)).map((repetition) => ({ d, repetition })));
  return fc.tuple(...slots.map(({ d }) => fc.option(fc.integer({ min: d.min, max: d.max }), { freq: 12 }))).map((scores) =>
    slots.flatMap(({ d, repetition }, i) => (scores[i] === null ? [] : [{ rubric, dimension: d.key, repetition, score: scores[i]! } as ScoreCell])),
  );
};

const complete = (rubric: RubricKey, n: number, pick: (i: number) => number): ScoreCell[] =>
  RUBRICS[rubric].dimensions
    .filter((d) => !d.derived)
    .flatMap((d, i) =>
      (d.scope === "set" ? [0] : d.scope === "first_answer" ? [1] : Array.from({ length: n }, (_, r) => r + 1)).map((repetition) => ({
        rubric,
        dimension: d.key,
        repetition,
        score: d.min + (pick(i * 7 + repetition) % (d.max - d.min + 1)),
      })),
    );

describe("the published rubrics as documents score exactly as today's code", () => {
  it("both templates are valid documents", () => {
    expect(parseRubricDocument(scoreTemplate())).toMatchObject({ ok: true });
    expect(parseRubricDocument(safeLlmTemplate())).toMatchObject({ ok: true });
  });

  it("S.C.O.R.E.: every dimension's value and the total /25, for any cells", () => {
    const doc = scoreTemplate();
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }).chain((n) => fc.tuple(fc.constant(n), cellsOf("SCORE", n))), ([n, cells]) => {
        expect(graderValues(doc, cells, n)).toEqual(Object.fromEntries(doc.dimensions.map((d) => [d.key, graderDimensionValues("SCORE", cells, n)[d.key as "safety"]])));
        expect(total(doc, "total", cells, n)).toBe(rubricTotal("SCORE", graderDimensionValues("SCORE", cells, n)));
      }),
      { numRuns: 300 },
    );
  });

  it("SAFE-LLM: the values, the per-answer total and the overall total /7, for any cells", () => {
    const doc = safeLlmTemplate();
    const sum = (v: Record<string, number | undefined>) => (Object.values(v).length === 5 ? Object.values(v).reduce((a, b) => a! + b!, 0)! : null);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }).chain((n) => fc.tuple(fc.constant(n), cellsOf("SAFE_LLM", n))), ([n, cells]) => {
        const today = graderDimensionValues("SAFE_LLM", cells, n);
        expect(graderValues(doc, cells, n)).toEqual(Object.fromEntries(doc.dimensions.map((d) => [d.key, today[d.key as "accuracy"]])));
        expect(total(doc, "per_answer", cells, n)).toBe(rubricTotal("SAFE_LLM", today));
        const overall = total(doc, "overall", cells, n);
        const expected = sum(safeLlmOverallValues(cells, n));
        if (expected === null) expect(overall).toBeNull();
        else expect(overall).toBeCloseTo(expected, 12);
      }),
      { numRuns: 300 },
    );
  });

  it("hand-worked: a S.C.O.R.E. total and SAFE-LLM over three answers", () => {
    const score = scoreTemplate();
    const cells = complete("SCORE", 3, (i) => [4, 3, 3, 2, 3][i % 5]);
    expect(total(score, "total", cells, 3)).toBe(rubricTotal("SCORE", graderDimensionValues("SCORE", cells, 3)));
    expect(totalRange(score, score.totals[0])).toEqual({ min: 5, max: 25 });
    // SAFE-LLM: accuracy 2,1,2; comprehensiveness 1,1,2; supplementation 0,1,0; fluency 1,1,0.
    const safe = safeLlmTemplate();
    const rows: [number, number, number, number][] = [
      [2, 1, 0, 1],
      [1, 1, 1, 1],
      [2, 2, 0, 0],
    ];
    const safeCells: RubricCell[] = rows.flatMap(([a, c, s, f], i) => [
      { dimension: "accuracy", repetition: i + 1, score: a },
      { dimension: "comprehensiveness", repetition: i + 1, score: c },
      { dimension: "supplementation", repetition: i + 1, score: s },
      { dimension: "fluency", repetition: i + 1, score: f },
    ]);
    // per answer: (5/3) + (4/3) + (1/3) + 0 (accuracy differs) + (2/3) = 4
    expect(total(safe, "per_answer", safeCells, 3)).toBeCloseTo(4, 12);
    // overall: max accuracy 2 + max comprehensiveness 2 + any supplementation 1 + consistency 0 + mean fluency 2/3
    expect(total(safe, "overall", safeCells, 3)).toBeCloseTo(5 + 2 / 3, 12);
    expect(totalRange(safe, safe.totals[1])).toEqual({ min: 0, max: 7 });
  });
});

describe("totals of other instruments", () => {
  const likert = (keys: string[], extra: Partial<RubricDocument> = {}): RubricDocument => ({
    key: "t",
    name: "T",
    version: 1,
    dimensions: keys.map((key) => ({
      key,
      name: key,
      scope: "first_answer",
      scale: { kind: "ordinal", levels: [1, 2, 3, 4, 5].map((value) => ({ value, label: String(value) })) },
    })),
    totals: [{ key: "total", name: "Total", method: "sum", dimensions: keys, bands: [
      { min: 16, max: 26, label: "very poor" },
      { min: 27, max: 38, label: "poor" },
      { min: 39, max: 50, label: "fair" },
      { min: 51, max: 62, label: "good" },
      { min: 63, max: 80, label: "excellent" },
    ] }],
    headline: "total",
    ...extra,
  });

  it("a 16-item sum with DISCERN's bands: 16-80, a mean between two bands' limits in the lower one", () => {
    const keys = Array.from({ length: 16 }, (_, i) => `q${i + 1}`);
    const doc = likert(keys);
    expect(parseRubricDocument(doc)).toMatchObject({ ok: true });
    const t = doc.totals[0];
    expect(totalRange(doc, t)).toEqual({ min: 16, max: 80 });
    const cells = keys.map((k, i) => ({ dimension: k, repetition: 1, score: i < 6 ? 3 : 2 }));
    expect(total(doc, "total", cells, 1)).toBe(6 * 3 + 10 * 2);
    expect(bandOf(t, 38)).toBe("poor");
    expect(bandOf(t, 38.5)).toBe("poor");
    expect(bandOf(t, 39)).toBe("fair");
    expect(bandOf(t, 80)).toBe("excellent");
    expect(bandOf(t, 15)).toBeNull();
    expect(total(doc, "total", cells.slice(1), 1)).toBeNull();
  });

  it("percent of applicable items (PEMAT): N/A left out of both the points and the count", () => {
    const items = ["u1", "u2", "u3", "u4", "a1"];
    const doc: RubricDocument = {
      key: "p",
      name: "P",
      version: 1,
      dimensions: items.map((key) => ({
        key,
        name: key,
        scope: "first_answer",
        scale: { kind: "ordinal", allowNA: true, levels: [{ value: 0, label: "Disagree" }, { value: 1, label: "Agree" }] },
      })),
      totals: [{ key: "understandability", name: "U", method: "percent_applicable", dimensions: ["u1", "u2", "u3", "u4"] }],
      headline: "understandability",
    };
    expect(parseRubricDocument(doc)).toMatchObject({ ok: true });
    const cells: RubricCell[] = [
      { dimension: "u1", repetition: 1, score: 1 },
      { dimension: "u2", repetition: 1, score: 0 },
      { dimension: "u3", repetition: 1, score: null, na: true },
      { dimension: "u4", repetition: 1, score: 1 },
    ];
    expect(total(doc, "understandability", cells, 1)).toBeCloseTo((100 * 2) / 3, 12);
    expect(total(doc, "understandability", cells.map((c) => ({ ...c, score: null, na: true })), 1)).toBeNull();
    // On a 1-5 scale an item counts its share of the scale: 3 is half way, 5 all of it.
    const likertDoc: RubricDocument = { ...doc, dimensions: doc.dimensions.map((d) => ({ ...d, scale: { ...d.scale, levels: [1, 2, 3, 4, 5].map((value) => ({ value, label: String(value) })) } })) };
    const likertCells: RubricCell[] = [
      { dimension: "u1", repetition: 1, score: 3 },
      { dimension: "u2", repetition: 1, score: 5 },
      { dimension: "u3", repetition: 1, score: null, na: true },
      { dimension: "u4", repetition: 1, score: 1 },
    ];
    expect(total(likertDoc, "understandability", likertCells, 1)).toBeCloseTo(50, 12);
  });

  it("criteria score (HealthBench): met points over positive points, clipped to 0-1, each answer then their mean", () => {
    const doc: RubricDocument = {
      key: "hb",
      name: "HB",
      version: 1,
      dimensions: [{ key: "criteria", name: "Criteria", scope: "each_answer", scale: { kind: "criteria" } }],
      totals: [{ key: "score", name: "Score", method: "criteria_score", dimension: "criteria" }],
      headline: "score",
    };
    expect(parseRubricDocument(doc)).toMatchObject({ ok: true });
    const criteria = [
      { id: "c1", text: "Advises emergency care", points: 5 },
      { id: "c2", text: "Mentions dosage", points: 3 },
      { id: "c3", text: "Recommends an unsafe drug", points: -4 },
    ];
    expect(criteriaScore(criteria, new Map([["c1", true], ["c2", false], ["c3", false]]))).toBeCloseTo(5 / 8, 12);
    expect(criteriaScore(criteria, new Map([["c1", false], ["c2", true], ["c3", true]]))).toBe(0); // -1/8 clipped
    expect(criteriaScore(criteria, new Map([["c1", true], ["c2", true]]))).toBeNull(); // c3 unmarked
    expect(criteriaScore([criteria[2]], new Map([["c3", false]]))).toBeNull(); // nothing to earn: no score, not a division by zero
    const mark = (r: number, met: string[]) => criteria.map((c) => ({ dimension: "criteria", repetition: r, criterion: c.id, score: met.includes(c.id) ? 1 : 0 }));
    const cells = [...mark(1, ["c1", "c2"]), ...mark(2, ["c1", "c3"])];
    expect(total(doc, "score", cells, 2, { criteria })).toBeCloseTo((1 + 1 / 8) / 2, 12);
  });
});

describe("bad rubric documents: every problem with its path", () => {
  const base = (): RubricDocument => scoreTemplate();
  const problems = (doc: unknown) => {
    const r = parseRubricDocument(doc);
    return r.ok ? [] : r.problems;
  };

  it("duplicate keys, levels out of order, a derived rule naming a missing dimension, a threshold outside the scale", () => {
    const doc = base();
    doc.dimensions[1].key = "safety";
    doc.dimensions[2].scale.levels = [{ value: 1, label: "a" }, { value: 3, label: "b" }, { value: 2, label: "c" }];
    doc.dimensions[3].threshold = 9;
    doc.dimensions[4].derived = { rule: "equal_across_answers", of: "nowhere" };
    expect(problems(doc)).toEqual(
      expect.arrayContaining([
        { path: "dimensions.1.key", message: expect.stringMatching(/used twice/) },
        { path: "dimensions.2.scale.levels.2.value", message: expect.stringMatching(/lowest value to the highest/) },
        { path: "dimensions.3.threshold", message: expect.stringMatching(/larger than the scale's spread/) },
        { path: "dimensions.4.derived.of", message: expect.stringMatching(/no dimension "nowhere"/) },
      ]),
    );
  });

  it("schema problems: a missing name, a bad key, an unknown scale kind, a total naming a missing dimension", () => {
    expect(problems({ ...base(), name: "" })).toEqual([expect.objectContaining({ path: "name" })]);
    expect(problems({ ...base(), key: "Has Spaces" })).toEqual([expect.objectContaining({ path: "key" })]);
    const doc = base();
    (doc.dimensions[0].scale as { kind: string }).kind = "slider";
    expect(problems(doc)).toEqual([expect.objectContaining({ path: "dimensions.0.scale.kind" })]);
    expect(problems({ ...base(), totals: [{ key: "t", name: "T", method: "sum", dimensions: ["safety", "ghost"] }], headline: "t", exports: undefined })).toEqual([
      { path: "totals.0.dimensions.1", message: 'no dimension "ghost"' },
    ]);
    expect(problems({ ...base(), headline: "nope" })).toEqual([{ path: "headline", message: 'no total "nope"' }]);
  });

  it("one answer per prompt: set-scoped and derived dimensions are refused by name", () => {
    expect(repetitionProblems(scoreTemplate(), 1)).toEqual([{ path: "dimensions.3.scope", message: expect.stringMatching(/Reproducibility/) }]);
    expect(repetitionProblems(safeLlmTemplate(), 1)).toEqual([{ path: "dimensions.3.derived", message: expect.stringMatching(/Consistency/) }]);
    expect(repetitionProblems(scoreTemplate(), 3)).toEqual([]);
  });
});
