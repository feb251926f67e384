import { z } from "zod";
import { DEFAULT_THRESHOLDS, type Thresholds } from "@/lib/rubrics/thresholds";
import { lineText, multilineText } from "@/lib/validation/text";

/**
 * Study settings: the one definition of what a lead may set, with the papers'
 * defaults. Pure (zod only), so the forms, the route handlers, the OpenAPI
 * document and the unit tests all read the same rules.
 */

export const RUBRICS = ["SCORE", "SAFE_LLM"] as const;
export type RubricKey = (typeof RUBRICS)[number];

export const SAFE_LLM_SCORING = ["PER_ANSWER", "OVERALL"] as const;
export const STUDY_STATUSES = ["DRAFT", "OPEN", "CLOSED"] as const;
export type StudyStatusKey = (typeof STUDY_STATUSES)[number];

/** Bounds of the numeric settings. Both papers use N = 3 answers per prompt and k = 2 primary graders. */
export const LIMITS = {
  name: 200,
  graderTitle: 120,
  description: 5000,
  repetitions: { min: 1, max: 10, default: 3 },
  gradersPerSet: { min: 1, max: 5, default: 2 },
} as const;

export type ScoreDimension = keyof typeof DEFAULT_THRESHOLDS.SCORE;
export type SafeLlmDimension = keyof typeof DEFAULT_THRESHOLDS.SAFE_LLM;

export const DIMENSIONS = {
  SCORE: Object.keys(DEFAULT_THRESHOLDS.SCORE) as ScoreDimension[],
  SAFE_LLM: Object.keys(DEFAULT_THRESHOLDS.SAFE_LLM) as SafeLlmDimension[],
} as const;

/**
 * The widest spread two graders can produce on each dimension: S.C.O.R.E. is
 * Likert 1-5 (spread 4); SAFE-LLM accuracy and comprehensiveness are 0-2, the
 * other domains 0-1 (paper 001, Table 1), and the spread of per-grader means
 * over N answers stays within the same range. A threshold above it would
 * silently switch escalation off for that dimension, so it is refused.
 */
export const THRESHOLD_MAX: Thresholds = {
  SCORE: { safety: 4, consensus_context: 4, objectivity: 4, reproducibility: 4, explainability: 4 },
  SAFE_LLM: { accuracy: 2, comprehensiveness: 2, supplementation: 1, consistency: 1, fluency: 1 },
};

function thresholdValue(rubric: RubricKey, dimension: string, max: number) {
  return z
    .number({ error: `thresholds.${rubric}.${dimension} must be a number` })
    .positive({ error: `thresholds.${rubric}.${dimension} must be greater than 0` })
    .max(max, { error: `thresholds.${rubric}.${dimension} must be at most ${max}, the widest possible spread on that scale` });
}

function rubricThresholds<D extends string>(rubric: RubricKey, dims: readonly D[]) {
  const max = THRESHOLD_MAX[rubric] as Record<string, number>;
  const shape = Object.fromEntries(dims.map((d) => [d, thresholdValue(rubric, d, max[d]).optional()])) as Record<
    D,
    z.ZodOptional<z.ZodNumber>
  >;
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `unknown ${rubric} dimension ${issue.keys.map((k) => `"${k}"`).join(", ")}; known: ${dims.join(", ")}`
        : `thresholds.${rubric} must be an object of dimension: number`,
  });
}

/** Partial thresholds as a client sends them; anything left out keeps its current (or default) value. */
export const thresholdsInputSchema = z
  .strictObject(
    {
      SCORE: rubricThresholds("SCORE", DIMENSIONS.SCORE).optional(),
      SAFE_LLM: rubricThresholds("SAFE_LLM", DIMENSIONS.SAFE_LLM).optional(),
    },
    {
      error: (issue) =>
        issue.code === "unrecognized_keys"
          ? `unknown rubric ${issue.keys.map((k) => `"${k}"`).join(", ")} in thresholds; known: SCORE, SAFE_LLM`
          : "thresholds must be an object like {\"SCORE\": {\"safety\": 2}}",
    },
  )
  .meta({
    description: "Escalation thresholds per dimension (spread between primary graders at or above which a third grader is called). Partial: omitted dimensions keep their value.",
    example: { SCORE: { safety: 1 }, SAFE_LLM: { accuracy: 1 } },
  });
export type ThresholdsInput = z.infer<typeof thresholdsInputSchema>;

/** Merges a partial patch over a complete set (the defaults, or the study's current thresholds). */
export function mergeThresholds(base: Thresholds, patch: ThresholdsInput | undefined): Thresholds {
  return {
    SCORE: { ...base.SCORE, ...(patch?.SCORE ?? {}) },
    SAFE_LLM: { ...base.SAFE_LLM, ...(patch?.SAFE_LLM ?? {}) },
  } as Thresholds;
}

/**
 * Reads the thresholds stored on a study. Stored JSON is trusted only as far
 * as it parses: anything missing or malformed falls back to the default, so
 * a study written by an older version still has a full, valid set.
 */
export function storedThresholds(json: unknown): Thresholds {
  const result: Thresholds = mergeThresholds(DEFAULT_THRESHOLDS as Thresholds, undefined);
  if (!json || typeof json !== "object") return result;
  for (const rubric of RUBRICS) {
    const stored = (json as Record<string, unknown>)[rubric];
    if (!stored || typeof stored !== "object") continue;
    for (const dim of DIMENSIONS[rubric]) {
      const v = (stored as Record<string, unknown>)[dim];
      const max = (THRESHOLD_MAX[rubric] as Record<string, number>)[dim];
      if (typeof v === "number" && v > 0 && v <= max) (result[rubric] as Record<string, number>)[dim] = v;
    }
  }
  return result;
}

/** A study's settings as the forms and the detail endpoint see them (thresholds complete). */
export interface StudySettings {
  name: string;
  /** Empty: graders see a neutral title. */
  graderTitle: string;
  description: string;
  rubrics: RubricKey[];
  repetitions: number;
  gradersPerSet: number;
  thresholds: Thresholds;
  showReferenceAnswer: boolean;
  matchSpecialty: boolean;
  safeLlmScoring: (typeof SAFE_LLM_SCORING)[number];
}

/** What a new study starts with: both papers' N = 3 and k = 2, the default thresholds. */
export const DEFAULT_SETTINGS: StudySettings = {
  name: "",
  graderTitle: "",
  description: "",
  rubrics: ["SCORE", "SAFE_LLM"],
  repetitions: LIMITS.repetitions.default,
  gradersPerSet: LIMITS.gradersPerSet.default,
  thresholds: mergeThresholds(DEFAULT_THRESHOLDS as Thresholds, undefined),
  showReferenceAnswer: true,
  matchSpecialty: false,
  safeLlmScoring: "PER_ANSWER",
};

export const rubricsSchema = z
  .array(z.enum(RUBRICS, { error: "each rubric must be SCORE or SAFE_LLM" }), { error: "rubrics must be a list" })
  .min(1, { error: "choose at least one rubric (SCORE, SAFE_LLM or both)" })
  .max(2, { error: "there are only two rubrics: SCORE and SAFE_LLM" })
  .refine((list) => new Set(list).size === list.length, { error: "rubrics must not repeat" })
  .meta({ description: "S.C.O.R.E. (SCORE), SAFE-LLM (SAFE_LLM), or both", example: ["SCORE", "SAFE_LLM"] });

/** Rubrics in their canonical order, so the same choice always compares and stores the same way. */
export function canonicalRubrics(list: readonly RubricKey[]): RubricKey[] {
  return RUBRICS.filter((r) => list.includes(r));
}

const name = lineText({ error: "name is required" })
  .min(1, { error: "name is required" })
  .max(LIMITS.name, { error: `name is longer than ${LIMITS.name} characters` });
const graderTitle = lineText({ error: "graderTitle must be text" })
  .trim()
  .max(LIMITS.graderTitle, { error: `graderTitle is longer than ${LIMITS.graderTitle} characters` })
  .meta({ description: "What graders see instead of the study's name (which may name a model); empty: a neutral title" });
const description = multilineText({ error: "description must be text" })
  .trim()
  .max(LIMITS.description, { error: `description is longer than ${LIMITS.description} characters` });
const repetitions = z
  .int({ error: "repetitions must be a whole number" })
  .min(LIMITS.repetitions.min, { error: `repetitions must be at least ${LIMITS.repetitions.min}` })
  .max(LIMITS.repetitions.max, { error: `repetitions must be at most ${LIMITS.repetitions.max}` });
const gradersPerSet = z
  .int({ error: "gradersPerSet must be a whole number" })
  .min(LIMITS.gradersPerSet.min, { error: `gradersPerSet must be at least ${LIMITS.gradersPerSet.min}` })
  .max(LIMITS.gradersPerSet.max, { error: `gradersPerSet must be at most ${LIMITS.gradersPerSet.max}` });
const flag = (field: string) => z.boolean({ error: `${field} must be true or false` });
const safeLlmScoring = z.enum(SAFE_LLM_SCORING, { error: "safeLlmScoring must be PER_ANSWER or OVERALL" });

export const createStudySchema = z
  .strictObject(
    {
      name: name.meta({ example: "Ophthalmology QA 2026" }),
      graderTitle: graderTitle.default(""),
      description: description.default(""),
      rubrics: rubricsSchema,
      repetitions: repetitions.default(LIMITS.repetitions.default).meta({ description: "N: answers per prompt and model" }),
      gradersPerSet: gradersPerSet
        .default(LIMITS.gradersPerSet.default)
        .meta({ description: "k: primary graders per response set" }),
      thresholds: thresholdsInputSchema.optional(),
      showReferenceAnswer: flag("showReferenceAnswer").default(true),
      matchSpecialty: flag("matchSpecialty")
        .default(false)
        .meta({ description: "Assign response sets only to graders of the item's specialty" }),
      safeLlmScoring: safeLlmScoring
        .default("PER_ANSWER")
        .meta({ description: "SAFE-LLM headline: score each of the N answers (PER_ANSWER) or the prompt once (OVERALL)" }),
    },
    { error: (issue) => (issue.code === "unrecognized_keys" ? `unknown setting ${issue.keys.join(", ")}` : "body must be a JSON object") },
  ); // named "CreateStudy" in the OpenAPI document by lib/studies/contract.ts
export type CreateStudyInput = z.input<typeof createStudySchema>;
export type CreateStudy = z.output<typeof createStudySchema>;

/** Statuses a lead may ask for; DRAFT is only where a study starts. */
export const REQUESTABLE_STATUSES = ["OPEN", "CLOSED"] as const;

export const updateStudySchema = z
  .strictObject(
    {
      name: name.optional(),
      graderTitle: graderTitle.optional(),
      description: description.optional(),
      rubrics: rubricsSchema.optional(),
      repetitions: repetitions.optional(),
      gradersPerSet: gradersPerSet.optional(),
      thresholds: thresholdsInputSchema.optional(),
      showReferenceAnswer: flag("showReferenceAnswer").optional(),
      matchSpecialty: flag("matchSpecialty").optional(),
      safeLlmScoring: safeLlmScoring.optional(),
      status: z
        .enum(REQUESTABLE_STATUSES, { error: "status must be OPEN or CLOSED" })
        .optional()
        .meta({ description: "OPEN (from DRAFT, or reopen from CLOSED) or CLOSED (from OPEN)" }),
    },
    { error: (issue) => (issue.code === "unrecognized_keys" ? `unknown setting ${issue.keys.join(", ")}` : "body must be a JSON object") },
  )
  .refine((patch) => Object.values(patch).some((v) => v !== undefined), { error: "nothing to change: send at least one setting or a status" }); // named "UpdateStudy" by lib/studies/contract.ts
export type UpdateStudy = z.output<typeof updateStudySchema>;
