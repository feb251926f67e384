import "@/lib/api/zod-openapi";
import { z } from "zod";
import { errorResponses, registry } from "@/lib/api/registry";
import { lineText } from "@/lib/validation/text";
import { API_KEY_ENV } from "./secret";

/** The /api/v1 contract of judge runs: admins set endpoints up, leads run a study's judge against one and follow it. */

// Refinements run after a failed check too: each parses the URL without throwing.
const parsedUrl = (u: string) => (URL.canParse(u) ? new URL(u) : null);
const httpUrl = z
  .url({ protocol: /^https?$/, error: "an http:// or https:// URL, e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1" })
  .max(500)
  .refine((u) => !parsedUrl(u)?.username && !parsedUrl(u)?.password, { error: "no credentials in the URL: give the key as apiKey or apiKeyEnv" })
  .refine((u) => !parsedUrl(u)?.search && !parsedUrl(u)?.hash, { error: "the base URL has no query or fragment: /chat/completions (and /embeddings) is appended to it" });

const endpointFields = {
  name: lineText().trim().min(1).max(120),
  baseUrl: httpUrl,
  model: lineText().trim().min(1).max(200).meta({ description: "The model name the endpoint expects, e.g. gpt-4o-2024-08-06 or llama3.1:70b" }),
  apiKeyEnv: z.string().regex(API_KEY_ENV, "OPENAI_API_KEY or a variable named CLINGRADE_JUDGE_<NAME>").nullable().optional(),
  apiKey: z
    .string()
    .min(1)
    .max(500)
    .regex(/^[\x21-\x7e]+$/, "printable ASCII without spaces")
    .nullable()
    .optional()
    .meta({ description: "Stored encrypted (AES-256-GCM); never returned. null removes a stored key." }),
  logprobs: z.boolean().optional().meta({ description: "Whether the endpoint returns logprobs (default true); without, runs sample" }),
  concurrency: z.int().min(1).max(64).optional(),
  timeoutMs: z.int().min(1000).max(600_000).optional(),
  pricePer1kPromptTokens: z.number().min(0).max(1000).optional(),
  pricePer1kCompletionTokens: z.number().min(0).max(1000).optional(),
  embeddingModel: lineText()
    .trim()
    .min(1)
    .max(200)
    .nullable()
    .optional()
    .meta({ description: "The embeddings model (POST {baseUrl}/embeddings) leads may run embedding similarity with, e.g. text-embedding-3-small; null: not offered for embeddings" }),
};

export const judgeEndpointInput = registry.register(
  "JudgeEndpointInput",
  z
    .strictObject(endpointFields)
    .refine((b) => !(b.apiKey && b.apiKeyEnv), { error: "give the key either as apiKey (stored encrypted) or apiKeyEnv (read from the environment), not both", path: ["apiKey"] })
    .meta({ description: "An OpenAI-compatible chat completions endpoint. Only an admin sets one: the server connects to its base URL." }),
);
export type JudgeEndpointInput = z.infer<typeof judgeEndpointInput>;

export const judgeEndpointPatch = registry.register("JudgeEndpointPatch", z.strictObject(endpointFields).partial());
export type JudgeEndpointPatch = z.infer<typeof judgeEndpointPatch>;

export const JudgeEndpoint = registry.register(
  "JudgeEndpoint",
  z.object({
    id: z.uuid(),
    name: z.string(),
    baseUrl: z.string(),
    model: z.string(),
    apiKeyEnv: z.string().nullable(),
    hasStoredKey: z.boolean().meta({ description: "A key is stored (encrypted); it is never returned" }),
    logprobs: z.boolean(),
    concurrency: z.int(),
    timeoutMs: z.int(),
    pricePer1kPromptTokens: z.number(),
    pricePer1kCompletionTokens: z.number(),
    embeddingModel: z.string().nullable().meta({ description: "Set: leads may run embedding similarity against this endpoint" }),
  }),
);
export type JudgeEndpointView = z.infer<typeof JudgeEndpoint>;

export const startRunInput = registry.register(
  "JudgeRunStart",
  z.strictObject({
    endpointId: z.uuid(),
    mode: z.enum(["logprobs", "sampling"]).optional().meta({ description: "Default: logprobs if the endpoint gives them, else sampling" }),
    samples: z.int().min(2).max(20).optional().meta({ description: "Sampling: requests per prompt (default 5)" }),
    temperature: z.number().gt(0).max(2).optional().meta({ description: "Sampling: temperature (default 0.7)" }),
    topLogprobs: z.int().min(2).max(20).optional(),
    maxAttempts: z.int().min(1).max(10).optional().meta({ description: "Attempts per response set before its error is recorded (default 4)" }),
  }),
);
export type StartRunInput = z.infer<typeof startRunInput>;

const taskCounts = z.object({ total: z.int(), pending: z.int(), running: z.int(), done: z.int(), failed: z.int(), cancelled: z.int(), retrying: z.int() });
export const RunProgressSchema = registry.register(
  "JudgeRunProgress",
  z.object({
    id: z.uuid(),
    judgeId: z.uuid(),
    status: z.enum(["RUNNING", "DONE", "CANCELLED"]),
    endpoint: z.string(),
    judgeModel: z.string().meta({ description: "The judge's model (never a model under test)" }),
    mode: z.enum(["logprobs", "sampling"]),
    samples: z.int(),
    createdAt: z.iso.datetime(),
    finishedAt: z.iso.datetime().nullable(),
    tasks: taskCounts.meta({ description: "Response sets by state; retrying: pending after a failure" }),
    requests: z.int(),
    promptTokens: z.int(),
    completionTokens: z.int(),
    cost: z.number().meta({ description: "From the endpoint's per-1k-token prices when the run started" }),
    errors: z.array(z.object({ item: z.string(), attempts: z.int(), error: z.string() })).meta({ description: "The first 20 response sets that failed, with their last error" }),
  }),
);
export type RunProgress = z.infer<typeof RunProgressSchema>;

const studyParams = z.object({ id: z.uuid().meta({ description: "Study id" }), judgeId: z.uuid() });
const runParams = studyParams.extend({ runId: z.uuid() });
const json = <T extends z.ZodType>(schema: T) => ({ content: { "application/json": { schema } } });
const endpointParams = z.object({ endpointId: z.uuid() });

registry.registerPath({ method: "get", path: "/api/v1/judge-endpoints", summary: "The judge endpoints (admins and leads; keys never returned)", tags: ["Judge runs"], responses: { 200: { description: "Endpoints", ...json(z.object({ endpoints: z.array(JudgeEndpoint) })) }, ...errorResponses(401, 403) } });
registry.registerPath({ method: "post", path: "/api/v1/judge-endpoints", summary: "Set up an endpoint (admin)", tags: ["Judge runs"], request: { body: json(judgeEndpointInput) }, responses: { 201: { description: "Created", ...json(JudgeEndpoint) }, ...errorResponses(400, 401, 403, 409, 422) } });
registry.registerPath({ method: "patch", path: "/api/v1/judge-endpoints/{endpointId}", summary: "Change an endpoint (admin)", tags: ["Judge runs"], request: { params: endpointParams, body: json(judgeEndpointPatch) }, responses: { 200: { description: "Changed", ...json(JudgeEndpoint) }, ...errorResponses(400, 401, 403, 404, 409, 422) } });
registry.registerPath({ method: "get", path: "/api/v1/studies/{id}/judges/{judgeId}/runs", summary: "A judge's runs with their progress, newest first", tags: ["Judge runs"], request: { params: studyParams }, responses: { 200: { description: "Runs", ...json(z.object({ runs: z.array(RunProgressSchema) })) }, ...errorResponses(401, 403, 404) } });
registry.registerPath({ method: "post", path: "/api/v1/studies/{id}/judges/{judgeId}/runs", summary: "Run the judge on every response set it has not scored (a pairwise study: every comparison it has no preference on, asked in both orders) as a background job", tags: ["Judge runs"], request: { params: studyParams, body: json(startRunInput) }, responses: { 201: { description: "Started", ...json(RunProgressSchema) }, ...errorResponses(400, 401, 403, 404, 409, 422) } });
registry.registerPath({ method: "get", path: "/api/v1/studies/{id}/judges/{judgeId}/runs/{runId}", summary: "A run's progress: tasks by state, tokens, cost, errors", tags: ["Judge runs"], request: { params: runParams }, responses: { 200: { description: "Progress", ...json(RunProgressSchema) }, ...errorResponses(401, 403, 404) } });
registry.registerPath({ method: "post", path: "/api/v1/studies/{id}/judges/{judgeId}/runs/{runId}/cancel", summary: "Cancel a run (what was scored stays)", tags: ["Judge runs"], request: { params: runParams }, responses: { 200: { description: "Progress", ...json(RunProgressSchema) }, ...errorResponses(401, 403, 404, 409) } });
registry.registerPath({ method: "post", path: "/api/v1/studies/{id}/judges/{judgeId}/runs/{runId}/resume", summary: "Resume a run: failed and cancelled response sets are tried again", tags: ["Judge runs"], request: { params: runParams }, responses: { 200: { description: "Progress", ...json(RunProgressSchema) }, ...errorResponses(401, 403, 404, 409) } });
