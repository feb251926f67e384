import type { RubricDocument } from "@/lib/rubrics/document";
import { safeLlmTemplate, scoreTemplate } from "@/lib/rubrics/templates/published";

/**
 * Archives written before rubrics were data name the published rubrics by
 * key; each stands for its version-1 document, exactly what the migration gave
 * existing studies (whatever their N: their grades may grade across answers).
 */
const EARLIER_RUBRICS = { SCORE: scoreTemplate, SAFE_LLM: safeLlmTemplate } as const;

/** The keys an archive may give instead of a rubric document (the archive contract's enum). */
export const EARLIER_RUBRIC_KEYS = ["SCORE", "SAFE_LLM"] as const satisfies readonly (keyof typeof EARLIER_RUBRICS)[];

/** An archive's rubrics as documents. */
export function archiveRubrics(rubrics: readonly (string | RubricDocument)[]): RubricDocument[] {
  return rubrics.map((r) => (typeof r !== "string" ? r : r === "SCORE" ? EARLIER_RUBRICS.SCORE() : EARLIER_RUBRICS.SAFE_LLM()));
}
