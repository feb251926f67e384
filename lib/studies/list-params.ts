import { z } from "zod";
import { booleanFilter, paginationFields, sortField, textFilter } from "@/lib/tables/search-params";
import { lineText } from "@/lib/validation/text";
import { STUDY_STATUSES } from "./settings";

/**
 * The query params of the three lead tables (studies, items, graders). Both
 * the REST endpoints (strict: 422 on a bad value) and the pages (lenient: a
 * bad value falls back to its default) read them with these schemas.
 */

export const STUDY_SORTS = ["name", "status", "createdAt", "items"] as const;
export const studyListQuerySchema = z.object({
  ...paginationFields(),
  sort: sortField(STUDY_SORTS, "-createdAt"),
  status: z
    .enum(STUDY_STATUSES, { error: "status must be DRAFT, OPEN or CLOSED" })
    .optional()
    .meta({ description: "only studies in this status" }),
  q: textFilter("search in the study name and slug"),
});
export type StudyListQuery = z.output<typeof studyListQuerySchema>;

export const ITEM_SORTS = ["externalId", "specialty", "question", "createdAt", "complete"] as const;
export const itemListQuerySchema = z.object({
  ...paginationFields(50),
  sort: sortField(ITEM_SORTS, "externalId"),
  specialty: lineText()
    .max(100, { error: "specialty is longer than 100 characters" })
    .optional()
    .transform((v) => (v ? v : undefined))
    .meta({ description: "only items of this specialty (exact name)" }),
  complete: booleanFilter("true: only items whose response sets all have N answers for every model; false: only the others"),
  q: textFilter("search in the question text and the external id"),
});
export type ItemListQuery = z.output<typeof itemListQuerySchema>;
