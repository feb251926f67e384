import { z } from "zod";
import { ErrorBody, errorResponses, registry, uploadResponses } from "@/lib/api/registry";
import { lineText } from "@/lib/validation/text";
import { MAX_EXTRA_TERMS } from "./model-mentions";
import { DryRunFlag } from "./dry-run";
import { CriterionSchema } from "@/lib/rubrics/criteria";

/** POST /api/v1/studies/{id}/import: questions and model answers from CSV or a JSON array. */

export const ImportParams = z.object({ id: z.uuid().openapi({ description: "The study" }) });

export const ImportQuery = z.object({
  dryRun: DryRunFlag.openapi({ description: "1: check the file and report what an import would do, writing nothing" }),
  terms: z
    .string()
    .max(2000)
    .optional()
    .transform((v) => (v ?? "").split(",").map((t) => t.trim()).filter(Boolean))
    .refine((ts) => ts.length <= MAX_EXTRA_TERMS, { error: `at most ${MAX_EXTRA_TERMS} terms` })
    .refine((ts) => ts.every((t) => t.length <= 100), { error: "a term is at most 100 characters" })
    .openapi({ description: "Comma-separated words that would tell graders which model wrote an answer (a product, a database), looked for besides the model names and versions" }),
});

const text = (description: string) => z.string().openapi({ description });
const numberOrText = (description: string) => z.union([z.number(), z.string()]).openapi({ description });

export const ImportRow = registry.register(
  "ImportRow",
  z
    .object({
      item_id: z.union([z.string(), z.number()]).openapi({ description: "Your id of the question; unique within the study" }),
      specialty: text("Clinical specialty; matched case-insensitively, the first spelling is kept").optional(),
      question: text("The clinical question").optional(),
      reference_answer: text("Expert reference answer (may be empty)").optional(),
      criteria: z
        .union([z.string(), z.array(CriterionSchema), z.null()])
        .openapi({
          description:
            'The question\'s own criteria (HealthBench), each met or not by an answer and worth signed points: a JSON list [{"id": "c1", "text": "...", "points": 5}] (in CSV, that JSON as the cell\'s text). Required for every question of a study whose rubric grades criteria. A blank cell means none; a file without the column keeps the stored ones.',
        })
        .optional(),
      preview: z
        .union([z.string(), z.null()])
        .openapi({
          description:
            "Optional: the part of the question the graders' queue shows for it (one line, at most 500 characters), for questions that open alike (the same context, then the question). Blank: the question's last paragraph. A file without the column keeps the stored one.",
        })
        .optional(),
      model: text("Name of the LLM that answered").optional(),
      repetition: numberOrText("Which of the N generated answers, 1..N").optional(),
      response: text("The model's answer").optional(),
      model_version: text("Optional model version; one per model name").optional(),
      temperature: numberOrText("Optional sampling temperature").optional(),
      top_p: numberOrText("Optional nucleus sampling top_p, 0..1").optional(),
    })
    .openapi({
      description:
        "One row. All question columns plus all answer columns: questions and answers. item_id + specialty, question, reference_answer: questions only. item_id + model, repetition, response: answers only, for items already imported.",
    }),
);

export const ImportRowError = registry.register(
  "ImportRowError",
  z.object({
    row: z.int().openapi({ description: "1-based data row (the first row under the header is 1; 0 is the header)" }),
    line: z.int().optional().openapi({ description: "CSV only: line of the file where the row starts (the header is line 1)" }),
    column: z.string().nullable(),
    message: z.string(),
  }),
);

export const ImportRejected = registry.register(
  "ImportRejected",
  z.object({
    error: z.string().openapi({ example: "3 problems in the file; nothing was imported" }),
    details: z.object({
      errors: z.array(ImportRowError).openapi({ description: "The first 1,000 problems, by row" }),
      total: z.int().openapi({ description: "How many problems in all" }),
    }),
  }),
);

const Counts = z.object({ created: z.int(), unchanged: z.int(), updated: z.int() });

export const ImportResult = registry.register(
  "ImportResult",
  z.object({
    kind: z.enum(["full", "questions", "answers"]),
    dryRun: z.boolean(),
    items: z.int().openapi({ description: "Distinct questions (item_id) in the file" }),
    responses: z.int().openapi({ description: "Distinct answers (item x model x repetition) in the file" }),
    responseSets: z.int().openapi({ description: "Distinct item x model sets in the file" }),
    created: z.int().openapi({ description: "Answers added" }),
    unchanged: z.int().openapi({ description: "Answers already present with the same text" }),
    updated: z.int().openapi({ description: "Answers whose text was replaced (only ungraded ones can be)" }),
    questions: Counts,
    responseSetsCreated: z.int(),
    modelsCreated: z.int(),
    specialtiesCreated: z.int(),
    duplicateRows: z.int().openapi({ description: "Rows repeating an earlier row exactly, counted once" }),
    incompleteSets: z
      .object({
        count: z.int(),
        examples: z.array(z.object({ itemId: z.string(), model: z.string(), repetitions: z.array(z.int()) })),
      })
      .openapi({ description: "Sets of the file without all N answers; they are not offered for grading until completed" }),
    modelMentions: z
      .object({
        answers: z.int(),
        terms: z.array(z.string()),
        byModel: z.array(
          z.object({
            model: z.string(),
            answers: z.int(),
            examples: z.array(z.object({ itemId: z.string(), repetition: z.int(), found: z.string(), excerpt: z.string() })),
          }),
        ),
      })
      .openapi({ description: "The study's answers that name a model, its version or one of the terms: graders would be unblinded by them" }),
    repetitions: z.int().openapi({ description: "The study's N" }),
  }),
);

registry.registerPath({
  method: "post",
  path: "/api/v1/studies/{id}/import",
  summary: "Import questions and model answers",
  description:
    "One long table, one row per answer: item_id, specialty, question, reference_answer, model, repetition, response (optional criteria, preview, model_version, temperature, top_p). A questions-only or answers-only table works too; the header tells which. CSV may be UTF-8 with or without BOM, comma, semicolon or tab separated, CRLF or LF, with quoted multi-line fields. A file with any problem writes nothing; importing the same file again changes nothing. Answers that already have grades cannot be changed. Body limit: IMPORT_MAX_BYTES (50 MB by default).",
  tags: ["Import"],
  request: {
    params: ImportParams,
    query: ImportQuery,
    body: {
      required: true,
      content: {
        "text/csv": { schema: z.string().openapi({ description: "CSV with a header row" }) },
        "application/json": { schema: z.array(ImportRow) },
      },
    },
  },
  responses: {
    200: { description: "Imported (or, with dryRun, what an import would do)", content: { "application/json": { schema: ImportResult } } },
    ...errorResponses(400, 401, 403, 404),
    ...uploadResponses({ conflict: "the study is closed, or the file would change questions or answers that already have grades (details list the rows)" }),
    415: { description: "Content-Type is not text/csv or application/json, or not UTF-8", content: { "application/json": { schema: ErrorBody } } },
    422: { description: "The file has problems; details list each with row, column and reason", content: { "application/json": { schema: ImportRejected } } },
  },
});

/** POST /api/v1/studies/{id}/redactions (lib/import/redaction.ts). */
export const redactionBody = registry.register(
  "Redaction",
  z
    .strictObject({
      find: lineText({ error: "find must be text" }).min(3, { error: "find is at least 3 characters" }).max(200, { error: "find is at most 200 characters" }),
      replace: lineText({ error: "replace must be text" }).max(200, { error: "replace is at most 200 characters" }).default("[redacted]"),
      model: lineText({ error: "model must be text" }).min(1).max(200).optional().meta({ description: "Only this model's answers" }),
      dryRun: z.boolean({ error: "dryRun must be true or false" }).default(false),
    })
    .meta({ description: "Replace a word or phrase, as a whole word in any case, in the study's answers" }),
);
export type RedactionInput = z.output<typeof redactionBody>;

export const RedactionResult = registry.register(
  "RedactionResult",
  z.object({
    dryRun: z.boolean(),
    answers: z.int().meta({ description: "Answers changed (or that would be)" }),
    examples: z.array(z.object({ itemId: z.string(), model: z.string(), repetition: z.int(), before: z.string(), after: z.string() })),
  }),
);
export type RedactionResultBody = z.infer<typeof RedactionResult>;

registry.registerPath({
  method: "post",
  path: "/api/v1/studies/{id}/redactions",
  summary: "Redact a word (a model's name, its product) from the study's answers before grading; audited",
  tags: ["Import"],
  request: { params: z.object({ id: z.uuid() }), body: { content: { "application/json": { schema: redactionBody } } } },
  responses: {
    200: { description: "What was (or would be) replaced", content: { "application/json": { schema: RedactionResult } } },
    ...errorResponses(400, 401, 403, 404, 409, 422),
  },
});
