import { RUBRICS } from "@/lib/rubrics/definitions";

/** How the papers name the two published rubrics and their dimensions; any other rubric is named by its document. */
export const RUBRIC_LABEL: Record<string, string> = Object.fromEntries(Object.values(RUBRICS).map((r) => [r.key, r.name]));

const ALL_DIMENSIONS = Object.values(RUBRICS).flatMap((r) => r.dimensions);
export const DIMENSION_LABEL: Record<string, string> = Object.fromEntries(ALL_DIMENSIONS.map((d) => [d.key, d.name]));

/** A rubric's name: its document's, else the published rubric's, else its key. */
export const rubricLabel = (key: string, docs?: readonly { key: string; name: string }[]) => docs?.find((d) => d.key === key)?.name ?? RUBRIC_LABEL[key] ?? key;

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
