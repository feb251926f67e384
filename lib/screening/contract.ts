import "@/lib/api/zod-openapi";
import { z } from "zod";
import { errorResponses, registry } from "@/lib/api/registry";
import { multilineText } from "@/lib/validation/text";
import { MAX_SCREEN_PROMPT } from "./judge-prompt";
import { ScreenRuleSchema, ScreenRulesSchema } from "./rules";

/**
 * The /api/v1 contract of the safety screen: the study's lead runs rule lists
 * and, optionally, an automated judge with a screening prompt over the
 * imported answers before graders see them, and chooses what happens to the
 * answers screened out (lib/screening/service.ts).
 */

export const SCREEN_ACTIONS = ["warn", "exclude"] as const;
export type ScreenActionKey = (typeof SCREEN_ACTIONS)[number];

export const ScreenRule = registry.register("ScreenRule", ScreenRuleSchema);

export const ScreenJudgeRequest = registry.register(
  "ScreenJudgeRequest",
  z
    .strictObject({
      endpointId: z.uuid().meta({ description: "An endpoint an admin set up (GET /api/v1/judge-endpoints): the server connects to no other address" }),
      prompt: multilineText()
        .trim()
        .min(1, { error: "the screening prompt is empty: leave it out for the default" })
        .max(MAX_SCREEN_PROMPT)
        .optional()
        .meta({ description: "The screening instructions (system message); default: whether the answer contains unsafe clinical advice. The reply format ({\"unsafe\": boolean, \"reason\": string}) is always appended." }),
    })
    .meta({ description: "An automated judge that reads each answer (with its question, never its model) and says whether to screen it out, with a reason" }),
);

export const ScreenRequest = registry.register(
  "ScreenRequest",
  z
    .strictObject({
      rules: ScreenRulesSchema.default([]),
      judge: ScreenJudgeRequest.optional(),
      action: z.enum(SCREEN_ACTIONS).meta({
        description:
          "warn: screened answers stay in grading and graders see a neutral warning on them; exclude: the sets holding them are not assigned to graders, and their ungraded assignments are withdrawn (graded ones are kept)",
      }),
      dryRun: z.boolean().default(false).meta({ description: "true: report the rules' hits, store nothing (rules only: the judge runs in the background)" }),
    })
    .superRefine((b, ctx) => {
      if (!b.rules.length && !b.judge) ctx.addIssue({ code: "custom", path: ["rules"], message: "give at least one rule or an automated judge" });
      if (b.dryRun && b.judge) ctx.addIssue({ code: "custom", path: ["dryRun"], message: "a dry run checks the rules only: leave the judge out, or run the screen" });
    })
    .meta({ description: "The rules (and optional judge) to run over every answer of the study, and what to do with the answers they screen out" }),
);
export type ScreenRequestBody = z.output<typeof ScreenRequest>;

export const ScreenHitSchema = z.object({
  source: z.enum(["rule", "judge"]),
  rule: z.int().nullable().meta({ description: "The rule's index in the run's rules; null for the judge" }),
  name: z.string().meta({ description: "The rule's name (the reason the answer was screened out), or \"Automated judge\"" }),
  matches: z.int().nullable().meta({ description: "Matches in the answer (counted up to 1000); null for the judge" }),
  excerpt: z.string().nullable().meta({ description: "The text around the first match, the match in [brackets]; null for the judge" }),
  reason: z.string().nullable().meta({ description: "The judge's reason; null for a rule" }),
});

const answerOf = {
  responseId: z.uuid(),
  responseSetId: z.uuid(),
  externalId: z.string().meta({ description: "The item's id from the import" }),
  model: z.string(),
  repetition: z.int(),
};

export const ScreenedAnswer = registry.register(
  "ScreenedAnswer",
  z.object({ ...answerOf, hits: z.array(ScreenHitSchema) }),
);

export const UnscreenedAnswer = registry.register(
  "UnscreenedAnswer",
  z.object({ ...answerOf, error: z.string().meta({ description: "Why the judge could not screen it (an unreadable reply, an endpoint that failed)" }) }),
);

const ScreenJudgeView = z.object({
  endpointId: z.uuid().nullable().meta({ description: "null for a run imported from a study archive" }),
  endpoint: z.string(),
  model: z.string().meta({ description: "The judge's model (never a model under test)" }),
  prompt: z.string(),
});

export const ScreeningResult = registry.register(
  "ScreeningResult",
  z.object({
    dryRun: z.boolean(),
    run: z
      .object({
        id: z.uuid().nullable().meta({ description: "null in a dry run" }),
        action: z.enum(SCREEN_ACTIONS),
        rules: z.array(ScreenRule),
        answers: z.int().meta({ description: "Answers the run read" }),
        screenedAnswers: z.int(),
        screenedSets: z.int(),
        /** How many of the screened sets still have graders. */
        assignedSets: z.int().meta({ description: "Screened sets that have live (not withdrawn) assignments" }),
        judge: ScreenJudgeView.nullable(),
        judgedAnswers: z.int().meta({ description: "Answers the judge gave a verdict on, or could not screen" }),
        unscreenedAnswers: z.int().meta({ description: "Answers the judge could not screen (listed in `unscreened`): neither passed nor screened out" }),
        withdrawnAssignments: z.int().meta({ description: "Exclude mode: ungraded assignments of the excluded sets that the run withdrew" }),
        keptGradedAssignments: z.int().meta({ description: "Exclude mode: submitted assignments of the excluded sets, kept with their grades" }),
        ranBy: z.object({ id: z.uuid(), name: z.string() }),
        ranAt: z.iso.datetime(),
      })
      .nullable()
      .meta({ description: "null: the study has never been screened" }),
    answers: z.array(ScreenedAnswer).meta({ description: "Every screened-out answer with the rules that matched it and the judge's flag" }),
    unscreened: z.array(UnscreenedAnswer).meta({ description: "Every answer the judge could not screen" }),
    inProgress: z
      .object({ id: z.uuid(), judge: ScreenJudgeView, answers: z.int(), judgedAnswers: z.int(), ranBy: z.object({ id: z.uuid(), name: z.string() }), ranAt: z.iso.datetime() })
      .nullable()
      .meta({ description: "A run whose judge is still working: it becomes the study's screen when every answer has a verdict" }),
  }),
);
export type ScreeningResultBody = z.infer<typeof ScreeningResult>;

const params = z.object({ id: z.uuid().meta({ description: "Study id" }) });
const json = <T extends z.ZodType>(schema: T, description: string) => ({ description, content: { "application/json": { schema } } });

registry.registerPath({
  method: "post",
  path: "/api/v1/studies/{id}/screening",
  summary:
    "Run the safety screen: rule lists over every answer of the study, off the request thread and time-limited per rule, and optionally an automated judge as a background job (audited)",
  tags: ["Screening"],
  request: { params, body: { content: { "application/json": { schema: ScreenRequest } } } },
  responses: {
    200: json(ScreeningResult, "The run and every answer it screened out; with a judge, the run in progress (inProgress)"),
    ...errorResponses(400, 401, 403, 404, 409, 422),
  },
});
registry.registerPath({
  method: "get",
  path: "/api/v1/studies/{id}/screening",
  summary: "The study's latest safety screen and every answer it screened out (the screen's dataset)",
  tags: ["Screening"],
  request: { params },
  responses: { 200: json(ScreeningResult, "The latest run, or run: null"), ...errorResponses(401, 403, 404) },
});
