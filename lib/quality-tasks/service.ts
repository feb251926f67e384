import { randomBytes } from "node:crypto";
import { auditInsertSql } from "@/lib/audit/record";
import { sqlTransaction, type Sql } from "@/lib/db/sql";
import { isUuid } from "@/lib/db/uuid";
import { ApiError } from "@/lib/errors/api-error";
import { Prisma } from "@/lib/generated/prisma/client";
import { mulberry32 } from "@/lib/stats";
import { seededShuffle, seedToUint32 } from "@/lib/random/seeded";
import { storedRubrics } from "@/lib/rubrics/study-rubrics";
import { dealCalibrationRound } from "./calibration";
import { checkExpected, type ExpectedInput } from "./expected";

export interface Actor {
  id: string;
  requestId?: string | null;
}

/** The assignment run's study lock (lib/assignment/service.ts): taken first, so marking a set and dealing work never interleave. */
const studyLockSql = (studyId: string) => Prisma.sql`SELECT pg_advisory_xact_lock(hashtext(${"assign:" + studyId}))`;

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
    const [set] = await tx.rows<{ id: string; rubrics: unknown; repetitions: number; assigned: boolean; before: unknown }>(Prisma.sql`
      SELECT rs.id, st.rubrics, st.repetitions,
             EXISTS (SELECT 1 FROM "Assignment" a WHERE a."responseSetId" = rs.id AND a.status <> 'CANCELLED') AS assigned,
             (SELECT to_jsonb(qs) - 'id' - 'createdAt' - 'updatedAt' FROM "QualitySet" qs WHERE qs."responseSetId" = rs.id) AS before
      FROM "ResponseSet" rs JOIN "Study" st ON st.id = rs."studyId"
      WHERE rs.id = ${setId}::uuid AND rs."studyId" = ${studyId}::uuid FOR UPDATE OF rs`);
    if (!set) throw new ApiError(404, "response set not found");
    if (set.assigned) throw new ApiError(409, "this set is already assigned as real work: only a set nobody was given can be a calibration or gold set");
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
 * and a first calibration round to every grader who has not passed. Calling again tops up: gold
 * for work dealt since, calibration for graders who joined since.
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
    const gold = status === "OPEN" && s.goldRate ? await placeGold(tx, studyId, s.goldRate, s.goldSeed ?? "") : [];
    let calibration = 0;
    if (status === "OPEN" && s.calibrationRequired) {
      const graders = await tx.rows<{ id: string }>(Prisma.sql`SELECT "userId" AS id FROM "StudyMember" WHERE "studyId" = ${studyId}::uuid AND role = 'GRADER' AND active ORDER BY "userId"`);
      for (const g of graders) if ((await dealCalibrationRound(tx, studyId, g.id)) !== null) calibration++;
    }
    await tx.rows(auditInsertSql({ actorId: actor.id, action: "quality.settings", entityType: "Study", entityId: studyId, studyId, before: was, after: { ...s, gold, calibrationRounds: calibration }, requestId: actor.requestId ?? undefined }));
    return { ...s, placed: { gold: gold.length, calibration } };
  });
}

/**
 * Places gold sets into each grader's queue so that about one set in `rate` is gold: a grader with
 * p primary assignments gets ceil(p / (rate - 1)) gold sets in all (at most one of each gold set),
 * each at the position of one of their assignments drawn at random (the id breaks the tie, so it
 * sits just before or after it). Seeded per grader: the same seed and work place the same sets.
 */
async function placeGold(tx: Sql, studyId: string, rate: number, seed: string) {
  const goldSets = (await tx.rows<{ id: string }>(Prisma.sql`SELECT "responseSetId" AS id FROM "QualitySet" WHERE "studyId" = ${studyId}::uuid AND purpose = 'GOLD' ORDER BY "responseSetId"`)).map((r) => r.id);
  if (!goldSets.length) return [];
  const graders = await tx.rows<{ id: string; positions: number[]; had: string[] | null }>(Prisma.sql`
    SELECT a."graderId" AS id, array_agg(a.position ORDER BY a.position) AS positions,
           (SELECT array_agg(t."responseSetId"::text) FROM "QualityTask" t WHERE t."studyId" = ${studyId}::uuid AND t."graderId" = a."graderId" AND t.purpose = 'GOLD') AS had
    FROM "Assignment" a JOIN "StudyMember" m ON m."studyId" = a."studyId" AND m."userId" = a."graderId" AND m.active
    WHERE a."studyId" = ${studyId}::uuid AND a.kind = 'PRIMARY' AND a.status <> 'CANCELLED'
    GROUP BY a."graderId" ORDER BY a."graderId"`);
  const placed: { graderId: string; setId: string; position: number }[] = [];
  for (const g of graders) {
    const had = new Set(g.had ?? []);
    const want = Math.ceil(g.positions.length / Math.max(1, rate - 1)) - had.size;
    if (want <= 0) continue;
    const sets = seededShuffle(goldSets.filter((id) => !had.has(id)), `${seed}:gold:${g.id}`).slice(0, want);
    const rng = mulberry32(seedToUint32(`${seed}:gold-position:${g.id}:${had.size}`));
    for (const setId of sets) placed.push({ graderId: g.id, setId, position: g.positions[Math.floor(rng() * g.positions.length)] });
  }
  if (placed.length) {
    await tx.rows(Prisma.sql`
      INSERT INTO "QualityTask" (id, "studyId", "graderId", "responseSetId", purpose, position, "updatedAt")
      SELECT gen_random_uuid(), ${studyId}::uuid, p.g, p.s, 'GOLD', p.pos, now()
      FROM unnest(${placed.map((p) => p.graderId)}::uuid[], ${placed.map((p) => p.setId)}::uuid[], ${placed.map((p) => p.position)}::int[]) AS p(g, s, pos)`);
  }
  return placed;
}
