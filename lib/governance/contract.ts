import { z } from "zod";
import { errorResponses, registry } from "@/lib/api/registry";

/** The /api/v1 contract of governance: the stability triage of final sets and the lead's decisions (lib/governance). */

const share = (what: string) => z.number({ error: `${what} must be a number` }).min(0, { error: `${what} is a share of the scale, from 0 to 1` }).max(1, { error: `${what} is a share of the scale, from 0 to 1` });

export const TriageRuleSchema = registry.register(
  "TriageRule",
  z
    .strictObject({
      acceptAtMost: share("acceptAtMost").meta({ description: "Drift at or below this (a share of the dimension's scale) is consistent: accept. Default 0.25 (one point on a 1-5 scale)" }),
      reviewAtMost: share("reviewAtMost").meta({ description: "Drift above this is major: reject; between the two, review. Default 0.5" }),
    })
    .refine((r) => r.reviewAtMost >= r.acceptAtMost, { error: "reviewAtMost cannot be below acceptAtMost: review lies between the two", path: ["reviewAtMost"] }),
);

export const triageRuleBody = registry.register(
  "TriageRuleUpdate",
  z.strictObject({ rule: TriageRuleSchema.nullable().meta({ description: "The study's own rule; null returns to the defaults" }) }),
);

export const setDecisionBody = registry.register(
  "SetDecisionUpdate",
  z.strictObject({
    decision: z.enum(["ACCEPTED", "REJECTED"], { error: "decision is ACCEPTED or REJECTED" }),
    note: z
      .string({ error: "note must be text" })
      .trim()
      .min(3, { error: "say why: a note of at least 3 characters is required" })
      .max(2000, { error: "note is longer than 2000 characters" }),
  }),
);

const Decision = z.object({ decision: z.enum(["ACCEPTED", "REJECTED"]), note: z.string(), decidedAt: z.iso.datetime() });
export const SetDecision = registry.register("SetDecision", Decision);

const DriftSourceSchema = z.object({
  rubric: z.string(),
  dimension: z.string(),
  name: z.string(),
  kind: z.enum(["spread", "judged"]).meta({ description: "spread: largest minus smallest of the N answers' final values; judged: a dimension graded across the answers, read as its distance below the top of its scale" }),
  drift: z.number().meta({ description: "0-1, a share of the dimension's scale" }),
  values: z.array(z.number().nullable()),
});

export const TriageReportSchema = registry.register(
  "TriageReport",
  z.object({
    repetitions: z.int().meta({ description: "The study's N; the triage needs N >= 2" }),
    rule: z.object({ acceptAtMost: z.number(), reviewAtMost: z.number() }),
    defaultRule: z.boolean(),
    sets: z.array(
      z.object({
        setId: z.uuid(),
        itemId: z.string(),
        specialty: z.string(),
        model: z.string(),
        drift: z.number().nullable().meta({ description: "The largest drift of the set; null when no dimension could be read" }),
        verdict: z.enum(["accept", "review", "reject"]).nullable(),
        mutualRougeL: z.number().nullable().meta({ description: "The mean ROUGE-L F1 (0-1) between every pair of the set's answers, tokenised as the reference metrics; beside the verdict, not part of it (word overlap cannot tell style from contradiction)" }),
        sources: z.array(DriftSourceSchema),
        decision: Decision.nullable(),
      }),
    ),
    counts: z.array(
      z.object({
        model: z.string(),
        specialty: z.string(),
        accept: z.int(),
        review: z.int(),
        reject: z.int(),
        unread: z.int(),
        accepted: z.int(),
        rejected: z.int(),
      }),
    ),
  }),
);

const params = z.object({ id: z.uuid().meta({ description: "Study id" }) });

registry.registerPath({
  method: "get",
  path: "/api/v1/studies/{id}/triage",
  summary: "The stability triage of every final set (accept, review, reject by drift across the N answers) with the lead's decisions and counts per model and specialty",
  tags: ["Governance"],
  request: { params },
  responses: { 200: { description: "The triage", content: { "application/json": { schema: TriageReportSchema } } }, ...errorResponses(401, 403, 404) },
});

registry.registerPath({
  method: "put",
  path: "/api/v1/studies/{id}/triage",
  summary: "Set the study's triage rule (or return to the defaults); audited",
  tags: ["Governance"],
  request: { params, body: { content: { "application/json": { schema: triageRuleBody } } } },
  responses: {
    200: { description: "The rule now applied", content: { "application/json": { schema: z.object({ rule: z.object({ acceptAtMost: z.number(), reviewAtMost: z.number() }) }) } } },
    ...errorResponses(400, 401, 403, 404, 422),
  },
});

registry.registerPath({
  method: "put",
  path: "/api/v1/studies/{id}/triage/{setId}",
  summary: "Accept or reject a final set after the triage, with a required note; a later decision replaces it (both audited)",
  tags: ["Governance"],
  request: { params: params.extend({ setId: z.uuid().meta({ description: "The response set" }) }), body: { content: { "application/json": { schema: setDecisionBody } } } },
  responses: {
    200: { description: "The decision", content: { "application/json": { schema: SetDecision } } },
    ...errorResponses(400, 401, 403, 404, 409, 422),
  },
});
