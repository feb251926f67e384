import { auditInsertSql } from "@/lib/audit/record";
import { sql, type Sql } from "@/lib/db/sql";
import { Prisma } from "@/lib/generated/prisma/client";
import { seededShuffle } from "@/lib/random/seeded";
import { storedRubrics } from "@/lib/rubrics/study-rubrics";
import { graderFacingTitleSql } from "@/lib/studies/grader-title";
import { compareToExpected, storedExpected } from "./expected";

/**
 * Calibration (issue #35, item 1): where the study requires it, a grader's real work waits
 * (lib/grading/mine.ts) until they pass a round of calibration sets: at least the study's share of
 * the round's expected cells within tolerance. A failed round is recorded for the lead (audit
 * quality.calibration.fail, the quality page) and brings another round, with sets the grader has
 * not had while there are any.
 */

/**
 * Deals the grader a new calibration round when they have none open and have not passed:
 * `roundSize` calibration sets they have not had (seeded by grader and round), else the study's
 * calibration sets again. Returns the round dealt, or null.
 */
export async function dealCalibrationRound(tx: Sql, studyId: string, graderId: string): Promise<number | null> {
  const [s] = await tx.rows<{ passed: boolean; open: number; round: number; size: number; seed: string | null }>(Prisma.sql`
    SELECT m."calibrationPassedAt" IS NOT NULL AS passed,
           (SELECT count(*)::int FROM "QualityTask" t WHERE t."studyId" = m."studyId" AND t."graderId" = m."userId" AND t.purpose = 'CALIBRATION' AND t.status <> 'SUBMITTED' AND t.status <> 'CANCELLED') AS open,
           (SELECT coalesce(max(t.round), 0) FROM "QualityTask" t WHERE t."studyId" = m."studyId" AND t."graderId" = m."userId" AND t.purpose = 'CALIBRATION') AS round,
           st."calibrationRoundSize" AS size, st."assignmentSeed" AS seed
    FROM "StudyMember" m JOIN "Study" st ON st.id = m."studyId"
    WHERE m."studyId" = ${studyId}::uuid AND m."userId" = ${graderId}::uuid AND m.role = 'GRADER' AND m.active`);
  if (!s || s.passed || s.open > 0) return null;
  const sets = await tx.rows<{ id: string; had: boolean }>(Prisma.sql`
    SELECT qs."responseSetId" AS id, EXISTS (SELECT 1 FROM "QualityTask" t WHERE t."graderId" = ${graderId}::uuid AND t."responseSetId" = qs."responseSetId" AND t.purpose = 'CALIBRATION') AS had
    FROM "QualitySet" qs WHERE qs."studyId" = ${studyId}::uuid AND qs.purpose = 'CALIBRATION' ORDER BY qs."responseSetId"`);
  if (!sets.length) return null;
  const round = s.round + 1;
  const fresh = sets.filter((x) => !x.had);
  const pool = seededShuffle((fresh.length ? fresh : sets).map((x) => x.id), `${s.seed ?? ""}:calibration:${graderId}:${round}`);
  const chosen = pool.slice(0, Math.max(1, s.size));
  await tx.rows(Prisma.sql`
    INSERT INTO "QualityTask" (id, "studyId", "graderId", "responseSetId", purpose, round, position, "updatedAt")
    SELECT gen_random_uuid(), ${studyId}::uuid, ${graderId}::uuid, c.id, 'CALIBRATION', ${round}, c.ord::int, now()
    FROM unnest(${chosen}::uuid[]) WITH ORDINALITY AS c(id, ord)`);
  return round;
}

interface RoundCellRow {
  taskId: string;
  responseSetId: string;
  expected: unknown;
  tolerance: number;
  rationale: string;
  grades: { rubric: string; dimension: string; repetition: number; score: number | null }[] | null;
}

const roundCellsSql = (studyId: string, graderId: string, round: number) => Prisma.sql`
  SELECT t.id AS "taskId", t."responseSetId", qs.expected, qs.tolerance, qs.rationale,
         (SELECT json_agg(json_build_object('rubric', g.rubric, 'dimension', g.dimension, 'repetition', g.repetition, 'score', g.score))
            FROM "QualityGrade" g WHERE g."taskId" = t.id) AS grades
  FROM "QualityTask" t JOIN "QualitySet" qs ON qs."responseSetId" = t."responseSetId"
  WHERE t."studyId" = ${studyId}::uuid AND t."graderId" = ${graderId}::uuid AND t.purpose = 'CALIBRATION' AND t.round = ${round} AND t.status = 'SUBMITTED'
  ORDER BY t.position, t.id`;

/** Share of a round's expected cells within tolerance. */
function roundShare(rows: RoundCellRow[]): { within: number; n: number } {
  let within = 0;
  let n = 0;
  for (const r of rows) {
    for (const c of compareToExpected(storedExpected(r.expected), r.grades ?? [], r.tolerance)) {
      n++;
      if (c.within) within++;
    }
  }
  return { within, n };
}

/** After a calibration set is submitted (in its transaction): once the round is complete, pass or fail it. */
export async function afterCalibrationSubmit(tx: Sql, graderId: string, studyId: string, round: number, requestId?: string): Promise<void> {
  const [left] = await tx.rows<{ n: number; passShare: number }>(Prisma.sql`
    SELECT (SELECT count(*)::int FROM "QualityTask" t WHERE t."studyId" = ${studyId}::uuid AND t."graderId" = ${graderId}::uuid AND t.purpose = 'CALIBRATION'
              AND t.round = ${round} AND t.status IN ('PENDING', 'IN_PROGRESS')) AS n,
           st."calibrationPassShare" AS "passShare"
    FROM "Study" st WHERE st.id = ${studyId}::uuid`);
  if (!left || left.n > 0) return;
  const { within, n } = roundShare(await tx.rows<RoundCellRow>(roundCellsSql(studyId, graderId, round)));
  const share = n ? within / n : 0;
  const passed = n > 0 && share >= left.passShare;
  const event = auditInsertSql({
    actorId: graderId,
    action: passed ? "quality.calibration.pass" : "quality.calibration.fail",
    entityType: "StudyMember",
    entityId: graderId,
    studyId,
    after: { round, within, cells: n, share, passShare: left.passShare },
    requestId,
  });
  await tx.rows(event);
  if (passed) {
    await tx.rows(Prisma.sql`UPDATE "StudyMember" SET "calibrationPassedAt" = now() WHERE "studyId" = ${studyId}::uuid AND "userId" = ${graderId}::uuid`);
  } else {
    await dealCalibrationRound(tx, studyId, graderId);
  }
}

export interface CalibrationFeedback {
  studyId: string;
  /** The grader-facing title, never the study's name. */
  title: string;
  required: boolean;
  passed: boolean;
  passShare: number;
  rounds: {
    round: number;
    complete: boolean;
    share: number | null;
    passed: boolean;
    sets: { number: number; rationale: string; tolerance: number; cells: { rubric: string; dimension: string; dimensionName: string; repetition: number | null; score: number | null; expected: number; within: boolean }[] }[];
  }[];
}

/**
 * What a grader sees of their own calibration, per study that asks for it or dealt them some: per completed round and set, each dimension's
 * score, the expected one and the lead's rationale. Sets are numbered, never named; nothing of
 * another grader's is read.
 */
export async function myCalibrations(graderId: string): Promise<CalibrationFeedback[]> {
  const studies = await sql.rows<{ id: string; title: string; required: boolean; passShare: number; passed: boolean; rubrics: unknown; rounds: number }>(Prisma.sql`
    SELECT st.id, ${graderFacingTitleSql("st")} AS title, st."calibrationRequired" AS required, st."calibrationPassShare" AS "passShare", m."calibrationPassedAt" IS NOT NULL AS passed, st.rubrics,
           (SELECT coalesce(max(t.round), 0)::int FROM "QualityTask" t WHERE t."studyId" = st.id AND t."graderId" = ${graderId}::uuid AND t.purpose = 'CALIBRATION') AS rounds
    FROM "Study" st JOIN "StudyMember" m ON m."studyId" = st.id AND m."userId" = ${graderId}::uuid AND m.active AND m.role = 'GRADER'
    WHERE st.status IN ('OPEN', 'CLOSED')
      AND (st."calibrationRequired" OR EXISTS (SELECT 1 FROM "QualityTask" t WHERE t."studyId" = st.id AND t."graderId" = ${graderId}::uuid AND t.purpose = 'CALIBRATION'))
    ORDER BY st."openedAt" NULLS LAST, st.id`);
  const out: CalibrationFeedback[] = [];
  for (const st of studies) out.push(await feedbackOf(graderId, st));
  return out;
}

async function feedbackOf(graderId: string, st: { id: string; title: string; required: boolean; passShare: number; passed: boolean; rubrics: unknown; rounds: number }): Promise<CalibrationFeedback> {
  const studyId = st.id;
  const names = new Map(storedRubrics(st.rubrics).flatMap((r) => r.dimensions.map((d) => [`${r.key}/${d.key}`, d.name] as const)));
  const out: CalibrationFeedback = { studyId, title: st.title, required: st.required, passed: st.passed, passShare: st.passShare, rounds: [] };
  for (let round = 1; round <= st.rounds; round++) {
    const rows = await sql.rows<RoundCellRow>(roundCellsSql(studyId, graderId, round));
    const [open] = await sql.rows<{ n: number }>(Prisma.sql`SELECT count(*)::int AS n FROM "QualityTask" WHERE "studyId" = ${studyId}::uuid AND "graderId" = ${graderId}::uuid
      AND purpose = 'CALIBRATION' AND round = ${round} AND status IN ('PENDING', 'IN_PROGRESS')`);
    const complete = open.n === 0;
    // Expected scores are shown once the round is complete, so they cannot steer the round's own grading.
    if (!complete) {
      out.rounds.push({ round, complete, share: null, passed: false, sets: [] });
      continue;
    }
    const { within, n } = roundShare(rows);
    out.rounds.push({
      round,
      complete,
      share: n ? within / n : null,
      passed: n > 0 && within / n >= st.passShare,
      sets: rows.map((r, i) => ({
        number: i + 1,
        rationale: r.rationale,
        tolerance: r.tolerance,
        cells: compareToExpected(storedExpected(r.expected), r.grades ?? [], r.tolerance).map((c) => ({
          rubric: c.rubric,
          dimension: c.dimension,
          dimensionName: names.get(`${c.rubric}/${c.dimension}`) ?? c.dimension,
          repetition: c.repetition === 0 ? null : c.repetition,
          score: c.score,
          expected: c.expected,
          within: c.within,
        })),
      })),
    });
  }
  return out;
}
