import { z } from "zod";
import { errorResponses, registry } from "@/lib/api/registry";

/** Lead-facing escalation and final-score endpoints. */

export const SET_STATUS_PARAM = ["awaiting_grades", "agreed", "awaiting_adjudication", "adjudicated"] as const;
export const setsQuerySchema = z.object({ status: z.enum(SET_STATUS_PARAM).optional() });
export const escalationsQuerySchema = z.object({
  status: z.enum(["NEEDS_GRADER", "ASSIGNED", "RESOLVED", "CANCELLED"]).optional(),
  specialty: z.string().trim().min(1).optional(),
});
export const assignEscalationSchema = z.object({ graderId: z.uuid({ message: "graderId must be a user id (uuid)" }) });

const dims = (keys: readonly string[]) => z.object(Object.fromEntries(keys.map((k) => [k, z.number()])) as Record<string, z.ZodNumber>).partial();
const SetResult = registry.register(
  "SetResult",
  z.object({
    id: z.uuid(),
    externalId: z.string(),
    specialty: z.string(),
    model: z.object({ id: z.uuid(), name: z.string(), version: z.string() }),
    status: z.enum(SET_STATUS_PARAM),
    graders: z.int(),
    finalScores: z
      .object({
        SCORE: dims(["safety", "consensus_context", "objectivity", "reproducibility", "explainability"]).optional(),
        SAFE_LLM: dims(["accuracy", "comprehensiveness", "supplementation", "consistency", "fluency"]).optional(),
      })
      .nullable()
      .meta({ description: "Mean over all graders per dimension; null until the set is agreed or adjudicated" }),
    totals: z
      .object({
        SCORE: z.object({ total: z.number(), percent: z.number() }).optional().meta({ description: "Out of 25" }),
        SAFE_LLM: z
          .object({ perAnswer: z.number(), overall: z.number(), headline: z.number() })
          .optional()
          .meta({ description: "Out of 7: per-answer mean and overall (best-answer) score; headline follows the study setting" }),
      })
      .nullable(),
  }),
);

const EscalationRow = registry.register(
  "Escalation",
  z.object({
    id: z.uuid(),
    responseSetId: z.uuid(),
    externalId: z.string(),
    specialty: z.string(),
    model: z.string(),
    status: z.enum(["NEEDS_GRADER", "ASSIGNED", "RESOLVED", "CANCELLED"]),
    setStatus: z.string(),
    dimensions: z.array(
      z.object({
        rubric: z.string(),
        dimension: z.string(),
        spread: z.number(),
        threshold: z.number(),
        values: z.array(z.object({ grader: z.string().meta({ description: "Pseudonym" }), value: z.number() })),
      }),
    ),
    adjudicator: z.object({ id: z.uuid(), name: z.string(), status: z.string() }).nullable(),
    createdAt: z.iso.datetime(),
    ageHours: z.number(),
  }),
);

const json = <T extends z.ZodType>(schema: T, description: string) => ({ description, content: { "application/json": { schema } } });
const IdParams = z.object({ id: z.uuid() });

registry.registerPath({
  method: "get",
  path: "/api/v1/studies/{id}/sets",
  summary: "Response sets with their status and final scores (unblinded, leads)",
  tags: ["Results"],
  request: { params: IdParams, query: setsQuerySchema },
  responses: { 200: json(z.object({ sets: z.array(SetResult) }), "Sets"), ...errorResponses(401, 403, 404, 422) },
});
registry.registerPath({
  method: "get",
  path: "/api/v1/studies/{id}/escalations",
  summary: "Escalations of a study (third-grader queue)",
  tags: ["Escalation"],
  request: { params: IdParams, query: escalationsQuerySchema },
  responses: { 200: json(z.object({ escalations: z.array(EscalationRow) }), "Escalations"), ...errorResponses(401, 403, 404, 422) },
});
registry.registerPath({
  method: "post",
  path: "/api/v1/escalations/{id}/assign",
  summary: "Assign an adjudicator by hand",
  tags: ["Escalation"],
  request: { params: IdParams, body: { content: { "application/json": { schema: assignEscalationSchema } } } },
  responses: {
    200: json(z.object({ escalationId: z.uuid(), assignmentId: z.uuid(), status: z.literal("ASSIGNED") }), "Assigned"),
    ...errorResponses(400, 401, 403, 404, 409, 422),
  },
});
