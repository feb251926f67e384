import { describe, expect, it } from "vitest";
import { radarChart } from "@/lib/analytics/blocks";
import { cliffsSubtitle, measuresCaption, radarDescription, radarSubtitle, radarTick, radarTicks, rankingDescription } from "@/lib/analytics/captions";
import { comparisonMeasures, measureChoices } from "@/lib/results/measures";
import type { ModelSummary } from "@/lib/results/summary";
import type { RubricDocument } from "@/lib/rubrics/document";
import { templateRubrics } from "@/lib/rubrics/study-rubrics";
import { RUBRIC_TEMPLATES } from "@/lib/rubrics/templates";

const levels = (n: number) => Array.from({ length: n }, (_, i) => ({ value: i + 1, label: `Level ${i + 1}` }));
const SURVEY: RubricDocument = {
  key: "survey",
  name: "Oncology reply survey",
  version: 1,
  dimensions: [
    { key: "acceptability", name: "Acceptability", scope: "each_answer", scale: { kind: "ordinal", levels: levels(3) } },
    { key: "likelihood", name: "Likelihood of harm", scope: "each_answer", scale: { kind: "ordinal", levels: levels(3) } },
    { key: "extent", name: "Extent of harm", scope: "each_answer", scale: { kind: "ordinal", levels: levels(5), allowNA: true } },
    { key: "written_by", name: "Written by", scope: "first_answer", scale: { kind: "nominal", levels: [{ value: "ai", label: "AI" }, { value: "human", label: "Human" }] } },
  ],
  totals: [],
};
const names = (docs: RubricDocument[]) => (k: string) => docs.find((d) => d.key === k)?.name ?? k;
const INSTRUMENTS = /S\.C\.O\.R\.E\.|SAFE-LLM|SAFE_LLM|out of 25|out of 7/;

const summary = (doc: RubricDocument, means: number[], n = 6): ModelSummary => ({
  model: "A",
  specialty: "S",
  totals: {},
  dimensions: { [doc.key]: Object.fromEntries(doc.dimensions.filter((d) => d.scale.kind === "ordinal").map((d, i) => [d.key, { n: n - i, mean: means[i], sd: 0.1 }])) },
});

describe("the dashboard's captions come from the rubric documents", () => {
  it("a rubric without a total: each dimension with its own range; the nominal item is not compared; no instrument named", () => {
    const measures = comparisonMeasures([SURVEY]);
    const caption = measuresCaption(measures, names([SURVEY]));
    expect(caption).toBe("Final values compared — Oncology reply survey: Acceptability 1-3, Likelihood of harm 1-3, Extent of harm 1-5. A dimension's N/A is left out of its n.");
    expect(rankingDescription(measures, names([SURVEY]), "All specialties")).toContain("0% at its lowest value, 100% at its highest");
    expect(caption).not.toMatch(INSTRUMENTS);
    expect(measureChoices([SURVEY])).toEqual([
      { value: "total", label: "Every dimension" },
      { value: "acceptability", label: "Acceptability" },
      { value: "likelihood", label: "Likelihood of harm" },
      { value: "extent", label: "Extent of harm" },
    ]);
  });

  it("the radar's centre is the scale's minimum: a shared 1-5 scale from 1, mixed scales from each lowest value", () => {
    const mixed = radarChart([summary(SURVEY, [2, 1, 3])], SURVEY, "S", ["A"]);
    expect(radarDescription(mixed)).toBe(
      "Mean of the final scores per dimension, placed on each dimension's own scale (Acceptability 1-3, Likelihood of harm 1-3, Extent of harm 1-5): the centre is each scale's lowest value, the rim its highest.",
    );
    expect(radarTicks(mixed).map((v) => radarTick(mixed, v))).toEqual(["lowest", "25%", "50%", "75%", "highest"]);
    // n is the sets the radar plots: the most any axis has (N/A leaves an axis with fewer).
    expect(radarSubtitle(mixed)).toMatch(/; n = 6 final response sets per model$/);

    const [likert] = templateRubrics(["clear"]);
    const shared = radarChart([summary(likert, [1, 2, 3, 4, 5])], likert, "S", ["A"]);
    expect(shared).toMatchObject({ scale: "mean", domainMin: 1, domainMax: 5 });
    expect(radarTicks(shared)).toEqual([1, 2, 3, 4, 5]);
    expect(radarDescription(shared)).toBe("Mean of the final scores per dimension, on the scale 1-5: the centre is 1, the rim 5.");
  });

  it("every template's captions name its own document's total and range, and no other instrument", () => {
    for (const t of RUBRIC_TEMPLATES) {
      const doc = t.build();
      const measures = comparisonMeasures([doc]);
      const caption = measuresCaption(measures, names([doc]));
      for (const m of measures) expect(caption, doc.key).toContain(`${m.kind === "total" ? `${m.label} (total)` : m.label} ${m.min}-${m.max}`);
      // An all-nominal instrument has nothing ordered to compare models on, and says so.
      if (measures.length === 0) expect(caption).toBe("No ordinal dimension or total to compare models on.");
      else expect(caption, doc.key).toContain(doc.name);
      const others = RUBRIC_TEMPLATES.map((x) => x.build().name).filter((n) => n !== doc.name && !doc.name.includes(n));
      for (const other of others) expect(caption.includes(other), `${doc.key} names ${other}`).toBe(false);
    }
  });

  it("the Cliff's delta figure's n counts the sets behind its cells", () => {
    expect(cliffsSubtitle([4, 3, 4, 4], 1000)).toBe("n = 3-4 final response sets per model and specialty with a value on this measure; 1,000-resample bootstrap 95% CIs in the CSV");
    expect(cliffsSubtitle([8, 8], 200)).toMatch(/^n = 8 /);
  });
});
