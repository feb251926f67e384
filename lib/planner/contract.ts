import { z } from "zod";
import { ErrorBody, errorResponses, registry } from "@/lib/api/registry";

const share = (what: string) => z.number().gt(0).lt(1).meta({ description: what });
const width = z.number().gt(0).lt(2).meta({ description: "Full width of the 95% confidence interval wanted" });
const level = z.number().gt(0).lt(1).optional().meta({ description: "Confidence level of the interval (default 0.95)" });
const power = z.number().gt(0).lt(1).optional().meta({ description: "Power wanted (default 0.8)" });
const alpha = z.number().gt(0).lt(1).optional().meta({ description: "Two-sided significance level (default 0.05)" });

/** What the lead wants to plan for; `target` names the statistic (issue #36). */
export const PlannerRequest = registry.register(
  "PlannerRequest",
  z.discriminatedUnion("target", [
    z.strictObject({ target: z.literal("icc"), expected: share("Expected ICC"), graders: z.int().min(2).max(100).meta({ description: "Graders per set" }), ciWidth: width, level }),
    z.strictObject({ target: z.literal("alpha"), expected: share("Expected Cronbach's alpha"), items: z.int().min(2).max(200).meta({ description: "Items (rubric dimensions) per answer" }), ciWidth: width, level }),
    z.strictObject({
      target: z.literal("kappa"),
      expected: share("Expected kappa (Cohen's for two graders, Fleiss' for more)"),
      prevalence: share("A yes/no item: the share of 'yes' (give this or `proportions`)").optional(),
      proportions: z.array(share("A category's share")).min(2).max(10).optional().meta({ description: "Each category's expected share of the grades, adding up to 1 (give this or `prevalence`)" }),
      graders: z.int().min(2).max(50).optional().meta({ description: "Graders per set (default 2)" }),
      ciWidth: width,
      level,
    }),
    z.strictObject({
      target: z.literal("difference"),
      cliffsDelta: share("Cliff's delta to detect between two models").optional(),
      meanDifference: z.number().gt(0).optional().meta({ description: "Difference in the mean total to detect (with sd)" }),
      sd: z.number().gt(0).optional().meta({ description: "SD of the total within a model" }),
      power,
      alpha,
      replicates: z.int().min(200).max(5000).optional().meta({ description: "Simulated studies per size (default 2000)" }),
      seed: z.int().min(0).max(2 ** 31 - 1).optional(),
    }),
    z.strictObject({
      target: z.literal("pairwise"),
      winProbability: z.number().gt(0.5).lt(1).meta({ description: "Share of decisive comparisons the stronger model wins" }),
      tieShare: z.number().min(0).lt(1).optional().meta({ description: "Expected share of ties (default 0)" }),
      power,
      alpha,
    }),
    z.strictObject({
      target: z.literal("dstudy"),
      studyId: z.uuid().meta({ description: "A pilot or finished study of yours whose grades give the variance components" }),
      rubric: z.string().min(1).max(200).optional().meta({ description: "The rubric document's key (default: the study's first)" }),
      dimension: z.string().min(1).max(200).optional().meta({ description: "An ordinal dimension's key (default: the rubric's first ordinal dimension)" }),
      ciWidth: width.optional(),
      graders: z.array(z.int().min(1).max(20)).min(1).max(10).optional().meta({ description: "Graders per set to tabulate (default 1-6)" }),
    }),
  ]),
);
export type PlannerRequest = z.infer<typeof PlannerRequest>;

export const PlannerAnswer = registry.register(
  "PlannerAnswer",
  z.object({
    target: z.enum(["icc", "alpha", "kappa", "difference", "pairwise", "dstudy"]),
    sets: z.int().meta({ description: "Sets needed (answers per model for `difference`; comparisons of the two models for `pairwise`)" }),
    method: z.string().meta({ description: "The method, in words, with its reference" }),
    assumptions: z.array(z.string()).meta({ description: "What the number assumes, in words" }),
    details: z.record(z.string(), z.number()).meta({ description: "The method's own figures: the unrounded size, the power reached and its Monte Carlo standard error, ..." }),
    gStudy: z
      .object({
        design: z.enum(["crossed", "nested"]).meta({ description: "crossed: the same graders scored every answer, (p:q) x r; nested: each answer had its own graders, r:(p:q)" }),
        questions: z.int(),
        answersPerQuestion: z.int(),
        gradersPerAnswer: z.int(),
        dropped: z.object({ answers: z.int(), questions: z.int() }).meta({ description: "Left out to balance the data: answers without exactly that many primary grades, questions without that many answers" }),
        components: z.array(z.object({ source: z.string(), variance: z.number(), share: z.number(), meanSquare: z.number(), df: z.int() })),
        negative: z.array(z.string()).meta({ description: "Components whose ANOVA estimate was negative, reported as 0" }),
      })
      .optional()
      .meta({ description: "dstudy: the variance components of the study's grades (ANOVA estimators, balanced data)" }),
    dStudy: z
      .array(
        z.object({
          graders: z.int(),
          relative: z.number().nullable().meta({ description: "Generalizability coefficient (ranking answers)" }),
          absolute: z.number().nullable().meta({ description: "Dependability coefficient (a score against a cut-off)" }),
          answers: z.int().nullable().meta({ description: "Answers for the ICC's interval of the stated width with this many graders (Bonett 2002); null for one grader" }),
          sets: z.int().nullable().meta({ description: "The same in sets (answers / N)" }),
        }),
      )
      .optional(),
  }),
);
export type PlannerAnswer = z.infer<typeof PlannerAnswer>;

registry.registerPath({
  method: "post",
  path: "/api/v1/planner",
  summary: "How many sets a study needs (leads)",
  description:
    "The number of sets for a target: an ICC or Cronbach's alpha with a confidence interval of a given width (Bonett 2002; Bonett & Wright 2015), Cohen's or Fleiss' kappa for any number of graders and categories (large-sample variance under the common correlation model; Bloch & Kraemer 1989 for two graders on a yes/no item), a difference between two models (Wilcoxon-Mann-Whitney power by seeded simulation, with its Monte Carlo error), or the comparisons needed to separate two Bradley-Terry strengths. Each answer states its method and assumptions in words.",
  tags: ["Studies"],
  request: { body: { content: { "application/json": { schema: PlannerRequest } } } },
  responses: {
    200: { description: "The number, with its method and assumptions", content: { "application/json": { schema: PlannerAnswer } } },
    ...errorResponses(400, 401, 403, 422),
    429: {
      description: "The `difference` target's simulation runs in one of the server's IMPORT_MAX_CONCURRENT worker slots, all busy: try again after Retry-After",
      headers: { "Retry-After": { description: "Seconds to wait", schema: { type: "integer", minimum: 1 } } },
      content: { "application/json": { schema: ErrorBody } },
    },
  },
});
