import { z } from "zod";
import { paginationFields, sortField } from "@/lib/tables/search-params";
import { harmReviewStatus } from "@/lib/harm/contract";

export const HARM_SORTS = ["externalId", "grader", "flaggedAt"] as const;
export const harmPageQuerySchema = z.object({
  ...paginationFields(25),
  sort: sortField(HARM_SORTS, "-flaggedAt"),
  review: harmReviewStatus.optional(),
});
