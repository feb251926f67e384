import "@/lib/api/zod-openapi";
import { z } from "zod";
import { errorResponses, registry } from "@/lib/api/registry";

/** GET /api/v1/studies/{id}/judges/preferences: a pairwise study's judges against the panel (lib/pairwise/judge-agreement.ts). */

const Figure = z.object({ value: z.number().nullable(), ci: z.tuple([z.number(), z.number()]).nullable(), n: z.int(), reason: z.string().nullable() });

const AxisRow = z.object({
  rubric: z.string().nullable(),
  axis: z.string().nullable().meta({ description: "null: pooled over every axis" }),
  label: z.string(),
  orders: z
    .object({ n: z.int(), consistency: Figure, positionBias: Figure.extend({ pValue: z.number().nullable() }) })
    .meta({ description: "The judge's own order effects over the comparisons it was asked in both orders: consistency (the two replies agree after the swap) and the share of decisive replies choosing the answer shown first" }),
  vsPanel: z.object({ n: z.int(), accuracy: Figure, kappa: Figure, ac1: Figure }).meta({ description: "Against the panel's final majority: accuracy, Cohen's kappa and AC1 on left / tie / right" }),
  ceiling: z.object({ comparisons: z.int(), percent: Figure, fleiss: Figure, ac1: Figure }).meta({ description: "Agreement among the primary graders of the same comparisons" }),
});

export const JudgePreferencesResult = registry.register(
  "JudgePreferenceComparisons",
  z.object({
    note: z.string(),
    judges: z.array(
      z.object({
        judge: z.object({ id: z.uuid(), name: z.string(), model: z.string(), version: z.string() }),
        preferences: z.int(),
        axes: z.array(AxisRow),
      }),
    ),
  }),
);

registry.registerPath({
  method: "get",
  path: "/api/v1/studies/{id}/judges/preferences",
  summary: "A pairwise study's judges against the panel: order effects, kappa, AC1 and accuracy per axis, beside the clinicians' ceiling",
  tags: ["Judges"],
  request: { params: z.object({ id: z.uuid().meta({ description: "Study id" }) }) },
  responses: { 200: { description: "Per judge and axis", content: { "application/json": { schema: JudgePreferencesResult } } }, ...errorResponses(401, 403, 404, 409) },
});
