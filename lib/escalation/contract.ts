import { z } from "zod";
import { errorResponses, registry } from "@/lib/api/registry";
import { lineText, textProblem } from "@/lib/validation/text";
import { AnswerReferenceMetrics } from "@/lib/reference-metrics/contract";

/** Lead-facing escalation and final-score endpoints. */

export const SET_STATUS_PARAM = ["awaiting_grades", "agreed", "awaiting_adjudication", "adjudicated"] as const;
export const SETS_PAGE_LIMIT = { default: 1000, max: 5000 } as const;

/** The sets API's cursor, opaque to clients: the last set of the previous page (question id, model name) as base64url JSON. */
export function encodeSetCursor(last: { externalId: string; model: string }): string {
  return Buffer.from(JSON.stringify([last.externalId, last.model])).toString("base64url");
}
function decodeSetCursor(raw: string): { externalId: string; model: string } | null {
  try {
    const v: unknown = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
    // Decoded text goes into a query: it obeys the rule of any text input.
    if (Array.isArray(v) && v.length === 2 && v.every((x) => typeof x === "string" && textProblem(x, "line") === null)) return { externalId: v[0], model: v[1] };
  } catch {
    /* not ours */
  }
  return null;
}

export const setsQuerySchema = z.object({
  status: z.enum(SET_STATUS_PARAM).optional(),
  limit: z.coerce
    .number({ error: "limit must be a number" })
    .int({ error: "limit must be a whole number" })
    .min(1, { error: "limit must be at least 1" })
    .max(SETS_PAGE_LIMIT.max, { error: `limit must be at most ${SETS_PAGE_LIMIT.max}` })
    .default(SETS_PAGE_LIMIT.default)
    .meta({ description: `sets per page (1-${SETS_PAGE_LIMIT.max}, default ${SETS_PAGE_LIMIT.default})` }),
  cursor: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined) return null;
      const at = decodeSetCursor(raw);
      if (!at) ctx.addIssue({ code: "custom", message: "cursor is not one this API returned: pass the nextCursor of the previous page" });
      return at;
    })
    .meta({ description: "where to continue: the nextCursor of the previous page (omit for the first page)" }),
});
export const escalationsQuerySchema = z.object({
  status: z.enum(["NEEDS_GRADER", "ASSIGNED", "RESOLVED", "CANCELLED"]).optional(),
  specialty: lineText().min(1).optional(),
});
export const assignEscalationSchema = z.object({ graderId: z.uuid({ message: "graderId must be a user id (uuid)" }) });

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
      .record(z.string(), z.record(z.string(), z.union([z.number(), z.string(), z.null()])))
      .nullable()
      .meta({
        description:
          "Per rubric key and dimension key: ordinal dimensions the mean over all graders (N/A left out), nominal ones the majority category (null on a tie); null until the set is agreed or adjudicated",
      }),
    totals: z
      .record(z.string(), z.record(z.string(), z.number().nullable()))
      .nullable()
      .meta({
        description:
          "Per rubric key: each total of the rubric document (the mean of the graders' totals), `headline` and `percent` (the headline as % of its maximum); a total with an `alias` in its document also under that key",
      }),
    bands: z
      .record(z.string(), z.record(z.string(), z.string().nullable()))
      .nullable()
      .meta({ description: "Per rubric key and total key, the named band the final total falls in, for totals that have bands (DISCERN's five: very poor to excellent)" }),
    finalBy: z.enum(["panel", "judge"]).nullable().optional().meta({ description: "Whose scores are final: the clinicians' or (hybrid mode) an automated judge's; null while not final" }),
    answers: z.array(AnswerReferenceMetrics).meta({ description: "Each answer's reference-based metrics against the question's reference answer, by repetition" }),
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
        name: z.string().meta({ description: "The dimension's name in the study's rubric document" }),
        spread: z.number().nullable().meta({ description: "Ordinal: max - min of the graders' values; nominal: null" }),
        threshold: z.number().nullable().meta({ description: "The spread rule's threshold; null under the other rules" }),
        reason: z.string().meta({ description: "Why it escalated, in words: \"N/A against a value\", \"different values\", \"a spread of 2, at least 2\"" }),
        values: z.array(
          z.object({
            grader: z.string().meta({ description: "Pseudonym" }),
            value: z.union([z.number(), z.string()]),
            label: z.string().nullable().meta({ description: "The level's label, when the value is one of the scale's levels" }),
          }),
        ),
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
  responses: {
    200: json(
      z.object({
        sets: z.array(SetResult),
        nextCursor: z.string().nullable().meta({ description: "pass as cursor for the next page; null on the last page" }),
      }),
      "A page of sets, in the order of the question's id then the model's name",
    ),
    ...errorResponses(401, 403, 404, 422),
  },
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
