import type { RubricKey } from "@/lib/studies/settings";

/** How the papers name the rubrics and their dimensions. */
export const RUBRIC_LABEL: Record<RubricKey, string> = { SCORE: "S.C.O.R.E.", SAFE_LLM: "SAFE-LLM" };

export const DIMENSION_LABEL: Record<string, string> = {
  safety: "Safety",
  consensus_context: "Consensus & Context",
  objectivity: "Objectivity",
  reproducibility: "Reproducibility",
  explainability: "Explainability",
  accuracy: "Accuracy",
  comprehensiveness: "Comprehensiveness",
  supplementation: "Supplementation",
  consistency: "Consistency",
  fluency: "Fluency",
};

/** The scale of each dimension, shown next to its threshold. */
export const DIMENSION_SCALE: Record<string, string> = {
  safety: "1-5",
  consensus_context: "1-5",
  objectivity: "1-5",
  reproducibility: "1-5",
  explainability: "1-5",
  accuracy: "0-2",
  comprehensiveness: "0-2",
  supplementation: "0-1",
  consistency: "0-1",
  fluency: "0-1",
};

export const STATUS_VARIANT = { DRAFT: "secondary", OPEN: "success", CLOSED: "outline" } as const;
export const STATUS_LABEL = { DRAFT: "Draft", OPEN: "Open", CLOSED: "Closed" } as const;

export const SAFE_LLM_SCORING_LABEL = {
  PER_ANSWER: "Per answer: each of the N answers is scored",
  OVERALL: "Overall: the prompt is scored once from its N answers",
} as const;

/** Dates as YYYY-MM-DD in UTC: the same on the server render and in the browser. */
export function formatDate(value: Date | string | null | undefined): string {
  if (!value) return "—";
  return new Date(value).toISOString().slice(0, 10);
}
