import { z } from "zod";
import { multilineText } from "@/lib/validation/text";

export const RUBRIC_KEYS = ["SCORE", "SAFE_LLM"] as const;
export const DIMENSION_KEYS = [
  "safety",
  "consensus_context",
  "objectivity",
  "reproducibility",
  "explainability",
  "accuracy",
  "comprehensiveness",
  "supplementation",
  "consistency",
  "fluency",
] as const;

/** Longest comment a grader may write on one dimension. */
export const MAX_COMMENT = 5_000;

export const scoreInputSchema = z.object({
  rubric: z.enum(RUBRIC_KEYS),
  dimension: z.enum(DIMENSION_KEYS),
  /** 1..N for a per-answer dimension; null for one graded once for the whole set. */
  repetition: z.number().int().nullable(),
  score: z.number().int(),
  comment: multilineText().max(MAX_COMMENT).optional(),
});

/**
 * The body of PUT /api/v1/assignments/{id}/grades: the whole state of the
 * grader's form (not a patch), so sending it twice stores the same thing once.
 */
export const gradeSubmissionSchema = z.object({
  scores: z.array(scoreInputSchema).max(1_000),
  harm: z.object({ flag: z.boolean(), comment: multilineText().max(MAX_COMMENT).optional() }).optional(),
  submit: z.boolean(),
  /** Milliseconds on the page since the previous save, added to the time on task. */
  elapsedMs: z.number().int().min(0).max(24 * 3_600_000).optional(),
});

export type ScoreInput = z.infer<typeof scoreInputSchema>;
export type GradeSubmission = z.infer<typeof gradeSubmissionSchema>;
