import { z } from "zod";
import { registry } from "@/lib/api/registry";

/**
 * The `pairwise` block of GET /api/v1/studies/{id}/stats (lib/analytics/pairwise.ts): a pairwise
 * study's preferences, or a scoring study's final scores read as preferences, per axis and
 * overall.
 */

const interval = z.tuple([z.number(), z.number()]).nullable();
const reason = z.string().nullable();

const Share = z
  .object({
    successes: z.int(),
    n: z.int(),
    share: z.number().nullable(),
    ci: interval.meta({ description: "Wilson interval" }),
    pValue: z.number().nullable().meta({ description: "Two-sided exact binomial test against one half" }),
    reason,
  })
  .meta({ description: "A share of decisive preferences with its Wilson interval and binomial test" });

const Proportion = z.object({ estimate: z.number().nullable(), ci: interval, reason });

const PairwisePair = z.object({
  a: z.string(),
  b: z.string().meta({ description: "Wins, ties and losses are a's against b" }),
  wins: z.int(),
  ties: z.int(),
  losses: z.int(),
  n: z.int(),
  winRate: Proportion.meta({ description: "wins / n (ties count against), Wilson interval" }),
  decisiveWinRate: Proportion.meta({ description: "wins / (wins + losses), Wilson interval" }),
  relativePreference: z.number().nullable().meta({ description: "wins / losses - 1: a preferred over b this much more often (null without a loss)" }),
  lengthBias: Share.meta({ description: "Share of decisive preferences of this pair won by the longer answer" }),
});

const PairwiseStrength = z.object({
  model: z.string(),
  logStrength: z.number().nullable().meta({ description: "Centred log-strength (mean 0 over the models)" }),
  se: z.number().nullable().meta({ description: "Standard error from the observed information" }),
  ci: interval.meta({ description: "Percentile interval of the question bootstrap" }),
  probabilityBest: z.number().nullable().meta({ description: "Share of bootstrap replicates in which the model was strongest" }),
});

export const PairwiseAxisSchema = z.object({
  axis: z.string().nullable().meta({ description: "The axis's key; null: every axis pooled (overall)" }),
  label: z.string(),
  n: z.int().meta({ description: "Preferences (every grader's own)" }),
  pairs: z.array(PairwisePair),
  strengths: z.object({
    model: z.enum(["plain", "davidson"]).meta({ description: "Bradley-Terry, or Davidson's model when any tie was given" }),
    nu: z.number().nullable().meta({ description: "Davidson's tie parameter" }),
    nuSE: z.number().nullable(),
    rows: z.array(PairwiseStrength),
    winProbability: z.array(z.array(z.number().nullable())).nullable().meta({ description: "Predicted P(row model preferred over column model)" }),
    tieProbability: z.array(z.array(z.number().nullable())).nullable(),
    replicates: z.int(),
    failed: z.int().meta({ description: "Bootstrap replicates without a finite fit" }),
    reason,
    bootstrapReason: reason,
  }),
  positionBias: Share.meta({ description: "Share of decisive preferences given to the left answer" }),
  lengthBias: Share.meta({ description: "Share of decisive preferences between answers of different length won by the longer" }),
  agreement: z
    .object({
      comparisons: z.int().meta({ description: "Comparisons with two or more primary graders" }),
      percent: z.number().nullable(),
      fleiss: z.number().nullable(),
      ac1: z.number().nullable(),
      ac1Ci: interval,
      reason,
    })
    .nullable()
    .meta({ description: "Agreement of the primary graders on left / tie / right; null for preferences derived from scores" }),
});

export const PairwiseBlockSchema = registry.register(
  "StatsPairwise",
  z.object({
    source: z.enum(["preferences", "scores"]).meta({ description: "preferences: a pairwise study's graders; scores: a scoring study's final scores, the higher-scored answer of each pair preferred" }),
    note: z.string(),
    models: z.array(z.string()),
    replicates: z.int(),
    seed: z.number(),
    level: z.number(),
    axes: z.array(PairwiseAxisSchema),
  }),
);

export type PairwiseBlock = z.infer<typeof PairwiseBlockSchema>;
export type PairwiseAxisBlock = z.infer<typeof PairwiseAxisSchema>;
