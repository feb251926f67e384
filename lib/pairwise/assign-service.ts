import { randomBytes } from "node:crypto";
import { orderForGrader, planAssignments } from "@/lib/assignment/plan";
import { recordAudit } from "@/lib/audit/record";
import { getDb, type Tx } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";
import { ApiError } from "@/lib/errors/api-error";
import { frozenAssignment } from "@/lib/protocol/service";
import type { ComparisonAssignmentRunBody } from "./contract-schemas";
import { prismaSql } from "@/lib/db/sql";
import { storedRubrics } from "@/lib/rubrics/study-rubrics";
import { createComparisonAdjudicatorAssignment, pickComparisonAdjudicator } from "./escalation";
import { lockComparisonsSql, studyRunLockSql } from "./lock";
import { requirePairwise } from "./plan-service";

export interface ComparisonAssignmentRunSummary {
  seed: string;
  matchSpecialty: boolean;
  comparisons: number;
  created: number;
  reassigned: number;
  comparisonsShortOfGraders: number;
  perGrader: { graderId: string; name: string; created: number }[];
}

/**
 * Deals every planned comparison of an open pairwise study to its k distinct PRIMARY graders,
 * incrementally (only what is missing; dealt work never moves), with scoring's own dealing
 * (lib/assignment/plan.ts: least loaded, ties by the seed; each grader's own seeded order, the
 * same question's comparisons kept apart). One run at a time per study (the advisory lock that
 * planning takes too); the unique (grader, comparison) key backs it up.
 */
export async function dealComparisons(studyId: string, opts: ComparisonAssignmentRunBody, actorId: string, requestId?: string): Promise<ComparisonAssignmentRunSummary> {
  return getDb().$transaction(
    async (tx: Tx) => {
      await tx.$executeRaw(studyRunLockSql(studyId));
      const study = await tx.study.findUniqueOrThrow({ where: { id: studyId } });
      requirePairwise(study);
      if (study.status !== "OPEN") throw new ApiError(409, `the study is ${study.status.toLowerCase()}: open it before dealing comparisons`);
      // A frozen protocol fixes the seed and specialty matching, as for scoring's assignment runs (lib/assignment/service.ts).
      const frozen = await frozenAssignment(tx, studyId);
      if (frozen && opts.seed !== undefined && opts.seed !== frozen.seed) throw new ApiError(409, `the frozen protocol fixes the assignment seed to "${frozen.seed}"`, { locked: ["seed"] });
      if (frozen && opts.matchSpecialty !== undefined && opts.matchSpecialty !== study.matchSpecialty) throw new ApiError(409, "the frozen protocol fixes specialty matching: change it with a reason (an amendment) in the study's settings first", { locked: ["matchSpecialty"] });
      const seed = opts.seed ?? frozen?.seed ?? study.pairSeed ?? randomBytes(6).toString("hex");
      const matchSpecialty = opts.matchSpecialty ?? study.matchSpecialty;

      // Unsubmitted comparisons of graders who left (membership or account deactivated) are cancelled, then dealt
      // again, as scoring's assignment run does: their comparisons are locked first (lib/pairwise/lock.ts) and the
      // work read again under the locks, so a comparison submitted meanwhile stays submitted.
      const leftWhere = {
        studyId,
        status: { in: ["PENDING" as const, "IN_PROGRESS" as const] },
        grader: { OR: [{ active: false }, { memberships: { some: { studyId, role: "GRADER" as const, active: false } } }, { memberships: { none: { studyId } } }] },
      };
      const leftComparisons = await tx.comparisonAssignment.findMany({ where: leftWhere, select: { comparisonId: true }, distinct: ["comparisonId"] });
      const locked = leftComparisons.length ? (await tx.$queryRaw<{ id: string }[]>(lockComparisonsSql(leftComparisons.map((a) => a.comparisonId)))).map((r) => r.id) : [];
      const gone = locked.length ? await tx.comparisonAssignment.findMany({ where: { ...leftWhere, comparisonId: { in: locked } }, select: { id: true, kind: true, comparisonId: true } }) : [];
      if (gone.length) await tx.comparisonAssignment.updateMany({ where: { id: { in: gone.map((g) => g.id) } }, data: { status: "CANCELLED" } });

      const comparisons = await tx.$queryRaw<{ id: string; itemId: string; specialtyId: string }[]>`
        SELECT c.id, c."itemId", q."specialtyId" FROM "Comparison" c JOIN "QaItem" q ON q.id = c."itemId"
        WHERE c."studyId" = ${studyId}::uuid`;
      if (comparisons.length === 0) throw new ApiError(409, "no comparisons planned yet: POST /api/v1/studies/{id}/comparisons first");
      const existing = await tx.comparisonAssignment.findMany({ where: { studyId }, select: { comparisonId: true, graderId: true, kind: true, status: true } });
      const members = await tx.studyMember.findMany({
        where: { studyId, role: "GRADER", active: true, user: { active: true } },
        select: { user: { select: { id: true, name: true } }, specialties: { select: { specialtyId: true } } },
      });
      const onComparison = new Map<string, string[]>();
      const primaries = new Map<string, number>();
      const load = new Map<string, number>();
      for (const a of existing) {
        onComparison.set(a.comparisonId, [...(onComparison.get(a.comparisonId) ?? []), a.graderId]);
        if (a.kind === "PRIMARY" && a.status !== "CANCELLED") {
          primaries.set(a.comparisonId, (primaries.get(a.comparisonId) ?? 0) + 1);
          load.set(a.graderId, (load.get(a.graderId) ?? 0) + 1);
        }
      }
      const plan = planAssignments({
        sets: comparisons.map((c) => ({ id: c.id, specialtyId: c.specialtyId, itemId: c.itemId, graderIds: onComparison.get(c.id) ?? [], primaryCount: primaries.get(c.id) ?? 0 })),
        graders: members.map((m) => ({ id: m.user.id, specialtyIds: m.specialties.map((s) => s.specialtyId), load: load.get(m.user.id) ?? 0 })),
        gradersPerSet: study.gradersPerSet,
        seed,
        matchSpecialty,
      });
      const byGrader = new Map<string, string[]>();
      for (const a of plan.assignments) byGrader.set(a.graderId, [...(byGrader.get(a.graderId) ?? []), a.setId]);
      const lastQueued = byGrader.size
        ? await tx.$queryRaw<{ graderId: string; position: number; itemId: string }[]>`
            SELECT DISTINCT ON (a."graderId") a."graderId", a.position, c."itemId"
            FROM "ComparisonAssignment" a JOIN "Comparison" c ON c.id = a."comparisonId"
            WHERE a."graderId" IN (${Prisma.join([...byGrader.keys()].map((g) => Prisma.sql`${g}::uuid`))})
            ORDER BY a."graderId", a.position DESC`
        : [];
      const last = new Map(lastQueued.map((m) => [m.graderId, m]));
      const itemOf = new Map(comparisons.map((c) => [c.id, c.itemId]));
      const rows: Prisma.ComparisonAssignmentCreateManyInput[] = [];
      for (const [graderId, ids] of byGrader) {
        const prev = last.get(graderId);
        const positions = orderForGrader(ids.map((id) => ({ id, itemId: itemOf.get(id) })), graderId, seed, prev ? prev.position + 1 : 0, prev?.itemId);
        for (const id of ids) rows.push({ comparisonId: id, studyId, graderId, kind: "PRIMARY", position: positions.get(id)! });
      }
      if (rows.length) await tx.comparisonAssignment.createMany({ data: rows });

      // Adjudications taken from a grader who left go to another eligible grader (or wait for the lead).
      const forEscalation = { id: studyId, rubrics: storedRubrics(study.rubrics), gradersPerSet: study.gradersPerSet, tieDisagrees: study.tieDisagrees, matchSpecialty: study.matchSpecialty, pairSeed: study.pairSeed };
      for (const g of gone.filter((x) => x.kind === "ADJUDICATOR")) {
        const esc = await tx.comparisonEscalation.findUnique({ where: { comparisonId: g.comparisonId } });
        if (!esc || esc.status !== "ASSIGNED" || esc.adjudicatorAssignmentId !== g.id) continue;
        const next = await pickComparisonAdjudicator(prismaSql(tx), forEscalation, g.comparisonId);
        const adjudicatorAssignmentId = next ? await createComparisonAdjudicatorAssignment(prismaSql(tx), { id: g.comparisonId, studyId }, next) : null;
        await tx.comparisonEscalation.update({ where: { id: esc.id }, data: { adjudicatorAssignmentId, status: next ? "ASSIGNED" : "NEEDS_GRADER" } });
      }
      const names = new Map(members.map((m) => [m.user.id, m.user.name]));
      const summary: ComparisonAssignmentRunSummary = {
        seed,
        matchSpecialty,
        comparisons: comparisons.length,
        created: rows.length,
        reassigned: gone.length,
        comparisonsShortOfGraders: plan.short.length,
        perGrader: [...byGrader].map(([graderId, ids]) => ({ graderId, name: names.get(graderId) ?? "", created: ids.length })),
      };
      await recordAudit(tx, { actorId, action: "comparisons.assign", entityType: "Study", entityId: studyId, studyId, after: summary, requestId });
      return summary;
    },
    { timeout: 120_000, maxWait: 10_000 },
  );
}
