import { z } from "zod";
import { errorResponses, registry } from "@/lib/api/registry";
import { lineText, multilineText } from "@/lib/validation/text";

/**
 * Calibration, gold and washout re-grade (issue #35, items 1-3): the lead marks sets with expected
 * scores and sets the study's rates; a grader reads their own calibration feedback. The tasks
 * themselves are graded through the ordinary assignment routes (indistinguishable by design).
 */

const ExpectedScore = z.strictObject({
  rubric: z.string().min(1).max(63),
  dimension: z.string().min(1).max(63),
  repetition: z.int().min(1).max(100).nullable().meta({ description: "The answer (1..N); null for a dimension graded once for the whole set" }),
  score: z.int().min(-1000).max(1000),
});

export const QualitySetBody = registry.register(
  "QualitySetInput",
  z.strictObject({
    purpose: z.enum(["CALIBRATION", "GOLD"]),
    expected: z.array(ExpectedScore).min(1).max(2000).meta({ description: "Expected score per ordinal dimension (and answer, for a per-answer dimension)" }),
    tolerance: z.int().min(0).max(100).meta({ description: "A score within this many scale points of the expected one counts as right" }),
    rationale: multilineText().trim().max(4000).default("").meta({ description: "Why these scores: shown to graders after a calibration round" }),
  }),
);

const QualitySetSchema = registry.register(
  "QualitySet",
  z.object({
    responseSetId: z.uuid(),
    purpose: z.enum(["CALIBRATION", "GOLD"]),
    expected: z.array(ExpectedScore),
    tolerance: z.int(),
    rationale: z.string(),
  }),
);

export const QualitySettingsBody = registry.register(
  "QualitySettingsInput",
  z.strictObject({
    goldRate: z.int().min(2).max(1000).nullable().optional().meta({ description: "One set in goldRate of each grader's queue is a gold set; null: none placed from now on" }),
    goldSeed: lineText().min(1).max(100).optional(),
    washoutShare: z.number().min(0).max(1).optional().meta({ description: "Share (0-1) of each grader's submitted primary sets that comes back to them for a re-grade" }),
    washoutDays: z.int().min(0).max(365).optional().meta({ description: "Days before a re-grade shows (0: at once)" }),
    washoutSeed: lineText().min(1).max(100).optional(),
    calibrationRequired: z.boolean().optional().meta({ description: "Graders pass calibration before real work" }),
    calibrationPassShare: z.number().min(0).max(1).optional().meta({ description: "Share (0-1) of a round's cells within tolerance needed to pass" }),
    calibrationRoundSize: z.int().min(1).max(100).optional(),
  }),
);

const QualitySettingsSchema = registry.register(
  "QualitySettings",
  z.object({
    goldRate: z.int().nullable(),
    goldSeed: z.string().nullable(),
    washoutShare: z.number(),
    washoutDays: z.int(),
    washoutSeed: z.string().nullable(),
    calibrationRequired: z.boolean(),
    calibrationPassShare: z.number(),
    calibrationRoundSize: z.int(),
    placed: z.object({ gold: z.int().meta({ description: "Gold tasks placed by this call" }), calibration: z.int().meta({ description: "Calibration rounds started by this call" }) }),
  }),
);

export const PilotExpectedQuery = z.object({
  from: z.uuid({ error: "from is the id of a pilot or finished study of yours" }).meta({ description: "The study whose grades propose the expected scores: a pilot or finished study the lead may read" }),
});

const PilotExpectedSchema = registry.register(
  "PilotExpected",
  z.object({
    fromStudyId: z.uuid(),
    sourceSetId: z.uuid().nullable().meta({ description: "The pilot's set of the same question (item id) and model; null when it has none" }),
    rule: z.string().meta({ description: "How each expected score was drawn from the pilot's grades, in words" }),
    expected: z.array(
      ExpectedScore.extend({
        grades: z.int().meta({ description: "Submitted primary grades the median was taken over" }),
        median: z.number().meta({ description: "Their median, before rounding to a level of the scale" }),
      }),
    ),
    skipped: z.array(z.object({ rubric: z.string(), dimension: z.string(), repetition: z.int().nullable(), reason: z.string() })).meta({ description: "Cells of this set left without a proposal, and why" }),
  }),
);

const CalibrationFeedbackSchema = registry.register(
  "CalibrationFeedback",
  z.object({
    studyId: z.uuid(),
    title: z.string().meta({ description: "The study's grader-facing title" }),
    required: z.boolean(),
    passed: z.boolean(),
    passShare: z.number(),
    rounds: z.array(
      z.object({
        round: z.int(),
        complete: z.boolean(),
        share: z.number().nullable(),
        passed: z.boolean(),
        sets: z.array(
          z.object({
            number: z.int(),
            rationale: z.string(),
            tolerance: z.int(),
            cells: z.array(
              z.object({
                rubric: z.string(),
                dimension: z.string(),
                dimensionName: z.string(),
                repetition: z.int().nullable(),
                score: z.number().nullable(),
                expected: z.number(),
                within: z.boolean(),
              }),
            ),
          }),
        ),
      }),
    ),
  }),
);

const study = z.object({ id: z.uuid().meta({ description: "Study id" }) });

registry.registerPath({
  method: "put",
  path: "/api/v1/studies/{id}/quality-sets/{setId}",
  summary: "Mark a set as a calibration or gold set",
  description:
    "Stores the expected scores, tolerance and rationale of a set nobody was assigned (409 otherwise); such a set is never dealt as primary work and its grades never count in results. Its purpose cannot change once it was dealt to a grader (409: a calibration set's expected scores are shown after the round), nor leave a study that requires calibration without a calibration set (409). Audited (quality.set.mark).",
  tags: ["Results"],
  request: { params: study.extend({ setId: z.uuid() }), body: { required: true, content: { "application/json": { schema: QualitySetBody } } } },
  responses: { 200: { description: "Marked", content: { "application/json": { schema: QualitySetSchema } } }, ...errorResponses(400, 401, 403, 404, 409, 413, 422) },
});

registry.registerPath({
  method: "put",
  path: "/api/v1/studies/{id}/quality-settings",
  summary: "Set gold, washout and calibration rates",
  description:
    "Stores the study's gold rate, washout share and days, and calibration requirement, then deals what they ask for in an open study: gold sets into each grader's queue (seeded, audited) and a first calibration round to every grader who has not passed. Graders who join later, and work dealt later, get theirs without another call (on their queue's next read or the next assignment run).",
  tags: ["Results"],
  request: { params: study, body: { required: true, content: { "application/json": { schema: QualitySettingsBody } } } },
  responses: { 200: { description: "Stored", content: { "application/json": { schema: QualitySettingsSchema } } }, ...errorResponses(400, 401, 403, 404, 409, 413, 422) },
});

registry.registerPath({
  method: "get",
  path: "/api/v1/me/calibration",
  summary: "My calibration feedback",
  description:
    "Per study that asks for calibration (or dealt the grader some): per completed round and set, each dimension's score, the expected one and the lead's rationale, and whether the round passed. The grader's own only.",
  tags: ["Assignment"],
  responses: { 200: { description: "Feedback", content: { "application/json": { schema: z.object({ studies: z.array(CalibrationFeedbackSchema) }) } } }, ...errorResponses(401, 403) },
});

registry.registerPath({
  method: "get",
  path: "/api/v1/studies/{id}/quality-sets/{setId}/pilot-expected",
  summary: "Propose a set's expected scores from a pilot",
  description:
    "Reads the set of the same question (item id) and model in another study of the lead's (a pilot or a finished study) and proposes, per ordinal dimension and answer, the median of its submitted primary grades rounded to the nearest level (half up). Only answers whose text is the same in both studies, and dimensions with the same levels in both, are proposed; graders excluded from the pilot's analysis are left out; `from` naming the study itself is a 422. Stores nothing: the lead reviews the scores and marks the set with PUT quality-sets.",
  tags: ["Results"],
  request: { params: study.extend({ setId: z.uuid() }), query: PilotExpectedQuery },
  responses: { 200: { description: "The proposal", content: { "application/json": { schema: PilotExpectedSchema } } }, ...errorResponses(401, 403, 404, 422) },
});
