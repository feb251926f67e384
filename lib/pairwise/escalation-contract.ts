import "@/lib/api/zod-openapi";
import { z } from "zod";
import { errorResponses, registry } from "@/lib/api/registry";
import { assignEscalationSchema, escalationsQuerySchema } from "@/lib/escalation/contract";

/** The lead's comparison escalations (lib/pairwise/escalation-queries.ts): the same query and body as scoring's. */

const ComparisonEscalationRow = registry.register(
  "ComparisonEscalationRow",
  z.object({
    id: z.uuid(),
    comparisonId: z.uuid(),
    externalId: z.string(),
    specialty: z.string(),
    left: z.string().meta({ description: "The model on the left (leads see models)" }),
    right: z.string(),
    status: z.enum(["NEEDS_GRADER", "ASSIGNED", "RESOLVED", "CANCELLED"]),
    comparisonStatus: z.string(),
    axes: z.array(
      z.object({
        rubric: z.string(),
        axis: z.string(),
        name: z.string(),
        choices: z.array(z.object({ grader: z.string().meta({ description: "The grader's pseudonym" }), choice: z.enum(["left", "right", "tie"]), model: z.string().nullable() })),
      }),
    ),
    adjudicator: z.object({ id: z.uuid(), name: z.string(), status: z.string() }).nullable(),
    createdAt: z.iso.datetime(),
    ageHours: z.number(),
  }),
);

const IdParams = z.object({ id: z.uuid() });
registry.registerPath({
  method: "get",
  path: "/api/v1/studies/{id}/comparison-escalations",
  summary: "Comparison escalations of a pairwise study (third-grader queue)",
  tags: ["Pairwise"],
  request: { params: IdParams, query: escalationsQuerySchema },
  responses: { 200: { description: "Escalations", content: { "application/json": { schema: z.object({ escalations: z.array(ComparisonEscalationRow) }) } } }, ...errorResponses(401, 403, 404, 422) },
});
registry.registerPath({
  method: "post",
  path: "/api/v1/comparison-escalations/{id}/assign",
  summary: "Assign a comparison's adjudicator by hand",
  tags: ["Pairwise"],
  request: { params: IdParams, body: { content: { "application/json": { schema: assignEscalationSchema } } } },
  responses: {
    200: { description: "Assigned", content: { "application/json": { schema: z.object({ escalationId: z.uuid(), assignmentId: z.uuid(), status: z.literal("ASSIGNED") }) } } },
    ...errorResponses(400, 401, 403, 404, 409, 422),
  },
});
