import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { agreementParadox, agreementRows, designOf, dimensionMatrix, escalationRate, matrixAgreement, triggerRates, type PrimarySet } from "@/lib/analytics/agreement";
import type { RubricDocument } from "@/lib/rubrics/document";
import { findDisagreements, type GraderRubricValues, type Thresholds } from "@/lib/scoring/escalation";
import type { DimensionValue } from "@/lib/scoring/rubric-values";
import { cellLayout, decodeCells, decodeRow, encodeCell } from "@/lib/analytics/grader-cells";
import { templateRubrics } from "@/lib/rubrics/study-rubrics";
import { DEFAULT_THRESHOLDS } from "@/lib/rubrics/thresholds";
import { graderRubricValues, type StoredCell } from "@/lib/scoring/study-values";

const RUBRICS = templateRubrics(["SCORE", "SAFE_LLM"]);
const [SCORE, SAFE_LLM] = RUBRICS;
const LAYOUT = cellLayout(RUBRICS);
import { gwetAC2, icc, krippendorffAlpha } from "@/lib/stats";

describe("agreement statistics of one rating matrix", () => {
  const rows = [
    [5, 4],
    [4, 4],
    [2, 3],
    [5, 5],
    [1, 3],
    [3, 3],
  ];

  it("are lib/stats' coefficients on that matrix: AC2 quadratic over the full scale, Krippendorff ordinal, ICC by design", () => {
    const a = matrixAgreement(rows, [1, 5], "pool");
    expect(a.gwetAC2.value).toBe(gwetAC2(rows, { categories: [1, 2, 3, 4, 5], weights: "quadratic" }).coefficient);
    expect(a.gwetAC2.ci).toEqual(gwetAC2(rows, { categories: [1, 2, 3, 4, 5], weights: "quadratic" }).ci);
    expect(a.krippendorff.value).toBe(krippendorffAlpha(rows, { level: "ordinal" }).alpha);
    expect(a.icc.value).toBe(icc(rows, { type: "ICC1k" }).icc);
    expect(a.iccSingle.value).toBeCloseTo(icc(rows, { type: "ICC1" }).icc!, 12);
    expect(a.iccSingle.ci![0]).toBeCloseTo(icc(rows, { type: "ICC1" }).ci![0], 12);
    expect(a.iccSingle.ci![1]).toBeCloseTo(icc(rows, { type: "ICC1" }).ci![1], 12);
    const crossed = matrixAgreement(rows, [1, 5], "crossed");
    expect(crossed.icc.value).toBe(icc(rows, { type: "ICC2k" }).icc);
    expect(crossed.iccSingle.value).toBeCloseTo(icc(rows, { type: "ICC2" }).icc!, 12);
    expect(crossed.iccSingle.ci![0]).toBeCloseTo(icc(rows, { type: "ICC2" }).ci![0], 12);
    expect(crossed.iccSingle.ci![1]).toBeCloseTo(icc(rows, { type: "ICC2" }).ci![1], 12);
  });

  it("counts exact and within-one agreement over every pair of ratings of a unit", () => {
    const a = matrixAgreement(rows, [1, 5], "pool");
    expect(a).toMatchObject({ units: 6, raters: 2, pairs: 6 });
    expect(a.exact.value).toBe(3 / 6);
    expect(a.withinOne.value).toBe(5 / 6);
    // three raters: 3 pairs per unit; a missing rating removes its pairs
    const three = matrixAgreement(
      [
        [1, 1, 2],
        [2, null, 2],
      ],
      [0, 2],
      "pool",
    );
    expect(three).toMatchObject({ units: 2, raters: 3, pairs: 4 });
    expect(three.exact.value).toBe(2 / 4);
    expect(three.withinOne.value).toBe(1);
  });

  it("gives null values with reasons when nothing was rated twice", () => {
    const a = matrixAgreement([[3, null], [null, 4]], [1, 5], "pool");
    expect(a.units).toBe(0);
    for (const e of [a.gwetAC2, a.krippendorff, a.icc, a.exact, a.withinOne]) {
      expect(e.value).toBeNull();
      expect(e.ci).toBeNull();
      expect(e.reason).toBeTruthy();
    }
  });
});

const cells = (score: [number, number, number, number, number], safe: [number, number, number, number][]): number[] => {
  const S = "SCORE";
  const F = "SAFE_LLM";
  const out: StoredCell[] = [
    { rubric: S, dimension: "safety", repetition: 1, score: score[0] },
    { rubric: S, dimension: "consensus_context", repetition: 1, score: score[1] },
    { rubric: S, dimension: "objectivity", repetition: 1, score: score[2] },
    { rubric: S, dimension: "reproducibility", repetition: 0, score: score[3] },
    { rubric: S, dimension: "explainability", repetition: 1, score: score[4] },
  ];
  safe.forEach(([a, c, s, f], i) =>
    out.push(
      { rubric: F, dimension: "accuracy", repetition: i + 1, score: a },
      { rubric: F, dimension: "comprehensiveness", repetition: i + 1, score: c },
      { rubric: F, dimension: "supplementation", repetition: i + 1, score: s },
      { rubric: F, dimension: "fluency", repetition: i + 1, score: f },
    ),
  );
  return out.map((c) => encodeCell(LAYOUT, c));
};

function primarySet(id: string, graders: string[], forms: number[][]): PrimarySet {
  return { setId: id, graderIds: graders, tables: forms.map((f) => decodeRow(LAYOUT, f)), values: forms.map((f) => graderRubricValues(RUBRICS, decodeCells(LAYOUT, f), 3)) };
}

describe("the agreement table", () => {
  const good: [number, number, number, number][] = [
    [2, 2, 1, 1],
    [2, 2, 1, 1],
    [2, 1, 1, 1],
  ];
  const mixed: [number, number, number, number][] = [
    [2, 2, 0, 1],
    [1, 2, 1, 1],
    [2, 1, 1, 0],
  ];
  const sets = [
    primarySet("s1", ["g1", "g2"], [cells([5, 4, 4, 4, 4], good), cells([5, 4, 4, 4, 3], good)]),
    primarySet("s2", ["g2", "g3"], [cells([2, 3, 4, 3, 3], mixed), cells([5, 3, 4, 3, 3], good)]),
    primarySet("s3", ["g1", "g3"], [cells([3, 3, 4, 2, 2], mixed), cells([3, 2, 5, 2, 2], mixed)]),
  ];

  it("rates S.C.O.R.E. per set, SAFE-LLM per-answer domains per answer, consistency per set", () => {
    expect(dimensionMatrix(sets, SCORE, "safety", 3)).toEqual({
      unit: "set",
      rows: [
        [5, 5],
        [2, 5],
        [3, 3],
      ],
    });
    expect(dimensionMatrix(sets, SCORE, "reproducibility", 3).rows).toEqual([
      [4, 4],
      [3, 3],
      [2, 2],
    ]);
    const acc = dimensionMatrix(sets, SAFE_LLM, "accuracy", 3);
    expect(acc.unit).toBe("answer");
    expect(acc.rows).toEqual([
      [2, 2],
      [2, 2],
      [2, 2],
      [2, 2],
      [1, 2],
      [2, 2],
      [2, 2],
      [1, 1],
      [2, 2],
    ]);
    expect(dimensionMatrix(sets, SAFE_LLM, "consistency", 3).rows).toEqual([
      [1, 1],
      [0, 1],
      [0, 0],
    ]);
  });

  it("assembles one row per dimension, with the escalation rule's trigger rate and the ICC of the design", () => {
    const { design, rows } = agreementRows(sets, RUBRICS, 3, DEFAULT_THRESHOLDS);
    expect(design).toBe("pool");
    expect(rows.map((r) => r.dimension)).toEqual([
      "safety",
      "consensus_context",
      "objectivity",
      "reproducibility",
      "explainability",
      "accuracy",
      "comprehensiveness",
      "supplementation",
      "consistency",
      "fluency",
    ]);
    const safety = rows[0];
    expect(safety).toMatchObject({ rubric: "SCORE", label: "Safety", scale: [1, 5], unit: "set", units: 3, raters: 2, pairs: 3, iccType: "ICC1k", threshold: 2 });
    expect(safety.triggered.value).toBe(1 / 3); // s2: 2 vs 5
    expect(safety.gwetAC2.value).toBe(gwetAC2([[5, 5], [2, 5], [3, 3]], { categories: [1, 2, 3, 4, 5] }).coefficient);
    const consistency = rows.find((r) => r.dimension === "consistency")!;
    expect(consistency.triggered.value).toBe(1 / 3); // s2: 0 vs 1
    expect(consistency.scale).toEqual([0, 1]);
    const accuracy = rows.find((r) => r.dimension === "accuracy")!;
    expect(accuracy).toMatchObject({ unit: "answer", units: 9, threshold: 1 });
  });

  it("reads a crossed design when the same graders graded every set", () => {
    expect(designOf([primarySet("a", ["g1", "g2"], []), primarySet("b", ["g1", "g2"], [])])).toBe("crossed");
    expect(designOf([primarySet("a", ["g1", "g2"], []), primarySet("b", ["g1", "g3"], [])])).toBe("pool");
    expect(designOf([])).toBe("pool");
  });

  it("computes the escalation rate from set statuses", () => {
    expect(escalationRate(["AGREED", "AGREED", "ADJUDICATED", "AWAITING_ADJUDICATION", "AWAITING_GRADES"])).toEqual({ rate: 0.5, escalated: 2, completed: 4, reason: null });
    const none = escalationRate(["AWAITING_GRADES"]);
    expect(none.rate).toBeNull();
    expect(none.reason).toBeTruthy();
  });
});

describe("agreement on a skewed scale (the kappa paradox)", () => {
  // 40 sets, two graders: 38 agree on 5, two disagree by one point; nobody ever scores 1-3.
  const skewed: (number | null)[][] = [...Array.from({ length: 38 }, () => [5, 5]), [5, 4], [4, 5]];

  it("counts the ratings of each value of the scale, the unused ones as 0", () => {
    const a = matrixAgreement(skewed, [1, 5], "pool");
    expect(a.distribution).toEqual([
      { value: 1, count: 0 },
      { value: 2, count: 0 },
      { value: 3, count: 0 },
      { value: 4, count: 2 },
      { value: 5, count: 78 },
    ]);
  });

  it("explains a high AC2 beside a low alpha with the share of the commonest score", () => {
    const a = matrixAgreement(skewed, [1, 5], "pool");
    expect(a.gwetAC2.value!).toBeGreaterThan(0.9);
    expect(a.krippendorff.value!).toBeLessThan(0.1);
    const why = agreementParadox(a)!;
    expect(why).toMatch(/^98% of the ratings are 5, graders gave the same score 95% of the time\./);
    expect(why).toMatch(/kappa paradox/);
  });

  it("says nothing when the coefficients agree", () => {
    const spread: (number | null)[][] = [[1, 1], [2, 2], [3, 3], [4, 4], [5, 5], [1, 2], [4, 5], [3, 3]];
    expect(agreementParadox(matrixAgreement(spread, [1, 5], "pool"))).toBeNull();
  });
});

describe("trigger rates", () => {
  const levels = [1, 2, 3, 4, 5].map((value) => ({ value, label: `${value}` }));
  const doc: RubricDocument = {
    key: "mixed",
    name: "Mixed",
    version: 1,
    dimensions: [
      { key: "clarity", name: "Clarity", scope: "first_answer", threshold: 2, scale: { kind: "ordinal", allowNA: true, levels } },
      { key: "depth", name: "Depth", scope: "each_answer", scale: { kind: "ordinal", levels } },
      { key: "axis", name: "Axis", scope: "first_answer", scale: { kind: "nominal", levels: ["a", "b", "c"].map((value) => ({ value, label: value })) } },
      { key: "met", name: "Met", scope: "first_answer", scale: { kind: "criteria" } },
    ],
    totals: [],
  };
  const value = (key: string): fc.Arbitrary<DimensionValue> =>
    key === "axis"
      ? fc.constantFrom<DimensionValue>(undefined, "a", "b", "c")
      : key === "met"
        ? fc.constantFrom<DimensionValue>(undefined, 0, 0.5, 1)
        : fc.oneof(fc.constant<DimensionValue>(undefined), fc.constant<DimensionValue>("N/A"), fc.integer({ min: 1, max: 5 }), fc.double({ min: 1, max: 5, noNaN: true }));
  const grader = fc.record({ clarity: value("clarity"), depth: value("depth"), axis: value("axis"), met: value("met") }).map((v): GraderRubricValues => ({ mixed: v }));
  const sets = fc.array(fc.array(grader, { minLength: 2, maxLength: 4 }), { maxLength: 30 });

  it("count, per dimension, the sets the escalation rule (findDisagreements) escalates on it, over the sets it has two values in", () => {
    fc.assert(
      fc.property(sets, fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }), (panels, depthThreshold) => {
        const thresholds: Thresholds = depthThreshold === undefined ? {} : { mixed: { depth: depthThreshold } };
        const primary: PrimarySet[] = panels.map((values, i) => ({ setId: `s${i}`, graderIds: values.map((_, g) => `g${g}`), tables: [], values }));
        const expected = new Map(doc.dimensions.map((d) => [`mixed.${d.key}`, { triggered: 0, sets: 0 }]));
        for (const values of panels) {
          for (const d of doc.dimensions) if (values.filter((v) => v.mixed[d.key] !== undefined).length >= 2) expected.get(`mixed.${d.key}`)!.sets++;
          const byGrader = Object.fromEntries(values.map((v, g) => [`g${g}`, v]));
          for (const dis of findDisagreements(byGrader, [doc], thresholds)) expected.get(`${dis.rubric}.${dis.dimension}`)!.triggered++;
        }
        expect(triggerRates(primary, [doc], thresholds)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});
