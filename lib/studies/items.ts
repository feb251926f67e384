import { getDb } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";
import { offsetOf, sortToState, type Page } from "@/lib/tables/search-params";
import { likePattern } from "@/lib/tables/like";
import type { ItemListQuery } from "./list-params";

export interface ItemModelReps {
  modelId: string;
  model: string;
  /** Answers present among repetitions 1..N (0 when the item has no set for this model). */
  repetitions: number;
}

export interface ItemRow {
  id: string;
  externalId: string;
  specialty: string;
  question: string;
  models: ItemModelReps[];
  /** Every model of the study has a response set for this item holding all N answers. */
  complete: boolean;
}

const SORT_SQL = {
  specialty: Prisma.sql`lower(s.name)`,
  question: Prisma.sql`lower(i.question)`,
  createdAt: Prisma.sql`i."createdAt"`,
} as const;

/**
 * Response sets of a study that hold all N answers (repetitions 1..N), by
 * one hash aggregate over the study's answers rather than a lookup per set.
 */
export function completeSetsSql(studyId: string, n: number): Prisma.Sql {
  return Prisma.sql`
    SELECT rs.id, rs."itemId" FROM "ResponseSet" rs
    JOIN "Response" r ON r."responseSetId" = rs.id AND r.repetition BETWEEN 1 AND ${n}::int
    WHERE rs."studyId" = ${studyId}::uuid
    GROUP BY rs.id, rs."itemId"
    HAVING count(*) = ${n}::int`;
}

/**
 * One page of a study's items with their models and completeness.
 *
 * Built for 10,000+ items: filtering, sorting, OFFSET/LIMIT and the total all
 * run in PostgreSQL; only the page's rows (and their few response sets) come
 * back. An item is complete when every model of the study has a set for it
 * holding all N answers. That is computed for the whole study (one hash
 * aggregate over its answers) only when the filter or the sort needs it;
 * otherwise it is derived for the page's rows alone.
 */
export async function listItems(study: { id: string; repetitions: number }, query: ItemListQuery): Promise<Page<ItemRow>> {
  const db = getDb();
  const n = study.repetitions;
  const models = await db.llmModel.findMany({ where: { studyId: study.id }, orderBy: { name: "asc" }, select: { id: true, name: true } });

  const { id: sortId, desc } = sortToState(query.sort);
  const needComplete = query.complete !== undefined || sortId === "complete";
  // Each model's set holds at most N answers among repetitions 1..N (the repetition is unique within a set),
  // and an item has at most one set per model, so "N x models answers" means every set is complete.
  const withComplete = needComplete
    ? Prisma.sql`WITH complete_items AS (
        SELECT rs."itemId" FROM "ResponseSet" rs
        JOIN "Response" r ON r."responseSetId" = rs.id AND r.repetition BETWEEN 1 AND ${n}::int
        WHERE rs."studyId" = ${study.id}::uuid
        GROUP BY rs."itemId"
        HAVING count(*) = ${n * models.length}::int AND ${models.length}::int > 0
      )`
    : Prisma.empty;
  const joinComplete = needComplete ? Prisma.sql`LEFT JOIN complete_items ci ON ci."itemId" = i.id` : Prisma.empty;
  const isComplete = Prisma.sql`(ci."itemId" IS NOT NULL)`;

  const conditions: Prisma.Sql[] = [Prisma.sql`i."studyId" = ${study.id}::uuid`];
  if (query.specialty) conditions.push(Prisma.sql`s.name = ${query.specialty}`);
  if (query.q) {
    const pattern = likePattern(query.q);
    conditions.push(Prisma.sql`(i.question ILIKE ${pattern} OR i."externalId" ILIKE ${pattern})`);
  }
  if (query.complete !== undefined) conditions.push(query.complete ? isComplete : Prisma.sql`NOT ${isComplete}`);
  const where = Prisma.join(conditions, " AND ");

  const dir = desc ? Prisma.sql`DESC` : Prisma.sql`ASC`;
  // externalId is unique within a study, so it settles every tie (and by itself lets the (studyId, externalId) index serve the default order).
  const orderBy =
    sortId === "externalId"
      ? Prisma.sql`i."externalId" ${dir}`
      : Prisma.sql`${sortId === "complete" ? isComplete : SORT_SQL[sortId as keyof typeof SORT_SQL]} ${dir}, i."externalId" ASC`;

  const [rows, counted] = await Promise.all([
    db.$queryRaw<{ id: string; externalId: string; question: string; specialty: string }[]>`
      ${withComplete}
      SELECT i.id, i."externalId", i.question, s.name AS specialty
      FROM "QaItem" i JOIN "Specialty" s ON s.id = i."specialtyId" ${joinComplete}
      WHERE ${where}
      ORDER BY ${orderBy}
      LIMIT ${query.pageSize}::int OFFSET ${offsetOf(query.page, query.pageSize)}::int`,
    db.$queryRaw<{ total: number }[]>`
      ${withComplete}
      SELECT count(*)::int AS total
      FROM "QaItem" i JOIN "Specialty" s ON s.id = i."specialtyId" ${joinComplete}
      WHERE ${where}`,
  ]);

  // Raw SQL: Prisma's filtered _count was ten times slower here.
  const sets = rows.length
    ? await db.$queryRaw<{ itemId: string; modelId: string; answers: number }[]>`
        SELECT rs."itemId", rs."modelId", count(r.id)::int AS answers
        FROM "ResponseSet" rs
        LEFT JOIN "Response" r ON r."responseSetId" = rs.id AND r.repetition BETWEEN 1 AND ${n}::int
        WHERE rs."itemId" = ANY(${rows.map((r) => r.id)}::uuid[])
        GROUP BY rs."itemId", rs."modelId"`
    : [];
  const reps = new Map(sets.map((s) => [`${s.itemId}:${s.modelId}`, s.answers]));

  return {
    rows: rows.map((r) => {
      const perModel = models.map((m) => ({ modelId: m.id, model: m.name, repetitions: reps.get(`${r.id}:${m.id}`) ?? 0 }));
      return { ...r, models: perModel, complete: perModel.length > 0 && perModel.every((m) => m.repetitions === n) };
    }),
    total: counted[0]?.total ?? 0,
    page: query.page,
    pageSize: query.pageSize,
  };
}

/** The specialties that occur in a study's items, for the table's filter (uses the (studyId, specialtyId) index). */
export async function itemSpecialties(studyId: string): Promise<string[]> {
  const rows = await getDb().$queryRaw<{ name: string }[]>`
    SELECT s.name FROM "Specialty" s
    WHERE s.id IN (SELECT DISTINCT i."specialtyId" FROM "QaItem" i WHERE i."studyId" = ${studyId}::uuid)
    ORDER BY s.name`;
  return rows.map((r) => r.name);
}
