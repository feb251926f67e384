import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { radarChart, rankingRows } from "@/lib/analytics/blocks";
import { comparisonMeasures } from "@/lib/results/measures";
import type { ModelSummary, Stat } from "@/lib/results/summary";
import type { RubricDocument } from "@/lib/rubrics/document";
import { templateRubrics } from "@/lib/rubrics/study-rubrics";

const [SCORE, SAFE_LLM] = templateRubrics(["SCORE", "SAFE_LLM"]);

const st = (mean: number | null, n = 4, sd: number | null = 0.5): Stat => ({ n, mean, sd });

function summary(model: string, specialty: string, score: number[], safe: number[], totals: { SCORE?: Stat; SAFE_LLM?: Stat } = {}): ModelSummary {
  const keysS = ["safety", "consensus_context", "objectivity", "reproducibility", "explainability"];
  const keysF = ["accuracy", "comprehensiveness", "supplementation", "consistency", "fluency"];
  return {
    model,
    specialty,
    totals: { SCORE: totals.SCORE ?? st(score.reduce((a, b) => a + b, 0)), SAFE_LLM: totals.SAFE_LLM ?? st(safe.reduce((a, b) => a + b, 0)) },
    dimensions: { SCORE: Object.fromEntries(keysS.map((k, i) => [k, st(score[i])])), SAFE_LLM: Object.fromEntries(keysF.map((k, i) => [k, st(safe[i])])) },
  };
}

describe("radar profiles", () => {
  const sums = [summary("A", "All specialties", [5, 4, 4, 3, 4], [1.5, 1, 0.5, 1, 0.75]), summary("B", "All specialties", [2, 2, 3, 3, 2], [2, 2, 1, 0, 1])];

  it("plots S.C.O.R.E. means as they are, on a 0-5 axis", () => {
    const r = radarChart(sums, SCORE, "All specialties", ["A", "B"]);
    expect(r).toMatchObject({ scale: "mean", domainMin: 1, domainMax: 5 });
    expect(r.axes.map((a) => a.label)).toEqual(["Safety", "Consensus & Context", "Objectivity", "Reproducibility", "Explainability"]);
    expect(r.series[0].points.map((p) => p.value)).toEqual([5, 4, 4, 3, 4]);
  });

  it("plots any rubric whose dimensions share a scale as means, and scales mixed scales to fractions", () => {
    const [clear] = templateRubrics(["clear"]);
    const keys = clear.dimensions.map((d) => d.key);
    const s: ModelSummary = { model: "A", specialty: "S", totals: { clear: st(20) }, dimensions: { clear: Object.fromEntries(keys.map((k, i) => [k, st(i + 1)])) } };
    const r = radarChart([s], clear, "S", ["A"]);
    expect(r).toMatchObject({ rubric: "clear", scale: "mean", domainMax: 5 });
    expect(r.series[0].points.map((p) => p.value)).toEqual([1, 2, 3, 4, 5]);
  });

  it("scales SAFE-LLM domains to their maximum: accuracy and comprehensiveness / 2, the others / 1", () => {
    const r = radarChart(sums, SAFE_LLM, "All specialties", ["A", "B"]);
    expect(r).toMatchObject({ scale: "fraction", domainMax: 1 });
    expect(r.axes.map((a) => a.max)).toEqual([2, 2, 1, 1, 1]);
    expect(r.series[0].points.map((p) => p.value)).toEqual([0.75, 0.5, 0.5, 1, 0.75]);
    expect(r.series[0].points[0].mean).toBe(1.5); // the raw mean stays available for the table
  });

  it("leaves out models without final sets in the specialty, and keeps the model order asked for", () => {
    const r = radarChart(sums, SCORE, "All specialties", ["B", "Z", "A"]);
    expect(r.series.map((s) => s.model)).toEqual(["B", "A"]);
    expect(radarChart(sums, SCORE, "Cardiology", ["A"]).series).toEqual([]);
  });

  it("keeps every SAFE-LLM point within [0, 1] for any means on the domains' scales", () => {
    fc.assert(
      fc.property(
        fc.tuple(fc.double({ min: 0, max: 2, noNaN: true }), fc.double({ min: 0, max: 2, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true })),
        (safe) => {
          const r = radarChart([summary("A", "S", [1, 1, 1, 1, 1], safe)], SAFE_LLM, "S", ["A"]);
          return r.series[0].points.every((p) => p.value! >= 0 && p.value! <= 1);
        },
      ),
    );
  });
});

describe("ranking", () => {
  it("ranks models by mean total within each specialty, ties sharing a rank", () => {
    const sums = [
      summary("A", "Oph", [], [], { SCORE: st(20, 3), SAFE_LLM: st(5, 3) }),
      summary("B", "Oph", [], [], { SCORE: st(22, 3), SAFE_LLM: st(5, 3) }),
      summary("C", "Oph", [], [], { SCORE: st(20, 3), SAFE_LLM: st(6, 3) }),
      summary("A", "All specialties", [], [], { SCORE: st(20, 3), SAFE_LLM: st(null, 0, null) }),
    ];
    const rows = rankingRows(sums, comparisonMeasures([SCORE, SAFE_LLM]));
    const oph = rows.filter((r) => r.rubric === "SCORE" && r.specialty === "Oph");
    expect(oph.map((r) => [r.model, r.rank])).toEqual([
      ["B", 1],
      ["A", 2],
      ["C", 2],
    ]);
    expect(oph[0]).toMatchObject({ n: 3, mean: 22, sd: 0.5, maxTotal: 25 });
    const safe = rows.filter((r) => r.rubric === "SAFE_LLM" && r.specialty === "Oph");
    expect(safe.map((r) => [r.model, r.rank])).toEqual([
      ["C", 1],
      ["A", 2],
      ["B", 2],
    ]);
    expect(safe[0].maxTotal).toBe(7);
    // a model with no final set in a specialty has no row there
    expect(rows.filter((r) => r.rubric === "SAFE_LLM" && r.specialty === "All specialties")).toEqual([]);
  });
});

/** A survey without a total: ordinal items on 1-3 and 1-5 (one with N/A) and a nominal item. */
const SURVEY: RubricDocument = {
  key: "survey",
  name: "Survey",
  version: 1,
  dimensions: [
    { key: "acceptability", name: "Acceptability", scope: "each_answer", scale: { kind: "ordinal", levels: [1, 2, 3].map((v) => ({ value: v, label: `a${v}` })) } },
    { key: "likelihood", name: "Likelihood of harm", scope: "each_answer", scale: { kind: "ordinal", levels: [1, 2, 3].map((v) => ({ value: v, label: `l${v}` })) } },
    { key: "extent", name: "Extent of harm", scope: "each_answer", scale: { kind: "ordinal", levels: [1, 2, 3, 4, 5].map((v) => ({ value: v, label: `e${v}` })), allowNA: true } },
    { key: "written_by", name: "Written by", scope: "first_answer", scale: { kind: "nominal", levels: [{ value: "ai", label: "AI" }, { value: "human", label: "Human" }] } },
  ],
  totals: [],
};

describe("a rubric without a total", () => {
  const sums: ModelSummary[] = [
    { model: "A", specialty: "S", totals: {}, dimensions: { survey: { acceptability: st(3, 4), likelihood: st(1, 4), extent: st(2, 2) } } },
    { model: "B", specialty: "S", totals: {}, dimensions: { survey: { acceptability: st(2, 3), likelihood: st(2, 3), extent: st(5, 3) } } },
  ];

  it("is compared on each ordinal dimension, with its scale from the document; nominal items are not ranked", () => {
    const measures = comparisonMeasures([SURVEY]);
    expect(measures.map((m) => [m.key, m.kind, m.min, m.max])).toEqual([
      ["acceptability", "dimension", 1, 3],
      ["likelihood", "dimension", 1, 3],
      ["extent", "dimension", 1, 5],
    ]);
    expect(comparisonMeasures([SURVEY], "extent").map((m) => m.key)).toEqual(["extent"]);
    const rows = rankingRows(sums, measures);
    expect(rows.filter((r) => r.measure === "acceptability").map((r) => [r.model, r.rank, r.n, r.min, r.max])).toEqual([
      ["A", 1, 4, 1, 3],
      ["B", 2, 3, 1, 3],
    ]);
    // n counts the sets with a value on the dimension: N/A left out.
    expect(rows.filter((r) => r.measure === "extent").map((r) => [r.model, r.rank, r.n])).toEqual([
      ["B", 1, 3],
      ["A", 2, 2],
    ]);
  });

  it("draws the radar from each scale's minimum: (mean - min) / (max - min), n the sets it plots", () => {
    const r = radarChart(sums, SURVEY, "S", ["A", "B"]);
    expect(r).toMatchObject({ scale: "fraction", domainMin: 0, domainMax: 1 });
    expect(r.axes.map((a) => [a.min, a.max])).toEqual([
      [1, 3],
      [1, 3],
      [1, 5],
    ]);
    expect(r.series[0].points.map((p) => p.value)).toEqual([1, 0, 0.25]);
    expect(r.series.map((s) => s.n)).toEqual([4, 3]);
  });
});
