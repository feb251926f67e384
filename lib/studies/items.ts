import { getDb } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";
import { offsetOf, sortToState, type Page } from "@/components/data-table/search-params";
import { likePattern } from "./like";
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
  externalId: Prisma.sql`i."externalId"`,
  specialty: Prisma.sql`lower(s.name)`,
  question: Prisma.sql`lower(i.question)`,
  createdAt: Prisma.sql`i."createdAt"`,
} as const;

/**
 * One page of a study's items with their models and completeness.
 *
 * Built for 10,000+ items: filtering, sorting, OFFSET/LIMIT and the total all
 * run in PostgreSQL; only the page's rows (and their few response sets) come
 * back. Completeness is computed in SQL per item only when the filter or the
 * sort needs it; otherwise it is derived for the page rows alone. A set counts
 * answers among repetitions 1..N through the (responseSetId, repetition)
 * unique index, and an item is complete when its number of complete sets
 * equals the number of models in the study.
 */
export async function listItems(study: { id: string; repetitions: number }, query: ItemListQuery): Promise<Page<ItemRow>> {
  const db = getDb();
  const n = study.repetitions;
  const models = await db.llmModel.findMany({ where: { studyId: study.id }, orderBy: { name: "asc" }, select: { id: true, name: true } });

  const completeSql = Prisma.sql`(${models.length}::int > 0 AND (
      SELECT count(*) FROM "ResponseSet" rs
      WHERE rs."itemId" = i.id
        AND (SELECT count(*) FROM "Response" r WHERE r."responseSetId" = rs.id AND r.repetition BETWEEN 1 AND ${n}::int) = ${n}::int
    ) = ${models.length}::int)`;

  const conditions: Prisma.Sql[] = [Prisma.sql`i."studyId" = ${study.id}::uuid`];
  if (query.specialty) conditions.push(Prisma.sql`s.name = ${query.specialty}`);
  if (query.q) {
    const pattern = likePattern(query.q);
    conditions.push(Prisma.sql`(i.question ILIKE ${pattern} OR i."externalId" ILIKE ${pattern})`);
  }
  if (query.complete !== undefined) conditions.push(query.complete ? completeSql : Prisma.sql`NOT ${completeSql}`);
  const where = Prisma.join(conditions, " AND ");

  const { id: sortId, desc } = sortToState(query.sort);
  const dir = desc ? Prisma.sql`DESC` : Prisma.sql`ASC`;
  const sortExpr = sortId === "complete" ? completeSql : SORT_SQL[sortId as keyof typeof SORT_SQL];

  const [rows, counted] = await Promise.all([
    db.$queryRaw<{ id: string; externalId: string; question: string; specialty: string }[]>`
      SELECT i.id, i."externalId", i.question, s.name AS specialty
      FROM "QaItem" i JOIN "Specialty" s ON s.id = i."specialtyId"
      WHERE ${where}
      ORDER BY ${sortExpr} ${dir}, i."externalId" ASC, i.id ASC
      LIMIT ${query.pageSize}::int OFFSET ${offsetOf(query.page, query.pageSize)}::int`,
    db.$queryRaw<{ total: number }[]>`
      SELECT count(*)::int AS total
      FROM "QaItem" i JOIN "Specialty" s ON s.id = i."specialtyId"
      WHERE ${where}`,
  ]);

  const sets = rows.length
    ? await db.responseSet.findMany({
        where: { itemId: { in: rows.map((r) => r.id) } },
        select: { itemId: true, modelId: true, _count: { select: { responses: { where: { repetition: { gte: 1, lte: n } } } } } },
      })
    : [];
  const reps = new Map(sets.map((s) => [`${s.itemId}:${s.modelId}`, s._count.responses]));

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
