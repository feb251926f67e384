import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { RubricIntro, SetFields, type FormParts } from "@/components/grading/rubric-sections";
import { gradingFields, liveTotals, NO_PROBLEMS, setScore, type FormState, type StudyShape } from "@/lib/grading/form-state";
import { buildJudgePrompt } from "@/lib/judges/runner/prompt";
import { parseRubricDocument, rubricInstructions, rubricProblems, type RubricDocument } from "@/lib/rubrics/document";
import { rubricTemplate } from "@/lib/rubrics/templates";
import { storedRubrics, templateRubrics, withTemplateProperties } from "@/lib/rubrics/study-rubrics";
import { describeTotals, finalScoresOf, headlineOf } from "@/lib/scoring/final-scores";
import { oncologySurvey } from "./oncology-survey";

/**
 * What an instrument needs beyond the generic document is a property of the document: the
 * code reads the property, never the instrument's name. These pin each property on a rubric
 * that is not one of the published instruments, and the published ones through their templates.
 */

const ordinal = (min: number, max: number) => ({ kind: "ordinal" as const, levels: Array.from({ length: max - min + 1 }, (_, i) => ({ value: min + i, label: `Level ${min + i}` })) });

/** A lead's own rubric scored on every answer, with a derived agreement and a second scoring. */
function ownPerAnswer(): RubricDocument {
  return {
    key: "own_points",
    name: "Own points",
    version: 1,
    instructions: "Score each answer.",
    dimensions: [
      { key: "correct", name: "Correct", scope: "each_answer", scale: ordinal(0, 2) },
      { key: "clear", name: "Clear", scope: "each_answer", scale: ordinal(0, 1) },
      {
        key: "stable",
        name: "Stable",
        scope: "set",
        scale: ordinal(0, 1),
        derived: { rule: "equal_across_answers", of: "correct" },
        instructions: "Stable is computed from your Correct scores.",
      },
    ],
    totals: [
      { key: "by_answer", name: "Points per answer (/4)", method: "sum", dimensions: ["correct", "clear", "stable"], perAnswer: true, alias: "byAnswer" },
      { key: "best", name: "Best answer (/4)", method: "sum", dimensions: ["correct", "clear", "stable"], across: { correct: "max", clear: "max" } },
    ],
    headline: "by_answer",
    overallHeadline: "best",
  };
}

function parts(study: StudyShape, state: FormState): FormParts {
  return {
    study,
    fields: gradingFields(study),
    state,
    problems: NO_PROBLEMS,
    readOnly: false,
    answers: Array.from({ length: study.repetitions }, (_, i) => ({ repetition: i + 1, body: `answer ${i + 1}` })),
    totals: liveTotals(state, study),
    onScore: () => {},
    onComment: () => {},
    onCommentBlur: () => {},
  };
}
const intro = (study: StudyShape, state: FormState = { scores: {}, comments: {}, harm: { flag: false, comment: "" }, contradiction: { flag: false, note: "" } }) =>
  study.rubrics.map((rubric) => renderToStaticMarkup(createElement(RubricIntro, { ...parts(study, state), rubric }))).join("\n");
const setPart = (study: StudyShape, state: FormState) => renderToStaticMarkup(createElement(SetFields, parts(study, state)));
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replaceAll("&#x27;", "'")
    .replace(/\s+/g, " ")
    .replace(/\( /g, "(")
    .replace(/ ([).,])/g, "$1");

describe("instructions that depend on N come from the document", () => {
  it("an N = 1 S.C.O.R.E. study drops Reproducibility and what its instructions said of it", () => {
    const [three] = templateRubrics(["score"], 3);
    const [one] = templateRubrics(["score"], 1);
    expect(one.dimensions.map((d) => d.key)).not.toContain("reproducibility");
    expect(rubricInstructions(three)).toMatch(/Reproducibility once, comparing all the answers/);
    expect(rubricInstructions(one)).not.toMatch(/Reproducibility|all the answers/);
    expect(rubricInstructions(one)).toMatch(/1 Strongly disagree … 5 Strongly agree/);

    // The grader's form and the judge's prompt read the same instructions.
    expect(text(intro({ rubrics: [one], repetitions: 1 }))).not.toMatch(/Reproducibility|all the answers/);
    expect(text(intro({ rubrics: [three], repetitions: 3 }))).toMatch(/Reproducibility once, comparing all the answers/);
    const unit = { rubric: one.key, repetition: 1, dimensions: one.dimensions };
    const prompt = buildJudgePrompt({ rubric: one, unit, question: "Q?", answers: new Map([[1, "A."]]) } as unknown as Parameters<typeof buildJudgePrompt>[0]);
    expect(prompt.map((m) => m.content).join("\n")).not.toMatch(/Reproducibility/);
  });

  it("so does an N = 1 study stored before the dimension carried its own sentence", () => {
    const [one] = templateRubrics(["score"], 1);
    const legacy = { ...one, instructions: rubricTemplate("score")!.formerInstructions![0], dimensions: one.dimensions.map(({ instructions: _drop, ...d }) => d) };
    expect(legacy.instructions).toMatch(/Reproducibility/);
    const [read] = storedRubrics([legacy]);
    expect(rubricInstructions(read)).not.toMatch(/Reproducibility/);
    expect(rubricInstructions(read)).toBe(rubricInstructions(one));
  });

  it("a dimension's sentence is said after the rubric's, only while the dimension is there", () => {
    const doc = ownPerAnswer();
    expect(rubricInstructions(doc)).toBe("Score each answer. Stable is computed from your Correct scores.");
    expect(rubricInstructions({ ...doc, dimensions: doc.dimensions.filter((d) => d.key !== "stable") })).toBe("Score each answer.");
    expect(rubricInstructions(oncologySurvey())).toBe("Read the patient's message and the draft reply, then rate the reply.");
  });
});

describe("the document's own properties", () => {
  it("checks each against the rest of the document", () => {
    const doc = ownPerAnswer();
    expect(parseRubricDocument(doc)).toMatchObject({ ok: true });
    const problems = (d: RubricDocument) => rubricProblems(d).map((p) => `${p.path}: ${p.message}`);
    expect(problems({ ...doc, overallHeadline: "nope" })).toEqual(['overallHeadline: no total "nope"']);
    expect(problems({ ...doc, totals: [doc.totals[0], { ...doc.totals[1], alias: "byAnswer" }] })).toEqual(['totals.1.alias: the alias "byAnswer" is already a key of the final totals']);
    expect(problems({ ...doc, totals: [{ ...doc.totals[0], alias: "best" }, doc.totals[1]] })).toEqual(['totals.0.alias: the alias "best" is already a key of the final totals']);
    // A total shown answer by answer must be the mean of the answers' totals.
    const best = doc.totals[1] as Extract<RubricDocument["totals"][number], { method: "sum" }>;
    expect(problems({ ...doc, totals: [doc.totals[0], { ...best, perAnswer: true }] })).toEqual([
      'totals.1.perAnswer: "correct" counts by its max across the answers: the mean of the answers\' totals would not be this total',
      'totals.1.perAnswer: "clear" counts by its max across the answers: the mean of the answers\' totals would not be this total',
    ]);
    const survey = oncologySurvey();
    const withTotal: RubricDocument = { ...survey, totals: [{ key: "t", name: "T", method: "sum", dimensions: ["acceptability"], perAnswer: true }], headline: "t" };
    expect(problems(withTotal)).toEqual(["totals.0.perAnswer: a total per answer counts at least one dimension scored on each answer"]);
  });

  it("leads with overallHeadline under the study's overall scoring, whatever the rubric is called", () => {
    const own = ownPerAnswer();
    expect(headlineOf(own, { safeLlmScoring: "PER_ANSWER" })).toBe("by_answer");
    expect(headlineOf(own, { safeLlmScoring: "OVERALL" })).toBe("best");
    const [safe] = templateRubrics(["safe_llm"]);
    expect(headlineOf(safe, { safeLlmScoring: "OVERALL" })).toBe("overall");
    // The key alone decides nothing: a document without the property leads with its headline.
    expect(headlineOf({ ...safe, overallHeadline: undefined }, { safeLlmScoring: "OVERALL" })).toBe("per_answer");
    expect(headlineOf(oncologySurvey(), { safeLlmScoring: "OVERALL" })).toBeUndefined();
  });

  it("gives a total under its alias too", () => {
    const study = { rubrics: [ownPerAnswer()], repetitions: 2, safeLlmScoring: "OVERALL" as const };
    const totals = { own_points: { by_answer: 3, best: 4 } };
    const { totals: out } = finalScoresOf(study, "AGREED", [1], { values: () => ({ own_points: {} }), totals: () => totals });
    expect(out!.own_points).toEqual({ by_answer: 3, byAnswer: 3, best: 4, headline: 4, percent: 100 });
  });

  it("says the totals of each rubric from its documents", () => {
    const study = { rubrics: [...templateRubrics(["clear"]), oncologySurvey()], safeLlmScoring: "PER_ANSWER" as const };
    expect(describeTotals(study)).toBe("CLEAR: CLEAR score 5–25; Oncology reply survey has no total: each dimension stands alone");
    expect(describeTotals({ rubrics: [ownPerAnswer()], safeLlmScoring: "OVERALL" })).toBe("Own points: Points per answer 0–4, Best answer 0–4 (the headline)");
  });
});

describe("the grading form reads the properties", () => {
  it("scores a per-answer total answer by answer, with what is derived, on any rubric", () => {
    const study: StudyShape = { rubrics: [ownPerAnswer()], repetitions: 2 };
    let state: FormState = { scores: {}, comments: {}, harm: { flag: false, comment: "" }, contradiction: { flag: false, note: "" } };
    for (const [k, v] of Object.entries({ "own_points/correct/1": 2, "own_points/clear/1": 1, "own_points/correct/2": 1, "own_points/clear/2": 0 })) state = setScore(state, k, v);
    const set = text(setPart(study, state));
    expect(set).toMatch(/Stable derived, 0–1/);
    expect(set).toMatch(/Your correct scores differ between the answers \(2, 1\)/);
    // Answer 1: 2 + 1 + stable 0 = 3; answer 2: 1 + 0 + 0 = 1; mean 2.
    expect(set).toMatch(/Answer 1 3 0 3 Answer 2 1 0 1 Mean 2/);
    const head = text(intro(study, state));
    expect(head).toMatch(/Mean of the 2 answers 2 \/ 4/);
    expect(head).toMatch(/2 dimensions per answer \+ stable/);
  });

  it("shows a rubric without totals with its instructions only, naming no instrument", () => {
    const html = intro({ rubrics: [oncologySurvey()], repetitions: 1 });
    expect(text(html)).toMatch(/Oncology reply survey Read the patient's message and the draft reply, then rate the reply\. Source: the study's own rubric\./);
    expect(html).not.toMatch(/S\.C\.O\.R\.E\.|SAFE-LLM|total-/);
  });

  it("keeps the published rubrics' totals as graders knew them", () => {
    const study: StudyShape = { rubrics: templateRubrics(["score", "safe_llm"]), repetitions: 3 };
    const head = text(intro(study));
    expect(head).toMatch(/S\.C\.O\.R\.E\. total 0 \/ 25 0 of 5 dimensions scored/);
    expect(head).toMatch(/Mean of the 3 answers — \/ 7 4 dimensions per answer \+ consistency/);
  });
});

describe("documents stored before these properties", () => {
  it("take them from their template, and nothing else", () => {
    const [safe] = templateRubrics(["safe_llm"]);
    const legacy = {
      ...safe,
      instructions: rubricTemplate("safe_llm")!.formerInstructions![0],
      overallHeadline: undefined,
      totals: safe.totals.map(({ alias: _a, ...t }) => ("perAnswer" in t ? (({ perAnswer: _p, ...rest }) => rest)(t) : t)),
      dimensions: safe.dimensions.map(({ instructions: _i, ...d }) => d),
    };
    expect(JSON.parse(JSON.stringify(withTemplateProperties(legacy)))).toEqual(safe);
    // Thresholds a lead tuned stay as stored.
    const tuned = { ...legacy, dimensions: legacy.dimensions.map((d) => (d.key === "accuracy" ? { ...d, threshold: 2 } : d)) };
    expect(withTemplateProperties(tuned).dimensions.find((d) => d.key === "accuracy")?.threshold).toBe(2);
    // Not the template's: another version, or a dimension it does not have.
    expect(withTemplateProperties({ ...legacy, version: 2 })).toEqual({ ...legacy, version: 2 });
    const extra = { ...legacy, dimensions: [...legacy.dimensions, { key: "extra", name: "Extra", scope: "first_answer" as const, scale: ordinal(0, 1) }] };
    expect(withTemplateProperties(extra)).toBe(extra);
    expect(withTemplateProperties(oncologySurvey())).toEqual(oncologySurvey());
  });
});
