import type { RubricDocument } from "@/lib/rubrics/document";

const never = { rule: "never" as const, na: "ignore" as const };
const FIVE = [1, 2, 3, 4, 5].map((v) => ({ value: v, label: `Level ${v}` }));

/**
 * An instrument that is no published template: a nominal item, an ordinal item that may not apply,
 * another ordinal item; no total. Nothing escalates, so every set is final. Shared by the grader
 * quality tests.
 */
export const CHECK_RUBRIC: RubricDocument = {
  key: "check",
  name: "Answer check",
  version: 1,
  dimensions: [
    { key: "kind", name: "Kind of answer", scope: "first_answer", scale: { kind: "nominal", levels: [{ value: "advice", label: "Advice" }, { value: "referral", label: "Referral" }] }, escalation: never },
    { key: "accuracy", name: "Accuracy", scope: "each_answer", scale: { kind: "ordinal", levels: FIVE }, escalation: never },
    { key: "clarity", name: "Clarity", scope: "each_answer", scale: { kind: "ordinal", levels: FIVE, allowNA: true }, escalation: never },
  ],
  totals: [],
};
