import type { RubricDocument } from "@/lib/rubrics/document";

/**
 * The chattogovar study's instrument (mitsuhashi/chattogovar, Apache-2.0):
 * five criteria scored 0-10 for each system's single answer, and their sum
 * out of 50. Keys are the criteria's names in the study's own files, so
 * its rating files import with no dimension mapping.
 */
const levels = Array.from({ length: 11 }, (_, value) => ({ value, label: value === 0 ? "0 (worst)" : value === 10 ? "10 (best)" : String(value) }));

const CRITERIA = [
  ["accuracy", "Accuracy"],
  ["completeness", "Completeness"],
  ["logical_consistency", "Logical Consistency"],
  ["clarity_conciseness", "Clarity and Conciseness"],
  ["evidence_support", "Evidence Support"],
] as const;

export const CHATTOGOVAR_RUBRIC: RubricDocument = {
  key: "chattogovar",
  name: "Genomic-variant answer criteria",
  version: 1,
  // The citation names one of the systems graded, so it stays in the study description (leads only), not here.
  source: "Mitsuhashi et al., expert ratings of genomic-variant answers, Apache-2.0",
  dimensions: CRITERIA.map(([key, name]) => ({ key, name, scope: "first_answer" as const, scale: { kind: "ordinal" as const, levels } })),
  totals: [{ key: "total", name: "Total", method: "sum", dimensions: CRITERIA.map(([key]) => key) }],
  headline: "total",
};
