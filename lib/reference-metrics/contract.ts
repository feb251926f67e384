import { z } from "zod";
import { errorResponses, registry } from "@/lib/api/registry";

const metric = (what: string) => z.number().min(0).max(1).nullable().meta({ description: `${what}, 0-1; null when the question has no reference answer` });

/** One answer's reference-based metrics, in the sets API and exports (leads only). */
export const AnswerReferenceMetrics = registry.register(
  "AnswerReferenceMetrics",
  z.object({
    repetition: z.int(),
    bleu: metric("Sentence BLEU against the question's reference answer as sacreBLEU computes it by default (13a tokens, 'exp' smoothing, effective order), divided by 100"),
    rouge1: metric("ROUGE-1 F1 as rouge-score computes it by default (lower-cased, [^a-z0-9]+ as spaces: letters outside ASCII are dropped; no stemming)"),
    rougeL: metric("ROUGE-L F1 (longest common subsequence), same tokens as rouge1"),
    embeddingSimilarity: z
      .number()
      .min(-1)
      .max(1)
      .nullable()
      .meta({
        description:
          "Embedding similarity: the cosine (-1 to 1) of the answer's and the reference answer's vectors from the embeddings model of the study's last embedding run (not BERTScore); null without a reference answer, before a run, or after the answer or reference changed",
      }),
  }),
);
export type AnswerReferenceMetrics = z.infer<typeof AnswerReferenceMetrics>;

export const ReferenceMetricsRow = registry.register(
  "ReferenceMetricsRow",
  z.object({
    model: z.string(),
    specialty: z.string().nullable().meta({ description: "null: the model's answers over every specialty" }),
    answers: z.int().meta({ description: "Answers whose question has a reference answer" }),
    bleu: z.number().meta({ description: "Mean sentence BLEU (0-1)" }),
    rouge1: z.number().meta({ description: "Mean ROUGE-1 F1 (0-1)" }),
    rougeL: z.number().meta({ description: "Mean ROUGE-L F1 (0-1)" }),
    corpusBleu: z.number().meta({ description: "Corpus BLEU of these answers as sacreBLEU's corpus_bleu computes it (statistics summed, 'exp' smoothing, no effective order), 0-1" }),
    embeddingSimilarity: z.number().nullable().meta({ description: "Mean embedding similarity (cosine, -1 to 1) of the answers that have one; null when none has (no embedding run yet)" }),
    embeddingAnswers: z.int().meta({ description: "Answers with an embedding similarity" }),
  }),
);

registry.registerPath({
  method: "get",
  path: "/api/v1/studies/{id}/reference-metrics",
  summary: "Reference-based metrics (BLEU, ROUGE-1, ROUGE-L, embedding similarity) per model and specialty (leads)",
  description:
    "Answers are compared with their question's reference answer: sentence BLEU as sacreBLEU's sentence_bleu computes it by default and corpus BLEU as its corpus_bleu does (13a tokens), ROUGE-1 and ROUGE-L F1 as rouge-score does by default (no stemming; letters outside ASCII are dropped), all 0-1. Computed at import and again when an answer or a reference changes. Questions without a reference answer do not count. Embedding similarity is the mean cosine of the answers' and references' vectors where the study's last embedding run computed one (POST /api/v1/studies/{id}/embedding-runs); it is not BERTScore.",
  tags: ["Results"],
  request: { params: z.object({ id: z.uuid() }) },
  responses: {
    200: { description: "One row per model and specialty, and one per model over all specialties", content: { "application/json": { schema: z.object({ rows: z.array(ReferenceMetricsRow) }) } } },
    ...errorResponses(401, 403, 404),
  },
});
