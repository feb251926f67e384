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

/** Answers per set in the grader-quality tests that share this instrument. */
export const CHECK_N = 2;
export const CHECK_ORDINAL = ["accuracy", "clarity"] as const;
/** A seeded "true" score per set, dimension and answer (1-5). */
export const checkTruth = (set: string, dim: string, rep: number) => ((parseInt(set.replace(/-/g, "").slice(0, 6), 16) + dim.length * 7 + rep * 3) % 5) + 1;
/** Expected scores of a quality set: the true score of every ordinal cell. */
export const checkExpected = (set: string) =>
  CHECK_ORDINAL.flatMap((d) => Array.from({ length: CHECK_N }, (_, i) => ({ rubric: "check", dimension: d, repetition: i + 1, score: checkTruth(set, d, i + 1) })));
/** A whole form: the nominal item, and `score` for every ordinal cell. */
export const checkForm = (score: (dim: string, rep: number) => number) => [
  { rubric: "check", dimension: "kind", repetition: 1, score: "advice" },
  ...Array.from({ length: CHECK_N }, (_, i) => CHECK_ORDINAL.map((d) => ({ rubric: "check", dimension: d, repetition: i + 1, score: score(d, i + 1) }))).flat(),
];
