/**
 * Gold accuracy and intra-rater reliability per grader and dimension (issue #35, items 2-3), from
 * the quality tasks alone (QualityTask / QualityGrade): one read in the report's snapshot, then
 * pure code over lib/stats/grader-quality.ts.
 *
 * Gold: each submitted gold task's ordinal scores against the set's expected scores (cells the
 * grader answered N/A are skipped, as everywhere in the quality report). Intra-rater: each
 * submitted re-grade against the grader's own first grading of the same cells (same answer, its
 * own repetition, whatever its place on the page); the study's pooled figure puts every grader's
 * pairs of a dimension together, as published re-grading studies report a single figure.
 */
import type { Sql } from "@/lib/db/sql";
import { Prisma } from "@/lib/generated/prisma/client";
import { goldAccuracy, intraRater, type GoldCell } from "@/lib/stats/grader-quality";
import type { Interval } from "@/lib/stats/types";
import { storedExpected } from "./expected";

interface GoldRow {
  g: string;
  s: string;
  expected: unknown;
  tolerance: number;
  grades: { rubric: string; dimension: string; repetition: number; score: number }[] | null;
}
interface PairRow {
  g: string;
  rubric: string;
  dimension: string;
  first: number;
  second: number;
}
interface CalibrationRow {
  g: string;
  passedAt: Date | null;
  rounds: number;
  failed: number;
}

export interface QualityTaskRows {
  gold: GoldRow[];
  pairs: PairRow[];
  calibration: CalibrationRow[];
}

/** The rows, in the caller's snapshot. */
export async function loadQualityTasks(db: Sql, studyId: string): Promise<QualityTaskRows> {
  const gold = await db.rows<GoldRow>(Prisma.sql`
    SELECT t."graderId"::text AS g, t.id::text AS s, qs.expected, qs.tolerance,
           (SELECT json_agg(json_build_object('rubric', q.rubric, 'dimension', q.dimension, 'repetition', q.repetition, 'score', q.score))
              FROM "QualityGrade" q WHERE q."taskId" = t.id AND q.score IS NOT NULL AND NOT q.na) AS grades
    FROM "QualityTask" t JOIN "QualitySet" qs ON qs."responseSetId" = t."responseSetId"
    WHERE t."studyId" = ${studyId}::uuid AND t.purpose = 'GOLD' AND t.status = 'SUBMITTED'`);
  const pairs = await db.rows<PairRow>(Prisma.sql`
    SELECT t."graderId"::text AS g, q.rubric, q.dimension, g.score AS first, q.score AS second
    FROM "QualityTask" t
    JOIN "Assignment" a ON a.id = t."sourceAssignmentId" AND a.status = 'SUBMITTED'
    JOIN "QualityGrade" q ON q."taskId" = t.id AND q.score IS NOT NULL AND NOT q.na
    JOIN "Grade" g ON g."assignmentId" = a.id AND g.rubric = q.rubric AND g.dimension = q.dimension AND g.repetition = q.repetition
                  AND g.criterion = q.criterion AND g.score IS NOT NULL AND NOT g.na
    WHERE t."studyId" = ${studyId}::uuid AND t.purpose = 'REGRADE' AND t.status = 'SUBMITTED'`);
  const calibration = await db.rows<CalibrationRow>(Prisma.sql`
    SELECT m."userId"::text AS g, m."calibrationPassedAt" AS "passedAt",
           (SELECT coalesce(max(t.round), 0)::int FROM "QualityTask" t WHERE t."studyId" = m."studyId" AND t."graderId" = m."userId" AND t.purpose = 'CALIBRATION') AS rounds,
           -- Every complete round was judged once (afterCalibrationSubmit), and only the last can have passed: read from the
           -- tasks rather than the audit trail, so that a study imported from its archive has the same figure.
           greatest(0, (SELECT count(*)::int FROM (SELECT 1 FROM "QualityTask" t WHERE t."studyId" = m."studyId" AND t."graderId" = m."userId" AND t.purpose = 'CALIBRATION'
                          GROUP BY t.round HAVING bool_and(t.status IN ('SUBMITTED', 'CANCELLED')) AND bool_or(t.status = 'SUBMITTED')) r)
                       - (m."calibrationPassedAt" IS NOT NULL)::int) AS failed
    FROM "StudyMember" m WHERE m."studyId" = ${studyId}::uuid AND m.role = 'GRADER'`);
  return { gold, pairs, calibration };
}

const r4 = (x: number | null) => (x === null || !Number.isFinite(x) ? null : Math.round(x * 1e4) / 1e4);
const ci4 = (c: Interval | null) => (c ? ([r4(c[0])!, r4(c[1])!] as [number, number]) : null);

export interface GoldFigure {
  accuracy: number | null;
  accuracyCi: [number, number] | null;
  bias: number | null;
  biasCi: [number, number] | null;
  n: number;
  sets: number;
}
export interface IntraFigure {
  kappa: number | null;
  kappaCi: [number, number] | null;
  icc: number | null;
  iccCi: [number, number] | null;
  n: number;
}

const gold = (cells: GoldCell[]): GoldFigure => {
  const f = goldAccuracy(cells);
  return { accuracy: r4(f.accuracy), accuracyCi: ci4(f.accuracyCi), bias: r4(f.bias), biasCi: ci4(f.biasCi), n: f.n, sets: f.sets };
};
const intra = (pairs: PairRow[], levels: number[]): IntraFigure => {
  const f = intraRater(pairs, levels);
  return { kappa: r4(f.kappa), kappaCi: ci4(f.kappaCi), icc: r4(f.icc), iccCi: ci4(f.iccCi), n: f.n };
};

export interface GraderTaskFigures {
  gold: GoldFigure & { byDimension: (GoldFigure & { dimension: string })[] };
  intraRater: { n: number; byDimension: (IntraFigure & { dimension: string })[] };
  calibration: { passedAt: string | null; rounds: number; failedRounds: number };
}

/** An ordinal dimension: `id` rubric/dimension, `key` as the report names it, its declared levels. */
export interface OrdinalDimension {
  id: string;
  key: string;
  levels: readonly number[];
}

/**
 * Per grader: gold (overall, pooling the ordinal dimensions each in its own points, and per
 * dimension) and intra-rater per dimension; and the study's pooled intra-rater per dimension.
 */
export function qualityTaskFigures(rows: QualityTaskRows, dims: readonly OrdinalDimension[]) {
  const levels = new Map(dims.map((d) => [d.id, [...d.levels]]));
  const keyOf = new Map(dims.map((d) => [d.id, d.key]));
  const goldCells = new Map<string, Map<string, GoldCell[]>>();
  for (const row of rows.gold) {
    const scored = new Map((row.grades ?? []).map((g) => [`${g.rubric}/${g.dimension}/${g.repetition}`, g.score]));
    for (const e of storedExpected(row.expected)) {
      const score = scored.get(`${e.rubric}/${e.dimension}/${e.repetition}`);
      if (score === undefined || !levels.has(`${e.rubric}/${e.dimension}`)) continue;
      const byDim = goldCells.get(row.g) ?? new Map<string, GoldCell[]>();
      const k = `${e.rubric}/${e.dimension}`;
      byDim.set(k, [...(byDim.get(k) ?? []), { set: row.s, score, expected: e.score, tolerance: row.tolerance }]);
      goldCells.set(row.g, byDim);
    }
  }
  const pairs = new Map<string, Map<string, PairRow[]>>();
  const pooled = new Map<string, PairRow[]>();
  for (const p of rows.pairs) {
    const k = `${p.rubric}/${p.dimension}`;
    if (!levels.has(k)) continue;
    const byDim = pairs.get(p.g) ?? new Map<string, PairRow[]>();
    byDim.set(k, [...(byDim.get(k) ?? []), p]);
    pairs.set(p.g, byDim);
    pooled.set(k, [...(pooled.get(k) ?? []), p]);
  }
  const calibration = new Map(rows.calibration.map((c) => [c.g, c]));
  const name = (k: string) => keyOf.get(k) ?? k;
  const order = [...levels.keys()];
  const forGrader = (g: string): GraderTaskFigures => {
    const gd = goldCells.get(g) ?? new Map<string, GoldCell[]>();
    const pd = pairs.get(g) ?? new Map<string, PairRow[]>();
    const c = calibration.get(g);
    return {
      gold: { ...gold([...gd.values()].flat()), byDimension: order.filter((k) => gd.has(k)).map((k) => ({ dimension: name(k), ...gold(gd.get(k)!) })) },
      intraRater: { n: [...pd.values()].reduce((a, p) => a + p.length, 0), byDimension: order.filter((k) => pd.has(k)).map((k) => ({ dimension: name(k), ...intra(pd.get(k)!, levels.get(k)!) })) },
      calibration: { passedAt: c?.passedAt ? new Date(c.passedAt).toISOString() : null, rounds: c?.rounds ?? 0, failedRounds: c?.failed ?? 0 },
    };
  };
  return {
    forGrader,
    pooledIntraRater: order.filter((k) => pooled.has(k)).map((k) => ({ dimension: name(k), ...intra(pooled.get(k)!, levels.get(k)!) })),
    collected: { gold: rows.gold.length > 0, intraRater: rows.pairs.length > 0 },
  };
}
