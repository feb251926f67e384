import { randomBytes } from "node:crypto";
import { getDb } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";
import { washoutAnswerOrder, washoutInsertSql } from "@/lib/quality-tasks/washout";

/**
 * Grader quality in a bench study (issue #35): gold sets at one in `goldRate` of each grader's
 * queue and washout re-grades of a `washoutShare` of their sets, so that a grader's queue holds
 * gold and re-grade tasks beside their assignments, as a study in service would.
 */
export interface BenchQuality {
  goldRate: number;
  washoutShare: number;
}

/**
 * Before the assignment run: marks enough new sets as gold for every grader's share and stores the
 * study's settings, so the run deals the gold itself (lib/quality-tasks/deal.ts) and every
 * submission draws its re-grade (washout of 0 days: it shows at once).
 */
export async function markGold(studyId: string, leadId: string, specialtyId: string, models: { id: string }[], perGrader: number, q: BenchQuality, answer: string) {
  const db = getDb();
  const wanted = Math.ceil(perGrader / Math.max(1, q.goldRate - 1)) + 5;
  const items = Math.ceil(wanted / models.length);
  await db.qaItem.createMany({ data: Array.from({ length: items }, (_, i) => ({ studyId, externalId: `GOLD${i + 1}`, question: `Bench question G${i + 1}?`, specialtyId })) });
  const goldItems = await db.qaItem.findMany({ where: { studyId, externalId: { startsWith: "GOLD" } }, select: { id: true } });
  await db.responseSet.createMany({ data: goldItems.flatMap((it) => models.map((m) => ({ studyId, itemId: it.id, modelId: m.id }))) });
  const sets = await db.responseSet.findMany({ where: { studyId, itemId: { in: goldItems.map((i) => i.id) } }, select: { id: true } });
  await db.response.createMany({ data: sets.flatMap((s) => [1, 2, 3].map((r) => ({ responseSetId: s.id, repetition: r, text: answer }))) });
  await db.qualitySet.createMany({ data: sets.map((s) => ({ studyId, responseSetId: s.id, purpose: "GOLD" as const, expected: [], createdById: leadId })) });
  await db.study.update({
    where: { id: studyId },
    data: { goldRate: q.goldRate, goldSeed: randomBytes(4).toString("hex"), washoutShare: q.washoutShare, washoutDays: 0, washoutSeed: randomBytes(4).toString("hex") },
  });
}

/**
 * After the run: re-grades already back in each grader's queue, a `washoutShare` of their sets
 * taken from the end of their order (the benchmarks read and submit from its start), their first
 * grading marked submitted, each inserted by the submission's own statement.
 */
export async function addRegrades(graderIds: string[], q: BenchQuality) {
  const db = getDb();
  for (const g of graderIds) {
    const all = await db.assignment.findMany({ where: { graderId: g }, orderBy: { position: "asc" }, select: { id: true } });
    const tail = all.slice(all.length - Math.round(all.length * q.washoutShare));
    await db.assignment.updateMany({ where: { id: { in: tail.map((a) => a.id) } }, data: { status: "SUBMITTED", submittedAt: new Date() } });
    for (const a of tail) await db.$executeRaw(washoutInsertSql(a.id, washoutAnswerOrder("bench", a.id, 3)));
  }
  const [n] = await db.$queryRaw<{ gold: number; regrade: number }[]>(Prisma.sql`
    SELECT count(*) FILTER (WHERE purpose = 'GOLD')::int AS gold, count(*) FILTER (WHERE purpose = 'REGRADE')::int AS regrade
    FROM "QualityTask" WHERE "graderId" = ANY(${graderIds}::uuid[])`);
  return n;
}
