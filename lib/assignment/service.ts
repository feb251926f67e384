import { storedRubrics } from "@/lib/rubrics/study-rubrics";
import { randomBytes } from "node:crypto";
import { recordAudit } from "@/lib/audit/record";
import { getDb, type Tx } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";
import { lockSetsSql } from "@/lib/db/set-lock";
import { prismaSql } from "@/lib/db/sql";
import { createAdjudicatorAssignment, pickAdjudicator } from "@/lib/escalation/service";
import { ApiError } from "@/lib/server/errors";
import { orderForGrader, planAssignments } from "./plan";

export interface AssignmentRunSummary {
  seed: string;
  matchSpecialty: boolean;
  completeSets: number;
  created: number;
  /** Unsubmitted work taken from deactivated or removed graders. */
  reassigned: number;
  setsShortOfGraders: number;
  perGrader: { graderId: string; name: string; created: number }[];
}

/**
 * "Assign graders": gives every complete response set of an open study its k
 * distinct PRIMARY graders, incrementally (only new work; submitted work never
 * moves; a deactivated grader's unsubmitted work goes to others). One run at a
 * time per study (advisory lock); the unique (grader, set) key backs it up.
 */
export async function assignGraders(
  studyId: string,
  opts: { seed?: string; matchSpecialty?: boolean },
  actorId: string,
  requestId?: string,
): Promise<AssignmentRunSummary> {
  const db = getDb();
  return db.$transaction(
    async (tx: Tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${"assign:" + studyId}))`;
      const stored = await tx.study.findUniqueOrThrow({ where: { id: studyId } });
      const study = { ...stored, rubrics: storedRubrics(stored.rubrics) };
      if (study.status !== "OPEN") throw new ApiError(409, `the study is ${study.status.toLowerCase()}: open it before assigning graders`);
      const seed = opts.seed ?? randomBytes(6).toString("hex");
      const matchSpecialty = opts.matchSpecialty ?? study.matchSpecialty;

      // Unsubmitted work of graders who left (membership or account deactivated) is cancelled, then re-planned.
      // Their sets are locked first and the work read again under the locks: an assignment
      // submitted meanwhile stays submitted, with its grades.
      const leftWhere = {
        studyId,
        status: { in: ["PENDING" as const, "IN_PROGRESS" as const] },
        grader: { OR: [{ active: false }, { memberships: { some: { studyId, role: "GRADER" as const, active: false } } }, { memberships: { none: { studyId } } }] },
      };
      const leftSets = await tx.assignment.findMany({ where: leftWhere, select: { responseSetId: true }, distinct: ["responseSetId"] });
      const lockedSets = leftSets.length ? (await tx.$queryRaw<{ id: string }[]>(lockSetsSql(leftSets.map((a) => a.responseSetId)))).map((r) => r.id) : [];
      const gone = lockedSets.length
        ? await tx.assignment.findMany({ where: { ...leftWhere, responseSetId: { in: lockedSets } }, select: { id: true, kind: true, responseSetId: true, graderId: true } })
        : [];
      if (gone.length) {
        await tx.assignment.updateMany({ where: { id: { in: gone.map((g) => g.id) }, status: { in: ["PENDING", "IN_PROGRESS"] } }, data: { status: "CANCELLED" } });
      }

      const completeSets = await tx.$queryRaw<{ id: string; specialtyId: string }[]>`
        SELECT rs.id, qi."specialtyId"
        FROM "ResponseSet" rs JOIN "QaItem" qi ON qi.id = rs."itemId"
        WHERE rs."studyId" = ${studyId}::uuid
          -- Hybrid mode: a set whose final scores are a judge's is never given to clinicians.
          AND rs."finalJudgeId" IS NULL
          AND (SELECT count(*) FROM "Response" r WHERE r."responseSetId" = rs.id AND r.repetition <= ${study.repetitions}) = ${study.repetitions}`;
      const existing = await tx.assignment.findMany({
        where: { studyId },
        select: { responseSetId: true, graderId: true, kind: true, status: true },
      });
      const members = await tx.studyMember.findMany({
        where: { studyId, role: "GRADER", active: true, user: { active: true } },
        select: { user: { select: { id: true, name: true } }, specialties: { select: { specialtyId: true } } },
      });
      const onSet = new Map<string, string[]>();
      const primaryCount = new Map<string, number>();
      const load = new Map<string, number>();
      for (const a of existing) {
        onSet.set(a.responseSetId, [...(onSet.get(a.responseSetId) ?? []), a.graderId]);
        if (a.kind === "PRIMARY" && a.status !== "CANCELLED") {
          primaryCount.set(a.responseSetId, (primaryCount.get(a.responseSetId) ?? 0) + 1);
          load.set(a.graderId, (load.get(a.graderId) ?? 0) + 1);
        }
      }
      const plan = planAssignments({
        sets: completeSets.map((s) => ({ id: s.id, specialtyId: s.specialtyId, graderIds: onSet.get(s.id) ?? [], primaryCount: primaryCount.get(s.id) ?? 0 })),
        graders: members.map((m) => ({ id: m.user.id, specialtyIds: m.specialties.map((s) => s.specialtyId), load: load.get(m.user.id) ?? 0 })),
        gradersPerSet: study.gradersPerSet,
        seed,
        matchSpecialty,
      });

      const byGrader = new Map<string, string[]>();
      for (const a of plan.assignments) byGrader.set(a.graderId, [...(byGrader.get(a.graderId) ?? []), a.setId]);
      const maxPositions = await tx.assignment.groupBy({ by: ["graderId"], where: { graderId: { in: [...byGrader.keys()] } }, _max: { position: true } });
      const startAt = new Map(maxPositions.map((m) => [m.graderId, (m._max.position ?? -1) + 1]));
      const rows: Prisma.AssignmentCreateManyInput[] = [];
      for (const [graderId, setIds] of byGrader) {
        const positions = orderForGrader(setIds, graderId, seed, startAt.get(graderId) ?? 0);
        for (const setId of setIds) rows.push({ responseSetId: setId, studyId: study.id, graderId, kind: "PRIMARY", position: positions.get(setId)! });
      }
      if (rows.length) await tx.assignment.createMany({ data: rows });

      // Adjudications taken from a grader who left go to another eligible grader (or wait for the lead).
      for (const g of gone.filter((x) => x.kind === "ADJUDICATOR")) {
        const esc = await tx.escalation.findUnique({ where: { responseSetId: g.responseSetId } });
        if (!esc || esc.status !== "ASSIGNED" || esc.adjudicatorAssignmentId !== g.id) continue;
        const next = await pickAdjudicator(prismaSql(tx), study, g.responseSetId);
        const adjudicatorAssignmentId = next ? await createAdjudicatorAssignment(prismaSql(tx), { id: g.responseSetId, studyId: study.id }, next) : null;
        await tx.escalation.update({ where: { id: esc.id }, data: { adjudicatorAssignmentId, status: next ? "ASSIGNED" : "NEEDS_GRADER" } });
      }

      await tx.study.update({ where: { id: studyId }, data: { assignmentSeed: seed, matchSpecialty } });
      const names = new Map(members.map((m) => [m.user.id, m.user.name]));
      const summary: AssignmentRunSummary = {
        seed,
        matchSpecialty,
        completeSets: completeSets.length,
        created: rows.length,
        reassigned: gone.length,
        setsShortOfGraders: plan.short.length,
        perGrader: [...byGrader].map(([graderId, s]) => ({ graderId, name: names.get(graderId) ?? "", created: s.length })),
      };
      await recordAudit(tx, { actorId, action: "assignment.run", entityType: "Study", entityId: studyId, studyId, after: summary, requestId });
      return summary;
    },
    { timeout: 120_000, maxWait: 10_000 },
  );
}

export interface GraderProgress {
  graderId: string;
  name: string;
  email: string;
  active: boolean;
  assigned: number;
  submitted: number;
  inProgress: number;
  adjudications: number;
}

/** Progress per grader for the lead: done / assigned, drafts, adjudications. */
export async function assignmentProgress(studyId: string): Promise<{ seed: string | null; graders: GraderProgress[]; totals: { assigned: number; submitted: number } }> {
  const db = getDb();
  const [study, members, counts] = await Promise.all([
    db.study.findUniqueOrThrow({ where: { id: studyId }, select: { assignmentSeed: true } }),
    db.studyMember.findMany({ where: { studyId, role: "GRADER" }, select: { active: true, user: { select: { id: true, name: true, email: true, active: true } } } }),
    db.assignment.groupBy({ by: ["graderId", "status", "kind"], where: { studyId, status: { not: "CANCELLED" } }, _count: { _all: true } }),
  ]);
  const graders = members.map((m) => {
    const mine = counts.filter((c) => c.graderId === m.user.id);
    const sum = (f: (c: (typeof counts)[number]) => boolean) => mine.filter(f).reduce((s, c) => s + c._count._all, 0);
    return {
      graderId: m.user.id,
      name: m.user.name,
      email: m.user.email,
      active: m.active && m.user.active,
      assigned: sum(() => true),
      submitted: sum((c) => c.status === "SUBMITTED"),
      inProgress: sum((c) => c.status === "IN_PROGRESS"),
      adjudications: sum((c) => c.kind === "ADJUDICATOR"),
    };
  });
  return {
    seed: study.assignmentSeed,
    graders,
    totals: { assigned: graders.reduce((s, g) => s + g.assigned, 0), submitted: graders.reduce((s, g) => s + g.submitted, 0) },
  };
}
