import type { RubricDocument } from "@/lib/rubrics/document";

/** An instrument that is neither template: a nominal item, an item that may not apply, no total; with one answer per question. */
export const PLAIN: RubricDocument = {
  key: "plain",
  name: "Plain screen instrument",
  version: 1,
  dimensions: [
    { key: "harm", name: "Extent of harm", scope: "first_answer", scale: { kind: "nominal", levels: [{ value: "none", label: "No harm" }, { value: "severe", label: "Severe" }] } },
    { key: "visuals", name: "Helpful visuals", scope: "first_answer", scale: { kind: "ordinal", levels: [{ value: 0, label: "Disagree" }, { value: 1, label: "Agree" }], allowNA: true } },
  ],
  totals: [],
};
export const PLAIN_FORM = [
  { rubric: "plain", dimension: "harm", repetition: 1, score: "none" },
  { rubric: "plain", dimension: "visuals", repetition: 1, score: null, na: true },
];
