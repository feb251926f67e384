import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { GradingForm, type GradingFormProps } from "@/components/grading/grading-form";
import { QuestionBody } from "@/components/grading/question-body";
import { templateRubrics } from "@/lib/rubrics/study-rubrics";

/**
 * On a full page load the server sends the grading form's frame, not the form:
 * the form's few hundred controls are drawn by the browser, which must run the
 * form's script before any of them works anyway (bench/README.md, grading).
 */
const props: GradingFormProps = {
  assignment: {
    id: "00000000-0000-4000-8000-000000000001",
    kind: "ADJUDICATOR",
    status: "PENDING",
    readOnly: false,
    study: { name: "Chest pain study", rubrics: ["SCORE", "SAFE_LLM"], rubricDocuments: templateRubrics(["SCORE", "SAFE_LLM"]), repetitions: 3, showReferenceAnswer: false, askContradictions: true },
    scores: [],
    harm: { flag: false, comment: null },
    contradiction: { flag: false, note: null },
    timeSpentMs: 0,
    submittedAt: null,
    progress: { done: 2, total: 9, position: 3 },
    nextAssignmentId: null,
  },
  item: {
    specialty: "Cardiology",
    question: "When is aspirin indicated after a first myocardial infarction?",
    questionBody: createElement(QuestionBody, { question: "When is aspirin indicated after a first myocardial infarction?" }),
    referenceAnswer: null,
  },
  answers: [1, 2, 3].map((repetition) => ({ repetition, body: createElement("p", null, `Answer text ${repetition}`) })),
  justSubmitted: false,
};

describe("the grading form as the server renders it", () => {
  const html = renderToStaticMarkup(createElement(GradingForm, props));

  it("is the frame: the question, where the set is, and a status saying the form is loading", () => {
    expect(html).toContain("When is aspirin indicated after a first myocardial infarction?");
    expect(html).toContain("Cardiology");
    expect(html).toMatch(/Answer set 3 of 9/);
    expect(html).toContain("Third grader");
    expect(html).toMatch(/<p role="status"[^>]*>Loading the grading form…<\/p>/);
    expect(html).toContain('aria-busy="true"');
  });

  it("draws no control a grader could use, and no answer: the browser draws the form", () => {
    expect(html).not.toMatch(/<(fieldset|input|textarea)\b/);
    const buttons = html.match(/<button\b[^>]*>/g) ?? [];
    // The toolbar's buttons hold their place, hidden and disabled, so that nothing moves when the form appears.
    expect(buttons.length).toBeGreaterThan(0);
    for (const b of buttons) expect(b).toMatch(/\bdisabled=""/);
    expect(html).toMatch(/<div class="[^"]*\binvisible\b[^"]*" inert="">/);
    expect(html).not.toContain("Answer text");
    expect(html.length).toBeLessThan(6_000);
  });

  it("holds the toolbar as the form will show it: the queue's progress and the scores still to give", () => {
    expect(html).toMatch(/Set 3 of 9<\/span> · 2 submitted/);
    // S.C.O.R.E. (5 for the set) and SAFE-LLM (4 per answer, 3 answers; consistency is derived): 17, none given.
    expect(html).toMatch(/>0 \/ 17<\/span> scores/);
    expect(html).toContain('href="/queue"');
  });
});
