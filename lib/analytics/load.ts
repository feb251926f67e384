import { sqlTransaction } from "@/lib/db/sql";
import { Prisma } from "@/lib/generated/prisma/client";
import { storedRubrics } from "@/lib/rubrics/study-rubrics";
import { storedEscalationRules, storedThresholds } from "@/lib/studies/thresholds";
import { graderRecordOf, type LoadedAssignment, type LoadedSet, type LoadedStudy } from "./assemble";
import { excludedGradersSql } from "@/lib/results/exclusion";
import { cellCodeSql, cellLayout, codesFromBytes, decodeRow, packedCellsWhere } from "./grader-cells";

/**
 * Reads everything the dashboard needs in five SQL statements, in one
 * REPEATABLE READ transaction (one snapshot, so a set's status and its grades
 * always agree): the study's settings, its models, its response sets (ordered as
 * computeSetResults orders them, which keeps the seeded bootstrap identical),
 * every non-cancelled assignment with its grades packed into integers
 * (grader-cells.ts), and the study's graders. A 10,000-set study is ~40,000 small
 * rows instead of half a million Grade objects. The read goes through pg
 * directly (lib/db/sql.ts), without Prisma's conversion of every value.
 */

type StudyRow = Omit<LoadedStudy["study"], "rubrics" | "thresholds" | "escalationRules"> & { rubrics: unknown; thresholds: unknown; escalationRules: unknown };
type SetRow = { id: string; status: LoadedSet["status"]; itemId: string; externalId: string; specialty: string; modelId: string; model: string; version: string };
/** `c`: the packed codes one after another, 4 bytes each (int4send), for a submitted assignment. */
type AssignmentRow = { s: string; g: string; k: LoadedAssignment["kind"]; st: LoadedAssignment["status"]; c: Buffer | null };

const studySql = (studyId: string) => Prisma.sql`
  SELECT id::text AS id, name, slug, status::text AS status, rubrics, repetitions, "gradersPerSet", "safeLlmScoring"::text AS "safeLlmScoring", thresholds, "escalationRules"
  FROM "Study" WHERE id = ${studyId}::uuid`;

const modelsSql = (studyId: string) => Prisma.sql`SELECT name FROM "LlmModel" WHERE "studyId" = ${studyId}::uuid`;

const setsSql = (studyId: string) => Prisma.sql`
  SELECT rs.id::text AS id, rs.status::text AS status, i.id::text AS "itemId", i."externalId" AS "externalId",
         sp.name AS specialty, m.id::text AS "modelId", m.name AS model, m.version AS version
  FROM "ResponseSet" rs
  JOIN "QaItem" i ON i.id = rs."itemId"
  JOIN "Specialty" sp ON sp.id = i."specialtyId"
  JOIN "LlmModel" m ON m.id = rs."modelId"
  WHERE rs."studyId" = ${studyId}::uuid
  ORDER BY i."externalId" ASC, m.name ASC`;

// The codes travel as bytes: decoding them costs a fraction of parsing an integer array's text.
const assignmentsSql = (studyId: string, keys: string[], levels: string[]) => Prisma.sql`
  SELECT a."responseSetId"::text AS s, a."graderId"::text AS g, a.kind::text AS k, a.status::text AS st,
         CASE WHEN a.status = 'SUBMITTED'
              THEN (SELECT string_agg(int4send(${cellCodeSql("gr", Prisma.sql`${keys}::text[]`, Prisma.sql`${levels}::text[]`)}), ''::bytea)
                    FROM "Grade" gr WHERE gr."assignmentId" = a.id AND ${packedCellsWhere("gr")})
         END AS c
  FROM "Assignment" a
  JOIN "ResponseSet" rs ON rs.id = a."responseSetId"
  WHERE rs."studyId" = ${studyId}::uuid AND a.status <> 'CANCELLED'`;

const gradersSql = (studyId: string) => Prisma.sql`
  SELECT u.id::text AS id, u.name AS name, (sm.active AND (u.active OR u."externalStudyId" IS NOT NULL)) AS active, u."externalStudyId" IS NOT NULL AS external
  FROM "StudyMember" sm JOIN "User" u ON u.id = sm."userId"
  WHERE sm."studyId" = ${studyId}::uuid AND sm.role = 'GRADER'`;

export async function loadStudy(studyId: string): Promise<LoadedStudy | null> {
  return sqlTransaction(
    async (tx) => {
      // JIT compilation costs more than these queries run (about 0.9 s on a 10,000-set study, for a ~0.1 s scan).
      await tx.rows(Prisma.sql`SET LOCAL jit = off`);
      const [study] = await tx.rows<StudyRow>(studySql(studyId));
      if (!study) return null;
      // The layout of the packed cells comes from the study's rubrics (frozen once grading starts).
      const rubrics = storedRubrics(study.rubrics);
      const layout = cellLayout(rubrics);
      const models = await tx.rows<{ name: string }>(modelsSql(studyId));
      const sets = await tx.rows<SetRow>(setsSql(studyId));
      // Each submitted assignment is decoded and scored as its row arrives, while the database
      // still packs the others: that work then costs no time of its own.
      const assignments: LoadedAssignment[] = [];
      const scoring = { rubrics, repetitions: study.repetitions };
      await tx.each<AssignmentRow>(assignmentsSql(studyId, layout.keys, layout.nominalLevels), (a) => {
        const cells = a.c ? codesFromBytes(a.c) : null;
        const row: LoadedAssignment = { setId: a.s, graderId: a.g, kind: a.k, status: a.st, cells };
        if (a.st === "SUBMITTED") row.record = graderRecordOf(scoring, decodeRow(layout, cells ?? []));
        assignments.push(row);
      });
      const graders = await tx.rows<{ id: string; name: string; active: boolean; external: boolean }>(gradersSql(studyId));
      const excluded = await tx.rows<{ id: string }>(excludedGradersSql(studyId));
      return {
        study: { ...study, rubrics, thresholds: storedThresholds(study.thresholds, rubrics), escalationRules: storedEscalationRules(study.escalationRules, rubrics) },
        layout,
        models: models.map((m) => m.name),
        sets: sets.map((s) => ({ id: s.id, itemId: s.itemId, externalId: s.externalId, specialty: s.specialty, status: s.status, model: { id: s.modelId, name: s.model, version: s.version } })),
        assignments,
        graders,
        excluded: new Set(excluded.map((x) => x.id)),
      };
    },
    { snapshot: true },
  );
}
