import { z } from "zod";
import { RubricDocumentSchema } from "@/lib/rubrics/document";
import { errorResponses, registry } from "@/lib/api/registry";
import { lineText } from "@/lib/validation/text";
import { PairwiseBlockSchema } from "./pairwise-contract";

/**
 * GET /api/v1/studies/{id}/stats: every number of the study dashboard (types.ts),
 * for leads (unblinded). Each block is `{data, reason}`: data null with a
 * human-readable reason when the study has not enough data for it yet.
 */

const RUBRIC = z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,62}$/, { error: "a rubric is named by its key, as its document gives it" });

/** Comma-separated list in a query parameter ("a,b"), trimmed, blanks dropped. */
const csv = (description: string) =>
  lineText()
    .max(2000, { error: "the list is longer than 2000 characters" })
    .optional()
    .transform((v) => (v ? [...new Set(v.split(",").map((x) => x.trim()).filter(Boolean))] : undefined))
    .meta({ description });

export const statsQuerySchema = z.object({
  specialty: lineText()
    .max(200, { error: "specialty is longer than 200 characters" })
    .optional()
    .transform((v) => (v ? v : undefined))
    .meta({ description: "One specialty (by name); default all specialties" }),
  rubric: csv("Rubric(s) to include by key, comma-separated, as the study's rubric documents name them; default the study's rubrics").pipe(
    z.array(RUBRIC, { error: "rubric must be a list of the study's rubric keys" }).optional(),
  ),
  models: csv("Model names to include, comma-separated; default every model"),
  measure: z
    .string()
    .regex(/^[a-z][a-z0-9_]{0,62}$/, { error: "measure is total, dimensions, or a dimension's key" })
    .optional()
    .meta({
      description:
        "What Cliff's delta and the ranking compare models on: total (each rubric's headline total; a rubric without one: each ordinal dimension), dimensions (each ordinal dimension), or one dimension's key. Default total",
    }),
  journal: z
    .enum(["0", "1", "false", "true"], { error: "journal is 1 (include the journal statistics) or 0" })
    .optional()
    .transform((v) => v === "1" || v === "true")
    .meta({ description: "1: include the journal block (pairwise kappa, Kendall's W, ICC, alpha with bootstrap, model comparison); it costs bootstraps, so it is computed only on request" }),
  pairwise: z
    .enum(["0", "1", "false", "true"], { error: "pairwise is 1 (derive the preference table from final scores) or 0" })
    .optional()
    .transform((v) => v === "1" || v === "true")
    .meta({ description: "A scoring study: 1 derives the pairwise block from final scores (it costs bootstraps, so only on request). A pairwise study always has it" }),
});

const interval = z.tuple([z.number(), z.number()]).nullable();
const reason = z.string().nullable();
const estimate = z.object({ value: z.number().nullable(), ci: interval, reason }).meta({ description: "A statistic, null with a reason when undefined on these data" });
const block = <T extends z.ZodType>(data: T) => z.object({ data: data.nullable(), reason });

const RadarChart = registry.register(
  "StatsRadarChart",
  z.object({
    rubric: RUBRIC,
    specialty: z.string(),
    scale: z.enum(["mean", "fraction"]).meta({ description: "mean: every axis on one scale, in its points; fraction: scales differ, each mean as (mean - min) / (max - min)" }),
    domainMin: z.number().meta({ description: "The radial axis's centre: the scale's minimum (0 for fractions)" }),
    domainMax: z.number(),
    axes: z.array(z.object({ dimension: z.string(), label: z.string(), min: z.number(), max: z.number() })),
    series: z.array(
      z.object({
        model: z.string(),
        n: z.int(),
        points: z.array(z.object({ dimension: z.string(), mean: z.number().nullable(), sd: z.number().nullable(), value: z.number().nullable() })),
      }),
    ),
  }),
);

const AlphaBar = z.object({ rubric: RUBRIC, specialty: z.string(), alpha: z.number().nullable(), ci: interval, n: z.int(), k: z.int(), reason });

const MEASURE_KIND = z.enum(["total", "dimension"]);
const ComparisonMeasure = z
  .object({ rubric: RUBRIC, key: z.string(), kind: MEASURE_KIND, label: z.string(), min: z.number(), max: z.number() })
  .meta({ description: "What models are compared on: a rubric's headline total or one of its ordinal dimensions, with its scale from the rubric document" });

const CliffsCell = z.object({
  rubric: RUBRIC,
  measure: z.string().meta({ description: "The total's or dimension's key" }),
  measureKind: MEASURE_KIND,
  label: z.string(),
  specialty: z.string(),
  rowModel: z.string(),
  colModel: z.string(),
  delta: z.number().nullable().meta({ description: "Positive = the row model's values tend to be higher (better)" }),
  magnitude: z.enum(["negligible", "small", "medium", "large"]).nullable(),
  ci: interval.meta({ description: "Percentile bootstrap interval" }),
  n: z.int(),
  m: z.int(),
  reason,
});

const AgreementRow = z.object({
  rubric: RUBRIC,
  dimension: z.string(),
  label: z.string(),
  scale: z.tuple([z.number(), z.number()]),
  unit: z.enum(["set", "answer"]).meta({ description: "set: one rating per response set; answer: a dimension graded on each answer, one rating per answer" }),
  units: z.int(),
  raters: z.int(),
  gwetAC2: estimate.meta({ description: "Gwet's AC2, quadratic weights, the full scale as categories" }),
  krippendorff: estimate.meta({ description: "Krippendorff's alpha, ordinal" }),
  icc: estimate,
  iccSingle: estimate,
  iccType: z.enum(["ICC1k", "ICC2k"]),
  exact: estimate,
  withinOne: estimate,
  pairs: z.int(),
  distribution: z.array(z.object({ value: z.number(), count: z.int() })).meta({ description: "Primary ratings per value of the scale" }),
  kind: z.enum(["ordinal", "nominal"]).meta({ description: "ordinal: AC2 quadratic, alpha ordinal, ICC; nominal: gwetAC2 holds Gwet's AC1, alpha nominal, Fleiss' kappa, no ICC" }),
  fleiss: estimate.nullable(),
  categories: z.array(z.string()).nullable(),
  paradox: z.string().nullable().meta({ description: "Why Gwet's AC2 and Krippendorff's alpha disagree (high agreement on a skewed scale: the kappa paradox), when they do" }),
  triggered: estimate.meta({ description: "Share of sets where this dimension's spread reached the escalation threshold" }),
  threshold: z.number().nullable(),
});

const KappaPair = z.object({ a: z.string(), b: z.string(), value: z.number().nullable(), ci: interval, n: z.int(), reason });
const KappaMatrix = z.object({
  convention: z.string(),
  pairs: z.array(KappaPair),
  matrix: z.array(z.array(z.number().nullable())).meta({ description: "k x k, rows and columns in the order of `raters`, 1 on the diagonal" }),
});
const KendallW = z.object({ convention: z.string(), value: z.number().nullable(), chiSquare: z.number().nullable(), df: z.int(), p: z.number().nullable(), n: z.int(), reason });
const JournalAgreement = z.object({
  target: z.enum(["dimension", "total"]),
  key: z.string(),
  label: z.string(),
  kind: z.enum(["ordinal", "nominal"]),
  unit: z.enum(["set", "answer"]),
  units: z.int(),
  raters: z.array(z.string()).meta({ description: "Grader ids: the rows and columns of the kappa matrices" }),
  weights: z.enum(["quadratic", "none"]),
  kappa: z.object({ ranks: KappaMatrix, scale: KappaMatrix }).nullable().meta({ description: "Pairwise Cohen's kappa, two weight conventions (identical when unweighted); null beyond 40 graders (see note)" }),
  kendallW: z.object({ uncorrected: KendallW, corrected: KendallW }).nullable(),
  icc: z
    .object({
      type: z.enum(["ICC1", "ICC1k", "ICC2", "ICC2k"]),
      label: z.string(),
      why: z.string(),
      value: z.number().nullable(),
      ci: interval,
      n: z.int(),
      reason,
      single: z.object({ type: z.enum(["ICC1", "ICC2"]), label: z.string(), value: z.number().nullable(), ci: interval, n: z.int(), reason }),
    })
    .nullable()
    .meta({ description: "The ICC form the design supports (two-way when fully crossed, else one-way) and why: the average of the k raters, and `single`, one rater's reliability" }),
  krippendorff: z.object({ level: z.enum(["ordinal", "interval", "nominal"]), convention: z.string(), value: z.number().nullable(), ci: interval, units: z.int(), reason }),
  note: z.string().nullable(),
});
const Descriptives = z.object({
  model: z.string(),
  n: z.int(),
  mean: z.number().nullable(),
  sd: z.number().nullable(),
  median: z.number().nullable(),
  q1: z.number().nullable().meta({ description: "R quantile type 7 (numpy default)" }),
  q3: z.number().nullable(),
  iqr: z.number().nullable(),
});
const JournalComparison = z.object({
  target: z.enum(["dimension", "total"]),
  key: z.string(),
  label: z.string(),
  descriptives: z.array(Descriptives),
  bySpecialty: z.array(z.object({ specialty: z.string(), descriptives: z.array(Descriptives) })).meta({ description: "The descriptives per specialty of the questions" }),
  friedman: z.object({ convention: z.string(), chiSquare: z.number().nullable(), df: z.int(), p: z.number().nullable(), kendallW: z.number().nullable(), n: z.int(), reason }),
  posthoc: z.object({
    convention: z.string(),
    pairs: z.array(
      z.object({
        a: z.string(),
        b: z.string(),
        statistic: z.number().nullable().meta({ description: "R's V (sum of positive ranks of a - b)" }),
        p: z.number().nullable(),
        pHolm: z.number().nullable(),
        method: z.enum(["exact", "normal"]).nullable(),
        n: z.int(),
        zeros: z.int(),
        reason,
      }),
    ),
  }),
  cliffs: z
    .object({
      convention: z.string(),
      familyLevel: z.number(),
      intervalLevel: z.number().nullable(),
      resamples: z.int(),
      seed: z.number(),
      pairs: z.array(z.object({ a: z.string(), b: z.string(), delta: z.number().nullable(), ci: interval, n: z.int(), m: z.int(), reason })),
    })
    .nullable()
    .meta({ description: "Totals only" }),
});
const figure = z
  .object({ value: z.number().nullable(), ci: interval, n: z.int(), reason })
  .meta({ description: "A figure with the number of units behind it; null with a reason when undefined" });
const reading = z.enum(["most_probable", "expected"]).meta({ description: "most_probable: the level given (ties to the lower); expected: sum of level x probability" });
const bland = z.object({ bias: z.number().nullable(), limits: interval, n: z.int(), reason });
const JudgeComparison = registry.register(
  "StatsJudgeComparison",
  z.object({
    judge: z.object({ id: z.uuid(), name: z.string(), model: z.string(), version: z.string() }),
    hybrid: z.object({ cutoff: z.number(), finalSets: z.int() }).nullable(),
    judgments: z.int(),
    withProbabilities: z.int(),
    dimensions: z.array(
      z.object({
        rubric: RUBRIC,
        dimension: z.string(),
        label: z.string(),
        kind: z.enum(["ordinal", "nominal"]),
        reading,
        n: z.int(),
        ac2: figure.meta({ description: "Gwet's AC2, quadratic (AC1 for nominal), judge vs the panel's final score rounded half-up" }),
        kappa: figure.meta({ description: "Cohen's kappa, quadratic weights (unweighted for nominal)" }),
        exact: figure,
        icc3k: figure,
        icc21: figure,
        spearman: figure,
        blandAltman: bland.meta({ description: "Judge minus panel: mean difference and 95% limits of agreement" }),
        confusion: z.object({ labels: z.array(z.union([z.string(), z.number()])), counts: z.array(z.array(z.int())) }).nullable().meta({ description: "Rows: the panel's level; columns: the judge's" }),
        macroF1: figure.nullable(),
        clinicians: z.array(
          z.object({
            grader: z.object({ id: z.uuid(), name: z.string() }),
            ac2: figure,
            kappa: figure,
            difference: figure.meta({ description: "Judge's AC2 minus this clinician's against the other graders of the same sets; paired bootstrap CI" }),
          }),
        ),
        ceiling: z.object({ ac2: figure, kappa: figure }).meta({ description: "Each clinician against the other graders' mean, pooled: the clinicians' own agreement" }),
      }),
    ),
    totals: z.array(z.object({ rubric: RUBRIC, total: z.string(), label: z.string(), reading, n: z.int(), icc3k: figure, icc21: figure, spearman: figure, blandAltman: bland })),
    ranking: z.array(
      z.object({
        rubric: RUBRIC,
        total: z.string(),
        reading,
        models: z.array(z.object({ model: z.string(), judge: z.number().nullable(), panel: z.number().nullable(), n: z.int() })),
        tau: figure.meta({ description: "Kendall's tau-b of the models' mean totals, judge vs panel" }),
      }),
    ),
    lengthBias: z.array(z.object({ rubric: RUBRIC, total: z.string(), reading, judge: figure, panel: figure }).meta({ description: "Spearman of answer length with the total" })),
    deferral: z.array(
      z.object({
        rubric: RUBRIC,
        dimension: z.string(),
        points: z.array(
          z.object({ cutoff: z.number(), kept: z.int(), deferred: z.int(), deferredShare: z.number().nullable(), agreementKept: z.number().nullable(), agreementDeferred: z.number().nullable() }),
        ),
      }),
    ),
  }),
);

const GraderProgress = z.object({ id: z.uuid(), name: z.string(), active: z.boolean(), external: z.boolean(), done: z.int(), assigned: z.int(), adjudications: z.int() });

export const StudyStatsSchema = registry.register(
  "StudyStats",
  z.object({
    study: z.object({
      id: z.uuid(),
      name: z.string(),
      slug: z.string(),
      status: z.enum(["DRAFT", "OPEN", "CLOSED"]),
      rubrics: z.array(RUBRIC),
      rubricDocuments: z.array(RubricDocumentSchema),
      repetitions: z.int(),
      gradersPerSet: z.int(),
      safeLlmScoring: z.enum(["PER_ANSWER", "OVERALL"]),
    }),
    filters: z.object({ specialty: z.string().nullable(), rubrics: z.array(RUBRIC), models: z.array(z.string()), measure: z.string() }),
    options: z.object({ specialties: z.array(z.string()), models: z.array(z.string()), rubrics: z.array(RUBRIC) }),
    scope: z.object({ specialty: z.string(), sets: z.int(), finalSets: z.int() }),
    measures: z.array(ComparisonMeasure).meta({ description: "What Cliff's delta and the ranking compare models on (the `measure` query parameter)" }),
    radar: z.array(z.object({ rubric: RUBRIC, data: RadarChart.nullable(), reason })),
    alpha: block(z.object({ note: z.string(), bars: z.array(AlphaBar) })).meta({
      description: "Cronbach's alpha per specialty with Feldt's 95% CI: the rubric's internal consistency (dimensions as items), not grader agreement",
    }),
    cliffs: block(
      z.object({
        convention: z.string(),
        resamples: z.int(),
        seed: z.number(),
        level: z.number(),
        models: z.array(z.string()),
        specialties: z.array(z.string()),
        measures: z.array(ComparisonMeasure),
        cells: z.array(CliffsCell),
      }),
    ),
    agreement: block(
      z.object({
        note: z.string(),
        design: z.enum(["pool", "crossed"]),
        escalation: z.object({ rate: z.number().nullable(), escalated: z.int(), completed: z.int(), reason }),
        rows: z.array(AgreementRow),
      }),
    ).meta({ description: "Inter-rater agreement between primary graders per dimension" }),
    ranking: block(
      z.object({
        rows: z.array(
          z.object({
            rubric: RUBRIC,
            measure: z.string(),
            measureKind: MEASURE_KIND,
            label: z.string(),
            specialty: z.string(),
            model: z.string(),
            rank: z.int(),
            n: z.int().meta({ description: "Final sets with a value on this measure (N/A left out)" }),
            mean: z.number().nullable(),
            sd: z.number().nullable(),
            min: z.number(),
            max: z.number(),
            maxTotal: z.number().meta({ description: "The same as max" }),
          }),
        ),
      }),
    ),
    progress: block(
      z.object({
        sets: z.object({
          total: z.int(),
          byStatus: z.object({ AWAITING_GRADES: z.int(), AGREED: z.int(), AWAITING_ADJUDICATION: z.int(), ADJUDICATED: z.int() }),
        }),
        assignments: z.object({ done: z.int(), assigned: z.int() }),
        graders: z.array(GraderProgress),
      }),
    ),
    journal: block(
      z.object({
        note: z.string(),
        design: z.enum(["pool", "crossed"]),
        rubrics: z.array(z.object({ rubric: RUBRIC, agreement: z.array(JournalAgreement), models: z.array(JournalComparison) })),
      }),
    ).meta({ description: "Journal statistics per rubric, for each dimension and total, each with its convention and n" }),
    judges: block(z.object({ note: z.string(), judges: z.array(JudgeComparison) }))
      .optional()
      .meta({ description: "Automated judges against the clinician panel, per dimension and total, with the clinicians' agreement as the ceiling" }),
    pairwise: block(PairwiseBlockSchema)
      .optional()
      .meta({
        description:
          "Pairwise preferences per axis and overall: wins/ties/losses and win rates (Wilson CI) per pair of models, Bradley-Terry (Davidson with ties) strengths with SEs, question-bootstrap CIs and P(best), predicted win matrix, position and length bias, agreement. A scoring study with two or more models: the same table derived from final scores",
      }),
  }),
);

registry.registerPath({
  method: "get",
  path: "/api/v1/studies/{id}/stats",
  summary: "Dashboard statistics of a study (unblinded, leads)",
  description:
    "Radar profiles, Cronbach's alpha per specialty (Feldt CI), pairwise Cliff's delta with bootstrap CI, inter-rater agreement of the primary graders per dimension (Gwet's AC2, Krippendorff's alpha, ICC, percent agreement, escalation rate), the ranking of models and progress. Blocks without enough data are null with a reason.",
  tags: ["Results"],
  request: { params: z.object({ id: z.uuid().meta({ description: "Study id" }) }), query: statsQuerySchema },
  responses: {
    200: { description: "The statistics", content: { "application/json": { schema: StudyStatsSchema } } },
    ...errorResponses(401, 403, 404, 422),
  },
});
