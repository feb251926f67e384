import { z } from "zod";
// Before any schema here is made: the OpenAPI registry needs them extended (see the module).
import "@/lib/api/zod-openapi";
import { multilineText } from "@/lib/validation/text";

/** Longest note a grader may add to a contradiction flag: a pointer, not an essay. */
export const MAX_CONTRADICTION_NOTE = 500;

/** Longest comment a grader may write on one dimension. */
export const MAX_COMMENT = 5_000;

const key = (what: string) => z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,62}$/, `${what} is a key of the study's rubric (letters, digits and _)`);

export const scoreInputSchema = z.object({
  /** The key of one of the study's rubric documents (a template's, or the lead's own). */
  rubric: key("rubric"),
  dimension: key("dimension"),
  /** 1..N for a per-answer dimension; null for one graded once for the whole set. */
  repetition: z.number().int().nullable(),
  /** Ordinal: the level's integer value; nominal: its string value; criteria: 1 met, 0 not met; null with `na`. */
  score: z.union([z.number().int(), z.string().max(63), z.null()]),
  /** "Not applicable", where the dimension allows it (score null). */
  na: z.boolean().optional(),
  /** Criteria dimensions: the id of the question's criterion this score marks. */
  criterion: z.string().min(1).max(63).optional(),
  comment: multilineText().max(MAX_COMMENT).optional(),
});

/**
 * The body of PUT /api/v1/assignments/{id}/grades: the whole state of the
 * grader's form (not a patch), so sending it twice stores the same thing once.
 */
export const gradeSubmissionSchema = z.object({
  scores: z.array(scoreInputSchema).max(2_000),
  /**
   * The grader's harm decision: flag true with what the harm is, or flag false with
   * why a score across a harm line is not a harm (required at submit across a line
   * that asks for a decision).
   */
  harm: z.object({ flag: z.boolean(), comment: multilineText().max(MAX_COMMENT).optional() }).optional(),
  /**
   * Whether the set's answers contradict each other (sets with N >= 2 answers in a study
   * that asks), with an optional note saying where; absent: left as saved.
   */
  contradiction: z.object({ flag: z.boolean(), note: multilineText().max(MAX_CONTRADICTION_NOTE).optional() }).optional(),
  submit: z.boolean(),
  /** Milliseconds on the page since the previous save, added to the time on task. */
  elapsedMs: z.number().int().min(0).max(24 * 3_600_000).optional(),
});

export type ScoreInput = z.infer<typeof scoreInputSchema>;
export type GradeSubmission = z.infer<typeof gradeSubmissionSchema>;
