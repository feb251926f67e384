import "@/lib/api/zod-openapi";
import { z } from "zod";
import { ErrorBody, errorResponses, registry, uploadResponses } from "@/lib/api/registry";
import { lineText } from "@/lib/validation/text";
import { DryRunFlag } from "@/lib/import/dry-run";
import { GradeImportMappingSchema } from "./mapping";

/** POST /api/v1/studies/{id}/grade-imports and the study's saved mappings. */

export const GradeImportMapping = registry.register("GradeImportMapping", GradeImportMappingSchema);

export const GradeImportQuery = z.object({
  dryRun: DryRunFlag.openapi({ description: "1: check the file and count what an import would create, writing nothing" }),
  mapping: lineText().max(100).optional().openapi({ description: "The name of a mapping saved for this study (instead of the form field mapping)" }),
});

export const GradeImportProblem = registry.register(
  "GradeImportProblem",
  z.object({
    sheet: z.string().nullable().openapi({ description: "The workbook's sheet; null for a CSV file" }),
    row: z.int().openapi({ description: "The spreadsheet's row number, or the CSV line (the header is 1)" }),
    column: z.string().nullable().openapi({ description: "The column's header" }),
    message: z.string(),
  }),
);

export const GradeImportRejected = registry.register(
  "GradeImportRejected",
  z.object({
    error: z.string().openapi({ example: "3 problems in the file; nothing was imported" }),
    details: z.object({ errors: z.array(GradeImportProblem).openapi({ description: "The first 1,000 problems" }), total: z.int() }),
  }),
);

export const GradeImportResult = registry.register(
  "GradeImportResult",
  z.object({
    dryRun: z.boolean(),
    items: z.int().openapi({ description: "Distinct items in the file" }),
    models: z.int(),
    raters: z.int(),
    grades: z.int().openapi({ description: "Distinct grades (item x model x repetition x rater x dimension) in the file" }),
    created: z.int().openapi({ description: "Grades written" }),
    unchanged: z.int().openapi({ description: "Grades already stored with the same value" }),
    new: z
      .object({ items: z.int(), models: z.int(), raters: z.int(), responseSets: z.int(), comparisons: z.int().optional().openapi({ description: "Pairwise studies: comparisons made for pairs not planned" }) })
      .openapi({ description: "What the import created besides grades" }),
    rows: z.int().openapi({ description: "Data rows read" }),
  }),
);

export const SavedMappingBody = registry.register(
  "SavedGradeImportMapping",
  z.strictObject({ name: lineText().trim().min(1).max(100), mapping: GradeImportMapping }),
);
export const SavedMappingList = z.object({
  mappings: z.array(z.object({ name: z.string(), mapping: GradeImportMapping, updatedAt: z.string() })),
});

const params = z.object({ id: z.uuid().openapi({ description: "The study" }) });

registry.registerPath({
  method: "post",
  path: "/api/v1/studies/{id}/grade-imports",
  summary: "Import grades made outside Clingrade",
  description:
    "Grades from a CSV or XLSX file: long format (item, model, repetition?, rater, dimension, score[, comment]; one row per grade) or wide format (one row per answer, one column per rater, one sheet per dimension). Send multipart/form-data with the file in the field `file` and the mapping (GradeImportMapping, JSON) in the field `mapping`, or a long CSV as the body with Content-Type text/csv (columns found by their names: item_id, model|system, repetition, rater, dimension|criterion, score, comment; or ?mapping=<saved name>). Each rater becomes a pseudonymous external grader of the study (no account: it cannot sign in and is never assigned work). Items, models and answer sets the study lacks are created (answers without text). Dimensions and levels come from the study's rubric. Imported grades are final as imported: the import triggers no escalation. All or nothing; importing the same file again changes nothing (`unchanged` counts it); a grade already stored with another value is a problem, never overwritten. On a study of the pairwise design the file is preferences instead: a long CSV body (text/csv) with the columns item_id, model_a, model_b, rater, axis, choice (a, b or tie) and optionally strength (slightly, clearly), one row per rater, pair and axis; `grades`, `created` and `unchanged` then count preferences. A pair already planned on the question is that comparison (its sides kept); otherwise one is made with model_a on the left. Body limit: IMPORT_MAX_BYTES (50 MB by default).",
  tags: ["Import"],
  request: {
    params,
    query: GradeImportQuery,
    body: {
      required: true,
      content: {
        "multipart/form-data": { schema: z.object({ file: z.string().openapi({ format: "binary" }), mapping: z.string().openapi({ description: "GradeImportMapping as JSON" }) }) },
        "text/csv": { schema: z.string().openapi({ description: "Long-format CSV with a header row" }) },
      },
    },
  },
  responses: {
    200: { description: "Imported (or, with dryRun, what an import would do)", content: { "application/json": { schema: GradeImportResult } } },
    ...errorResponses(400, 401, 403, 404),
    ...uploadResponses({ conflict: "the study is closed, or its rubric has no importable dimension" }),
    415: { description: "Neither multipart/form-data nor text/csv", content: { "application/json": { schema: ErrorBody } } },
    422: { description: "The file or the mapping has problems; details list each with sheet, row and column", content: { "application/json": { schema: GradeImportRejected } } },
  },
});

registry.registerPath({
  method: "get",
  path: "/api/v1/studies/{id}/grade-import-mappings",
  summary: "The grade-import mappings saved for the study",
  tags: ["Import"],
  request: { params },
  responses: { 200: { description: "Saved mappings", content: { "application/json": { schema: SavedMappingList } } }, ...errorResponses(401, 403, 404) },
});

registry.registerPath({
  method: "put",
  path: "/api/v1/studies/{id}/grade-import-mappings",
  summary: "Save (or replace) a named grade-import mapping for the study",
  tags: ["Import"],
  request: { params, body: { content: { "application/json": { schema: SavedMappingBody } } } },
  responses: { 200: { description: "Saved", content: { "application/json": { schema: SavedMappingBody } } }, ...errorResponses(400, 401, 403, 404, 422) },
});
