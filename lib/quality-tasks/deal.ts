import { auditInsertSql } from "@/lib/audit/record";
import { sql, sqlTransaction, type Sql } from "@/lib/db/sql";
import { Prisma } from "@/lib/generated/prisma/client";
import { mulberry32 } from "@/lib/stats";
import { seededShuffle, seedToUint32 } from "@/lib/random/seeded";
import { dealCalibrationRound } from "./calibration";

/**
 * Dealing quality tasks (issue #35) without the lead asking again: a grader who joins a study
 * after its quality settings were stored, or whose queue grew since gold was last placed, is owed a
 * calibration round (where required and not passed) and their gold share. Every dealer (the
 * settings call, an assignment run, the grader's own queue read) decides under the study's
 * assignment lock, the first lock of lib/db/set-lock.ts's order, and counts what the grader already
 * has: so dealing twice, from two requests or two server instances, deals once.
 */

/** The assignment run's study lock (lib/assignment/service.ts): taken first by everything that deals work. */
export const studyLockSql = (studyId: string) => Prisma.sql`SELECT pg_advisory_xact_lock(hashtext(${"assign:" + studyId}))`;

/** Gold sets a grader with `primaries` assignments is owed in all: about one set in `rate` of their queue. */
const goldWantSql = (primaries: Prisma.Sql, rate: Prisma.Sql) => Prisma.sql`ceil((${primaries})::numeric / greatest(1, ${rate} - 1))`;

/**
 * The grader's open studies where a deal is owed, read without a lock (the dealer reads again
 * under it). Kept to index lookups: it runs before every queue read.
 */
const owedSql = (graderId: string) => Prisma.sql`
  SELECT m."studyId" AS id
  FROM "StudyMember" m JOIN "Study" st ON st.id = m."studyId"
  WHERE m."userId" = ${graderId}::uuid AND m.role = 'GRADER' AND m.active AND st.status = 'OPEN'
    AND ((st."calibrationRequired" AND m."calibrationPassedAt" IS NULL
          AND EXISTS (SELECT 1 FROM "QualitySet" qs WHERE qs."studyId" = st.id AND qs.purpose = 'CALIBRATION')
          AND NOT EXISTS (SELECT 1 FROM "QualityTask" t WHERE t."graderId" = ${graderId}::uuid AND t."studyId" = st.id
                            AND t.purpose = 'CALIBRATION' AND t.status IN ('PENDING', 'IN_PROGRESS')))
      OR (st."goldRate" IS NOT NULL
          AND (SELECT count(*) FROM "QualityTask" t WHERE t."graderId" = ${graderId}::uuid AND t."studyId" = st.id AND t.purpose = 'GOLD')
            < least((SELECT count(*) FROM "QualitySet" qs WHERE qs."studyId" = st.id AND qs.purpose = 'GOLD'),
                    ${goldWantSql(
                      Prisma.sql`SELECT count(*) FROM "Assignment" a WHERE a."graderId" = ${graderId}::uuid AND a."studyId" = st.id AND a.kind = 'PRIMARY' AND a.status <> 'CANCELLED'`,
                      Prisma.sql`st."goldRate"`,
                    )})))
  ORDER BY m."studyId"`;

/**
 * Before the grader's queue is read: deals what they are owed in each open study, one study per
 * transaction (the study's lock, then the same decision the settings call makes). Costs one
 * read when nothing is owed.
 */
export async function dealOwedQuality(graderId: string): Promise<void> {
  const owed = await sql.rows<{ id: string }>(owedSql(graderId));
  for (const s of owed) {
    await sqlTransaction(async (tx) => {
      await tx.rows(studyLockSql(s.id));
      await dealQualityTasks(tx, s.id, { graderId, actorId: graderId });
    });
  }
}

/**
 * Deals, under the study's lock (the caller's), what the study's settings owe its graders (or one
 * grader): gold for primary work dealt since the last placement, a first calibration round to those
 * who have none open and have not passed. Audited (quality.deal) when it deals anything. Only in an
 * open study.
 */
export async function dealQualityTasks(tx: Sql, studyId: string, opts: { graderId?: string; actorId: string; requestId?: string | null; audit?: boolean }) {
  const [st] = await tx.rows<{ status: string; goldRate: number | null; goldSeed: string | null; calibrationRequired: boolean }>(Prisma.sql`
    SELECT status::text AS status, "goldRate", "goldSeed", "calibrationRequired" FROM "Study" WHERE id = ${studyId}::uuid`);
  if (!st || st.status !== "OPEN") return { gold: [], calibration: [] as string[] };
  const gold = st.goldRate ? await placeGold(tx, studyId, st.goldRate, st.goldSeed ?? "", opts.graderId) : [];
  const calibration: string[] = [];
  if (st.calibrationRequired) {
    const graders = opts.graderId
      ? [{ id: opts.graderId }]
      : await tx.rows<{ id: string }>(Prisma.sql`SELECT "userId" AS id FROM "StudyMember" WHERE "studyId" = ${studyId}::uuid AND role = 'GRADER' AND active ORDER BY "userId"`);
    for (const g of graders) if ((await dealCalibrationRound(tx, studyId, g.id)) !== null) calibration.push(g.id);
  }
  if ((opts.audit ?? true) && (gold.length || calibration.length)) {
    await tx.rows(
      auditInsertSql({ actorId: opts.actorId, action: "quality.deal", entityType: "Study", entityId: studyId, studyId, after: { gold, calibrationRounds: calibration }, requestId: opts.requestId ?? undefined }),
    );
  }
  return { gold, calibration };
}

/**
 * Places gold sets into each grader's queue (or one grader's) so that about one set in `rate` is
 * gold: a grader with p primary assignments gets ceil(p / (rate - 1)) gold sets in all (at most one
 * of each gold set), each at the position of one of their assignments drawn at random (the id
 * breaks the tie, so it sits just before or after it). Seeded per grader: the same seed and work
 * place the same sets, whoever deals them.
 */
export async function placeGold(tx: Sql, studyId: string, rate: number, seed: string, graderId?: string) {
  const goldSets = (await tx.rows<{ id: string }>(Prisma.sql`SELECT "responseSetId" AS id FROM "QualitySet" WHERE "studyId" = ${studyId}::uuid AND purpose = 'GOLD' ORDER BY "responseSetId"`)).map((r) => r.id);
  if (!goldSets.length) return [];
  const only = graderId ? Prisma.sql`AND a."graderId" = ${graderId}::uuid` : Prisma.empty;
  const graders = await tx.rows<{ id: string; positions: number[]; had: string[] | null }>(Prisma.sql`
    SELECT a."graderId" AS id, array_agg(a.position ORDER BY a.position) AS positions,
           (SELECT array_agg(t."responseSetId"::text) FROM "QualityTask" t WHERE t."studyId" = ${studyId}::uuid AND t."graderId" = a."graderId" AND t.purpose = 'GOLD') AS had
    FROM "Assignment" a JOIN "StudyMember" m ON m."studyId" = a."studyId" AND m."userId" = a."graderId" AND m.active
    WHERE a."studyId" = ${studyId}::uuid AND a.kind = 'PRIMARY' AND a.status <> 'CANCELLED' ${only}
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
