import { recordAudit } from "@/lib/audit/record";
import { graderFacingTitle } from "./grader-title";
import { getDb, type Db, type Tx } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";
import type { Study } from "@/lib/generated/prisma/client";
import { repetitionProblems } from "@/lib/rubrics/document";
import { designRubricProblems } from "@/lib/rubrics/preference";
import { resolveRubrics, storedRubrics } from "@/lib/rubrics/study-rubrics";
import { mentionTerms } from "@/lib/blinding/terms";
import { modelNamesInGraderText } from "@/lib/blinding/grader-text";
import { ApiError } from "@/lib/errors/api-error";
import { guardFrozenSettings } from "@/lib/protocol/service";
import { completeSetsSql } from "./items";
import { LOCK_REASONS, lockedSettingsChange, lockMessage, type LockedSetting } from "./locks";
import type { CreateStudy, StudySettings, UpdateStudy } from "./settings";
import { defaultThresholds, escalationRuleProblems, mergeEscalationRules, mergeThresholds, storedEscalationRules, storedThresholds, thresholdProblems } from "./thresholds";

export type { StudySettings };
import { pickUniqueSlug, randomSlugSuffix, slugify } from "./slug";
import { statusTransition, transitionTimestamps } from "./status";

/** Who is acting, and the request that carries the change (for the audit trail). */
export interface Actor {
  id: string;
  requestId?: string | null;
}

const SETTING_KEYS = [
  "name",
  "graderTitle",
  "description",
  "rubrics",
  "repetitions",
  "gradersPerSet",
  "thresholds",
  "escalationRules",
  "showReferenceAnswer",
  "askContradictions",
  "matchSpecialty",
  "safeLlmScoring",
  "tieDisagrees",
] as const;
type SettingKey = (typeof SETTING_KEYS)[number];

export function settingsOf(study: Study): StudySettings {
  const rubricDocuments = storedRubrics(study.rubrics);
  return {
    name: study.name,
    graderTitle: study.graderTitle,
    description: study.description,
    rubrics: rubricDocuments.map((r) => r.key),
    rubricDocuments,
    repetitions: study.repetitions,
    gradersPerSet: study.gradersPerSet,
    thresholds: storedThresholds(study.thresholds, rubricDocuments),
    escalationRules: storedEscalationRules(study.escalationRules, rubricDocuments),
    showReferenceAnswer: study.showReferenceAnswer,
    askContradictions: study.askContradictions,
    matchSpecialty: study.matchSpecialty,
    safeLlmScoring: study.safeLlmScoring,
    tieDisagrees: study.tieDisagrees,
  };
}

const isUniqueViolation = (err: unknown, field: string) =>
  err instanceof Prisma.PrismaClientKnownRequestError &&
  err.code === "P2002" &&
  JSON.stringify(err.meta ?? {}).includes(field);

/**
 * Creates a study in DRAFT with the creator as its LEAD member. The slug comes
 * from the name, with -2, -3... on a clash; if another study takes the same
 * slug between our read and our insert, the unique index refuses it and we
 * try again (finally with a random suffix).
 */
export async function createStudy(actor: Actor, input: CreateStudy): Promise<{ id: string; slug: string }> {
  const db = getDb();
  const base = slugify(input.name);
  const resolved = resolveRubrics(input.rubrics, input.repetitions);
  if (!resolved.ok) throw new ApiError(422, "invalid input", resolved.problems);
  const rubrics = resolved.rubrics;
  const design = input.design === "pairwise" ? "PAIRWISE" : "SCORING";
  const designProblems = designRubricProblems(design, rubrics);
  if (designProblems.length) throw new ApiError(422, "invalid input", designProblems);
  const problems = [...thresholdProblems(input.thresholds ?? {}, rubrics), ...escalationRuleProblems(input.escalationRules ?? {}, rubrics)];
  if (problems.length) throw new ApiError(422, "invalid input", problems);
  const thresholds = mergeThresholds(defaultThresholds(rubrics), input.thresholds);
  const escalationRules = mergeEscalationRules({}, input.escalationRules, rubrics);
  for (let attempt = 0; ; attempt++) {
    const taken = await db.study.findMany({ where: { slug: { startsWith: base } }, select: { slug: true } });
    const slug = attempt < 2 ? pickUniqueSlug(base, taken.map((s) => s.slug)) : randomSlugSuffix(base);
    try {
      return await db.$transaction(async (tx) => {
        const study = await tx.study.create({
          data: {
            name: input.name,
            graderTitle: input.graderTitle,
            slug,
            description: input.description,
            rubrics,
            repetitions: input.repetitions,
            gradersPerSet: input.gradersPerSet,
            thresholds,
            escalationRules,
            showReferenceAnswer: input.showReferenceAnswer,
            askContradictions: input.askContradictions,
            matchSpecialty: input.matchSpecialty,
            safeLlmScoring: input.safeLlmScoring,
            design,
            tieDisagrees: input.tieDisagrees,
            createdById: actor.id,
            members: { create: { userId: actor.id, role: "LEAD" } },
          },
        });
        await recordAudit(tx, {
          actorId: actor.id,
          action: "study.create",
          entityType: "Study",
          entityId: study.id,
          studyId: study.id,
          after: { slug, status: study.status, design: study.design, ...settingsOf(study) },
          requestId: actor.requestId,
        });
        return { id: study.id, slug };
      });
    } catch (err) {
      if (attempt < 3 && isUniqueViolation(err, "slug")) continue;
      throw err;
    }
  }
}

/**
 * Grading has started once any grade exists for the study's assignments or
 * any assignment is submitted (a submission without a grade row would be a
 * bug elsewhere, but it still means a grader's work depends on the settings).
 */
export async function gradingStarted(db: Db | Tx, studyId: string): Promise<boolean> {
  // Driven from the study's response sets (indexed by study) down to their
  // assignments and grades, so the cost follows this study's size, not the
  // size of the whole Grade table; EXISTS stops at the first hit.
  const [row] = await db.$queryRaw<{ started: boolean }[]>`
    SELECT EXISTS (
      SELECT 1 FROM "ResponseSet" rs
      JOIN "Assignment" a ON a."responseSetId" = rs.id
      WHERE rs."studyId" = ${studyId}::uuid
        AND (a.status = 'SUBMITTED' OR EXISTS (SELECT 1 FROM "Grade" g WHERE g."assignmentId" = a.id))
    ) OR EXISTS (
      -- A pairwise study's work (lib/pairwise): a submitted comparison or any preference saved.
      SELECT 1 FROM "ComparisonAssignment" ca
      WHERE ca."studyId" = ${studyId}::uuid
        AND (ca.status = 'SUBMITTED' OR EXISTS (SELECT 1 FROM "Preference" p WHERE p."assignmentId" = ca.id))
    ) AS started`;
  return Boolean(row?.started);
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Applies a settings patch and/or a status change in one transaction, with
 * one audit event for the settings (before/after of the fields that changed)
 * and one for the transition. The study row is locked first, so two leads
 * saving at once are applied one after the other and each is checked
 * against the other's result.
 */
export async function updateStudy(actor: Actor, studyId: string, patch: UpdateStudy): Promise<{ changed: SettingKey[]; status: Study["status"] }> {
  return getDb().$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM "Study" WHERE id = ${studyId}::uuid FOR UPDATE`;
    const study = await tx.study.findUnique({ where: { id: studyId } });
    if (!study) throw new ApiError(404, "study not found");
    const current = settingsOf(study);

    const next: Partial<StudySettings> = {};
    if (patch.name !== undefined) next.name = patch.name;
    if (patch.graderTitle !== undefined) next.graderTitle = patch.graderTitle;
    if (patch.description !== undefined) next.description = patch.description;
    if (patch.repetitions !== undefined) next.repetitions = patch.repetitions;
    const n = next.repetitions ?? current.repetitions;
    if (patch.rubrics !== undefined) {
      const resolved = resolveRubrics(patch.rubrics, n);
      if (!resolved.ok) throw new ApiError(422, "invalid input", resolved.problems);
      const designProblems = designRubricProblems(study.design, resolved.rubrics);
      if (designProblems.length) throw new ApiError(422, "invalid input", designProblems);
      next.rubricDocuments = resolved.rubrics;
      next.rubrics = resolved.rubrics.map((r) => r.key);
    } else if (patch.repetitions !== undefined) {
      const problems = current.rubricDocuments.flatMap((r, i) => repetitionProblems(r, n).map((p) => ({ path: `rubrics.${i}.${p.path}`, message: p.message })));
      if (problems.length) throw new ApiError(422, "invalid input", [
        { path: "repetitions", message: "one answer per prompt: the study's rubrics grade across answers; send the rubrics again (a template drops those dimensions for N = 1)" },
        ...problems,
      ]);
    }
    const docs = next.rubricDocuments ?? current.rubricDocuments;
    if (patch.gradersPerSet !== undefined) next.gradersPerSet = patch.gradersPerSet;
    if (patch.thresholds !== undefined || patch.escalationRules !== undefined) {
      const problems = [...thresholdProblems(patch.thresholds ?? {}, docs), ...escalationRuleProblems(patch.escalationRules ?? {}, docs)];
      if (problems.length) throw new ApiError(422, "invalid input", problems);
    }
    // New rubrics bring their own thresholds and rules; a patch applies over them.
    if (patch.thresholds !== undefined || next.rubricDocuments) {
      next.thresholds = mergeThresholds(next.rubricDocuments ? defaultThresholds(docs) : current.thresholds, patch.thresholds);
    }
    if (patch.escalationRules !== undefined || next.rubricDocuments) {
      next.escalationRules = mergeEscalationRules(next.rubricDocuments ? {} : current.escalationRules, patch.escalationRules, docs);
    }
    if (patch.showReferenceAnswer !== undefined) next.showReferenceAnswer = patch.showReferenceAnswer;
    if (patch.askContradictions !== undefined) next.askContradictions = patch.askContradictions;
    if (patch.matchSpecialty !== undefined) next.matchSpecialty = patch.matchSpecialty;
    if (patch.safeLlmScoring !== undefined) next.safeLlmScoring = patch.safeLlmScoring;
    const changed = SETTING_KEYS.filter((k) => k in next && !sameValue(next[k], current[k]));
    if (changed.includes("rubrics") || (next.rubricDocuments && !sameValue(next.rubricDocuments, current.rubricDocuments))) {
      if (!changed.includes("rubrics")) changed.push("rubrics");
    }

    if (next.rubricDocuments || next.graderTitle !== undefined || patch.status === "OPEN") {
      const models = await tx.llmModel.findMany({ where: { studyId }, select: { name: true, version: true } });
      const named = modelNamesInGraderText(docs, next.graderTitle ?? current.graderTitle, mentionTerms(models));
      if (named.length) throw new ApiError(422, "the text graders read would name a model", named);
    }

    // A closed study's results are frozen: what escalated stays as decided (reopen it first).
    const frozen = (["thresholds", "escalationRules"] as const).filter((k) => changed.includes(k));
    if (study.status === "CLOSED" && patch.status !== "OPEN" && frozen.length && !next.rubricDocuments) {
      throw new ApiError(409, `the study is closed, so its results are frozen: ${frozen.join(" and ")} can no longer change (reopen the study to change them)`, { locked: frozen });
    }

    const started = changed.some((k) => k in LOCK_REASONS) ? await gradingStarted(tx, studyId) : false;
    const locked = lockedSettingsChange(current, next, started);
    if (locked.length) throw new ApiError(409, lockMessage(locked, study.name), { locked });

    const transition = patch.status ? statusTransition(study.status, patch.status) : null;
    if (transition && !transition.ok) throw new ApiError(409, transition.message, { status: study.status });

    const valueOf = (k: SettingKey, s: Partial<StudySettings>) => (k === "rubrics" ? s.rubricDocuments : s[k]);
    await guardFrozenSettings(tx, actor, studyId, changed.map((k) => ({ field: k, before: valueOf(k, current), after: valueOf(k, next) })), patch.amendmentReason);

    if (changed.length === 0 && !transition) return { changed, status: study.status };

    const data: Prisma.StudyUpdateInput = {};
    for (const key of changed) Object.assign(data, { [key]: key === "rubrics" ? next.rubricDocuments : next[key] });
    if (transition?.ok) Object.assign(data, { status: patch.status }, transitionTimestamps(transition.action, new Date()));
    const updated = await tx.study.update({ where: { id: studyId }, data });

    if (changed.length) {
      await recordAudit(tx, {
        actorId: actor.id,
        action: "study.update",
        entityType: "Study",
        entityId: studyId,
        studyId,
        before: Object.fromEntries(changed.map((k) => [k, k === "rubrics" ? current.rubricDocuments : current[k]])),
        after: Object.fromEntries(changed.map((k) => [k, k === "rubrics" ? next.rubricDocuments : next[k]])),
        requestId: actor.requestId,
      });
    }
    if (transition?.ok) {
      await recordAudit(tx, {
        actorId: actor.id,
        action: transition.action,
        entityType: "Study",
        entityId: studyId,
        studyId,
        before: { status: study.status, openedAt: study.openedAt, closedAt: study.closedAt },
        after: { status: updated.status, openedAt: updated.openedAt, closedAt: updated.closedAt },
        requestId: actor.requestId,
      });
    }
    return { changed, status: updated.status };
  });
}

export interface StudyCounts {
  items: number;
  models: number;
  responseSets: number;
  /** Response sets holding all N answers (repetitions 1..N). */
  completeResponseSets: number;
  graders: number;
  activeGraders: number;
  /** Assignments not cancelled, and of those the submitted ones. */
  assignments: number;
  submittedAssignments: number;
}

export interface StudyDetail extends StudySettings {
  id: string;
  slug: string;
  /** The title graders see (lib/studies/grader-title.ts). */
  graderFacingTitle: string;
  status: Study["status"];
  createdAt: Date;
  updatedAt: Date;
  openedAt: Date | null;
  closedAt: Date | null;
  createdBy: { id: string; name: string };
  /** Chosen when assigning (lib/assignment/design.ts). */
  assignmentDesign: Study["assignmentDesign"];
  /** scoring or pairwise, chosen at creation; a pairwise study's last planned pair design and its seed. */
  design: "scoring" | "pairwise";
  pairDesign: unknown;
  pairSeed: string | null;
  counts: StudyCounts;
  gradingStarted: boolean;
  /** Settings that can no longer change (gradersPerSet: only lowering is refused). */
  lockedSettings: LockedSetting[];
}

/** Settings and counts of one study: a handful of indexed counts, no per-row work in JS. */
export async function studyDetail(studyId: string): Promise<StudyDetail | null> {
  const db = getDb();
  const study = await db.study.findUnique({ where: { id: studyId }, include: { createdBy: { select: { id: true, name: true } } } });
  if (!study) return null;
  const [items, models, responseSets, complete, members, assignments, started] = await Promise.all([
    db.qaItem.count({ where: { studyId } }),
    db.llmModel.count({ where: { studyId } }),
    db.responseSet.count({ where: { studyId } }),
    db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM (${completeSetsSql(studyId, study.repetitions)}) c`,
    db.studyMember.groupBy({ by: ["active"], where: { studyId, role: "GRADER" }, _count: { _all: true } }),
    db.$queryRaw<{ total: number; submitted: number }[]>`
      SELECT count(*) FILTER (WHERE a.status <> 'CANCELLED')::int AS total,
             count(*) FILTER (WHERE a.status = 'SUBMITTED')::int AS submitted
      FROM "Assignment" a JOIN "ResponseSet" rs ON rs.id = a."responseSetId"
      WHERE rs."studyId" = ${studyId}::uuid`,
    gradingStarted(db, studyId),
  ]);
  const activeGraders = members.find((m) => m.active)?._count._all ?? 0;
  const inactive = members.find((m) => !m.active)?._count._all ?? 0;
  return {
    id: study.id,
    slug: study.slug,
    status: study.status,
    ...settingsOf(study),
    graderFacingTitle: graderFacingTitle(study),
    createdAt: study.createdAt,
    updatedAt: study.updatedAt,
    openedAt: study.openedAt,
    closedAt: study.closedAt,
    createdBy: study.createdBy,
    assignmentDesign: study.assignmentDesign,
    design: study.design === "PAIRWISE" ? "pairwise" : "scoring",
    pairDesign: study.pairDesign ?? null,
    pairSeed: study.pairSeed,
    counts: {
      items,
      models,
      responseSets,
      completeResponseSets: complete[0]?.n ?? 0,
      graders: activeGraders + inactive,
      activeGraders,
      assignments: assignments[0]?.total ?? 0,
      submittedAssignments: assignments[0]?.submitted ?? 0,
    },
    gradingStarted: started,
    lockedSettings: started ? (Object.keys(LOCK_REASONS) as LockedSetting[]) : [],
  };
}
