import type { RubricDocument } from "@/lib/rubrics/document";

/** One of a study's own criteria: its key (lower-case letters, digits and _), its name, what it means. */
export interface LikertCriterion {
  key: string;
  name: string;
  definition?: string;
}

/**
 * The default criteria: those of the cardiology study in shared/realdata
 * (Pierri et al., Hearts 2025: three blinded cardiologists rated each answer
 * on scientific accuracy, completeness, clarity and coherence, Likert 1-5).
 */
export const DEFAULT_LIKERT_CRITERIA: readonly LikertCriterion[] = [
  { key: "accuracy", name: "Accuracy", definition: "Scientific accuracy of the answer." },
  { key: "completeness", name: "Completeness" },
  { key: "clarity", name: "Clarity" },
  { key: "coherence", name: "Coherence" },
];

/**
 * A study's own n criteria, each on a Likert scale 1-5 (first answer), summed.
 * The document is checked like any other (parseRubricDocument): keys must be
 * valid and distinct.
 */
export function likertCriteriaTemplate(criteria: readonly LikertCriterion[] = DEFAULT_LIKERT_CRITERIA): RubricDocument {
  const n = criteria.length;
  return {
    key: "likert_criteria",
    name: "Likert criteria",
    version: 1,
    source: "A study's own criteria, each rated on a 5-point Likert scale (default criteria: Pierri MD et al., Hearts 2025;6(3):19).",
    instructions: `Rate the first answer on each criterion from 1 (lowest) to 5 (highest). The total is the sum of the ${n} criteria (${n}-${5 * n}).`,
    dimensions: criteria.map((c) => ({
      key: c.key,
      name: c.name,
      ...(c.definition ? { definition: c.definition } : {}),
      scope: "first_answer" as const,
      scale: {
        kind: "ordinal" as const,
        levels: [
          { value: 1, label: "1 (lowest)" },
          { value: 2, label: "2" },
          { value: 3, label: "3" },
          { value: 4, label: "4" },
          { value: 5, label: "5 (highest)" },
        ],
      },
      threshold: 2,
    })),
    totals: [{ key: "total", name: `Total (${n}-${5 * n})`, method: "sum", dimensions: criteria.map((c) => c.key) }],
    headline: "total",
  };
}
