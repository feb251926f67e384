import { z } from "zod";
import "@/lib/api/zod-openapi";
import { errorResponses, ErrorBody, registry } from "@/lib/api/registry";
import { lineText, multilineText } from "@/lib/validation/text";

/**
 * The words of a setting's name that make it look like a secret (`apiKey`,
 * `x-api-key`, `access_token`, `PASSWORD`, `Authorization`...): settings are
 * stored in plain text and shown to every lead of the study, so a key belongs in
 * a judge endpoint, which stores it encrypted and never returns it.
 */
const SECRET_WORDS = new Set(["key", "apikey", "token", "password", "passwd", "pwd", "secret", "authorization", "auth", "bearer", "credential", "credentials", "cookie", "passphrase"]);

/** Whether a setting's name looks like it holds a secret: any of its words (camelCase, snake_case, kebab-case...) is one of SECRET_WORDS. */
export function looksLikeSecretSetting(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  return words.some((w) => SECRET_WORDS.has(w)) || SECRET_WORDS.has(words.join(""));
}

export const SECRET_SETTING_MESSAGE =
  "looks like a secret: settings are stored in plain text and shown to the study's leads; put the key in a judge endpoint (POST /api/v1/judge-endpoints, apiKey or apiKeyEnv), which stores it encrypted and never returns it";

/** POST /api/v1/studies/{id}/judges: a judge that is not a person, beside the clinicians. */
export const JudgeBody = registry.register(
  "JudgeCreate",
  z
    .strictObject({
      name: lineText({ error: "name must be text" }).min(1, { error: "name is required" }).max(120, { error: "name is at most 120 characters" }),
      model: lineText({ error: "model must be text" }).min(1, { error: "model is required" }).max(200, { error: "model is at most 200 characters" }),
      version: lineText({ error: "version must be text" }).max(200).default(""),
      prompt: multilineText({ error: "prompt must be text" }).max(100_000, { error: "prompt is at most 100,000 characters" }).default(""),
      kind: z.enum(["LLM_JUDGE", "DECISION_MODEL"]).default("LLM_JUDGE"),
      settings: z
        .record(lineText().max(100), z.union([z.string().max(2000), z.number(), z.boolean(), z.null()]))
        .refine((s) => Object.keys(s).length <= 50, { message: "at most 50 settings" })
        .superRefine((s, ctx) => {
          for (const name of Object.keys(s)) {
            if (looksLikeSecretSetting(name)) ctx.addIssue({ code: "custom", path: [name], message: `${name} ${SECRET_SETTING_MESSAGE}` });
          }
        })
        .optional()
        .meta({
          description:
            "Temperature, samples, endpoint name...: flat values, never a secret. A name that looks like one (apiKey, key, token, password, secret, authorization...) is a 422: keys belong in a judge endpoint, stored encrypted.",
        }),
    })
    .meta({ description: "An automated judge: its scores sit beside the clinicians', never as a grader's" }),
);
export type JudgeInput = z.output<typeof JudgeBody>;

export const Judge = registry.register(
  "Judge",
  z.object({
    id: z.uuid(),
    name: z.string(),
    kind: z.enum(["LLM_JUDGE", "DECISION_MODEL"]),
    model: z.string(),
    version: z.string(),
    prompt: z.string(),
    settings: z.unknown().nullable(),
    createdAt: z.string(),
    scores: z.int().meta({ description: "Judgments stored" }),
    hybrid: z.boolean().meta({ description: "The study's hybrid judge" }),
  }),
);

export const JudgeScoreQuery = z.object({
  dryRun: z.enum(["1", "true", "0", "false"]).optional().meta({ description: "1: check only, write nothing" }),
});

const num = z.union([z.number(), z.string()]);
/** One judgment as JSON: the CSV's columns as keys. */
export const JudgeScoreRow = registry.register(
  "JudgeScoreRow",
  z
    .object({
      item_id: z.string(),
      model: z.string(),
      repetition: z.union([z.int(), z.string(), z.null()]).optional().meta({ description: "1..N; 0 or empty for whole-set dimensions" }),
      rubric: z.string().optional().meta({ description: "Only when the dimension's key is in more than one of the study's rubrics" }),
      dimension: z.string(),
      score: z.union([z.int(), z.string(), z.null()]).optional().meta({ description: "A level's value (integer or nominal key) or NA; optional with probabilities or samples" }),
      probabilities: z.record(z.string(), z.number()).optional().meta({ description: "Probability per level, keyed by the level's value (or p_<level> keys)" }),
      samples: z.array(z.union([z.int(), z.string()])).optional().meta({ description: "Several samples of the same judgment, when there are no probabilities" }),
      confidence: num.optional().meta({ description: "0-1, the judge's own; computed from probabilities or samples when absent" }),
      rationale: z.string().optional(),
    })
    .catchall(z.union([z.number(), z.string(), z.null()]))
    .meta({ description: "One judgment; p_<level> keys give probabilities as in the CSV" }),
);

const RowProblem = z.object({
  row: z.int().meta({ description: "1-based data row (0: the request as a whole)" }),
  line: z.int().optional().meta({ description: "CSV only: line of the file where the row starts" }),
  column: z.string().nullable(),
  message: z.string(),
});
export const JudgeScoresRejected = registry.register(
  "JudgeScoresRejected",
  z.object({ error: z.string(), details: z.object({ errors: z.array(RowProblem).meta({ description: "The first 1,000 problems, by row" }), total: z.int() }) }),
);

export const JudgeScoresResult = registry.register(
  "JudgeScoresResult",
  z.object({
    judgeId: z.uuid().nullable().meta({ description: "null for a check of a judge not registered yet" }),
    rows: z.int(),
    created: z.int(),
    updated: z.int(),
    unchanged: z.int(),
    renormalised: z.int().meta({ description: "Rows whose probabilities summed to 1 within 1e-6 but not exactly, divided by their sum before storing" }),
    dryRun: z.boolean(),
  }),
);

const params = z.object({ id: z.uuid().meta({ description: "Study id" }) });
const judgeParams = params.extend({ judgeId: z.uuid() });

registry.registerPath({
  method: "post",
  path: "/api/v1/studies/{id}/judges",
  summary: "Register an automated judge (lead of the study or admin)",
  tags: ["Judges"],
  request: { params, body: { required: true, content: { "application/json": { schema: JudgeBody } } } },
  responses: {
    201: { description: "Registered", content: { "application/json": { schema: z.object({ id: z.uuid() }) } } },
    ...errorResponses(400, 401, 403, 404, 409, 422),
  },
});

registry.registerPath({
  method: "get",
  path: "/api/v1/studies/{id}/judges",
  summary: "The study's automated judges",
  tags: ["Judges"],
  request: { params },
  responses: { 200: { description: "Judges", content: { "application/json": { schema: z.object({ judges: z.array(Judge) }) } } }, ...errorResponses(401, 403, 404) },
});

registry.registerPath({
  method: "post",
  path: "/api/v1/studies/{id}/judges/check-scores",
  summary: "Check a judge's scores before registering the judge (writes nothing)",
  description: "The same checks as importing a judge's scores with dryRun=1, for a judge not created yet: a lead checks a file first and registers the judge only to import it.",
  tags: ["Judges"],
  request: {
    params: z.object({ id: z.uuid() }),
    body: {
      required: true,
      content: { "text/csv": { schema: z.string().meta({ description: "CSV with a header row" }) }, "application/json": { schema: z.array(JudgeScoreRow) } },
    },
  },
  responses: {
    200: { description: "Checked", content: { "application/json": { schema: JudgeScoresResult } } },
    ...errorResponses(400, 401, 403, 404, 413, 422),
  },
});

registry.registerPath({
  method: "post",
  path: "/api/v1/studies/{id}/judges/{judgeId}/scores",
  summary: "Import a judge's scores (all or nothing, idempotent)",
  description:
    "A long table, one judgment a row: item_id, model, repetition, dimension, score, optional rubric, one p_<level> column per level of the dimension's scale, confidence, rationale; or the same rows as a JSON array. Probabilities must each be 0-1 and sum to 1 within 1e-6: sums within that tolerance are divided by their sum before storing (renormalised, counted in the result); beyond it the row is refused. With probabilities, score may be left empty: it is the most probable level (ties to the lower level), and the expected score (sum of level x probability) is stored beside it. Confidence, unless given: the largest probability; |2p-1| on two-level scales; from several samples, 1 - their range over the scale's (ordinal) or the modal share (nominal). Any problem (unknown answers, levels not in the rubric, a judge of another study) is a 422 naming each with its row and column; nothing is written. Sending the same rows again changes nothing. Body limit: 20 MB.",
  tags: ["Judges"],
  request: {
    params: judgeParams,
    query: JudgeScoreQuery,
    body: {
      required: true,
      content: { "text/csv": { schema: z.string().meta({ description: "CSV with a header row" }) }, "application/json": { schema: z.array(JudgeScoreRow) } },
    },
  },
  responses: {
    200: { description: "Written (or, with dryRun, checked)", content: { "application/json": { schema: JudgeScoresResult } } },
    ...errorResponses(400, 401, 403, 404, 413),
    409: { description: "The judge's scores are final on some sets (hybrid mode)", content: { "application/json": { schema: ErrorBody } } },
    415: { description: "Content-Type is not text/csv or application/json", content: { "application/json": { schema: ErrorBody } } },
    422: { description: "Problems, each with row, column and reason", content: { "application/json": { schema: JudgeScoresRejected } } },
  },
});

/** PUT /api/v1/studies/{id}/hybrid */
export const HybridBody = registry.register(
  "HybridMode",
  z
    .strictObject({
      judgeId: z.uuid({ error: "judgeId must be a judge's id, or null to turn hybrid mode off" }).nullable(),
      cutoff: z.number({ error: "cutoff must be a number from 0 to 1" }).min(0, { error: "cutoff is at least 0" }).max(1, { error: "cutoff is at most 1" }).optional(),
    })
    .refine((b) => b.judgeId === null || b.cutoff !== undefined, { message: "give the cutoff with the judge", path: ["cutoff"] })
    .meta({ description: "The judge whose confident sets are final, and the confidence cutoff; judgeId null turns hybrid mode off" }),
);

export const HybridResultSchema = registry.register(
  "HybridModeResult",
  z.object({ judgeId: z.uuid().nullable(), cutoff: z.number().nullable(), judgedSets: z.int(), clinicianSets: z.int() }),
);

registry.registerPath({
  method: "put",
  path: "/api/v1/studies/{id}/hybrid",
  summary: "Hybrid mode: a judge's confident sets are final, the rest go to clinicians",
  description:
    "Before any grader is assigned. A set whose every judgment (each gradable dimension, at each answer it is graded on) has confidence at or above the cutoff takes the judge's scores as final (marked finalBy judge in results and exports); any other set, including one with a judgment without confidence or missing, is assigned to clinicians through the normal blinded assignment. The judge's scores cannot change afterwards. 409 once graders are assigned; 422 for a judge of another study.",
  tags: ["Judges"],
  request: { params, body: { required: true, content: { "application/json": { schema: HybridBody } } } },
  responses: {
    200: { description: "Applied", content: { "application/json": { schema: HybridResultSchema } } },
    ...errorResponses(400, 401, 403, 404, 409, 422),
  },
});
