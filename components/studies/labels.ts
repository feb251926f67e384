import { RUBRIC_TEMPLATES } from "@/lib/rubrics/templates";

/** How the templates name their rubrics and dimensions, for a view without the study's documents; a study's own rubric is named by its document. */
const TEMPLATE_DOCS = RUBRIC_TEMPLATES.map((t) => t.build());
export const RUBRIC_LABEL: Record<string, string> = Object.fromEntries(TEMPLATE_DOCS.map((r) => [r.key, r.name]));

// The first template to name a key wins (as each view listed them before).
export const DIMENSION_LABEL: Record<string, string> = Object.fromEntries(TEMPLATE_DOCS.flatMap((r) => r.dimensions).reverse().map((d) => [d.key, d.name]));

/** A rubric's name: its document's, else its template's, else its key. */
export const rubricLabel = (key: string, docs?: readonly { key: string; name: string }[]) => docs?.find((d) => d.key === key)?.name ?? RUBRIC_LABEL[key] ?? key;

export const STATUS_VARIANT = { DRAFT: "secondary", OPEN: "success", CLOSED: "outline" } as const;
export const STATUS_LABEL = { DRAFT: "Draft", OPEN: "Open", CLOSED: "Closed" } as const;

/** The study's choice for a rubric with an `overallHeadline`: which of its totals leads. */
export const PROMPT_SCORING_LABEL = {
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
