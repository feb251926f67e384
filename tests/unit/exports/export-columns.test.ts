import { describe, expect, it } from "vitest";
import { scoreLongHeader, scoreLongRows, setMetricMeans, setsHeader, summaryRows, type SummaryDocument } from "@/lib/exports/results";
import type { SetResult } from "@/lib/results/sets";
import type { ModelSummary } from "@/lib/results/summary";
import { parseRubricDocument, type RubricDocument } from "@/lib/rubrics/document";
import { storedRubrics, templateRubrics } from "@/lib/rubrics/study-rubrics";
import { oncologySurvey } from "../rubrics/oncology-survey";

/**
 * The names an export gives a rubric's columns come from its document (`exports`), never from
 * which instrument it is: a lead's own rubric that declares them gets them, and a rubric that
 * declares none gets columns named from its keys.
 */

/** The oncology survey as a study whose published analysis code reads its own long header. */
function surveyWithLongColumns(): RubricDocument {
  return {
    ...oncologySurvey(),
    exports: {
      longColumns: [
        { dimension: "acceptability", column: "Acceptable" },
        { dimension: "harm_extent", column: "HarmExtent" },
        { dimension: "written_by", column: "Author" },
      ],
    },
  };
}

function set(finalScores: SetResult["finalScores"], totals: SetResult["totals"] = null): SetResult {
  return {
    id: "s1",
    itemId: "i1",
    externalId: "q7",
    specialty: "oncology",
    model: { id: "m1", name: "gpt-x", version: "1" },
    status: "AGREED",
    graders: 2,
    finalScores,
    totals,
    bands: null,
  };
}

/** A lead's rubric with two totals, an alias and its own total columns. */
function twoTotals(exports?: RubricDocument["exports"]): RubricDocument {
  const ordinal = { kind: "ordinal" as const, levels: [0, 1, 2].map((value) => ({ value, label: `L${value}` })) };
  return {
    key: "own",
    name: "Own",
    version: 1,
    dimensions: [
      { key: "a", name: "A", scope: "first_answer", scale: ordinal },
      { key: "b", name: "B", scope: "first_answer", scale: ordinal },
    ],
    totals: [
      { key: "main", name: "Main", method: "sum", dimensions: ["a", "b"], alias: "mainTotal" },
      { key: "side", name: "Side", method: "sum", dimensions: ["a"] },
    ],
    headline: "main",
    ...(exports ? { exports } : {}),
  };
}

describe("the long analysis format's columns", () => {
  it("a rubric that names its long columns gets exactly that header, its values under them", () => {
    const doc = surveyWithLongColumns();
    expect(parseRubricDocument(doc)).toEqual({ ok: true, rubric: doc });
    expect(scoreLongHeader([doc])).toEqual(["domain", "model", "response_id", "Acceptable", "HarmExtent", "Author"]);
    const rows = scoreLongRows([set({ oncqa_survey: { acceptability: 2.5, harm_extent: "N/A", written_by: "ai", efficiency: 3 } })], [doc]);
    expect(rows).toEqual([{ domain: "oncology", model: "gpt-x", response_id: "q7-gpt-x", Acceptable: 2.5, HarmExtent: "NA", Author: "ai" }]);
  });

  it("it wins over the other rubrics of the study; a rubric naming none has one column per dimension", () => {
    const named = surveyWithLongColumns();
    expect(scoreLongHeader([twoTotals(), named])).toEqual(["domain", "model", "response_id", "Acceptable", "HarmExtent", "Author"]);
    expect(scoreLongHeader([oncologySurvey()])).toEqual(["domain", "model", "response_id", "acceptability", "harm_likelihood", "harm_extent", "efficiency", "written_by"]);
  });

  it("refuses a column the format already has", () => {
    const twice = { ...oncologySurvey(), exports: { longColumns: [{ dimension: "acceptability", column: "model" }] } };
    expect(parseRubricDocument(twice)).toEqual({ ok: false, problems: [{ path: "exports.longColumns.0.column", message: 'the column "model" is used twice' }] });
  });

  it("a stored published document written before export names takes its template's", () => {
    const [published] = templateRubrics(["score"]);
    const { exports, ...stored } = published;
    expect(exports?.longColumns).toBeDefined();
    expect(scoreLongHeader(storedRubrics([stored]))).toEqual(scoreLongHeader([published]));
  });
});

describe("the sets export's total columns and the summary's total rows", () => {
  it("a rubric that names its total columns gets them, reading headline, percent, a total or an alias", () => {
    const doc = twoTotals({ totalColumns: [{ column: "own_sum", value: "mainTotal" }, { column: "own_pct", value: "percent" }, { column: "own_lead", value: "headline" }] });
    expect(parseRubricDocument(doc)).toEqual({ ok: true, rubric: doc });
    expect(setsHeader([doc]).filter((c) => c.startsWith("own_"))).toEqual(["own_a", "own_b", "own_sum", "own_pct", "own_lead"]);
    expect(setsHeader([twoTotals()]).filter((c) => c.startsWith("own_"))).toEqual(["own_a", "own_b", "own_total_main", "own_total_side"]);
  });

  it("refuses a total column naming no total", () => {
    const doc = twoTotals({ totalColumns: [{ column: "own_sum", value: "nothing" }] });
    expect(parseRubricDocument(doc)).toEqual({ ok: false, problems: [{ path: "exports.totalColumns.0.value", message: 'no total "nothing"' }] });
  });

  it("the summary lists each total of a rubric with several, in its document's order, an aliased one under its alias", () => {
    const stat = { n: 1, mean: 1, sd: null };
    const model: ModelSummary = { model: "gpt-x", specialty: "oncology", totals: { own: stat, own_side: stat, own_mainTotal: stat }, dimensions: {} };
    const doc = { study: "s", rubrics: ["own"], models: [model], alpha: [], cliffsDelta: [], harmFlags: [], judgeVsPanel: [] } as unknown as SummaryDocument;
    const measures = summaryRows(doc, [twoTotals()]).map((r) => r.measure);
    expect(measures).toEqual(["total", "total_main", "total_side"]);
  });
});

describe("reference-based metrics in the exports", () => {
  it("score-long adds bleu, rouge1, rougeL last only when asked (a study with reference answers): the means over the set's answers", () => {
    const doc = surveyWithLongColumns();
    expect(scoreLongHeader([doc])).toEqual(["domain", "model", "response_id", "Acceptable", "HarmExtent", "Author"]);
    expect(scoreLongHeader([doc], true).slice(-3)).toEqual(["bleu", "rouge1", "rougeL"]);
    const s = {
      ...set({ [doc.key]: { acceptability: 2.5, harm_extent: "N/A", written_by: "ai" } }),
      answers: [
        { repetition: 1, bleu: 0.2, rouge1: 0.5, rougeL: 0.25, embeddingSimilarity: 0.5 },
        { repetition: 2, bleu: 0.4, rouge1: 0.7, rougeL: null, embeddingSimilarity: -0.25 },
        { repetition: 3, bleu: null, rouge1: null, rougeL: null, embeddingSimilarity: null },
      ],
    };
    const [row] = scoreLongRows([s], [doc], true);
    expect(row).toMatchObject({ bleu: 0.3, rouge1: 0.6, rougeL: 0.25 });
    expect(scoreLongRows([s], [doc])[0]).not.toHaveProperty("bleu");
    expect(setMetricMeans({ answers: [] })).toEqual({ bleu: null, rouge1: null, rougeL: null });
    expect(setsHeader([doc]).slice(-4)).toEqual(["bleu", "rouge1", "rougeL", "answer_metrics"]);
  });

  it("embedding_similarity follows them only when some answer has one: the mean over the set's answers that have one", () => {
    const doc = surveyWithLongColumns();
    expect(scoreLongHeader([doc], true, true).slice(-4)).toEqual(["bleu", "rouge1", "rougeL", "embedding_similarity"]);
    expect(setsHeader([doc], true).slice(-5)).toEqual(["bleu", "rouge1", "rougeL", "embedding_similarity", "answer_metrics"]);
    const s = {
      ...set({ [doc.key]: { acceptability: 2.5, harm_extent: "N/A", written_by: "ai" } }),
      answers: [
        { repetition: 1, bleu: 0.2, rouge1: 0.5, rougeL: 0.25, embeddingSimilarity: 0.5 },
        { repetition: 2, bleu: 0.4, rouge1: 0.7, rougeL: null, embeddingSimilarity: -0.25 },
        { repetition: 3, bleu: 0.1, rouge1: 0.1, rougeL: 0.1, embeddingSimilarity: null },
      ],
    };
    expect(scoreLongRows([s], [doc], true, true)[0]).toMatchObject({ embedding_similarity: 0.125 });
    expect(scoreLongRows([s], [doc], true)[0]).not.toHaveProperty("embedding_similarity");
  });
});
