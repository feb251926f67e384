import { z } from "zod";
// Before any schema here is made: the OpenAPI registry needs them extended (see the module).
import "@/lib/api/zod-openapi";
import { lineText } from "@/lib/validation/text";

/**
 * A pairwise study's pair design as stored on the study (Study.pairDesign) and sent when planning
 * (lib/pairwise): here, beside the study's other settings, so the study's contract reads it
 * without depending on the pairwise feature.
 */
/** Models are named by their names in the study (as imported); at most this many comparisons per question. */
export const MAX_PER_QUESTION = 45;

/** Which pairs of models are compared on each question (lib/pairwise/design.ts). */
export const PairDesignSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("all_pairs") }).meta({ description: "Every pair of models on every question" }),
  z
    .object({ kind: z.literal("against_reference"), reference: lineText().min(1).max(200).meta({ description: "The reference model's name (e.g. the clinicians' own answers)" }) })
    .meta({ description: "Each other model against one reference model" }),
  z
    .object({ kind: z.literal("balanced"), perQuestion: z.int().min(1).max(MAX_PER_QUESTION).meta({ description: "Comparisons per question" }) })
    .meta({ description: "A balanced incomplete design: each model equally often, and on each side equally often (within one)" }),
], { error: "design.kind must be all_pairs, against_reference or balanced" });
export type PairDesignInput = z.infer<typeof PairDesignSchema>;

