import { z } from "zod";
import "@/lib/api/zod-openapi";
import { multilineText } from "@/lib/validation/text";

/** A question's own criteria (HealthBench): each met or not by an answer, worth signed points. */
export const CriterionSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_.-]{1,63}$/, "a criterion id is letters, digits, _ . or - (at most 63)"),
  text: multilineText().trim().min(1).max(2000),
  points: z.number().int().min(-100).max(100),
});
export const CriteriaSchema = z.array(CriterionSchema).min(1).max(100);
export type Criterion = z.infer<typeof CriterionSchema>;

/** The criteria stored on a question (checked at import), or null when it has none. */
export function storedCriteria(json: unknown): Criterion[] | null {
  const parsed = CriteriaSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}
