import { randomBytes } from "node:crypto";
import { auditInsertSql } from "@/lib/audit/record";
import { sqlTransaction } from "@/lib/db/sql";
import { isUuid } from "@/lib/db/uuid";
import { ApiError } from "@/lib/errors/api-error";
import { Prisma } from "@/lib/generated/prisma/client";
import { storedRubrics } from "@/lib/rubrics/study-rubrics";
import { dealQualityTasks, studyLockSql } from "./deal";
import { checkExpected, type ExpectedInput } from "./expected";

export interface Actor {
  id: string;
  requestId?: string | null;
}


export interface QualitySetInput {
  purpose: "CALIBRATION" | "GOLD";
  expected: ExpectedInput[];
  tolerance: number;
  rationale: string;
}

/**
 * Marks a set of the study as a calibration or gold set with its expected scores (or changes
 * them). Only a set nobody was assigned (409 otherwise): its grades would already count in results.
 */
export async function markQualitySet(actor: Actor, studyId: string, setId: string, input: QualitySetInput) {
  if (!isUuid(setId)) throw new ApiError(404, "response set not found");
  return sqlTransaction(async (tx) => {
    await tx.rows(studyLockSql(studyId));
    const [set] = await tx.rows<{ id: string; rubrics: unknown; repetitions: number; assigned: boolean; before: unknown; lastCalibration: boolean; dealtAs: string | null }>(Prisma.sql`
      SELECT rs.id, st.rubrics, st.repetitions,
             (SELECT t.purpose::text FROM "QualityTask" t WHERE t."responseSetId" = rs.id LIMIT 1) AS "dealtAs",
             (st."calibrationRequired" AND EXISTS (SELECT 1 FROM "QualitySet" qs WHERE qs."responseSetId" = rs.id AND qs.purpose = 'CALIBRATION')
              AND NOT EXISTS (SELECT 1 FROM "QualitySet" qs WHERE qs."studyId" = st.id AND qs.purpose = 'CALIBRATION' AND qs."responseSetId" <> rs.id)) AS "lastCalibration",
             EXISTS (SELECT 1 FROM "Assignment" a WHERE a."responseSetId" = rs.id AND a.status <> 'CANCELLED') AS assigned,
             (SELECT to_jsonb(qs) - 'id' - 'createdAt' - 'updatedAt' FROM "QualitySet" qs WHERE qs."responseSetId" = rs.id) AS before
      FROM "ResponseSet" rs JOIN "Study" st ON st.id = rs."studyId"
      WHERE rs.id = ${setId}::uuid AND rs."studyId" = ${studyId}::uuid FOR UPDATE OF rs`);
    if (!set) throw new ApiError(404, "response set not found");
    if (set.assigned) throw new ApiError(409, "this set is already assigned as real work: only a set nobody was given can be a calibration or gold set");
    // A calibration set's expected scores are shown to its graders after their round: dealt again as gold, it would be gold they know the answer to.
    if (set.dealtAs && set.dealtAs !== input.purpose) {
      throw new ApiError(409, `this set was already dealt to graders as a ${set.dealtAs.toLowerCase()} set: its purpose cannot change (its expected scores, tolerance and rationale can)`);
    }
    // Graders who have not passed would wait for a calibration round that can no longer be dealt, with no real work to do.
    if (set.lastCalibration && input.purpose !== "CALIBRATION") {
      throw new ApiError(409, "this is the study's last calibration set and calibration is required: mark another calibration set first, or stop requiring calibration");
    }
    const { cells, problems } = checkExpected(input.expected, storedRubrics(set.rubrics), set.repetitions);
    if (problems.length) throw new ApiError(422, "invalid expected scores", { problems });
    const expected = JSON.stringify(cells);
    await tx.rows(Prisma.sql`
      WITH audited AS (${auditInsertSql({
        actorId: actor.id,
        action: "quality.set.mark",
        entityType: "ResponseSet",
        entityId: setId,
        studyId,
        before: set.before ?? null,
        after: { purpose: input.purpose, expected: cells, tolerance: input.tolerance, rationale: input.rationale },
        requestId: actor.requestId ?? undefined,
      })} RETURNING 1)
      INSERT INTO "QualitySet" (id, "studyId", "responseSetId", purpose, expected, tolerance, rationale, "createdById", "updatedAt")
      VALUES (gen_random_uuid(), ${studyId}::uuid, ${setId}::uuid, ${input.purpose}::"QualityPurpose", ${expected}::jsonb, ${input.tolerance}, ${input.rationale}, ${actor.id}::uuid, now())
      ON CONFLICT ("responseSetId") DO UPDATE SET purpose = EXCLUDED.purpose, expected = EXCLUDED.expected, tolerance = EXCLUDED.tolerance,
        rationale = EXCLUDED.rationale, "updatedAt" = now()`);
    return { responseSetId: setId, purpose: input.purpose, expected: cells.map((c) => ({ ...c, repetition: c.repetition === 0 ? null : c.repetition })), tolerance: input.tolerance, rationale: input.rationale };
  });
}

export interface QualitySettingsInput {
  goldRate?: number | null;
  goldSeed?: string;
  washoutShare?: number;
  washoutDays?: number;
  washoutSeed?: string;
  calibrationRequired?: boolean;
  calibrationPassShare?: number;
  calibrationRoundSize?: number;
}

export interface QualitySettings {
  goldRate: number | null;
  goldSeed: string | null;
  washoutShare: number;
  washoutDays: number;
  washoutSeed: string | null;
  calibrationRequired: boolean;
  calibrationPassShare: number;
  calibrationRoundSize: number;
  /** What this call dealt: gold tasks placed, calibration rounds started. */
  placed: { gold: number; calibration: number };
}

/**
 * Stores the study's quality settings and deals what they ask for, all or nothing: gold sets
 * placed into each grader's queue at one in `goldRate` (seeded and audited: grader, set, position),
 * and a first calibration round to every grader who has not passed. Later joiners and work dealt
 * later are topped up without another call (lib/quality-tasks/deal.ts).
 */
export async function updateQualitySettings(actor: Actor, studyId: string, input: QualitySettingsInput): Promise<QualitySettings> {
  return sqlTransaction(async (tx) => {
    await tx.rows(studyLockSql(studyId));
    const [before] = await tx.rows<Omit<QualitySettings, "placed"> & { status: string }>(Prisma.sql`
      SELECT "goldRate", "goldSeed", "washoutShare", "washoutDays", "washoutSeed", "calibrationRequired", "calibrationPassShare", "calibrationRoundSize", status::text AS status
      FROM "Study" WHERE id = ${studyId}::uuid FOR UPDATE`);
    if (!before) throw new ApiError(404, "study not found");
    const { status, ...was } = before;
    const s = {
      goldRate: input.goldRate === undefined ? was.goldRate : input.goldRate,
      goldSeed: input.goldSeed ?? was.goldSeed ?? (input.goldRate ? randomBytes(6).toString("hex") : null),
      washoutShare: input.washoutShare ?? was.washoutShare,
      washoutDays: input.washoutDays ?? was.washoutDays,
      washoutSeed: input.washoutSeed ?? was.washoutSeed ?? ((input.washoutShare ?? 0) > 0 ? randomBytes(6).toString("hex") : null),
      calibrationRequired: input.calibrationRequired ?? was.calibrationRequired,
      calibrationPassShare: input.calibrationPassShare ?? was.calibrationPassShare,
      calibrationRoundSize: input.calibrationRoundSize ?? was.calibrationRoundSize,
    };
    await tx.rows(Prisma.sql`UPDATE "Study" SET "goldRate" = ${s.goldRate}, "goldSeed" = ${s.goldSeed}, "washoutShare" = ${s.washoutShare}, "washoutDays" = ${s.washoutDays},
      "washoutSeed" = ${s.washoutSeed}, "calibrationRequired" = ${s.calibrationRequired}, "calibrationPassShare" = ${s.calibrationPassShare},
      "calibrationRoundSize" = ${s.calibrationRoundSize}, "updatedAt" = now() WHERE id = ${studyId}::uuid`);
    if (s.calibrationRequired && !was.calibrationRequired) {
      // Requiring calibration without a calibration set would block every grader's real work.
      const [c] = await tx.rows<{ n: number }>(Prisma.sql`SELECT count(*)::int AS n FROM "QualitySet" WHERE "studyId" = ${studyId}::uuid AND purpose = 'CALIBRATION'`);
      if (c.n === 0) throw new ApiError(409, "mark at least one calibration set (PUT /api/v1/studies/{id}/quality-sets/{setId}) before requiring calibration");
    }
    // The same deal a late joiner's queue read or an assignment run makes (lib/quality-tasks/deal.ts), audited below with the settings.
    const dealt = status === "OPEN" ? await dealQualityTasks(tx, studyId, { actorId: actor.id, audit: false }) : { gold: [], calibration: [] };
    const gold = dealt.gold;
    const calibration = dealt.calibration.length;
    await tx.rows(auditInsertSql({ actorId: actor.id, action: "quality.settings", entityType: "Study", entityId: studyId, studyId, before: was, after: { ...s, gold, calibrationRounds: calibration }, requestId: actor.requestId ?? undefined }));
    return { ...s, placed: { gold: gold.length, calibration } };
  });
}
