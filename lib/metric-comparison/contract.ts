import { z } from "zod";
import { errorResponses, registry } from "@/lib/api/registry";
import { REFERENCE_METRIC_KEYS } from "@/lib/reference-metrics/metrics";

/** Contract of GET /api/v1/studies/{id}/reference-metrics/comparison (assemble.ts computes it). */

const Metric = z.enum(REFERENCE_METRIC_KEYS).meta({ description: "A reference-based metric: the Response field it is stored in" });
const MODEL = z.string().nullable().meta({ description: "null: every model together" });
const SPECIALTY = z.string().nullable().meta({ description: "null: every specialty together" });

export const comparisonQuerySchema = z.object({
  measure: z
    .string()
    .max(200, { error: "measure is longer than 200 characters" })
    .regex(/^[A-Za-z][A-Za-z0-9_]{0,62}:(dimension|total):[a-z][a-z0-9_]{0,62}$/, { error: "measure is <rubric>:dimension:<key> or <rubric>:total:<key>, an id from this endpoint's measures" })
    .optional()
    .meta({ description: "The expert measure the disagreement cases are ranked on (an id from `measures`); default the first rubric's headline total, else its first ordinal dimension" }),
});

const ExpertMeasureSchema = z.object({
  id: z.string().meta({ description: "<rubric>:<dimension|total>:<key>" }),
  rubric: z.string(),
  kind: z.enum(["dimension", "total"]),
  key: z.string(),
  label: z.string().meta({ description: "The name the rubric document gives it" }),
  min: z.number(),
  max: z.number(),
});

export const MetricComparisonSchema = registry.register(
  "MetricComparison",
  z.object({
    metrics: z.array(z.object({ key: Metric, label: z.string() })),
    models: z.array(z.string()),
    specialties: z.array(z.string()),
    answers: z.int().meta({ description: "Answers whose question has a reference answer" }),
    finalSets: z.int().meta({ description: "Response sets with the experts' final scores and a metric: the correlations' units" }),
    judgedSets: z.int().meta({ description: "Sets whose final scores an automated judge gave (hybrid mode): not the experts', left out of the correlations" }),
    heatmap: z
      .array(z.object({ model: MODEL, specialty: SPECIALTY, metric: Metric, mean: z.number().nullable(), n: z.int().meta({ description: "Answers with this metric" }) }))
      .meta({ description: "Mean of each metric over the answers, per model and specialty, per model, per specialty and overall (0-1)" }),
    corpusBleu: z
      .array(z.object({ model: MODEL, specialty: SPECIALTY, value: z.number().nullable(), n: z.int() }))
      .meta({ description: "Corpus BLEU of each group's answers as sacreBLEU's corpus_bleu computes it (statistics summed, 'exp' smoothing, no effective order), 0-1" }),
    measures: z.array(ExpertMeasureSchema).meta({ description: "Every ordinal dimension and every total of the study's rubrics" }),
    skipped: z
      .array(z.object({ rubric: z.string(), key: z.string(), label: z.string(), kind: z.enum(["nominal", "criteria"]) }))
      .meta({ description: "Dimensions with no order to correlate (nominal; criteria, whose score is a total)" }),
    correlation: z.object({
      method: z.string(),
      level: z.number(),
      rows: z.array(
        z.object({
          model: MODEL,
          specialty: SPECIALTY,
          metric: Metric,
          measure: z.string().meta({ description: "An id from `measures`" }),
          rho: z.number().nullable().meta({ description: "Spearman's rho over the final sets (each set's metric: the mean over its answers)" }),
          ci: z.tuple([z.number(), z.number()]).nullable(),
          n: z.int(),
          reason: z.string().nullable(),
        }),
      ),
    }),
    disagreements: z.object({
      measure: z.string().nullable().meta({ description: "The expert measure the cases are ranked on; null when the rubrics have none" }),
      cases: z.array(
        z.object({
          metric: Metric,
          direction: z.enum(["metric_high", "expert_high"]).meta({ description: "metric_high: the metric ranks the set far above the experts' score; expert_high: the reverse" }),
          setId: z.uuid(),
          externalId: z.string(),
          model: z.string(),
          specialty: z.string(),
          metricValue: z.number(),
          expertValue: z.number(),
          metricRank: z.number().meta({ description: "Percentile rank (0-1) of the set's metric among the final sets" }),
          expertRank: z.number().meta({ description: "Percentile rank (0-1) of the set's expert score" }),
        }),
      ),
    }),
  }),
);

registry.registerPath({
  method: "get",
  path: "/api/v1/studies/{id}/reference-metrics/comparison",
  summary: "Reference-based metrics beside the experts' final scores (leads)",
  description:
    "The heatmap of each metric's mean per model and specialty (with per-model, per-specialty and overall aggregates and corpus BLEU); per group, Spearman's rho between each metric and each ordinal dimension and total of the rubrics, with a 95% Fisher-z interval using the Bonett-Wright standard error sqrt((1 + rho^2/2)/(n - 3)); and per metric the final sets where metric and experts disagree most by percentile rank, each way. The unit of the correlations is a response set with the panel's final scores; its metric is the mean over its answers.",
  tags: ["Results"],
  request: { params: z.object({ id: z.uuid().meta({ description: "Study id" }) }), query: comparisonQuerySchema },
  responses: {
    200: { description: "The comparison", content: { "application/json": { schema: MetricComparisonSchema } } },
    ...errorResponses(401, 403, 404, 422),
  },
});
