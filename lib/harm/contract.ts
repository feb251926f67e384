import { z } from "zod";
import { errorResponses, registry } from "@/lib/api/registry";

/** The /api/v1 contract of harm review: leads review every potential-harm flag their graders raise. */
export const HARM_REVIEW_STATUSES = ["OPEN", "ACKNOWLEDGED", "RESOLVED"] as const;
export const harmReviewStatus = z.enum(HARM_REVIEW_STATUSES);

export const harmFlagsQuerySchema = z.object({ review: harmReviewStatus.optional() });

export const harmReviewBody = registry.register(
  "HarmReviewUpdate",
  z
    .object({
      status: harmReviewStatus,
      note: z.string().trim().max(5000, { error: "note is longer than 5000 characters" }).optional(),
    })
    .refine((b) => b.status === "OPEN" || (b.note ?? "").length > 0, { error: "say what was done: a note is required to acknowledge or resolve a flag", path: ["note"] })
    .meta({ description: "The review's new state; acknowledging or resolving needs a note" }),
);
export type HarmReviewBody = z.infer<typeof harmReviewBody>;

export const HarmFlag = registry.register(
  "HarmFlag",
  z.object({
    assignmentId: z.uuid(),
    responseSetId: z.uuid(),
    externalId: z.string(),
    specialty: z.string(),
    model: z.string(),
    grader: z.string().meta({ description: "The grader's pseudonym in this study" }),
    kind: z.enum(["PRIMARY", "ADJUDICATOR"]),
    submitted: z.boolean().meta({ description: "false: the flag is in a draft the grader has not submitted yet" }),
    comment: z.string(),
    flaggedAt: z.iso.datetime(),
    scores: z.array(
      z.object({
        rubric: z.string(),
        dimension: z.string(),
        rubricName: z.string(),
        name: z.string().meta({ description: "The dimension's name in the study's rubric document" }),
        repetition: z.int().nullable(),
        score: z.int().nullable().meta({ description: "Ordinal and criteria values; null for a nominal value or N/A" }),
        value: z.union([z.number(), z.string()]).meta({ description: "The value as given: a number, a nominal level, or \"N/A\"" }),
        label: z.string().nullable().meta({ description: "The level's label (e.g. \"Severe harm\")" }),
        acrossHarmLine: z.boolean().meta({ description: "The score crosses the dimension's harm line" }),
      }),
    ),
    review: z.object({
      status: harmReviewStatus,
      note: z.string().nullable(),
      reviewer: z.string().nullable(),
      reviewedAt: z.iso.datetime().nullable(),
    }),
  }),
);

const params = z.object({ id: z.uuid().meta({ description: "Study id" }) });
registry.registerPath({
  method: "get",
  path: "/api/v1/studies/{id}/harm-flags",
  summary: "Every potential-harm flag graders raised in the study, with the grader's scores and the lead's review",
  tags: ["Harm review"],
  request: { params, query: harmFlagsQuerySchema },
  responses: {
    200: { description: "Flags, newest first", content: { "application/json": { schema: z.object({ flags: z.array(HarmFlag) }) } } },
    ...errorResponses(401, 403, 404, 422),
  },
});
registry.registerPath({
  method: "patch",
  path: "/api/v1/studies/{id}/harm-flags/{assignmentId}",
  summary: "Acknowledge, resolve or reopen a flag (audited with the old and new state)",
  tags: ["Harm review"],
  request: {
    params: params.extend({ assignmentId: z.uuid().meta({ description: "The flagging assignment" }) }),
    body: { content: { "application/json": { schema: harmReviewBody } } },
  },
  responses: {
    200: { description: "The flag as it now stands", content: { "application/json": { schema: HarmFlag } } },
    ...errorResponses(400, 401, 403, 404, 422),
  },
});
