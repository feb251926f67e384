import { auditInsertSql } from "@/lib/audit/record";
import { sql, sqlTransaction, type Sql } from "@/lib/db/sql";
import { isUuid } from "@/lib/db/uuid";
import { Prisma } from "@/lib/generated/prisma/client";
import { ApiError } from "@/lib/errors/api-error";
import { graderPseudonym } from "@/lib/users/pseudonym";
import type { RubricDocument } from "@/lib/rubrics/document";
import { crossesHarmLine } from "@/lib/rubrics/harm-line";
import { findDimension, findRubric, storedRubrics } from "@/lib/rubrics/study-rubrics";
import type { HarmReviewBody } from "./contract";

/**
 * Harm review: graders are told the study lead reviews every potential-harm
 * flag; this is where the lead does. A flag lives on the grader's assignment
 * (submitted, or still in a draft); its review (open, acknowledged, resolved,
 * with a note) is a row of its own, absent while the flag is open.
 */
export type HarmReviewStatus = "OPEN" | "ACKNOWLEDGED" | "RESOLVED";

export interface HarmFlagRow {
  assignmentId: string;
  responseSetId: string;
  externalId: string;
  specialty: string;
  model: string;
  grader: string;
  kind: "PRIMARY" | "ADJUDICATOR";
  submitted: boolean;
  comment: string;
  flaggedAt: string;
  scores: HarmFlagScore[];
  review: { status: HarmReviewStatus; note: string | null; reviewer: string | null; reviewedAt: string | null };
}

/** One of the grader's scores on the flagged set, named and labelled as the study's rubric documents say. */
export interface HarmFlagScore {
  rubric: string;
  dimension: string;
  /** The rubric's and the dimension's names. */
  rubricName: string;
  name: string;
  repetition: number | null;
  /** Ordinal values and criteria; null for a nominal value or N/A. */
  score: number | null;
  /** The value as given: the ordinal number, the nominal level, or "N/A". */
  value: number | string;
  /** The level's label ("Severe harm"), or null where the scale has none. */
  label: string | null;
  /** The score crosses the dimension's harm line. */
  acrossHarmLine: boolean;
}

interface FlagRecord {
  assignmentId: string;
  responseSetId: string;
  externalId: string;
  specialty: string;
  model: string;
  graderId: string;
  kind: "PRIMARY" | "ADJUDICATOR";
  status: string;
  comment: string;
  flaggedAt: Date;
  scores: { rubric: string; dimension: string; repetition: number; score: number | null; category: string | null; na: boolean }[] | null;
  reviewStatus: HarmReviewStatus | null;
  note: string | null;
  reviewer: string | null;
  reviewedAt: Date | null;
}

/** The study's live flags (not on cancelled work), optionally one assignment's, newest first. */
const flagsSql = (studyId: string, assignmentId?: string) => Prisma.sql`
  SELECT a.id AS "assignmentId", rs.id AS "responseSetId", q."externalId", sp.name AS specialty, m.name AS model,
         a."graderId", a.kind::text AS kind, a.status::text AS status, a."harmComment" AS comment,
         coalesce(a."submittedAt", a."updatedAt") AS "flaggedAt",
         (SELECT json_agg(json_build_object('rubric', g.rubric, 'dimension', g.dimension, 'repetition', g.repetition, 'score', g.score, 'category', g.category, 'na', g.na)
                 ORDER BY g.rubric, g.repetition, g.dimension)
            FROM "Grade" g WHERE g."assignmentId" = a.id) AS scores,
         hr.status::text AS "reviewStatus", hr.note, u.name AS reviewer, hr."reviewedAt"
  FROM "Assignment" a
  JOIN "ResponseSet" rs ON rs.id = a."responseSetId"
  JOIN "QaItem" q ON q.id = rs."itemId"
  JOIN "Specialty" sp ON sp.id = q."specialtyId"
  JOIN "LlmModel" m ON m.id = rs."modelId"
  LEFT JOIN "HarmReview" hr ON hr."assignmentId" = a.id
  LEFT JOIN "User" u ON u.id = hr."reviewedById"
  WHERE a."studyId" = ${studyId}::uuid AND a."harmFlag" AND a.status <> 'CANCELLED'
    ${assignmentId ? Prisma.sql`AND a.id = ${assignmentId}::uuid` : Prisma.empty}
  ORDER BY coalesce(a."submittedAt", a."updatedAt") DESC, a.id`;

function scoreOf(docs: readonly RubricDocument[], s: NonNullable<FlagRecord["scores"]>[number]): HarmFlagScore {
  const d = findDimension(docs, s.rubric, s.dimension);
  const value = s.na ? "N/A" : (s.score ?? s.category ?? "N/A");
  return {
    rubric: s.rubric,
    dimension: s.dimension,
    rubricName: findRubric(docs, s.rubric)?.name ?? s.rubric,
    name: d?.name ?? s.dimension,
    repetition: s.repetition === 0 ? null : s.repetition,
    score: s.score,
    value,
    label: s.na ? "Not applicable" : (d?.scale.levels?.find((l) => l.value === value)?.label ?? null),
    acrossHarmLine: d !== undefined && d.scale.kind === "ordinal" && crossesHarmLine(d, s.score),
  };
}

const rubricsOf = async (tx: Sql, studyId: string) =>
  storedRubrics((await tx.rows<{ rubrics: unknown }>(Prisma.sql`SELECT rubrics FROM "Study" WHERE id = ${studyId}::uuid`))[0]?.rubrics);

function toRow(studyId: string, r: FlagRecord, docs: readonly RubricDocument[]): HarmFlagRow {
  return {
    assignmentId: r.assignmentId,
    responseSetId: r.responseSetId,
    externalId: r.externalId,
    specialty: r.specialty,
    model: r.model,
    grader: graderPseudonym(studyId, r.graderId),
    kind: r.kind,
    submitted: r.status === "SUBMITTED",
    comment: r.comment,
    flaggedAt: r.flaggedAt.toISOString(),
    scores: (r.scores ?? []).map((s) => scoreOf(docs, s)),
    review: { status: r.reviewStatus ?? "OPEN", note: r.note, reviewer: r.reviewer, reviewedAt: r.reviewedAt?.toISOString() ?? null },
  };
}

export async function listHarmFlags(studyId: string, filter: { review?: HarmReviewStatus } = {}): Promise<HarmFlagRow[]> {
  const [records, docs] = await Promise.all([sql.rows<FlagRecord>(flagsSql(studyId)), rubricsOf(sql, studyId)]);
  const rows = records.map((r) => toRow(studyId, r, docs));
  return filter.review ? rows.filter((r) => r.review.status === filter.review) : rows;
}

/** Open (unreviewed) flags per study, for the study list and the overview. */
export async function openHarmFlagCounts(studyIds: readonly string[]): Promise<Map<string, number>> {
  if (studyIds.length === 0) return new Map();
  const rows = await sql.rows<{ studyId: string; open: number }>(Prisma.sql`
    SELECT a."studyId", count(*)::int AS open
    FROM "Assignment" a LEFT JOIN "HarmReview" hr ON hr."assignmentId" = a.id
    WHERE a."studyId" = ANY(${[...studyIds]}::uuid[]) AND a."harmFlag" AND a.status <> 'CANCELLED' AND (hr.status IS NULL OR hr.status = 'OPEN')
    GROUP BY a."studyId"`);
  return new Map(rows.map((r) => [r.studyId, r.open]));
}

async function flagOf(tx: Sql, studyId: string, assignmentId: string): Promise<HarmFlagRow | null> {
  const [r] = await tx.rows<FlagRecord>(flagsSql(studyId, assignmentId));
  return r ? toRow(studyId, r, await rubricsOf(tx, studyId)) : null;
}

/**
 * Sets a flag's review, audited with its state before and after. The
 * assignment's row is locked first, so two leads reviewing at once are
 * recorded one after the other, each against what the other left.
 */
export async function reviewHarmFlag(studyId: string, assignmentId: string, body: HarmReviewBody, actorId: string, requestId?: string): Promise<HarmFlagRow> {
  if (!isUuid(assignmentId)) throw new ApiError(404, "harm flag not found");
  return sqlTransaction(async (tx) => {
    await tx.rows(Prisma.sql`SELECT id FROM "Assignment" WHERE id = ${assignmentId}::uuid AND "studyId" = ${studyId}::uuid FOR UPDATE`);
    const before = await flagOf(tx, studyId, assignmentId);
    if (!before) throw new ApiError(404, "harm flag not found");
    const note = body.note ? body.note : null;
    await tx.rows(Prisma.sql`
      WITH audited AS (${auditInsertSql({
        actorId,
        action: "harm.review",
        entityType: "Assignment",
        entityId: assignmentId,
        studyId,
        before: { status: before.review.status, note: before.review.note },
        after: { status: body.status, note },
        requestId,
      })} RETURNING 1)
      INSERT INTO "HarmReview" ("assignmentId", status, note, "reviewedById", "reviewedAt")
      VALUES (${assignmentId}::uuid, ${body.status}::"HarmReviewStatus", ${note}, ${actorId}::uuid, now())
      ON CONFLICT ("assignmentId") DO UPDATE SET status = EXCLUDED.status, note = EXCLUDED.note, "reviewedById" = EXCLUDED."reviewedById", "reviewedAt" = now()
      RETURNING 1`);
    return (await flagOf(tx, studyId, assignmentId))!;
  });
}
