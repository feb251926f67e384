import { z } from "zod";
import "@/lib/api/zod-openapi";
import { paginationFields } from "@/lib/tables/search-params";

/**
 * The grader queue's search params: one study at a time (its sets in the
 * grader's own order), a status filter and a page. Pure zod, read leniently
 * by the page (a hand-edited URL still shows the queue).
 */
export const QUEUE_STATUSES = ["todo", "draft", "submitted"] as const;
export type QueueStatus = (typeof QUEUE_STATUSES)[number];

export const QUEUE_STATUS_LABELS: Record<QueueStatus, string> = { todo: "To do", draft: "Draft", submitted: "Submitted" };

export const queueQuerySchema = z.object({
  ...paginationFields(25),
  study: z.uuid({ error: "study must be a study id" }).optional().meta({ description: "the study whose sets are listed (default: the first with work to do)" }),
  status: z
    .enum(QUEUE_STATUSES, { error: `status must be one of ${QUEUE_STATUSES.join(", ")}` })
    .optional()
    .meta({ description: "only sets in this state" }),
});
export type QueueQuery = z.output<typeof queueQuerySchema>;

/** "A", "B", … "Z", "AA", "AB"…: a neutral letter for the n-th (1-based) set of one question. */
export function setLetter(n: number): string {
  let s = "";
  for (let k = n; k > 0; k = Math.floor((k - 1) / 26)) s = String.fromCharCode(65 + ((k - 1) % 26)) + s;
  return s;
}
