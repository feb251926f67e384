import { z } from "zod";
import { errorResponses, registry } from "@/lib/api/registry";
import { RubricDocument } from "@/lib/rubrics/contract";
import {
  comparisonAssignmentRunSchema,
  PairDesignSchema,
  planComparisonsSchema,
  preferenceFormSchema,
} from "./contract-schemas";

export * from "./contract-schemas";

/**
 * The pairwise preference API (issue #34's server side). A lead plans the comparisons
 * (which two answers to a question are set side by side, which on the left), then deals them
 * to k graders each; a grader reads a comparison blinded (the question and answers A and B,
 * never a model, repetition, study name or other grader), saves drafts and submits; two
 * primary graders who prefer opposite answers on an axis get one adjudicator.
 *
 * Sides: "a" is the answer shown first (left), "b" the second. Stored as left / right / tie.
 */

const statusEnum = z.enum(["AWAITING_GRADES", "AGREED", "AWAITING_ADJUDICATION", "ADJUDICATED"]);

export const ComparisonPlanSummary = registry.register(
  "ComparisonPlanSummary",
  z.object({
    design: PairDesignSchema.nullable().meta({ description: "The pair design planned (null before planning)" }),
    seed: z.string().nullable(),
    comparisons: z.int(),
    questions: z.int().meta({ description: "Questions with at least one comparison" }),
    byStatus: z.record(statusEnum, z.int()),
    pairs: z.array(z.object({ modelA: z.string(), modelB: z.string(), comparisons: z.int() })).meta({ description: "Per pair of models (names in sorted order)" }),
    models: z.array(z.object({ model: z.string(), left: z.int(), right: z.int() })).meta({ description: "How often each model is on each side" }),
  }),
);

export const ComparisonAssignmentRunSummary = registry.register(
  "ComparisonAssignmentRunSummary",
  z.object({
    seed: z.string(),
    matchSpecialty: z.boolean(),
    comparisons: z.int(),
    created: z.int(),
    reassigned: z.int().meta({ description: "Unsubmitted comparisons taken from graders who left the study (or were deactivated), dealt again" }),
    comparisonsShortOfGraders: z.int().meta({ description: "Comparisons with fewer than k eligible graders" }),
    perGrader: z.array(z.object({ graderId: z.uuid(), name: z.string(), created: z.int() })),
  }),
);

const MyComparison = registry.register(
  "MyComparison",
  z.object({
    id: z.uuid(),
    kind: z.enum(["PRIMARY", "ADJUDICATOR"]),
    status: z.enum(["PENDING", "IN_PROGRESS", "SUBMITTED"]),
    position: z.int(),
  }),
);

const blindedAnswer = z.object({
  text: z.string(),
  screened: z.boolean().meta({ description: "The study's safety screen flagged this answer: show the neutral warning" }),
});
const savedHarm = z.object({ flag: z.boolean(), comment: z.string().nullable() });

export const BlindedComparison = registry.register(
  "BlindedComparison",
  z.object({
    id: z.uuid(),
    kind: z.enum(["PRIMARY", "ADJUDICATOR"]),
    status: z.enum(["PENDING", "IN_PROGRESS", "SUBMITTED"]),
    readOnly: z.boolean(),
    study: z.object({
      name: z.string().meta({ description: "The title graders see, never the study's own name" }),
      rubricDocuments: z.array(RubricDocument).meta({ description: "The preference axes the form is built from" }),
      showReferenceAnswer: z.boolean(),
    }),
    item: z.object({ specialty: z.string(), question: z.string(), referenceAnswer: z.string().nullable() }),
    answers: z.object({ a: blindedAnswer, b: blindedAnswer }).meta({ description: "Answer A (left) and answer B (right): no model, no repetition" }),
    preferences: z.array(
      z.object({
        rubric: z.string(),
        axis: z.string(),
        choice: z.enum(["a", "tie", "b"]),
        strength: z.enum(["slightly", "clearly"]).nullable(),
        comment: z.string().nullable(),
      }),
    ),
    harm: z.object({ a: savedHarm, b: savedHarm }),
    timeSpentMs: z.int(),
    submittedAt: z.iso.datetime().nullable(),
    progress: z.object({ done: z.int(), total: z.int(), position: z.int() }),
    nextAssignmentId: z.uuid().nullable(),
  }),
);

export const PreferenceForm = registry.register("PreferenceForm", preferenceFormSchema);
export const PreferenceSaveResult = registry.register(
  "PreferenceSaveResult",
  z.object({
    status: z.enum(["PENDING", "IN_PROGRESS", "SUBMITTED"]),
    complete: z.boolean().meta({ description: "Every axis is answered" }),
    nextAssignmentId: z.uuid().nullable(),
  }),
);

const json = <T extends z.ZodType>(schema: T, description: string) => ({ description, content: { "application/json": { schema } } });
const IdParams = z.object({ id: z.uuid() });

registry.registerPath({
  method: "post",
  path: "/api/v1/studies/{id}/comparisons",
  summary: "Plan a pairwise study's comparisons (replaces the plan until grading starts)",
  description:
    "Which pairs of models are compared per question, which repetition of each is shown and which model is on the left, from the design and a seed (stored on the study for replay and audit). Refused (409) once a comparison is assigned, or on a scoring study.",
  tags: ["Pairwise"],
  request: { params: IdParams, body: { content: { "application/json": { schema: planComparisonsSchema } } } },
  responses: { 200: json(ComparisonPlanSummary, "The plan"), ...errorResponses(400, 401, 403, 404, 409, 413, 422) },
});
registry.registerPath({
  method: "get",
  path: "/api/v1/studies/{id}/comparisons",
  summary: "A pairwise study's plan: its design, seed and counts per pair, side and status",
  tags: ["Pairwise"],
  request: { params: IdParams },
  responses: { 200: json(ComparisonPlanSummary, "The plan"), ...errorResponses(401, 403, 404, 409) },
});
registry.registerPath({
  method: "post",
  path: "/api/v1/studies/{id}/comparison-assignments",
  summary: "Deal the planned comparisons to k graders each (incremental, reproducible by seed)",
  tags: ["Pairwise"],
  request: { params: IdParams, body: { content: { "application/json": { schema: comparisonAssignmentRunSchema } } } },
  responses: { 200: json(ComparisonAssignmentRunSummary, "What was created"), ...errorResponses(400, 401, 403, 404, 409, 413, 422) },
});
registry.registerPath({
  method: "get",
  path: "/api/v1/me/comparisons",
  summary: "My comparisons, in my own order (graders)",
  tags: ["Pairwise"],
  responses: { 200: json(z.object({ comparisons: z.array(MyComparison) }), "Your comparisons"), ...errorResponses(401, 403) },
});
registry.registerPath({
  method: "get",
  path: "/api/v1/comparison-assignments/{id}",
  summary: "One of my comparisons: the question and answers A and B, blinded",
  tags: ["Pairwise"],
  request: { params: IdParams },
  responses: { 200: json(BlindedComparison, "The blinded comparison and your own preferences"), ...errorResponses(401, 403, 404) },
});
registry.registerPath({
  method: "put",
  path: "/api/v1/comparison-assignments/{id}/preferences",
  summary: "Save my preferences as a draft (the whole form)",
  tags: ["Pairwise"],
  request: { params: IdParams, body: { content: { "application/json": { schema: PreferenceForm } } } },
  responses: { 200: json(PreferenceSaveResult, "Saved"), ...errorResponses(400, 401, 403, 404, 409, 413, 422) },
});
registry.registerPath({
  method: "post",
  path: "/api/v1/comparison-assignments/{id}/submit",
  summary: "Submit (or revise) my preferences: every axis answered",
  tags: ["Pairwise"],
  request: { params: IdParams, body: { content: { "application/json": { schema: PreferenceForm } } } },
  responses: { 200: json(PreferenceSaveResult, "Submitted"), ...errorResponses(400, 401, 403, 404, 409, 413, 422) },
});
