import "@/lib/api/zod-openapi";
import { z } from "zod";
import { errorResponses, registry } from "@/lib/api/registry";
import { ScreenRuleSchema, ScreenRulesSchema } from "./rules";

/**
 * The /api/v1 contract of the safety screen: the study's lead runs rule lists
 * over the imported answers before graders see them, and chooses what happens
 * to the answers screened out (lib/screening/service.ts).
 */

export const SCREEN_ACTIONS = ["warn", "exclude"] as const;
export type ScreenActionKey = (typeof SCREEN_ACTIONS)[number];

export const ScreenRule = registry.register("ScreenRule", ScreenRuleSchema);

export const ScreenRequest = registry.register(
  "ScreenRequest",
  z
    .strictObject({
      rules: ScreenRulesSchema,
      action: z.enum(SCREEN_ACTIONS).meta({
        description:
          "warn: screened answers stay in grading and graders see a neutral warning on them; exclude: the sets holding them are not assigned to graders",
      }),
      dryRun: z.boolean().default(false).meta({ description: "true: report the hits, store nothing" }),
    })
    .meta({ description: "The rules to run over every answer of the study, and what to do with the answers they screen out" }),
);
export type ScreenRequestBody = z.output<typeof ScreenRequest>;

export const ScreenHitSchema = z.object({
  rule: z.int().meta({ description: "The rule's index in the run's rules" }),
  name: z.string().meta({ description: "The rule's name: the reason the answer was screened out" }),
  matches: z.int().meta({ description: "Matches in the answer (counted up to 1000)" }),
  excerpt: z.string().meta({ description: "The text around the first match, the match in [brackets]" }),
});

export const ScreenedAnswer = registry.register(
  "ScreenedAnswer",
  z.object({
    responseId: z.uuid(),
    responseSetId: z.uuid(),
    externalId: z.string().meta({ description: "The item's id from the import" }),
    model: z.string(),
    repetition: z.int(),
    hits: z.array(ScreenHitSchema),
  }),
);

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
        /** How many of the screened sets already had graders when the run was made. */
        assignedSets: z.int().meta({ description: "Screened sets that already had graders: exclusion keeps sets out of later assignment runs only" }),
        ranBy: z.object({ id: z.uuid(), name: z.string() }),
        ranAt: z.iso.datetime(),
      })
      .nullable()
      .meta({ description: "null: the study has never been screened" }),
    answers: z.array(ScreenedAnswer).meta({ description: "Every screened-out answer with the rules that matched it" }),
  }),
);
export type ScreeningResultBody = z.infer<typeof ScreeningResult>;

const params = z.object({ id: z.uuid().meta({ description: "Study id" }) });
const json = <T extends z.ZodType>(schema: T, description: string) => ({ description, content: { "application/json": { schema } } });

registry.registerPath({
  method: "post",
  path: "/api/v1/studies/{id}/screening",
  summary: "Run the safety screen: rule lists over every answer of the study, off the request thread and time-limited per rule (audited)",
  tags: ["Screening"],
  request: { params, body: { content: { "application/json": { schema: ScreenRequest } } } },
  responses: {
    200: json(ScreeningResult, "The run and every answer it screened out"),
    ...errorResponses(400, 401, 403, 404, 422),
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
