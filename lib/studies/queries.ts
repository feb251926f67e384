import { getDb } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";
import type { CurrentUser } from "@/lib/server/current-user";
import { offsetOf, sortToState, type Page } from "@/lib/tables/search-params";
import type { StudyListQuery } from "./list-params";
import { likePattern } from "@/lib/tables/like";

/** Leads see the studies they lead; admins see all. Graders see none here. */
export function studyVisibilityFilter(user: Pick<CurrentUser, "id" | "role">): Prisma.StudyWhereInput {
  if (user.role === "ADMIN") return {};
  if (user.role === "LEAD") return { members: { some: { userId: user.id, role: "LEAD" } } };
  return { id: { in: [] } };
}

/** The same rule as studyVisibilityFilter, for raw SQL over "Study" s. */
export function studyVisibilitySql(user: Pick<CurrentUser, "id" | "role">): Prisma.Sql {
  if (user.role === "ADMIN") return Prisma.sql`TRUE`;
  if (user.role === "LEAD") {
    return Prisma.sql`EXISTS (SELECT 1 FROM "StudyMember" m WHERE m."studyId" = s.id AND m."userId" = ${user.id}::uuid AND m.role = 'LEAD')`;
  }
  return Prisma.sql`FALSE`;
}

export interface StudySummary {
  id: string;
  name: string;
  slug: string;
  status: "DRAFT" | "OPEN" | "CLOSED";
  /** The keys of the study's rubrics, and their names. */
  rubrics: string[];
  rubricNames: string[];
  repetitions: number;
  gradersPerSet: number;
  items: number;
  responseSets: number;
  createdAt: Date;
}

const SUMMARY_SELECT = {
  id: true,
  name: true,
  slug: true,
  status: true,
  rubrics: true,
  repetitions: true,
  gradersPerSet: true,
  createdAt: true,
  _count: { select: { items: true, responseSets: true } },
} satisfies Prisma.StudySelect;

type SummaryRow = Prisma.StudyGetPayload<{ select: typeof SUMMARY_SELECT }>;
const toSummary = ({ _count, rubrics, ...s }: SummaryRow): StudySummary => {
  const docs = Array.isArray(rubrics) ? (rubrics as { key?: unknown; name?: unknown }[]) : [];
  return { ...s, rubrics: docs.map((d) => String(d.key)), rubricNames: docs.map((d) => String(d.name)), items: _count.items, responseSets: _count.responseSets };
};

export async function listStudiesFor(user: Pick<CurrentUser, "id" | "role">): Promise<StudySummary[]> {
  const rows = await getDb().study.findMany({
    where: studyVisibilityFilter(user),
    orderBy: { createdAt: "desc" },
    select: SUMMARY_SELECT,
  });
  return rows.map(toSummary);
}

const STUDY_SORT_SQL = {
  // Names sort as people read them, whatever the database collation (C sorts "Zeta" before "alpha").
  name: Prisma.sql`lower(s.name)`,
  status: Prisma.sql`s.status`,
  createdAt: Prisma.sql`s."createdAt"`,
  items: Prisma.sql`(SELECT count(*) FROM "QaItem" i WHERE i."studyId" = s.id)`,
} as const;

/**
 * One page of the studies this user may see, filtered and sorted in SQL, with
 * the total from one count over the same filter; then the page's summaries in
 * one query. Ties break on id so pages never overlap or skip a row.
 */
export async function listStudiesPage(user: Pick<CurrentUser, "id" | "role">, query: StudyListQuery): Promise<Page<StudySummary>> {
  const conditions = [studyVisibilitySql(user)];
  if (query.status) conditions.push(Prisma.sql`s.status = ${query.status}::"StudyStatus"`);
  if (query.q) {
    const pattern = likePattern(query.q);
    conditions.push(Prisma.sql`(s.name ILIKE ${pattern} OR s.slug ILIKE ${pattern})`);
  }
  const where = Prisma.join(conditions, " AND ");
  const { id: sortId, desc } = sortToState(query.sort);
  const dir = desc ? Prisma.sql`DESC` : Prisma.sql`ASC`;
  const db = getDb();
  const [ids, counted] = await Promise.all([
    db.$queryRaw<{ id: string }[]>`
      SELECT s.id FROM "Study" s WHERE ${where}
      ORDER BY ${STUDY_SORT_SQL[sortId as keyof typeof STUDY_SORT_SQL]} ${dir}, s.id ASC
      LIMIT ${query.pageSize}::int OFFSET ${offsetOf(query.page, query.pageSize)}::int`,
    db.$queryRaw<{ total: number }[]>`SELECT count(*)::int AS total FROM "Study" s WHERE ${where}`,
  ]);
  const rows = ids.length ? await db.study.findMany({ where: { id: { in: ids.map((r) => r.id) } }, select: SUMMARY_SELECT }) : [];
  const byId = new Map(rows.map((r) => [r.id, toSummary(r)]));
  return {
    rows: ids.map((r) => byId.get(r.id)).filter((r): r is StudySummary => Boolean(r)),
    total: counted[0]?.total ?? 0,
    page: query.page,
    pageSize: query.pageSize,
  };
}
