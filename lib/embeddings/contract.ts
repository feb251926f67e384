import "@/lib/api/zod-openapi";
import { z } from "zod";
import { errorResponses, registry } from "@/lib/api/registry";
import { lineText } from "@/lib/validation/text";

/**
 * The /api/v1 contract of embedding similarity runs (lib/embeddings): a study's lead runs one
 * against an endpoint an admin set up (GET /api/v1/judge-endpoints: those with an
 * embeddingModel) and follows it. Embedding similarity is the cosine of two vectors from an
 * embeddings model; it is not BERTScore, which aligns tokens.
 */

export const startEmbeddingRunInput = registry.register(
  "EmbeddingRunStart",
  z.strictObject({
    endpointId: z.uuid().meta({ description: "An endpoint an admin set up with an embeddingModel" }),
    model: lineText()
      .trim()
      .min(1)
      .max(200)
      .optional()
      .meta({ description: "The embeddings model to name in the requests; default: the endpoint's embeddingModel" }),
  }),
);
export type StartEmbeddingRunInput = z.infer<typeof startEmbeddingRunInput>;

export const EmbeddingRunSchema = registry.register(
  "EmbeddingRun",
  z.object({
    id: z.uuid(),
    status: z.enum(["PENDING", "RUNNING", "DONE", "FAILED"]).meta({ description: "PENDING: waiting for a worker; DONE: the similarities are stored; FAILED: nothing of the run is stored (see error)" }),
    endpoint: z.string().meta({ description: "The endpoint's name" }),
    model: z.string().meta({ description: "The embeddings model" }),
    answers: z.int().meta({ description: "Answers with a reference answer when the run started" }),
    embedded: z.int().meta({ description: "Of them, embedded so far (stored only when the run is DONE)" }),
    requests: z.int().meta({ description: "Requests sent to the endpoint, retries included" }),
    dimensions: z.int().nullable().meta({ description: "The vectors' length" }),
    error: z.string().nullable().meta({ description: "Why the run failed, on one line" }),
    createdAt: z.iso.datetime(),
    startedAt: z.iso.datetime().nullable(),
    finishedAt: z.iso.datetime().nullable(),
  }),
);
export type EmbeddingRunView = z.infer<typeof EmbeddingRunSchema>;

export const EmbeddingCoverage = registry.register(
  "EmbeddingCoverage",
  z.object({
    answersWithReference: z.int(),
    withSimilarity: z.int().meta({ description: "Answers with a stored embedding similarity; fewer than answersWithReference after a DONE run: answers or references changed since, run again" }),
    model: z.string().nullable().meta({ description: "The embeddings model of the stored similarities (every one comes from the same run)" }),
    endpoint: z.string().nullable(),
  }),
);
export type EmbeddingCoverage = z.infer<typeof EmbeddingCoverage>;

const json = <T extends z.ZodType>(schema: T) => ({ content: { "application/json": { schema } } });
const studyParams = z.object({ id: z.uuid().meta({ description: "Study id" }) });
const DESCRIPTION =
  "Embedding similarity: the cosine similarity (-1 to 1) of the vector of each answer whose question has a reference answer and the vector of that reference, from an OpenAI-compatible embeddings endpoint (POST {baseUrl}/embeddings) an admin set up. It is not BERTScore (no token alignment, no baseline rescaling). The run is a background job; its similarities are stored all at once when it finishes, replacing the previous run's, or not at all when it fails. Answers or references that change afterwards lose theirs until the next run.";

registry.registerPath({
  method: "get",
  path: "/api/v1/studies/{id}/embedding-runs",
  summary: "The study's embedding similarity runs, newest first, and how many answers have a similarity (leads)",
  description: DESCRIPTION,
  tags: ["Results"],
  request: { params: studyParams },
  responses: { 200: { description: "Runs", ...json(z.object({ runs: z.array(EmbeddingRunSchema), coverage: EmbeddingCoverage })) }, ...errorResponses(401, 403, 404) },
});
registry.registerPath({
  method: "post",
  path: "/api/v1/studies/{id}/embedding-runs",
  summary: "Start an embedding similarity run over the study's answers that have a reference answer (background job)",
  description: DESCRIPTION,
  tags: ["Results"],
  request: { params: studyParams, body: json(startEmbeddingRunInput) },
  responses: { 201: { description: "Started", ...json(EmbeddingRunSchema) }, ...errorResponses(400, 401, 403, 404, 409, 422) },
});
registry.registerPath({
  method: "get",
  path: "/api/v1/studies/{id}/embedding-runs/{runId}",
  summary: "An embedding similarity run's status and progress",
  tags: ["Results"],
  request: { params: studyParams.extend({ runId: z.uuid() }) },
  responses: { 200: { description: "The run", ...json(EmbeddingRunSchema) }, ...errorResponses(401, 403, 404) },
});
