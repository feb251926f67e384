import { z } from "zod";
import { errorResponses, registry } from "@/lib/api/registry";
import { ASSIGNMENT_DESIGNS } from "@/lib/studies/assignment-design";
import { lineText } from "@/lib/validation/text";
import { RubricDocument } from "@/lib/rubrics/contract";
import { CriterionSchema } from "@/lib/rubrics/criteria";
import { gradeSubmissionSchema } from "./contract-schemas";

/** The grader's side of /api/v1: their own assignments and grades. */

export const assignmentRunSchema = z.object({
  seed: lineText().min(1).max(100).optional().meta({ description: "Reuse a seed to reproduce an assignment; a random one is stored and returned otherwise" }),
  matchSpecialty: z.boolean().optional().meta({ description: "Only assign graders whose specialty matches the item's (defaults to the study setting)" }),
  design: z
    .enum(ASSIGNMENT_DESIGNS)
    .optional()
    .meta({
      description:
        "LOAD_BALANCED (default): any k graders per set. ONE_MODEL_PER_QUESTION: a grader sees at most one model's answers to a question, models balanced per grader; needs k x models graders. Stored on the study; defaults to its stored design",
    }),
});

const MyAssignment = registry.register(
  "MyAssignment",
  z.object({
    id: z.uuid(),
    responseSetId: z.uuid(),
    kind: z.enum(["PRIMARY", "ADJUDICATOR"]),
    status: z.enum(["PENDING", "IN_PROGRESS", "SUBMITTED"]),
    position: z.int(),
  }),
);

const BlindedAssignment = registry.register(
  "BlindedAssignment",
  z.object({
    id: z.uuid(),
    kind: z.enum(["PRIMARY", "ADJUDICATOR"]),
    status: z.enum(["PENDING", "IN_PROGRESS", "SUBMITTED"]),
    readOnly: z.boolean(),
    study: z.object({
      name: z.string(),
      rubrics: z.array(z.string()).meta({ description: "The keys of the study's rubrics" }),
      rubricDocuments: z.array(RubricDocument).meta({ description: "The rubrics the form is built from" }),
      repetitions: z.int(),
      showReferenceAnswer: z.boolean(),
      askContradictions: z.boolean().meta({ description: "Whether the form asks if the set's answers contradict each other (N >= 2 and the study asks)" }),
    }),
    item: z.object({ specialty: z.string(), question: z.string(), referenceAnswer: z.string().nullable(), criteria: z.array(CriterionSchema).nullable() }),
    answers: z
      .array(
        z.object({
          repetition: z.int(),
          text: z.string(),
          screened: z.boolean().meta({ description: "The study's safety screen flagged this answer: show the neutral warning (never the rule, which may name a model)" }),
        }),
      )
      .meta({ description: "Labelled by repetition only (Answer 1..N): no model identity" }),
    scores: z.array(
      z.object({
        rubric: z.string(),
        dimension: z.string(),
        repetition: z.int().nullable(),
        score: z.union([z.int(), z.string(), z.null()]).meta({ description: "Ordinal/criteria: a number; nominal: the level's value; null: N/A, or a draft's comment typed before its score" }),
        na: z.literal(true).optional(),
        criterion: z.string().optional(),
        comment: z.string().nullable(),
      }),
    ),
    harm: z.object({ flag: z.boolean(), comment: z.string().nullable() }),
    contradiction: z.object({ flag: z.boolean(), note: z.string().nullable() }).meta({ description: "Your own contradiction flag on the set (never another grader's)" }),
    timeSpentMs: z.int(),
    submittedAt: z.iso.datetime().nullable(),
    progress: z.object({ done: z.int(), total: z.int(), position: z.int() }),
    nextAssignmentId: z.uuid().nullable(),
  }),
);

export const GradeSubmissionBody = registry.register("GradeSubmission", gradeSubmissionSchema);
const SaveResult = registry.register(
  "GradeSaveResult",
  z.object({ status: z.enum(["PENDING", "IN_PROGRESS", "SUBMITTED"]), complete: z.boolean(), changed: z.int(), nextAssignmentId: z.uuid().nullable() }),
);

const AssignmentRunSummary = registry.register(
  "AssignmentRunSummary",
  z.object({
    seed: z.string(),
    matchSpecialty: z.boolean(),
    design: z.enum(ASSIGNMENT_DESIGNS),
    completeSets: z.int(),
    created: z.int(),
    reassigned: z.int(),
    setsShortOfGraders: z.int(),
    perGrader: z.array(z.object({ graderId: z.uuid(), name: z.string(), created: z.int() })),
  }),
);

const AssignmentProgress = registry.register(
  "AssignmentProgress",
  z.object({
    seed: z.string().nullable(),
    design: z.enum(ASSIGNMENT_DESIGNS),
    totals: z.object({ assigned: z.int(), submitted: z.int() }),
    graders: z.array(
      z.object({
        graderId: z.uuid(),
        name: z.string(),
        email: z.string(),
        active: z.boolean(),
        assigned: z.int(),
        submitted: z.int(),
        inProgress: z.int(),
        adjudications: z.int(),
        open: z.int().meta({ description: "Pending or started assignments" }),
        openAdjudications: z.int(),
      }),
    ),
  }),
);

const json = <T extends z.ZodType>(schema: T, description: string) => ({ description, content: { "application/json": { schema } } });
const AssignmentParams = z.object({ id: z.uuid() });

registry.registerPath({
  method: "get",
  path: "/api/v1/me/assignments",
  summary: "My assignments, in my own order (graders)",
  tags: ["Grading"],
  responses: { 200: json(z.object({ assignments: z.array(MyAssignment) }), "Your assignments"), ...errorResponses(401, 403) },
});
registry.registerPath({
  method: "get",
  path: "/api/v1/assignments/{id}",
  summary: "One of my assignments: the question and the N answers, blinded",
  tags: ["Grading"],
  request: { params: AssignmentParams },
  responses: { 200: json(BlindedAssignment, "The blinded content and your own scores"), ...errorResponses(401, 403, 404) },
});
registry.registerPath({
  method: "put",
  path: "/api/v1/assignments/{id}/grades",
  summary: "Save a draft (submit: false) or submit / revise (submit: true) my grades",
  description: "The body is the whole form. Set-level dimensions (reproducibility, consistency) take repetition null. Consistency is derived from accuracy; if sent it must match.",
  tags: ["Grading"],
  request: { params: AssignmentParams, body: { content: { "application/json": { schema: GradeSubmissionBody } } } },
  responses: { 200: json(SaveResult, "Saved"), ...errorResponses(400, 401, 403, 404, 409, 413, 422) },
});
registry.registerPath({
  method: "post",
  path: "/api/v1/studies/{id}/assignments",
  summary: "Assign graders to every complete response set (incremental, reproducible by seed)",
  tags: ["Assignment"],
  request: { params: AssignmentParams, body: { content: { "application/json": { schema: assignmentRunSchema } } } },
  responses: { 200: json(AssignmentRunSummary, "What was created"), ...errorResponses(400, 401, 403, 404, 409, 422) },
});
registry.registerPath({
  method: "get",
  path: "/api/v1/studies/{id}/assignments",
  summary: "Assignment progress per grader",
  tags: ["Assignment"],
  request: { params: AssignmentParams },
  responses: { 200: json(AssignmentProgress, "Progress"), ...errorResponses(401, 403, 404) },
});
