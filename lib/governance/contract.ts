import { z } from "zod";
import { errorResponses, registry } from "@/lib/api/registry";

/** The /api/v1 contract of governance: the stability triage of final sets and the lead's decisions (lib/governance). */

const share = (what: string) => z.number({ error: `${what} must be a number` }).min(0, { error: `${what} is a share of the scale, from 0 to 1` }).max(1, { error: `${what} is a share of the scale, from 0 to 1` });

const graders = (what: string) =>
  z
    .int({ error: `${what} must be a whole number of graders, or null` })
    .min(1, { error: `${what} is a number of graders, at least 1 (null: never)` })
    .max(100, { error: `${what} is at most 100 graders` })
    .nullable();

const ruleFields = {
  acceptAtMost: share("acceptAtMost").meta({ description: "Drift at or below this (a share of the dimension's scale) is consistent: accept. Default 0.25 (one point on a 1-5 scale)" }),
  reviewAtMost: share("reviewAtMost").meta({ description: "Drift above this is major: reject; between the two, review. Default 0.5" }),
  reviewAtFlags: graders("reviewAtFlags").meta({ description: "At least this many graders flagging a contradiction between the set's answers send it at least to review; null: never. Default 1" }),
  rejectAtFlags: graders("rejectAtFlags").meta({ description: "At least this many graders flagging a contradiction propose rejection; null: never. Default 2" }),
};
const bandsInOrder = (r: { acceptAtMost: number; reviewAtMost: number }) => r.reviewAtMost >= r.acceptAtMost;
const BANDS_CROSS = { error: "reviewAtMost cannot be below acceptAtMost: review lies between the two", path: ["reviewAtMost"] };
const flagsInOrder = (r: { reviewAtFlags?: number | null; rejectAtFlags?: number | null }) => r.reviewAtFlags == null || r.rejectAtFlags == null || r.rejectAtFlags >= r.reviewAtFlags;
const FLAGS_CROSS = { error: "rejectAtFlags cannot be below reviewAtFlags: more flags escalate further", path: ["rejectAtFlags"] };

/** The rule a study applies: drift bands and contradiction-flag counts (lib/governance/triage.ts). */
export const TriageRuleSchema = registry.register("TriageRule", z.strictObject(ruleFields).refine(bandsInOrder, BANDS_CROSS).refine(flagsInOrder, FLAGS_CROSS));
export type TriageRule = z.infer<typeof TriageRuleSchema>;

/** A rule as a lead sends it: the flag counts may be left out (their defaults then apply). */
const TriageRuleInput = z
  .strictObject({ ...ruleFields, reviewAtFlags: ruleFields.reviewAtFlags.optional(), rejectAtFlags: ruleFields.rejectAtFlags.optional() })
  .refine(bandsInOrder, BANDS_CROSS)
  .refine(flagsInOrder, FLAGS_CROSS);
export type TriageRuleInput = z.infer<typeof TriageRuleInput>;

export const triageRuleBody = registry.register(
  "TriageRuleUpdate",
  z.strictObject({ rule: TriageRuleInput.nullable().meta({ description: "The study's own rule; null returns to the defaults; flag counts left out take their defaults" }) }),
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
export type SetDecision = z.infer<typeof SetDecision>;

export const DriftSourceSchema = z.object({
  rubric: z.string(),
  dimension: z.string(),
  name: z.string(),
  kind: z.enum(["spread", "judged"]).meta({ description: "spread: largest minus smallest of the N answers' final values; judged: a dimension graded across the answers, read as its distance below the top of its scale" }),
  drift: z.number().meta({ description: "0-1, a share of the dimension's scale" }),
  values: z.array(z.number().nullable()),
});
export type DriftSource = z.infer<typeof DriftSourceSchema>;

export const TriageVerdictSchema = z.enum(["accept", "review", "reject"]);
export type TriageVerdict = z.infer<typeof TriageVerdictSchema>;

const TriageRowSchema = z.object({
  setId: z.uuid(),
  itemId: z.string(),
  specialty: z.string(),
  model: z.string(),
  drift: z.number().nullable().meta({ description: "The largest drift of the set; null when no dimension could be read" }),
  contradictions: z.int().meta({ description: "How many of the set's graders (submitted work) flagged its answers as contradicting each other" }),
  graders: z.int().meta({ description: "How many graders submitted work on the set (the flags' denominator)" }),
  contradictionNotes: z.array(z.string()).meta({ description: "The flagging graders' notes, where they wrote one (unattributed)" }),
  verdict: TriageVerdictSchema.nullable().meta({ description: "The worse of the drift's verdict and the contradiction flags'; null when neither says anything" }),
  mutualRougeL: z.number().nullable().meta({ description: "The mean ROUGE-L F1 (0-1) between every pair of the set's answers, tokenised as the reference metrics; beside the verdict, not part of it (word overlap cannot tell style from contradiction)" }),
  sources: z.array(DriftSourceSchema).meta({ description: "What the drift was read from, the largest first (at most three)" }),
  decision: Decision.nullable(),
});
export type TriageRow = z.infer<typeof TriageRowSchema>;

const TriageCountSchema = z.object({
  model: z.string(),
  specialty: z.string(),
  accept: z.int(),
  review: z.int(),
  reject: z.int(),
  unread: z.int(),
  contradicted: z.int().meta({ description: "Sets at least one grader flagged as contradicting" }),
  accepted: z.int(),
  rejected: z.int(),
});
export type TriageCount = z.infer<typeof TriageCountSchema>;

export const TriageReportSchema = registry.register(
  "TriageReport",
  z.object({
    repetitions: z.int().meta({ description: "The study's N; the triage needs N >= 2" }),
    rule: TriageRuleSchema,
    defaultRule: z.boolean(),
    askContradictions: z.boolean().meta({ description: "Whether the study asks its graders about contradictions (the flags count either way)" }),
    sets: z.array(TriageRowSchema),
    counts: z.array(TriageCountSchema),
  }),
);
export type TriageReport = z.infer<typeof TriageReportSchema>;

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
    200: { description: "The rule now applied", content: { "application/json": { schema: z.object({ rule: TriageRuleSchema }) } } },
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
