import { z } from "zod";
// Before any schema here is made: the OpenAPI registry needs them extended (see the module).
import "@/lib/api/zod-openapi";
import type { RubricDocument } from "@/lib/rubrics/document";
import { lineText, multilineText } from "@/lib/validation/text";
import { escalationRulesInputSchema, thresholdsInputSchema, type EscalationOverrides, type Thresholds } from "./thresholds";

export { escalationRulesInputSchema, thresholdsInputSchema };

/**
 * Study settings: the one definition of what a lead may set, with the papers'
 * defaults. Pure (zod only), so the forms, the route handlers, the OpenAPI
 * document and the unit tests all read the same rules.
 */

/** A rubric with two scorings of its answers (a per-answer total and an overall one) leads with one of them. */
export const HEADLINE_SCORING = ["PER_ANSWER", "OVERALL"] as const;
export const STUDY_STATUSES = ["DRAFT", "OPEN", "CLOSED"] as const;
/** scoring: graders score each response set; pairwise: graders compare two blinded answers (lib/pairwise). Chosen at creation, never changed. */
export const STUDY_DESIGNS = ["scoring", "pairwise"] as const;
export type StudyDesignKey = (typeof STUDY_DESIGNS)[number];
export type StudyStatusKey = (typeof STUDY_STATUSES)[number];

/** Bounds of the numeric settings. Both papers use N = 3 answers per prompt and k = 2 primary graders. */
export const LIMITS = {
  name: 200,
  graderTitle: 120,
  description: 5000,
  repetitions: { min: 1, max: 10, default: 3 },
  gradersPerSet: { min: 1, max: 5, default: 2 },
} as const;

/** A study's settings as the forms and the detail endpoint see them (thresholds complete). */
export interface StudySettings {
  name: string;
  /** Empty: graders see a neutral title. */
  graderTitle: string;
  description: string;
  /** The keys of the study's rubrics, in order. */
  rubrics: string[];
  /** The study's rubric documents (lib/rubrics/document.ts), in the same order. */
  rubricDocuments: RubricDocument[];
  repetitions: number;
  gradersPerSet: number;
  thresholds: Thresholds;
  /** The study's escalation rules over its documents' (rubric -> dimension -> rule, N/A). */
  escalationRules: EscalationOverrides;
  showReferenceAnswer: boolean;
  /** Ask graders whether a set's answers contradict each other (only with N >= 2). */
  askContradictions: boolean;
  matchSpecialty: boolean;
  safeLlmScoring: (typeof HEADLINE_SCORING)[number];
  /** Pairwise studies: a tie against a preference calls an adjudicator (false: it counts as agreement). */
  tieDisagrees: boolean;
}

/** What a new study starts with: both papers' N = 3 and k = 2 (the form adds the rubrics' own thresholds). */
export const DEFAULT_SETTINGS: Omit<StudySettings, "rubricDocuments" | "thresholds" | "escalationRules"> = {
  name: "",
  graderTitle: "",
  description: "",
  rubrics: ["score", "safe_llm"],
  repetitions: LIMITS.repetitions.default,
  gradersPerSet: LIMITS.gradersPerSet.default,
  showReferenceAnswer: true,
  askContradictions: true,
  matchSpecialty: false,
  safeLlmScoring: "PER_ANSWER",
  tieDisagrees: false,
};

/**
 * The rubrics a study grades with, any number, in order: template keys
 * (GET /api/v1/rubric-templates; the two published ones also by their
 * documents' upper-case keys) or whole rubric documents (the RubricDocument schema).
 * lib/rubrics/study-rubrics.ts resolves and checks them, every problem with its JSON path.
 */
export const rubricsSchema = z
  .array(z.union([z.string().max(63), z.record(z.string(), z.unknown())], { error: "each rubric is a template key or a rubric document" }), {
    error: "rubrics must be a list",
  })
  .min(1, { error: "choose at least one rubric: a template key (e.g. \"score\") or a rubric document" })
  .max(20, { error: "a study has at most 20 rubrics" })
  .meta({ description: "Template keys (\"score\", \"safe_llm\", \"discern\", ...; the published ones' upper-case document keys also accepted) or RubricDocument objects", example: ["score", "safe_llm"] });

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
const safeLlmScoring = z.enum(HEADLINE_SCORING, { error: "safeLlmScoring must be PER_ANSWER or OVERALL" });
const tieDisagrees = flag("tieDisagrees").meta({
  description: "Pairwise studies: whether one grader's tie against another's preference calls an adjudicator (default false: it counts as agreement)",
});

export const createStudySchema = z
  .strictObject(
    {
      name: name.meta({ example: "Ophthalmology QA 2026" }),
      design: z
        .enum(STUDY_DESIGNS, { error: "design must be scoring or pairwise" })
        .default("scoring")
        .meta({ description: "scoring (default): graders score each model's answers on the rubrics. pairwise: graders compare two blinded answers per question on preference axes; the rubrics then hold only preference dimensions. Never changes after creation" }),
      graderTitle: graderTitle.default(""),
      description: description.default(""),
      rubrics: rubricsSchema,
      repetitions: repetitions.default(LIMITS.repetitions.default).meta({ description: "N: answers per prompt and model" }),
      gradersPerSet: gradersPerSet
        .default(LIMITS.gradersPerSet.default)
        .meta({ description: "k: primary graders per response set" }),
      thresholds: thresholdsInputSchema.optional(),
      escalationRules: escalationRulesInputSchema.optional(),
      showReferenceAnswer: flag("showReferenceAnswer").default(true),
      askContradictions: flag("askContradictions")
        .default(true)
        .meta({ description: "With N >= 2: ask graders whether a set's answers contradict each other (the stability triage counts the flags)" }),
      matchSpecialty: flag("matchSpecialty")
        .default(false)
        .meta({ description: "Assign response sets only to graders of the item's specialty" }),
      safeLlmScoring: safeLlmScoring
        .default("PER_ANSWER")
        .meta({ description: "For a rubric with a per-answer and an overall total: which one leads (PER_ANSWER: each of the N answers scored; OVERALL: the prompt once)" }),
      tieDisagrees: tieDisagrees.default(false),
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
      escalationRules: escalationRulesInputSchema.optional(),
      showReferenceAnswer: flag("showReferenceAnswer").optional(),
      askContradictions: flag("askContradictions").optional(),
      matchSpecialty: flag("matchSpecialty").optional(),
      safeLlmScoring: safeLlmScoring.optional(),
      tieDisagrees: tieDisagrees.optional(),
      status: z
        .enum(REQUESTABLE_STATUSES, { error: "status must be OPEN or CLOSED" })
        .optional()
        .meta({ description: "OPEN (from DRAFT, or reopen from CLOSED) or CLOSED (from OPEN)" }),
      amendmentReason: z
        .string()
        .trim()
        .min(3, { error: "say why the frozen protocol changes (at least 3 characters)" })
        .max(2000)
        .optional()
        .meta({ description: "Why a setting of the frozen protocol changes: required for such a change, which is then recorded as a dated amendment" }),
    },
    {
      error: (issue) =>
        issue.code !== "unrecognized_keys"
          ? "body must be a JSON object"
          : issue.keys.includes("design")
            ? "design is chosen when the study is created and never changes"
            : `unknown setting ${issue.keys.join(", ")}`,
    },
  )
  .refine((patch) => Object.entries(patch).some(([k, v]) => k !== "amendmentReason" && v !== undefined), { error: "nothing to change: send at least one setting or a status" }); // named "UpdateStudy" by lib/studies/contract.ts
export type UpdateStudy = z.output<typeof updateStudySchema>;
