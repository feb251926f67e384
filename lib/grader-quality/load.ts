import { Prisma } from "@/lib/generated/prisma/client";
import { cellCodeSql, cellLayout, codesFromBytes, decodeRows, packedCellsWhere } from "@/lib/analytics/grader-cells";
import type { Sql } from "@/lib/db/sql";
import { storedRubrics } from "@/lib/rubrics/study-rubrics";
import type { CellLayout } from "@/lib/analytics/grader-cells";
import type { QualityGrader, QualityWork } from "./compute";
import { loadQualityTasks, type QualityTaskRows } from "@/lib/quality-tasks/figures";

/**
 * Reads what the grader-quality signals need in three statements: the study's rubrics (for the
 * packing layout), every submitted primary assignment with its server-measured time and its
 * ordinal grades packed into integers (lib/analytics/grader-cells.ts: one small row per set and
 * grader, not one per grade), and the study's graders with their exclusion.
 */
const workSql = (studyId: string, keys: string[], levels: string[]) => Prisma.sql`
  SELECT a."graderId"::text AS g, a."responseSetId"::text AS s,
         (extract(epoch FROM coalesce(a."submittedAt", a."updatedAt")) * 1000)::float8 AS t,
         a."timeSpentMs"::float8 AS ms,
         (SELECT string_agg(int4send(${cellCodeSql("gr", Prisma.sql`${keys}::text[]`, Prisma.sql`${levels}::text[]`)}), ''::bytea)
            FROM "Grade" gr WHERE gr."assignmentId" = a.id AND gr.score IS NOT NULL AND NOT gr.na AND ${packedCellsWhere("gr")}) AS c
  FROM "Assignment" a
  WHERE a."studyId" = ${studyId}::uuid AND a.kind = 'PRIMARY' AND a.status = 'SUBMITTED'`;

const gradersSql = (studyId: string) => Prisma.sql`
  SELECT u.id::text AS id, u.name, (sm.active AND (u.active OR u."externalStudyId" IS NOT NULL)) AS active,
         sm."excludedAt" AS "excludedAt", sm."excludedById"::text AS "excludedById", ex.name AS "excludedByName", sm."excludedReason" AS "excludedReason"
  FROM "StudyMember" sm JOIN "User" u ON u.id = sm."userId" LEFT JOIN "User" ex ON ex.id = sm."excludedById"
  WHERE sm."studyId" = ${studyId}::uuid AND sm.role = 'GRADER'
  ORDER BY u.name, u.id`;

type GraderRowDb = { id: string; name: string; active: boolean; excludedAt: Date | null; excludedById: string | null; excludedByName: string | null; excludedReason: string | null };

export interface LoadedQuality {
  layout: CellLayout;
  graders: QualityGrader[];
  work: QualityWork[];
  /** Gold, re-grade and calibration rows (lib/quality-tasks/figures.ts). */
  tasks: QualityTaskRows;
}

/** Null when the study does not exist. `db` runs the statements (one snapshot: a transaction or an export session). */
export async function loadQuality(db: Sql, studyId: string): Promise<LoadedQuality | null> {
  const [study] = await db.rows<{ rubrics: unknown }>(Prisma.sql`SELECT rubrics FROM "Study" WHERE id = ${studyId}::uuid`);
  if (!study) return null;
  const layout = cellLayout(storedRubrics(study.rubrics));
  const raw = await db.rows<{ g: string; s: string; t: number; ms: number; c: Buffer | null }>(workSql(studyId, layout.keys, layout.nominalLevels));
  const rows = decodeRows(layout, raw.map((r) => (r.c ? codesFromBytes(r.c) : [])));
  const work = raw.map((r, i): QualityWork => ({ grader: r.g, set: r.s, at: r.t, timeMs: r.ms, row: rows[i] }));
  const graders = (await db.rows<GraderRowDb>(gradersSql(studyId))).map(
    (g): QualityGrader => ({
      id: g.id,
      name: g.name,
      active: g.active,
      excluded: g.excludedAt ? { at: new Date(g.excludedAt).toISOString(), by: g.excludedById, byName: g.excludedByName, reason: g.excludedReason } : null,
    }),
  );
  // A former member whose work is still in the study is shown too.
  const known = new Set(graders.map((g) => g.id));
  for (const w of work) {
    if (known.has(w.grader)) continue;
    known.add(w.grader);
    graders.push({ id: w.grader, name: "Former grader", active: false, excluded: null });
  }
  return { layout, graders, work, tasks: await loadQualityTasks(db, studyId) };
}
