import { randomBytes, randomUUID } from "node:crypto";
import { recordAudit } from "@/lib/audit/record";
import { normaliseEmail } from "@/lib/auth/login";
import { getDb, type Tx } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";
import { RUBRICS, type RubricKey } from "@/lib/rubrics/definitions";
import { ApiError } from "@/lib/server/errors";
import { canonicalRubrics } from "@/lib/studies/settings";
import { pickUniqueSlug, randomSlugSuffix } from "@/lib/studies/slug";
import type { StudyArchive } from "./contract";
import { specialtyIdsFor, specialtyKey } from "@/lib/specialties/names";

/**
 * POST /api/v1/study-archives: a `study` document (lib/exports/archive.ts)
 * becomes a new study owned by the caller, with new ids, in ONE transaction.
 * Timestamps of everything below the study are kept (so a re-export matches);
 * the study itself is created now. Graders: with identities, matched to
 * accounts by email (an unknown email gets a deactivated grader account with
 * that email and name); without, each gets a deactivated placeholder account.
 * The audit section, if any, is not replayed: the new study's trail starts
 * with one "study.import_archive" event.
 */
export interface ArchiveProblem {
  path: string;
  message: string;
}

const MAX_PROBLEMS = 200;
const CHUNK = 4000;
/** Not an Argon2 hash, so no password can ever match it (verifyPassword treats a malformed hash as a mismatch). */
const NO_PASSWORD = "!archived-account-without-password";
const setKey = (item: string, model: string) => `${item}\u0000${model}`;

export function checkArchive(doc: StudyArchive): ArchiveProblem[] {
  const problems: ArchiveProblem[] = [];
  const add = (path: string, message: string) => {
    if (problems.length < MAX_PROBLEMS) problems.push({ path, message });
  };
  const rubrics = new Set(doc.study.rubrics);
  if (rubrics.size !== doc.study.rubrics.length) add("study.rubrics", "rubrics must not repeat");
  const unique = <T>(list: T[], key: (x: T) => string, path: string, what: string) => {
    const seen = new Set<string>();
    list.forEach((x, i) => {
      const k = key(x);
      if (seen.has(k)) add(`${path}[${i}]`, `${what} appears twice`);
      seen.add(k);
    });
    return seen;
  };
  const items = unique(doc.items, (i) => i.id, "items", "this item id");
  const models = unique(doc.models, (m) => m.name, "models", "this model name");
  const graders = unique(doc.graders, (g) => g.id, "graders", "this grader id");
  unique(doc.graders.filter((g) => g.email), (g) => normaliseEmail(g.email!), "graders", "this grader email");
  if (doc.identities) doc.graders.forEach((g, i) => !g.email && add(`graders[${i}].email`, "identities is true, so every grader needs an email"));
  const sets = unique(doc.sets, (s) => setKey(s.item, s.model), "sets", "this (item, model) set");
  doc.sets.forEach((s, i) => {
    if (!items.has(s.item)) add(`sets[${i}].item`, `no item ${s.item} in items`);
    if (!models.has(s.model)) add(`sets[${i}].model`, `no model ${s.model} in models`);
    unique(s.answers, (a) => String(a.repetition), `sets[${i}].answers`, "this repetition");
  });
  const assignments = new Map<string, string>();
  doc.assignments.forEach((a, i) => {
    const at = `assignments[${i}]`;
    if (!sets.has(setKey(a.item, a.model))) add(at, `no set for item ${a.item} and model ${a.model}`);
    if (!graders.has(a.grader)) add(`${at}.grader`, `no grader ${a.grader} in graders`);
    const k = `${a.grader}\u0000${setKey(a.item, a.model)}`;
    if (assignments.has(k)) add(at, "a grader has one assignment per set");
    assignments.set(k, a.kind);
    if (a.harmFlag && !a.harmComment?.trim()) add(`${at}.harmComment`, "a harm flag needs a comment");
    const cells = new Set<string>();
    a.grades.forEach((g, j) => {
      const gp = `${at}.grades[${j}]`;
      const def = RUBRICS[g.rubric as RubricKey].dimensions.find((d) => d.key === g.dimension);
      if (!rubrics.has(g.rubric)) add(gp, `the study does not use the rubric ${g.rubric}`);
      if (!def) return add(gp, `${g.dimension} is not a dimension of ${g.rubric}`);
      if (g.score < def.min || g.score > def.max) add(`${gp}.score`, `${g.rubric} ${g.dimension} scores are ${def.min}..${def.max}`);
      if ((g.repetition === 0) !== (def.scope === "set")) add(`${gp}.repetition`, def.scope === "set" ? "must be 0 (graded once for the set)" : "must be 1..N");
      const c = `${g.rubric}/${g.dimension}/${g.repetition}`;
      if (cells.has(c)) add(gp, "this score appears twice");
      cells.add(c);
    });
  });
  unique(doc.escalations, (e) => setKey(e.item, e.model), "escalations", "an escalation of this set");
  doc.escalations.forEach((e, i) => {
    if (!sets.has(setKey(e.item, e.model))) add(`escalations[${i}]`, `no set for item ${e.item} and model ${e.model}`);
    if (e.adjudicator && assignments.get(`${e.adjudicator}\u0000${setKey(e.item, e.model)}`) !== "ADJUDICATOR") {
      add(`escalations[${i}].adjudicator`, `grader ${e.adjudicator} has no ADJUDICATOR assignment on this set`);
    }
  });
  return problems;
}

function chunks<T>(rows: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += CHUNK) out.push(rows.slice(i, i + CHUNK));
  return out;
}

const d = (s: string) => new Date(s);
const dn = (s: string | null) => (s === null ? null : new Date(s));
const json = (v: unknown) => (v === null || v === undefined ? Prisma.DbNull : (v as Prisma.InputJsonValue));

export interface ImportedArchive {
  id: string;
  slug: string;
  placeholders: number;
  matchedAccounts: number;
}

export async function importArchive(doc: StudyArchive, actor: { id: string; requestId?: string | null }): Promise<ImportedArchive> {
  const problems = checkArchive(doc);
  if (problems.length) throw new ApiError(422, `${problems.length >= MAX_PROBLEMS ? `${MAX_PROBLEMS}+` : problems.length} problems in the document; nothing was imported`, { problems });
  for (let attempt = 0; ; attempt++) {
    try {
      return await getDb().$transaction((tx) => write(tx, doc, actor, attempt), { timeout: 15 * 60_000, maxWait: 30_000 });
    } catch (err) {
      const slugClash = err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002" && JSON.stringify(err.meta ?? {}).includes("slug");
      if (slugClash && attempt < 2) continue;
      throw err;
    }
  }
}

async function write(tx: Tx, doc: StudyArchive, actor: { id: string; requestId?: string | null }, attempt: number): Promise<ImportedArchive> {
  const s = doc.study;
  const taken = await tx.study.findMany({ where: { slug: { startsWith: s.slug } }, select: { slug: true } });
  const slug = attempt < 1 ? pickUniqueSlug(s.slug, taken.map((t) => t.slug)) : randomSlugSuffix(s.slug);
  const study = await tx.study.create({
    data: {
      name: s.name,
      slug,
      description: s.description,
      rubrics: canonicalRubrics(s.rubrics),
      repetitions: s.repetitions,
      gradersPerSet: s.gradersPerSet,
      thresholds: s.thresholds,
      showReferenceAnswer: s.showReferenceAnswer,
      matchSpecialty: s.matchSpecialty,
      safeLlmScoring: s.safeLlmScoring,
      assignmentSeed: s.assignmentSeed,
      status: s.status,
      openedAt: dn(s.openedAt),
      closedAt: dn(s.closedAt),
      createdById: actor.id,
      members: { create: { userId: actor.id, role: "LEAD" } },
    },
  });

  // Specialties are shared by the whole instance: matched by name, whatever its case.
  const specialtyNames = [...new Set([...doc.specialties, ...doc.items.map((i) => i.specialty), ...doc.graders.flatMap((g) => g.specialties)])];
  const idsByKey = await specialtyIdsFor(tx, specialtyNames);
  const specialtyId = new Map(specialtyNames.map((name) => [name, idsByKey.get(specialtyKey(name))!]));

  // Graders: accounts by email, else deactivated placeholders.
  const userOf = new Map<string, string>();
  let placeholders = 0;
  let matchedAccounts = 0;
  const emails = doc.graders.filter((g) => g.email).map((g) => normaliseEmail(g.email!));
  const existing = new Map((await tx.user.findMany({ where: { email: { in: emails } }, select: { id: true, email: true } })).map((u) => [u.email, u.id]));
  for (const g of doc.graders) {
    const email = g.email ? normaliseEmail(g.email) : null;
    const found = email ? existing.get(email) : undefined;
    if (found) {
      userOf.set(g.id, found);
      matchedAccounts++;
      continue;
    }
    const user = await tx.user.create({
      data: {
        email: email ?? `archived-${randomBytes(8).toString("hex")}@placeholder.invalid`,
        name: g.name ?? `Archived grader ${g.id} (${slug})`,
        role: "GRADER",
        active: false,
        passwordHash: NO_PASSWORD,
      },
      select: { id: true },
    });
    userOf.set(g.id, user.id);
    placeholders++;
  }
  const members = doc.graders.filter((g) => g.membership && userOf.get(g.id) !== actor.id);
  if (members.length) {
    await tx.studyMember.createMany({
      data: members.map((g) => ({ studyId: study.id, userId: userOf.get(g.id)!, role: "GRADER" as const, active: g.membership!.active, addedAt: d(g.membership!.addedAt) })),
    });
    // The archive's specialties are the grader's in this study only, never their account's.
    await tx.studyMemberSpecialty.createMany({
      data: members.flatMap((g) => g.specialties.map((name) => ({ studyId: study.id, userId: userOf.get(g.id)!, specialtyId: specialtyId.get(name)! }))),
      skipDuplicates: true,
    });
  }

  const modelId = new Map(doc.models.map((m) => [m.name, randomUUID()]));
  await tx.llmModel.createMany({
    data: doc.models.map((m) => ({
      id: modelId.get(m.name)!,
      studyId: study.id,
      name: m.name,
      version: m.version,
      temperature: m.temperature,
      topP: m.topP,
      settings: json(m.settings),
      createdAt: d(m.createdAt),
    })),
  });
  const itemId = new Map(doc.items.map((i) => [i.id, randomUUID()]));
  for (const part of chunks(doc.items)) {
    await tx.qaItem.createMany({
      data: part.map((i) => ({
        id: itemId.get(i.id)!,
        studyId: study.id,
        externalId: i.id,
        question: i.question,
        referenceAnswer: i.referenceAnswer,
        specialtyId: specialtyId.get(i.specialty)!,
        createdAt: d(i.createdAt),
        updatedAt: d(i.updatedAt),
      })),
    });
  }
  const setId = new Map(doc.sets.map((x) => [setKey(x.item, x.model), randomUUID()]));
  for (const part of chunks(doc.sets)) {
    await tx.responseSet.createMany({
      data: part.map((x) => ({
        id: setId.get(setKey(x.item, x.model))!,
        studyId: study.id,
        itemId: itemId.get(x.item)!,
        modelId: modelId.get(x.model)!,
        status: x.status,
        createdAt: d(x.createdAt),
        updatedAt: d(x.updatedAt),
      })),
    });
  }
  const answers = doc.sets.flatMap((x) => x.answers.map((a) => ({ responseSetId: setId.get(setKey(x.item, x.model))!, repetition: a.repetition, text: a.text, createdAt: d(a.createdAt), updatedAt: d(a.updatedAt) })));
  for (const part of chunks(answers)) await tx.response.createMany({ data: part });

  const assignmentId = new Map<string, string>();
  const assignmentRows = doc.assignments.map((a) => {
    const id = randomUUID();
    assignmentId.set(`${a.grader}\u0000${setKey(a.item, a.model)}`, id);
    return {
      id,
      responseSetId: setId.get(setKey(a.item, a.model))!,
      studyId: study.id,
      graderId: userOf.get(a.grader)!,
      kind: a.kind,
      position: a.position,
      status: a.status,
      timeSpentMs: a.timeSpentMs,
      harmFlag: a.harmFlag,
      harmComment: a.harmComment,
      createdAt: d(a.createdAt),
      updatedAt: d(a.updatedAt),
      startedAt: dn(a.startedAt),
      submittedAt: dn(a.submittedAt),
    };
  });
  for (const part of chunks(assignmentRows)) await tx.assignment.createMany({ data: part });
  const grades = doc.assignments.flatMap((a, i) =>
    a.grades.map((g) => ({
      assignmentId: assignmentRows[i].id,
      rubric: g.rubric,
      dimension: g.dimension,
      repetition: g.repetition,
      score: g.score,
      comment: g.comment,
      createdAt: d(g.createdAt),
      updatedAt: d(g.updatedAt),
    })),
  );
  for (const part of chunks(grades)) await tx.grade.createMany({ data: part });

  const toUser = (docId: string) => userOf.get(docId) ?? docId;
  for (const part of chunks(doc.escalations)) {
    await tx.escalation.createMany({
      data: part.map((e) => ({
        responseSetId: setId.get(setKey(e.item, e.model))!,
        status: e.status,
        dimensions: e.dimensions.map((dim) =>
          dim.values ? { ...dim, values: Object.fromEntries(Object.entries(dim.values).map(([k, v]) => [toUser(k), v])) } : dim,
        ) as Prisma.InputJsonValue,
        adjudicatorAssignmentId: e.adjudicator ? assignmentId.get(`${e.adjudicator}\u0000${setKey(e.item, e.model)}`)! : null,
        createdAt: d(e.createdAt),
        updatedAt: d(e.updatedAt),
        resolvedAt: dn(e.resolvedAt),
      })),
    });
  }

  await recordAudit(tx, {
    actorId: actor.id,
    action: "study.import_archive",
    entityType: "Study",
    entityId: study.id,
    studyId: study.id,
    after: {
      slug,
      source: doc.source,
      exportedAt: doc.exportedAt,
      identities: doc.identities,
      counts: { items: doc.items.length, models: doc.models.length, sets: doc.sets.length, answers: answers.length, graders: doc.graders.length, assignments: doc.assignments.length, grades: grades.length, escalations: doc.escalations.length },
      placeholderAccounts: placeholders,
      matchedAccounts,
    },
    requestId: actor.requestId,
  });
  return { id: study.id, slug, placeholders, matchedAccounts };
}
