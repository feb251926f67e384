import { RUBRICS } from "@/lib/rubrics/definitions";
import type { RubricKey } from "@/lib/studies/settings";

/** How the papers name the rubrics and their dimensions: from the rubric definitions, the one place they are written. */
export const RUBRIC_LABEL = Object.fromEntries(Object.values(RUBRICS).map((r) => [r.key, r.name])) as Record<RubricKey, string>;

const ALL_DIMENSIONS = Object.values(RUBRICS).flatMap((r) => r.dimensions);
export const DIMENSION_LABEL: Record<string, string> = Object.fromEntries(ALL_DIMENSIONS.map((d) => [d.key, d.name]));

/** The scale of each dimension, shown next to its threshold. */
export const DIMENSION_SCALE: Record<string, string> = Object.fromEntries(ALL_DIMENSIONS.map((d) => [d.key, `${d.min}-${d.max}`]));

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

/** "all 3 answers", but "its answer" / "their answer" when N = 1 (never "all 1 answers"). */
export function allAnswers(n: number, owner: "its" | "their" = "its"): string {
  return n === 1 ? `${owner} answer` : `all ${n} answers`;
}
