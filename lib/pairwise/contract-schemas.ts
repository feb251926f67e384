import { z } from "zod";
// Before any schema here is made: the OpenAPI registry needs them extended (see the module).
import "@/lib/api/zod-openapi";
import { lineText, multilineText } from "@/lib/validation/text";

/**
 * Request schemas of the pairwise API (pure zod, shared by the route handlers, the OpenAPI
 * document in ./contract.ts and the pages).
 */

/** Longest comment on one axis or one harm flag, as in scoring. */
export const MAX_PREFERENCE_COMMENT = 5_000;
export { MAX_PER_QUESTION, PairDesignSchema, type PairDesignInput } from "@/lib/studies/pair-design";
import { PairDesignSchema } from "@/lib/studies/pair-design";

/** POST /api/v1/studies/{id}/comparisons: plan (or, before grading starts, replan) the study's comparisons. */
export const planComparisonsSchema = z.strictObject({
  design: PairDesignSchema,
  seed: lineText().min(1).max(100).optional().meta({ description: "Reuse a seed to reproduce a plan; a random one is stored and returned otherwise" }),
});
export type PlanComparisonsBody = z.infer<typeof planComparisonsSchema>;

/** POST /api/v1/studies/{id}/comparison-assignments: deal the planned comparisons to k graders each. */
export const comparisonAssignmentRunSchema = z.strictObject({
  seed: lineText().min(1).max(100).optional().meta({ description: "Reuse a seed to reproduce the dealing; defaults to the plan's seed" }),
  matchSpecialty: z.boolean().optional().meta({ description: "Only graders whose specialty matches the question's (defaults to the study setting)" }),
});
export type ComparisonAssignmentRunBody = z.infer<typeof comparisonAssignmentRunSchema>;

const key = (what: string) => z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,62}$/, `${what} is a key of the study's rubric (letters, digits and _)`);

/** One axis answered. `a` is the answer shown first (left on a desktop), `b` the second. */
export const preferenceInputSchema = z.object({
  rubric: key("rubric"),
  axis: key("axis"),
  choice: z.enum(["a", "tie", "b"], { error: "choice is a, tie or b" }),
  /** Only where the axis offers a strength, and never with a tie. */
  strength: z.enum(["slightly", "clearly"], { error: "strength is slightly or clearly" }).optional(),
  comment: multilineText().max(MAX_PREFERENCE_COMMENT).optional(),
});
export type PreferenceInput = z.infer<typeof preferenceInputSchema>;

const harmSide = z.object({ flag: z.boolean(), comment: multilineText().max(MAX_PREFERENCE_COMMENT).optional() });

/**
 * The grader's whole form for one comparison (not a patch): PUT .../preferences saves it as a
 * draft (axes may be missing), POST .../submit submits it (every axis answered).
 */
export const preferenceFormSchema = z.strictObject({
  preferences: z.array(preferenceInputSchema).max(200),
  /** A potential-harm flag on either answer, with what the harm is. */
  harm: z.object({ a: harmSide, b: harmSide }).partial().optional(),
  /** Milliseconds on the page since the previous save, added to the time on task. */
  elapsedMs: z.int().min(0).max(24 * 3_600_000).optional(),
});
export type PreferenceForm = z.infer<typeof preferenceFormSchema>;
