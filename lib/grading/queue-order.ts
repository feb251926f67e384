import { Prisma } from "@/lib/generated/prisma/client";

/**
 * The grader's order of work within a study, as an ORDER BY list over a row
 * alias with `kind`, `position` and `id`: third-grader sets first (each holds
 * up its set's final scores), then the grader's own random order. The queue's
 * numbers and the grading page's "Set n of N" both count in this order.
 */
export const queueOrderSql = (alias: string) => Prisma.raw(`(${alias}.kind = 'ADJUDICATOR') DESC, ${alias}.position, ${alias}.id`);

/** The same order as a row value, to compare places: a row comes before another when its key is smaller. */
export const queueKeySql = (alias: string) => Prisma.raw(`((${alias}.kind <> 'ADJUDICATOR'), ${alias}.position, ${alias}.id)`);
