import { getDb } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";
import { offsetOf, sortToState, type Page } from "@/lib/tables/search-params";
import type { GraderListQuery } from "./list-params";
import { likePattern } from "@/lib/tables/like";

export interface GraderRow {
  userId: string;
  name: string;
  email: string;
  /** The grader's specialties in this study. */
  specialties: string[];
  /** Membership of this study (false once the lead took them off it). */
  active: boolean;
  /** The account itself (an admin may have deactivated it everywhere). */
  accountActive: boolean;
  addedAt: Date;
  /** Load: this grader's assignments in this study, not counting cancelled ones, and how many are submitted. */
  assigned: number;
  submitted: number;
  /** The grader's own deadline in this study (YYYY-MM-DD), null: the study's. */
  deadline: string | null;
}

const SORT_SQL = {
  name: Prisma.sql`lower(u.name)`,
  email: Prisma.sql`u.email`,
  assigned: Prisma.sql`assigned`,
  submitted: Prisma.sql`submitted`,
  addedAt: Prisma.sql`m."addedAt"`,
} as const;

/**
 * One page of a study's graders with their load. The load is one grouped
 * count over the study's assignments (joined through ResponseSet, which
 * carries the study), so sorting by load stays in SQL.
 */
export async function listGraders(studyId: string, query: GraderListQuery): Promise<Page<GraderRow>> {
  const db = getDb();
  const conditions: Prisma.Sql[] = [Prisma.sql`m."studyId" = ${studyId}::uuid`, Prisma.sql`m.role = 'GRADER'`];
  if (query.active !== undefined) conditions.push(Prisma.sql`m.active = ${query.active}`);
  if (query.q) {
    const pattern = likePattern(query.q);
    conditions.push(Prisma.sql`(u.name ILIKE ${pattern} OR u.email ILIKE ${pattern})`);
  }
  const where = Prisma.join(conditions, " AND ");
  const { id: sortId, desc } = sortToState(query.sort);
  const dir = desc ? Prisma.sql`DESC` : Prisma.sql`ASC`;

  const [rows, counted] = await Promise.all([
    db.$queryRaw<Omit<GraderRow, "specialties">[]>`
      SELECT u.id AS "userId", u.name, u.email, m.active, u.active AS "accountActive", m."addedAt",
             COALESCE(l.assigned, 0)::int AS assigned, COALESCE(l.submitted, 0)::int AS submitted,
             to_char(m.deadline, 'YYYY-MM-DD') AS deadline
      FROM "StudyMember" m
      JOIN "User" u ON u.id = m."userId"
      LEFT JOIN (
        SELECT a."graderId",
               count(*) FILTER (WHERE a.status <> 'CANCELLED') AS assigned,
               count(*) FILTER (WHERE a.status = 'SUBMITTED') AS submitted
        FROM "Assignment" a JOIN "ResponseSet" rs ON rs.id = a."responseSetId"
        WHERE rs."studyId" = ${studyId}::uuid
        GROUP BY a."graderId"
      ) l ON l."graderId" = m."userId"
      WHERE ${where}
      ORDER BY ${SORT_SQL[sortId as keyof typeof SORT_SQL]} ${dir}, lower(u.name) ASC, u.id ASC
      LIMIT ${query.pageSize}::int OFFSET ${offsetOf(query.page, query.pageSize)}::int`,
    db.$queryRaw<{ total: number }[]>`
      SELECT count(*)::int AS total FROM "StudyMember" m JOIN "User" u ON u.id = m."userId" WHERE ${where}`,
  ]);

  const specialties = rows.length
    ? await db.studyMemberSpecialty.findMany({
        where: { studyId, userId: { in: rows.map((r) => r.userId) } },
        select: { userId: true, specialty: { select: { name: true } } },
        orderBy: { specialty: { name: "asc" } },
      })
    : [];
  const byUser = new Map<string, string[]>();
  for (const s of specialties) byUser.set(s.userId, [...(byUser.get(s.userId) ?? []), s.specialty.name]);

  return {
    rows: rows.map((r) => ({ ...r, specialties: byUser.get(r.userId) ?? [] })),
    total: counted[0]?.total ?? 0,
    page: query.page,
    pageSize: query.pageSize,
  };
}
