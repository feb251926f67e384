import { z } from "zod";
import { errorResponses, registry } from "@/lib/api/registry";
import { addGraderSchema, setGraderSpecialtiesSchema } from "@/lib/graders/schema";
import { itemListQuerySchema, studyListQuerySchema } from "./list-params";
import { graderListQuerySchema } from "@/lib/graders/list-params";
import { RubricDocument } from "@/lib/rubrics/contract";
import type { RubricDocument as RubricDoc } from "@/lib/rubrics/document";
import { RUBRIC_TEMPLATES } from "@/lib/rubrics/templates";
import { ASSIGNMENT_DESIGNS } from "@/lib/studies/assignment-design";
import { createStudySchema, HEADLINE_SCORING, STUDY_DESIGNS, STUDY_STATUSES, updateStudySchema } from "./settings";
import { PairDesignSchema } from "./pair-design";

/**
 * The /api/v1/studies contract: request schemas are the ones the handlers
 * validate with (lib/studies/settings.ts, list-params.ts, lib/graders/schema.ts);
 * response schemas describe what the handlers return.
 */

/*
 * `.meta()` makes a copy of each schema here, after lib/api/registry.ts has
 * extended zod: zod copies prototype methods (`.openapi`, which register()
 * calls) into a schema when it is built, and the originals may have been
 * built before the extension (a page that imports settings.ts first). The
 * copies validate exactly like the originals; the handlers use the copies.
 */
export const CreateStudyBody = registry.register("CreateStudy", createStudySchema.meta({ description: "A new study's settings" }));
export const UpdateStudyBody = registry.register(
  "UpdateStudy",
  updateStudySchema.meta({ description: "Settings to change (only those sent) and/or a status" }),
);
export const AddGraderBody = registry.register("AddGrader", addGraderSchema.meta({ description: "A grader to add to the study" }));
export const SetGraderSpecialtiesBody = registry.register(
  "SetGraderSpecialties",
  setGraderSpecialtiesSchema.meta({ description: "A grader's specialties in this study" }),
);

const StudyIdParams = z.object({ id: z.uuid().meta({ description: "Study id" }) });
const GraderParams = z.object({
  id: z.uuid().meta({ description: "Study id" }),
  userId: z.uuid().meta({ description: "The grader's user id" }),
});

const dateTime = () => z.iso.datetime();
const rubric = z.string().meta({ description: "A rubric's key (a template's document key, or the study's own)" });
const status = z.enum(STUDY_STATUSES);
const pageFields = { total: z.int().min(0), page: z.int().min(1), pageSize: z.int().min(1) };

/** A template's default thresholds, as the example of the thresholds object. */
function templateThresholds(doc: RubricDoc): Record<string, Record<string, number>> {
  return { [doc.key]: Object.fromEntries(doc.dimensions.flatMap((d) => (d.threshold !== undefined ? [[d.key, d.threshold]] : []))) };
}

export const Thresholds = registry.register(
  "Thresholds",
  z.record(z.string(), z.record(z.string(), z.number())).meta({
    description: "Per rubric key and ordinal dimension key, the spread between primary graders at or above which a third grader is called",
    example: templateThresholds(RUBRIC_TEMPLATES[0].build()),
  }),
);

export const EscalationRules = registry.register(
  "EscalationRules",
  z
    .record(z.string(), z.record(z.string(), z.object({ rule: z.enum(["never", "any", "spread"]).optional(), na: z.enum(["escalate", "ignore"]).optional() })))
    .meta({
      description:
        "Per rubric key and dimension key, where the study departs from its rubric document's escalation: rule (never, any disagreement, spread at the threshold) and na (whether N/A against a value escalates). Dimensions not listed follow their document.",
      example: { survey: { written_by: { rule: "never" } } },
    }),
);

export const StudySummary = registry.register(
  "StudySummary",
  z.object({
    id: z.uuid(),
    name: z.string(),
    slug: z.string(),
    status,
    rubrics: z.array(rubric),
    rubricNames: z.array(z.string()),
    repetitions: z.int(),
    gradersPerSet: z.int(),
    items: z.int(),
    responseSets: z.int(),
    createdAt: dateTime(),
  }),
);

export const StudyList = registry.register("StudyList", z.object({ studies: z.array(StudySummary), ...pageFields }));

export const StudyDetail = registry.register(
  "StudyDetail",
  z.object({
    id: z.uuid(),
    slug: z.string(),
    name: z.string(),
    graderTitle: z.string().meta({ description: "What graders see instead of the name; empty: a neutral title" }),
    graderFacingTitle: z.string().meta({ description: "The title graders actually see" }),
    description: z.string(),
    status,
    rubrics: z.array(rubric),
    rubricDocuments: z.array(RubricDocument),
    repetitions: z.int(),
    gradersPerSet: z.int(),
    thresholds: Thresholds,
    escalationRules: EscalationRules,
    showReferenceAnswer: z.boolean(),
    askContradictions: z.boolean().meta({ description: "With N >= 2: graders are asked whether a set's answers contradict each other" }),
    matchSpecialty: z.boolean(),
    // Which total leads for a rubric with an overallHeadline: its headline (per answer) or that one (overall).
    safeLlmScoring: z.enum(HEADLINE_SCORING),
    createdAt: dateTime(),
    updatedAt: dateTime(),
    openedAt: dateTime().nullable(),
    closedAt: dateTime().nullable(),
    createdBy: z.object({ id: z.uuid(), name: z.string() }),
    assignmentDesign: z.enum(ASSIGNMENT_DESIGNS).meta({ description: "How sets are dealt to graders; chosen when assigning" }),
    design: z.enum(STUDY_DESIGNS).meta({ description: "scoring or pairwise: chosen at creation, never changed" }),
    tieDisagrees: z.boolean().meta({ description: "Pairwise: a tie against a preference calls an adjudicator" }),
    pairDesign: PairDesignSchema.nullable().meta({ description: "Pairwise: the pair design last planned (null before planning)" }),
    pairSeed: z.string().nullable().meta({ description: "Pairwise: the seed of the last planning" }),
    counts: z.object({
      items: z.int(),
      models: z.int(),
      responseSets: z.int(),
      completeResponseSets: z.int().meta({ description: "Response sets holding all N answers" }),
      graders: z.int(),
      activeGraders: z.int(),
      assignments: z.int().meta({ description: "Assignments not cancelled" }),
      submittedAssignments: z.int(),
    }),
    gradingStarted: z.boolean().meta({ description: "A grade exists or an assignment is submitted" }),
    lockedSettings: z
      .array(z.enum(["rubrics", "repetitions", "gradersPerSet"]))
      .meta({ description: "Settings that can no longer change (gradersPerSet: can no longer be lowered)" }),
  }),
);

export const CreatedStudy = registry.register("CreatedStudy", z.object({ id: z.uuid(), slug: z.string() }));

export const ItemPage = registry.register(
  "ItemPage",
  z.object({
    items: z.array(
      z.object({
        id: z.uuid(),
        externalId: z.string(),
        specialty: z.string(),
        question: z.string(),
        models: z.array(
          z.object({
            modelId: z.uuid(),
            model: z.string(),
            repetitions: z.int().meta({ description: "Answers present among repetitions 1..N" }),
          }),
        ),
        complete: z.boolean().meta({ description: "Every model has a response set with all N answers" }),
      }),
    ),
    repetitions: z.int().meta({ description: "N of the study" }),
    ...pageFields,
  }),
);

export const GraderPage = registry.register(
  "GraderPage",
  z.object({
    graders: z.array(
      z.object({
        userId: z.uuid(),
        name: z.string(),
        email: z.email(),
        specialties: z.array(z.string()).meta({ description: "The grader's specialties in this study" }),
        active: z.boolean().meta({ description: "Membership of this study" }),
        accountActive: z.boolean(),
        addedAt: dateTime(),
        assigned: z.int().meta({ description: "Assignments in this study, not counting cancelled ones" }),
        submitted: z.int(),
        deadline: z.string().nullable().meta({ description: "The grader's own deadline in this study (YYYY-MM-DD), null: the study's" }),
      }),
    ),
    ...pageFields,
  }),
);

export const AddedGrader = registry.register(
  "AddedGrader",
  z.object({
    userId: z.uuid(),
    accountCreated: z.boolean(),
    reactivated: z.boolean(),
    initialPassword: z
      .string()
      .optional()
      .meta({ description: "Present only when generated with e-mail off: shown this once, never stored in plain text. Hand it over securely." }),
    invitationId: z
      .uuid()
      .optional()
      .meta({ description: "With e-mail on, a new account without a given password: the invitation e-mailed to the grader to choose their own (no password is returned)" }),
  }),
);

export const GraderSpecialties = registry.register(
  "GraderSpecialties",
  z.object({ userId: z.uuid(), specialties: z.array(z.string()).meta({ description: "The grader's specialties in this study, as stored" }) }),
);

export const DeactivatedGrader = registry.register(
  "DeactivatedGrader",
  z.object({
    userId: z.uuid(),
    active: z.literal(false),
    changed: z.boolean().meta({ description: "false when it was already inactive" }),
    openAssignments: z.int().meta({ description: "Unsubmitted assignments the grader holds in this study: run the assignment again to move them" }),
    openAdjudications: z.int().meta({ description: "Of them, third-grader (adjudication) assignments, which hold up final scores" }),
  }),
);

const json = <T extends z.ZodType>(schema: T, description: string) => ({ description, content: { "application/json": { schema } } });
const tags = ["Studies"];

registry.registerPath({
  method: "get",
  path: "/api/v1/studies",
  summary: "List the studies you lead (admins: all), paginated",
  tags,
  request: { query: studyListQuerySchema },
  responses: { 200: json(StudyList, "One page of studies"), ...errorResponses(401, 403, 422) },
});

registry.registerPath({
  method: "post",
  path: "/api/v1/studies",
  summary: "Create a study (in DRAFT; you become its lead)",
  tags,
  request: { body: { required: true, content: { "application/json": { schema: CreateStudyBody } } } },
  responses: { 201: json(CreatedStudy, "Created"), ...errorResponses(400, 401, 403, 413, 422) },
});

registry.registerPath({
  method: "get",
  path: "/api/v1/studies/{id}",
  summary: "A study's settings and counts",
  tags,
  request: { params: StudyIdParams },
  responses: { 200: json(StudyDetail, "The study"), ...errorResponses(401, 403, 404) },
});

registry.registerPath({
  method: "patch",
  path: "/api/v1/studies/{id}",
  summary: "Change settings and/or status (OPEN, CLOSED)",
  description:
    "Rubrics, repetitions and lowering gradersPerSet are refused with 409 once grading has started. Status moves DRAFT→OPEN, OPEN→CLOSED, CLOSED→OPEN; anything else is 409.",
  tags,
  request: { params: StudyIdParams, body: { required: true, content: { "application/json": { schema: UpdateStudyBody } } } },
  responses: { 200: json(StudyDetail, "The study after the change"), ...errorResponses(400, 401, 403, 404, 409, 413, 422) },
});

registry.registerPath({
  method: "get",
  path: "/api/v1/studies/{id}/items",
  summary: "A study's items with their models and completeness, paginated",
  tags,
  request: { params: StudyIdParams, query: itemListQuerySchema },
  responses: { 200: json(ItemPage, "One page of items"), ...errorResponses(401, 403, 404, 422) },
});

registry.registerPath({
  method: "get",
  path: "/api/v1/studies/{id}/graders",
  summary: "A study's graders with their load, paginated",
  tags: ["Graders"],
  request: { params: StudyIdParams, query: graderListQuerySchema },
  responses: { 200: json(GraderPage, "One page of graders"), ...errorResponses(401, 403, 404, 422) },
});

registry.registerPath({
  method: "post",
  path: "/api/v1/studies/{id}/graders",
  summary: "Create a grader account for the study, or add an existing grader by email",
  description:
    "A new account gets the given password; without one, when e-mail is on, an invitation to choose their own (invitationId; no password is returned), and when e-mail is off a generated one, returned once as initialPassword. An existing account must be an active grader: any other (another role, deactivated) gets the same 409, which does not say why. Re-adding a deactivated member reactivates the membership (200). Specialties are the grader's in this study only.",
  tags: ["Graders"],
  request: { params: StudyIdParams, body: { required: true, content: { "application/json": { schema: AddGraderBody } } } },
  responses: {
    201: json(AddedGrader, "Added (a new membership)"),
    200: json(AddedGrader, "An earlier membership was reactivated"),
    ...errorResponses(400, 401, 403, 404, 409, 413, 422),
  },
});

registry.registerPath({
  method: "patch",
  path: "/api/v1/studies/{id}/graders/{userId}",
  summary: "Set a grader's specialties in this study (their account and other studies are untouched)",
  tags: ["Graders"],
  request: { params: GraderParams, body: { required: true, content: { "application/json": { schema: SetGraderSpecialtiesBody } } } },
  responses: { 200: json(GraderSpecialties, "The grader's specialties in this study"), ...errorResponses(400, 401, 403, 404, 413, 422) },
});

registry.registerPath({
  method: "delete",
  path: "/api/v1/studies/{id}/graders/{userId}",
  summary: "Take a grader off the study (their submitted grades stay)",
  tags: ["Graders"],
  request: { params: GraderParams },
  responses: { 200: json(DeactivatedGrader, "Membership deactivated"), ...errorResponses(401, 403, 404) },
});
