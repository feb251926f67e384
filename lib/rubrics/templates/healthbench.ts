import type { RubricDocument } from "@/lib/rubrics/document";

/**
 * HealthBench (Arora et al., OpenAI 2025): each conversation comes with its own
 * physician-written rubric - criteria met or not by the answer, each worth
 * signed points (-10 to +10). An answer's score is the points of the criteria
 * it meets over the positive points available, clipped to 0-1.
 */
export function healthBenchTemplate(): RubricDocument {
  return {
    key: "healthbench_criteria",
    name: "HealthBench rubric criteria",
    version: 1,
    source:
      "Arora RK, Wei J, Soskin Hicks R, et al. HealthBench: Evaluating Large Language Models Towards Improved Human Health. OpenAI, 2025 (arXiv:2505.08775).",
    instructions: [
      "Each question comes with its own criteria, imported with it: a text and signed points (positive for what the answer should do, negative for what it should not).",
      "For each criterion, mark whether the first answer meets it. The score is the points of the criteria met over the positive points available, clipped to 0-1.",
    ].join("\n"),
    dimensions: [
      {
        key: "criteria",
        name: "Rubric criteria",
        definition: "Whether the answer meets each of the question's criteria (met or not met); each criterion is worth its own signed points.",
        scope: "first_answer",
        scale: { kind: "criteria" },
      },
    ],
    totals: [{ key: "score", name: "HealthBench score (0-1)", method: "criteria_score", dimension: "criteria" }],
    headline: "score",
  };
}
