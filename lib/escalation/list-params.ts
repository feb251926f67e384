import { z } from "zod";
import { paginationFields, sortField } from "@/lib/tables/search-params";
import { lineText } from "@/lib/validation/text";

export const ESCALATION_SORTS = ["externalId", "specialty", "status", "age"] as const;
export const escalationPageQuerySchema = z.object({
  ...paginationFields(25),
  sort: sortField(ESCALATION_SORTS, "-age"),
  status: z.enum(["NEEDS_GRADER", "ASSIGNED", "RESOLVED", "CANCELLED"]).optional(),
  specialty: lineText().min(1).max(200).optional(),
});

export const RESULT_SORTS = ["externalId", "specialty", "model", "status"] as const;
/** A final score column of the Results tab: t.<rubric>.<total> or d.<rubric>.<dimension> (lib/results/table.ts). */
export const RESULT_SCORE_COLUMN = /^[td]\.[A-Za-z][A-Za-z0-9_]{0,62}\.[a-z][a-z0-9_]{0,62}$/;
export const resultPageQuerySchema = z.object({
  ...paginationFields(25),
  sort: z
    .string()
    .refine((v) => (RESULT_SORTS as readonly string[]).includes(v.replace(/^-/, "")) || RESULT_SCORE_COLUMN.test(v.replace(/^-/, "")), {
      error: `sort must be one of ${RESULT_SORTS.join(", ")}, t.<rubric>.<total> or d.<rubric>.<dimension>, optionally prefixed with - for descending`,
    })
    .default("externalId")
    .meta({ description: "column to sort by; prefix with - for descending" }),
  /** One final value to keep: <rubric>.<dimension>=<level value>, or =na for N/A. */
  final: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9_]{0,62}\.[a-z][a-z0-9_]{0,62}=(-?\d{1,4}|[a-z][a-z0-9_]{0,62})$/, { error: "final is <rubric>.<dimension>=<level value> or =na" })
    .optional()
    .meta({ description: "Only sets whose final value of a dimension is this level (na: not applicable)" }),
  status: z.enum(["AWAITING_GRADES", "AGREED", "AWAITING_ADJUDICATION", "ADJUDICATED"]).optional(),
  specialty: lineText().min(1).max(200).optional(),
  /** "flagged": only sets on which a grader raised a potential-harm flag. */
  harm: z.enum(["flagged"]).optional(),
});

/** Sorts and slices rows in memory: these lists hold one row per response set at most. */
export function pageOf<T>(rows: T[], key: (r: T) => string | number | null, sort: string, page: number, pageSize: number) {
  const desc = sort.startsWith("-");
  const sorted = [...rows].sort((a, b) => {
    const x = key(a);
    const y = key(b);
    if (x === y) return 0;
    if (x === null) return 1;
    if (y === null) return -1;
    return (x < y ? -1 : 1) * (desc ? -1 : 1);
  });
  return { rows: sorted.slice((page - 1) * pageSize, page * pageSize), total: rows.length, page, pageSize };
}
