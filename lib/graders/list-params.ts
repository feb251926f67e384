import { z } from "zod";
import { booleanFilter, paginationFields, sortField, textFilter } from "@/lib/tables/search-params";

/** The query params of a study's graders table (REST: strict; page: lenient), as the other lead tables' in lib/studies/list-params.ts. */
export const GRADER_SORTS = ["name", "email", "assigned", "submitted", "addedAt"] as const;
export const graderListQuerySchema = z.object({
  ...paginationFields(),
  sort: sortField(GRADER_SORTS, "name"),
  active: booleanFilter("true: only graders whose membership is active; false: only deactivated ones"),
  q: textFilter("search in grader name and email"),
});
export type GraderListQuery = z.output<typeof graderListQuerySchema>;
