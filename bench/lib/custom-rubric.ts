import type { RubricDocument } from "@/lib/rubrics/document";

/**
 * The custom rubric the benchmarks time beside the published ones (issue 16):
 * 10 ordinal 1-5 dimensions, d1-d5 on the first answer and d6-d10 on each
 * answer, and their sum.
 */
export const CUSTOM_RUBRIC: RubricDocument = {
  key: "custom10",
  name: "Custom 10-dimension rubric",
  version: 1,
  dimensions: Array.from({ length: 10 }, (_, i) => ({
    key: `d${i + 1}`,
    name: `Dimension ${i + 1}`,
    scope: i < 5 ? ("first_answer" as const) : ("each_answer" as const),
    scale: { kind: "ordinal" as const, levels: [1, 2, 3, 4, 5].map((value) => ({ value, label: String(value) })) },
  })),
  headline: "total",
  totals: [{ key: "total", name: "Total", method: "sum", dimensions: Array.from({ length: 10 }, (_, i) => `d${i + 1}`) }],
};

/** Escalation thresholds of the custom rubric: 2 points on every dimension. */
export const CUSTOM_THRESHOLDS = { custom10: Object.fromEntries(CUSTOM_RUBRIC.dimensions.map((d) => [d.key, 2])) };
