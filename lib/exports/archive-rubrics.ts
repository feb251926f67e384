import type { RubricDocument } from "@/lib/rubrics/document";
import { safeLlmTemplate, scoreTemplate } from "@/lib/rubrics/templates/published";

/**
 * An archive's rubrics as documents: archives written before rubrics were
 * data name the published ones by key (SCORE, SAFE_LLM), which stand for
 * their version-1 documents, exactly what the migration gave existing studies
 * (whatever their N: their grades may grade across answers).
 */
export function archiveRubrics(rubrics: readonly (string | RubricDocument)[]): RubricDocument[] {
  return rubrics.map((r) => (typeof r !== "string" ? r : r === "SCORE" ? scoreTemplate() : safeLlmTemplate()));
}
