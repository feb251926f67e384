import { getDb } from "@/lib/db/client";
import { storedRubrics } from "@/lib/rubrics/study-rubrics";
import { storedThresholds } from "@/lib/studies/thresholds";
import type { LoadedAssignment, LoadedSet, LoadedStudy } from "./assemble";
import { cellCodeSql, cellLayout, packedCellsWhere } from "./grader-cells";

/**
 * Reads everything the dashboard needs in five SQL statements, in one
 * REPEATABLE READ transaction (one snapshot, so a set's status and its grades
 * always agree): the study's settings, its models, its response sets (ordered as
 * computeSetResults orders them, which keeps the seeded bootstrap identical),
 * every non-cancelled assignment with its grades packed into one integer array
 * (grader-cells.ts), and the study's graders. A 10,000-set study is ~40,000 small
 * rows instead of half a million Grade objects.
 */

const SETS_SQL = `
SELECT rs.id::text AS id, rs.status::text AS status, i.id::text AS "itemId", i."externalId" AS "externalId",
       sp.name AS specialty, m.id::text AS "modelId", m.name AS model, m.version AS version
FROM "ResponseSet" rs
JOIN "QaItem" i ON i.id = rs."itemId"
JOIN "Specialty" sp ON sp.id = i."specialtyId"
JOIN "LlmModel" m ON m.id = rs."modelId"
WHERE rs."studyId" = $1::uuid
ORDER BY i."externalId" ASC, m.name ASC`;

const ASSIGNMENTS_SQL = `
SELECT a."responseSetId"::text AS s, a."graderId"::text AS g, a.kind::text AS k, a.status::text AS st,
       CASE WHEN a.status = 'SUBMITTED'
            THEN (SELECT array_agg(${cellCodeSql("gr", "$2", "$3")}) FROM "Grade" gr WHERE gr."assignmentId" = a.id AND ${packedCellsWhere("gr")})
       END AS c
FROM "Assignment" a
JOIN "ResponseSet" rs ON rs.id = a."responseSetId"
WHERE rs."studyId" = $1::uuid AND a.status <> 'CANCELLED'`;

const GRADERS_SQL = `
SELECT u.id::text AS id, u.name AS name, (sm.active AND (u.active OR u."externalStudyId" IS NOT NULL)) AS active, u."externalStudyId" IS NOT NULL AS external
FROM "StudyMember" sm JOIN "User" u ON u.id = sm."userId"
WHERE sm."studyId" = $1::uuid AND sm.role = 'GRADER'`;

const MODELS_SQL = `SELECT name FROM "LlmModel" WHERE "studyId" = $1::uuid`;

type SetRow = { id: string; status: LoadedSet["status"]; itemId: string; externalId: string; specialty: string; modelId: string; model: string; version: string };
type AssignmentRow = { s: string; g: string; k: LoadedAssignment["kind"]; st: LoadedAssignment["status"]; c: number[] | null };

export async function loadStudy(studyId: string): Promise<LoadedStudy | null> {
  const db = getDb();
  // The layout of the packed cells comes from the study's rubrics, read first (they are frozen once grading starts).
  const head = await db.study.findUnique({ where: { id: studyId }, select: { rubrics: true } });
  if (!head) return null;
  const layout = cellLayout(storedRubrics(head.rubrics));
  const [, study, models, sets, assignments, graders] = await db.$transaction(
    [
      // JIT compilation costs more than these queries run (about 0.9 s on a 10,000-set study, for a ~0.1 s scan).
      db.$executeRawUnsafe("SET LOCAL jit = off"),
      db.study.findUnique({
        where: { id: studyId },
        select: { id: true, name: true, slug: true, status: true, rubrics: true, repetitions: true, gradersPerSet: true, safeLlmScoring: true, thresholds: true },
      }),
      db.$queryRawUnsafe<{ name: string }[]>(MODELS_SQL, studyId),
      db.$queryRawUnsafe<SetRow[]>(SETS_SQL, studyId),
      db.$queryRawUnsafe<AssignmentRow[]>(ASSIGNMENTS_SQL, studyId, layout.keys, layout.nominalLevels),
      db.$queryRawUnsafe<{ id: string; name: string; active: boolean; external: boolean }[]>(GRADERS_SQL, studyId),
    ],
    { isolationLevel: "RepeatableRead", timeout: 120_000, maxWait: 30_000 },
  );
  if (!study) return null;
  const rubrics = storedRubrics(study.rubrics);
  return {
    study: { ...study, rubrics, thresholds: storedThresholds(study.thresholds, rubrics) },
    layout: cellLayout(rubrics),
    models: models.map((m) => m.name),
    sets: sets.map((s) => ({ id: s.id, itemId: s.itemId, externalId: s.externalId, specialty: s.specialty, status: s.status, model: { id: s.modelId, name: s.model, version: s.version } })),
    assignments: assignments.map((a) => ({ setId: a.s, graderId: a.g, kind: a.k, status: a.st, cells: a.c })),
    graders,
  };
}
