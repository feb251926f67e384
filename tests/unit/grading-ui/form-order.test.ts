import { describe, expect, it } from "vitest";
import { formOrder, formParts, partOf } from "@/lib/grading/form-order";
import { gradingFields } from "@/lib/grading/form-state";
import type { RubricDimension, RubricDocument } from "@/lib/rubrics/document";

/**
 * The grading page's order (lib/grading/form-order.ts), which the grader's form
 * and the rubric builder's preview both follow: answer by answer, then the
 * whole set, each rubric in its document's order.
 */
const three = { kind: "ordinal" as const, levels: [1, 2, 3].map((value) => ({ value, label: String(value) })) };
const dim = (key: string, scope: RubricDimension["scope"], scale: RubricDimension["scale"] = three): RubricDimension => ({ key, name: key, scope, scale });
// The oncology survey of issue 31: four items on each answer, "written by" (nominal) graded once, in the middle.
const survey = (writtenBy: RubricDimension["scope"]): RubricDocument => ({
  key: "survey",
  name: "Survey",
  version: 1,
  dimensions: [
    dim("acceptability", "each_answer"),
    dim("likelihood_of_harm", "each_answer"),
    dim("written_by", writtenBy, { kind: "nominal", levels: [{ value: "ai", label: "AI" }, { value: "human", label: "Human" }] }),
    dim("efficiency", "each_answer"),
    dim("overall", "set"),
  ],
  totals: [],
});
const keys = (doc: RubricDocument, n: number) => formOrder([doc], n).map((p) => `${p.dimension.key}/${p.repetition}@${p.part}`);

describe("the grading page's order", () => {
  it("keeps a first-answer dimension in its document place among answer 1's fields (switching its scope does not move it to the top)", () => {
    expect(keys(survey("first_answer"), 2)).toEqual([
      "acceptability/1@1",
      "likelihood_of_harm/1@1",
      "written_by/1@1",
      "efficiency/1@1",
      "acceptability/2@2",
      "likelihood_of_harm/2@2",
      "efficiency/2@2",
      "overall/0@0",
    ]);
    // The same document with the item on each answer: the same place on answer 1.
    expect(keys(survey("each_answer"), 2).slice(0, 4)).toEqual(keys(survey("first_answer"), 2).slice(0, 4));
  });

  it("is the order of the grader's fields, rubric by rubric within each part, derived dimensions left out", () => {
    const second: RubricDocument = {
      key: "other",
      name: "Other",
      version: 1,
      dimensions: [dim("clarity", "each_answer"), dim("same", "set", { kind: "ordinal", levels: [{ value: 0, label: "No" }, { value: 1, label: "Yes" }] })],
      totals: [],
    };
    second.dimensions[1] = { ...second.dimensions[1], derived: { rule: "equal_across_answers", of: "clarity" } };
    const rubrics = [survey("first_answer"), second];
    const placed = formOrder(rubrics, 2);
    expect(gradingFields({ rubrics, repetitions: 2 }).map((f) => f.key)).toEqual(placed.map((p) => `${p.rubric.key}/${p.dimension.key}/${p.repetition}`));
    expect(placed.map((p) => `${p.rubric.key}.${p.dimension.key}@${p.part}`)).toEqual([
      "survey.acceptability@1",
      "survey.likelihood_of_harm@1",
      "survey.written_by@1",
      "survey.efficiency@1",
      "other.clarity@1",
      "survey.acceptability@2",
      "survey.likelihood_of_harm@2",
      "survey.efficiency@2",
      "other.clarity@2",
      "survey.overall@0",
    ]);
  });

  it("puts each field in its part: an answer's repetition, answer 1, or the whole set (0) after the answers", () => {
    expect(partOf("each_answer", 3)).toBe(3);
    expect(partOf("first_answer", 1)).toBe(1);
    expect(partOf("set", 0)).toBe(0);
    expect(formParts(3)).toEqual([1, 2, 3, 0]);
    expect(formParts(1)).toEqual([1, 0]);
  });
});
