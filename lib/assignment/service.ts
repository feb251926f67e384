import { storedRubrics } from "@/lib/rubrics/study-rubrics";
import { randomBytes } from "node:crypto";
import { recordAudit } from "@/lib/audit/record";
import { getDb, type Tx } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";
import { lockSetsSql } from "@/lib/db/set-lock";
import { setExcludedByScreenSql } from "@/lib/screening/sql";
import { prismaSql } from "@/lib/db/sql";
import { dealQualityTasks } from "@/lib/quality-tasks/deal";
import { createAdjudicatorAssignment, pickAdjudicator } from "@/lib/escalation/service";
import { frozenAssignment } from "@/lib/protocol/service";
import { ApiError } from "@/lib/errors/api-error";
import { DESIGN_LABEL, gradersNeeded, type AssignmentDesign } from "@/lib/studies/assignment-design";
import { orderForGrader, planAssignments } from "./plan";

export interface AssignmentRunSummary {
  seed: string;
  matchSpecialty: boolean;
  design: AssignmentDesign;
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
  opts: { seed?: string; matchSpecialty?: boolean; design?: AssignmentDesign },
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
      // A pairwise study's work is its comparisons (lib/pairwise), never its response sets.
      if (study.design === "PAIRWISE") throw new ApiError(409, "a pairwise study deals comparisons: POST /api/v1/studies/{id}/comparison-assignments");
      // A frozen protocol fixes the seed and the design: the run it planned is the run made.
      const frozen = await frozenAssignment(tx, studyId);
      if (frozen && opts.seed !== undefined && opts.seed !== frozen.seed) throw new ApiError(409, `the frozen protocol fixes the assignment seed to "${frozen.seed}"`, { locked: ["seed"] });
      if (frozen && opts.design !== undefined && opts.design !== frozen.design) throw new ApiError(409, `the frozen protocol fixes the assignment design to ${frozen.design}`, { locked: ["design"] });
      if (frozen && opts.matchSpecialty !== undefined && opts.matchSpecialty !== study.matchSpecialty) throw new ApiError(409, "the frozen protocol fixes specialty matching: change it with a reason (an amendment) in the study's settings first", { locked: ["matchSpecialty"] });
      const seed = opts.seed ?? frozen?.seed ?? randomBytes(6).toString("hex");
      const matchSpecialty = opts.matchSpecialty ?? study.matchSpecialty;
      const design = opts.design ?? (frozen?.design as AssignmentDesign | undefined) ?? study.assignmentDesign;
      if (design === "ONE_MODEL_PER_QUESTION" && study.assignmentDesign !== design) await checkOneModelSoFar(tx, studyId);

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

      const completeSets = await tx.$queryRaw<{ id: string; specialtyId: string; itemId: string; modelId: string }[]>`
        SELECT rs.id, qi."specialtyId", rs."itemId", rs."modelId"
        FROM "ResponseSet" rs JOIN "QaItem" qi ON qi.id = rs."itemId"
        WHERE rs."studyId" = ${studyId}::uuid
          -- Hybrid mode: a set whose final scores are a judge's is never given to clinicians.
          AND rs."finalJudgeId" IS NULL
          -- A calibration or gold set is never primary work: its grades live apart (lib/quality-tasks).
          AND NOT EXISTS (SELECT 1 FROM "QualitySet" qs WHERE qs."responseSetId" = rs.id)
          -- The safety screen in exclude mode: its screened sets are not given to graders (lib/screening).
          AND NOT ${setExcludedByScreenSql(Prisma.sql`rs.id`, Prisma.sql`${studyId}::uuid`)}
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
      const primaries = new Map<string, string[]>();
      const load = new Map<string, number>();
      for (const a of existing) {
        onSet.set(a.responseSetId, [...(onSet.get(a.responseSetId) ?? []), a.graderId]);
        if (a.kind === "PRIMARY" && a.status !== "CANCELLED") {
          primaries.set(a.responseSetId, [...(primaries.get(a.responseSetId) ?? []), a.graderId]);
          load.set(a.graderId, (load.get(a.graderId) ?? 0) + 1);
        }
      }
      const graders = members.map((m) => ({ id: m.user.id, specialtyIds: m.specialties.map((s) => s.specialtyId), load: load.get(m.user.id) ?? 0 }));
      if (design === "ONE_MODEL_PER_QUESTION") checkEnoughGraders(completeSets, graders, study.gradersPerSet, matchSpecialty, primaries);
      const plan = planAssignments({
        sets: completeSets.map((s) => ({
          id: s.id,
          specialtyId: s.specialtyId,
          itemId: s.itemId,
          modelId: s.modelId,
          graderIds: onSet.get(s.id) ?? [],
          primaryGraderIds: primaries.get(s.id) ?? [],
          primaryCount: primaries.get(s.id)?.length ?? 0,
        })),
        graders,
        gradersPerSet: study.gradersPerSet,
        seed,
        matchSpecialty,
        design,
      });

      const byGrader = new Map<string, string[]>();
      for (const a of plan.assignments) byGrader.set(a.graderId, [...(byGrader.get(a.graderId) ?? []), a.setId]);
      // Each grader's last queued set (any study): where their new work starts, and its question,
      // so that the first new set is not the same question's other model.
      const lastQueued = byGrader.size
        ? await tx.$queryRaw<{ graderId: string; position: number; itemId: string }[]>`
            SELECT DISTINCT ON (a."graderId") a."graderId", a.position, rs."itemId"
            FROM "Assignment" a JOIN "ResponseSet" rs ON rs.id = a."responseSetId"
            WHERE a."graderId" IN (${Prisma.join([...byGrader.keys()].map((g) => Prisma.sql`${g}::uuid`))})
            ORDER BY a."graderId", a.position DESC`
        : [];
      const last = new Map(lastQueued.map((m) => [m.graderId, m]));
      const itemOf = new Map(completeSets.map((s) => [s.id, s.itemId]));
      const rows: Prisma.AssignmentCreateManyInput[] = [];
      for (const [graderId, setIds] of byGrader) {
        const prev = last.get(graderId);
        const positions = orderForGrader(setIds.map((id) => ({ id, itemId: itemOf.get(id) })), graderId, seed, prev ? prev.position + 1 : 0, prev?.itemId);
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

      await tx.study.update({ where: { id: studyId }, data: { assignmentSeed: seed, matchSpecialty, assignmentDesign: design } });
      // New work brings its gold share, and graders new to the study their calibration round (under the study lock held above).
      await dealQualityTasks(prismaSql(tx), studyId, { actorId, requestId });
      const names = new Map(members.map((m) => [m.user.id, m.user.name]));
      const summary: AssignmentRunSummary = {
        seed,
        matchSpecialty,
        design,
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

/**
 * One model per question needs k graders for each model's set of a question, all
 * different: k x M eligible graders (of the question's specialty when matching).
 * Too few is the lead's to fix (add graders or keep today's design), so it is a
 * 422 naming the numbers, before anything is written.
 */
function checkEnoughGraders(
  sets: { id: string; specialtyId: string; itemId: string }[],
  graders: { id: string; specialtyIds: string[] }[],
  k: number,
  matchSpecialty: boolean,
  primaries: Map<string, string[]>,
) {
  const perItem = new Map<string, { specialtyId: string; sets: number; open: boolean }>();
  for (const s of sets) {
    const it = perItem.get(s.itemId) ?? { specialtyId: s.specialtyId, sets: 0, open: false };
    it.sets++;
    if ((primaries.get(s.id)?.length ?? 0) < k) it.open = true;
    perItem.set(s.itemId, it);
  }
  let worst: { need: number; have: number; models: number; specialtyId: string } | null = null;
  for (const it of perItem.values()) {
    if (!it.open) continue;
    const need = gradersNeeded(k, it.sets);
    const have = graders.filter((g) => !matchSpecialty || g.specialtyIds.includes(it.specialtyId)).length;
    if (have < need && (!worst || need - have > worst.need - worst.have)) worst = { need, have, models: it.sets, specialtyId: it.specialtyId };
  }
  if (worst) {
    throw new ApiError(
      422,
      `too few graders for "each grader sees at most one model per question": it needs at least k x models = ${k} x ${worst.models} = ${worst.need} active graders${
        matchSpecialty ? " of the question's specialty" : ""
      }, the study has ${worst.have}. Add graders or assign with the load-balanced design.`,
    );
  }
}

/** Switching to one model per question is only honest if no grader already holds two models of one question. */
async function checkOneModelSoFar(tx: Tx, studyId: string) {
  const [row] = await tx.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM (
      SELECT a."graderId", rs."itemId" FROM "Assignment" a JOIN "ResponseSet" rs ON rs.id = a."responseSetId"
      WHERE a."studyId" = ${studyId}::uuid AND a.status <> 'CANCELLED'
      GROUP BY a."graderId", rs."itemId" HAVING count(*) > 1) x`;
  if (row.n > 0) {
    throw new ApiError(
      409,
      `graders already hold two models' answers to the same question (${row.n} grader-question pair${row.n === 1 ? "" : "s"}), assigned with the load-balanced design: "${DESIGN_LABEL.ONE_MODEL_PER_QUESTION}" can only be chosen before that`,
    );
  }
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
  /** Pending or started: what an inactive grader leaves for "Assign graders" to move. */
  open: number;
  openAdjudications: number;
}

/** Progress per grader for the lead: done / assigned, drafts, adjudications. */
export async function assignmentProgress(
  studyId: string,
): Promise<{ seed: string | null; design: AssignmentDesign; graders: GraderProgress[]; totals: { assigned: number; submitted: number } }> {
  const db = getDb();
  const [study, members, counts] = await Promise.all([
    db.study.findUniqueOrThrow({ where: { id: studyId }, select: { assignmentSeed: true, assignmentDesign: true } }),
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
      open: sum((c) => c.status !== "SUBMITTED"),
      openAdjudications: sum((c) => c.kind === "ADJUDICATOR" && c.status !== "SUBMITTED"),
    };
  });
  return {
    seed: study.assignmentSeed,
    design: study.assignmentDesign,
    graders,
    totals: { assigned: graders.reduce((s, g) => s + g.assigned, 0), submitted: graders.reduce((s, g) => s + g.submitted, 0) },
  };
}
