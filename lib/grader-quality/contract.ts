import { z } from "zod";
import { ErrorBody, errorResponses, registry } from "@/lib/api/registry";
import { multilineText } from "@/lib/validation/text";

/**
 * The grader-quality contract (issue #35, items 4-5): each grader's quality signals, the lead's
 * exclusion of a grader from the analysis, and the sensitivity of the headline figures to each
 * grader. Shares are 0-1, biases in scale points, times in milliseconds.
 */

const note = z.string().meta({ description: "What the signal means, in plain language" });
const nullableNumber = z.number().nullable();
const ci = z.tuple([z.number(), z.number()]).nullable().meta({ description: "95% interval, null with fewer than two sets" });

const Exclusion = z
  .object({
    at: z.iso.datetime(),
    by: z.uuid().nullable(),
    byName: z.string().nullable(),
    reason: z.string().nullable(),
  })
  .nullable()
  .meta({ description: "Set when the lead excluded the grader from the analysis (their grades stay, and their signals are still shown)" });

const TrendBlockSchema = z.object({
  block: z.int(),
  from: z.iso.datetime(),
  to: z.iso.datetime(),
  sets: z.int(),
  bias: nullableNumber,
  biasCells: z.int(),
  straightLining: nullableNumber,
  straightLiningSets: z.int(),
});

const GoldSchema = z.object({
  accuracy: nullableNumber.meta({ description: "Share (0-1) of gold cells within tolerance" }),
  accuracyCi: ci.meta({ description: "95% Wilson interval" }),
  bias: nullableNumber.meta({ description: "Mean signed error (score - expected), scale points" }),
  biasCi: ci.meta({ description: "95% interval, cluster-robust over gold sets" }),
  n: z.int().meta({ description: "Gold cells" }),
  sets: z.int(),
});

const IntraSchema = z.object({
  kappa: nullableNumber.meta({ description: "Quadratic-weighted kappa on the declared levels" }),
  kappaCi: ci,
  icc: nullableNumber.meta({ description: "ICC(3,1)" }),
  iccCi: ci,
  n: z.int(),
});

const GraderQualitySchema = z.object({
  graderId: z.uuid(),
  name: z.string(),
  active: z.boolean(),
  excluded: Exclusion,
  sets: z.int().meta({ description: "Submitted primary sets" }),
  time: z.object({ medianMs: z.int().nullable(), ratio: nullableNumber.meta({ description: "Grader's median over the study's median" }), n: z.int(), note }),
  straightLining: z.object({ share: nullableNumber, n: z.int(), note }),
  scaleUse: z.object({ share: nullableNumber, n: z.int(), note }),
  bias: z.object({
    estimate: nullableNumber,
    ci,
    n: z.int(),
    sets: z.int(),
    note,
    byDimension: z.array(z.object({ dimension: z.string(), estimate: nullableNumber, ci, n: z.int(), sets: z.int() })),
  }),
  agreement: z.object({ ac2: nullableNumber, n: z.int(), note, byDimension: z.array(z.object({ dimension: z.string(), ac2: nullableNumber, n: z.int() })) }),
  trend: z.array(TrendBlockSchema),
  gold: GoldSchema.extend({ note, byDimension: z.array(GoldSchema.extend({ dimension: z.string() })) }),
  intraRater: z.object({ n: z.int().meta({ description: "Cells graded twice" }), note, byDimension: z.array(IntraSchema.extend({ dimension: z.string() })) }),
  calibration: z.object({
    passedAt: z.iso.datetime().nullable(),
    rounds: z.int().meta({ description: "Calibration rounds dealt" }),
    failedRounds: z.int(),
    note,
  }),
});

export const GraderQualityReportSchema = registry.register(
  "GraderQualityReport",
  z.object({
    studyId: z.uuid(),
    studyMedianTimeMs: z.int().nullable(),
    timedSets: z.int(),
    trendBlock: z.int().meta({ description: "Sets per block of the trend" }),
    dimensions: z.array(z.object({ key: z.string(), label: z.string(), levels: z.array(z.number()) })),
    notes: z.object({ scope: z.string(), skipped: z.string(), trend: z.string() }),
    notCollected: z
      .array(z.object({ signal: z.string(), label: z.string(), status: z.string(), note: z.string() }))
      .meta({ description: "Signals this study has no dataset for yet (gold sets, washout re-grades)" }),
    graders: z.array(GraderQualitySchema),
    intraRaterPooled: z
      .array(IntraSchema.extend({ dimension: z.string() }))
      .meta({ description: "Every grader's first and washout gradings of a dimension pooled: the study's intra-rater figure" }),
  }),
);

export type GraderQualityReport = z.infer<typeof GraderQualityReportSchema>;
export type GraderQuality = z.infer<typeof GraderQualitySchema>;
export type TrendBlock = z.infer<typeof TrendBlockSchema>;
export type QualityDimension = GraderQualityReport["dimensions"][number];

export const ExcludeGraderBody = registry.register(
  "ExcludeGrader",
  z.strictObject({ reason: multilineText().trim().min(1, "give a reason for the exclusion").max(2000) }).meta({ description: "Why the grader is left out of the analysis" }),
);

export const GraderExclusionSchema = registry.register(
  "GraderExclusion",
  z.object({ userId: z.uuid(), excluded: Exclusion, changed: z.boolean().meta({ description: "False when the grader already was in that state" }) }),
);
export type GraderExclusion = z.infer<typeof GraderExclusionSchema>;

const Figure = z.object({
  key: z.string(),
  kind: z.enum(["mean", "alpha", "agreement", "delta"]),
  label: z.string(),
  main: nullableNumber.meta({ description: "As the dashboard shows it (excluded graders left out)" }),
  allGraders: nullableNumber.meta({ description: "With every grader, the excluded ones too" }),
  withoutEach: z.array(z.object({ graderId: z.uuid(), value: nullableNumber, change: nullableNumber })).meta({ description: "Recomputed without each analysed grader in turn" }),
  largest: z.object({ graderId: z.uuid(), change: z.number() }).nullable().meta({ description: "The grader whose leaving out changes the figure most (absolute change)" }),
});

export const SensitivitySchema = registry.register(
  "GraderSensitivity",
  z.object({
    studyId: z.uuid(),
    note: z.string(),
    graders: z.array(z.object({ graderId: z.uuid(), name: z.string(), excluded: z.boolean() })),
    excluded: z.array(z.uuid()),
    figures: z.array(Figure),
  }),
);
export type Sensitivity = z.infer<typeof SensitivitySchema>;
export type SensitivityFigure = z.infer<typeof Figure>;

const params = z.object({ id: z.uuid().meta({ description: "Study id" }) });
const graderParams = params.extend({ userId: z.uuid().meta({ description: "The grader's user id" }) });

registry.registerPath({
  method: "get",
  path: "/api/v1/studies/{id}/grader-quality",
  summary: "Each grader's quality signals (leads)",
  description:
    "Per grader: time per set against the study's median, straight-lining, share of the scale used, leave-one-out bias with a 95% interval over sets, agreement with peers (Gwet's AC2) and the trend per block of sets, each with its n and a note. Only ordinal scores of submitted primary sets are read. The study's leads and admins; graders 403, other leads 404.",
  tags: ["Results"],
  request: { params },
  responses: { 200: { description: "The signals", content: { "application/json": { schema: GraderQualityReportSchema } } }, ...errorResponses(401, 403, 404) },
});

registry.registerPath({
  method: "get",
  path: "/api/v1/studies/{id}/grader-quality/sensitivity",
  summary: "Headline figures without each grader (leads)",
  description:
    "The dashboard's headline figures (final means per model, Cronbach's alpha, Gwet's AC2 per dimension, Cliff's delta between models, all specialties) as shown, with every grader, and recomputed without each analysed grader in turn; the largest change per figure is named.",
  tags: ["Results"],
  request: { params },
  responses: {
    200: { description: "The figures", content: { "application/json": { schema: SensitivitySchema } } },
    ...errorResponses(401, 403, 404, 413),
    429: {
      description: "The analysis runs in a worker thread in one of the server's IMPORT_MAX_CONCURRENT slots, all busy: try again after Retry-After",
      headers: { "Retry-After": { description: "Seconds to wait", schema: { type: "integer", minimum: 1 } } },
      content: { "application/json": { schema: ErrorBody } },
    },
  },
});

registry.registerPath({
  method: "put",
  path: "/api/v1/studies/{id}/grader-quality/exclusions/{userId}",
  summary: "Exclude a grader from the analysis",
  description: "Leaves the grader's grades out of the dashboard, the results and the exports' figures; the grades stay. Audited (study.grader.exclude); DELETE reverses it.",
  tags: ["Results"],
  request: { params: graderParams, body: { required: true, content: { "application/json": { schema: ExcludeGraderBody } } } },
  responses: { 200: { description: "Excluded", content: { "application/json": { schema: GraderExclusionSchema } } }, ...errorResponses(400, 401, 403, 404, 413, 422) },
});

registry.registerPath({
  method: "delete",
  path: "/api/v1/studies/{id}/grader-quality/exclusions/{userId}",
  summary: "Bring an excluded grader back into the analysis",
  description: "Reverses an exclusion (audited: study.grader.include).",
  tags: ["Results"],
  request: { params: graderParams },
  responses: { 200: { description: "Included", content: { "application/json": { schema: GraderExclusionSchema } } }, ...errorResponses(401, 403, 404) },
});
