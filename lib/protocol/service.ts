import { recordAudit } from "@/lib/audit/record";
import { appVersion } from "@/lib/build/version";
import { getDb, type Tx } from "@/lib/db/client";
import { ApiError } from "@/lib/errors/api-error";
import { storedRubrics } from "@/lib/rubrics/study-rubrics";
import { canonicalJson, sha256Hex } from "./canonical";
import type { FreezeProtocolBody, ProtocolState } from "./contract";

/**
 * The frozen protocol (issue #36 item 2): before the first assignment the lead freezes what was
 * planned: rubric documents, design, assignment seed, planned analyses and planner answers. It is
 * stored once, as canonical JSON with its SHA-256, and never updated; a later change of a frozen
 * setting is refused unless the lead gives a reason, and is then kept as a dated amendment.
 */

/** Study settings the protocol freezes (the names PATCH /studies/{id} uses). */
export const FROZEN_SETTINGS = ["rubrics", "repetitions", "gradersPerSet", "thresholds", "escalationRules", "matchSpecialty", "safeLlmScoring"] as const;
export type FrozenSetting = (typeof FROZEN_SETTINGS)[number];

interface ProtocolActor {
  id: string;
  requestId?: string | null;
}

export async function freezeProtocol(actor: ProtocolActor, studyId: string, body: FreezeProtocolBody): Promise<ProtocolState> {
  await getDb().$transaction(async (tx) => {
    // The study row's lock orders a freeze against a racing assignment run and settings change.
    await tx.$queryRaw`SELECT id FROM "Study" WHERE id = ${studyId}::uuid FOR UPDATE`;
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${"assign:" + studyId}))`;
    const study = await tx.study.findUniqueOrThrow({ where: { id: studyId } });
    const existing = await tx.studyProtocol.findUnique({ where: { studyId }, select: { frozenAt: true } });
    if (existing) throw new ApiError(409, `the protocol was frozen on ${existing.frozenAt.toISOString()}: change a frozen setting with a reason (an amendment) instead`);
    // A pairwise study's first assignment is a comparison dealt.
    const assigned = (await tx.assignment.count({ where: { studyId } })) + (await tx.comparisonAssignment.count({ where: { studyId } }));
    if (assigned > 0) throw new ApiError(409, "graders have been assigned already: a protocol is frozen before the first assignment");
    const frozenAt = new Date();
    const protocol = {
      protocolVersion: 1,
      frozenAt: frozenAt.toISOString(),
      software: appVersion(),
      study: { id: study.id, name: study.name, description: study.description },
      rubrics: storedRubrics(study.rubrics),
      design: {
        repetitions: study.repetitions,
        gradersPerSet: study.gradersPerSet,
        thresholds: study.thresholds,
        escalationRules: study.escalationRules,
        matchSpecialty: study.matchSpecialty,
        safeLlmScoring: study.safeLlmScoring,
        assignmentDesign: study.assignmentDesign,
        assignmentSeed: body.assignmentSeed,
        triageRule: study.triageRule ?? null,
      },
      plannedAnalyses: body.plannedAnalyses,
      planner: body.planner ?? [],
    };
    const canonical = canonicalJson(protocol);
    const sha256 = sha256Hex(canonical);
    await tx.studyProtocol.create({ data: { studyId, canonical, sha256, frozenAt, frozenById: actor.id } });
    await recordAudit(tx, { actorId: actor.id, action: "protocol.freeze", entityType: "Study", entityId: studyId, studyId, after: { sha256, frozenAt: protocol.frozenAt }, requestId: actor.requestId });
  });
  return protocolState(studyId);
}

export async function protocolState(studyId: string): Promise<ProtocolState> {
  const db = getDb();
  const [protocol, amendments] = await Promise.all([
    db.studyProtocol.findUnique({ where: { studyId }, include: { frozenBy: { select: { name: true } } } }),
    db.protocolAmendment.findMany({ where: { studyId }, orderBy: { at: "asc" }, include: { by: { select: { name: true } } } }),
  ]);
  return {
    frozen: protocol !== null,
    frozenAt: protocol?.frozenAt.toISOString() ?? null,
    frozenBy: protocol?.frozenBy.name ?? null,
    sha256: protocol?.sha256 ?? null,
    protocol: protocol ? (JSON.parse(protocol.canonical) as Record<string, unknown>) : null,
    amendments: amendments.map((a) => ({ id: a.id, at: a.at.toISOString(), by: a.by.name, fields: a.fields, before: a.before, after: a.after, reason: a.reason })),
  };
}

/** The canonical JSON itself (the bytes the hash is of), or null when nothing is frozen. */
export async function protocolCanonical(studyId: string): Promise<{ canonical: string; sha256: string } | null> {
  return getDb().studyProtocol.findUnique({ where: { studyId }, select: { canonical: true, sha256: true } });
}

/**
 * Called by the settings change inside its transaction (the study row already locked): refuses a
 * change of frozen settings without a reason, and records it as an amendment with one.
 */
export async function guardFrozenSettings(
  tx: Tx,
  actor: ProtocolActor,
  studyId: string,
  changes: { field: string; before: unknown; after: unknown }[],
  reason: string | undefined,
): Promise<void> {
  const frozen = changes.filter((c) => (FROZEN_SETTINGS as readonly string[]).includes(c.field));
  if (frozen.length === 0) return;
  const protocol = await tx.studyProtocol.findUnique({ where: { studyId }, select: { frozenAt: true, sha256: true } });
  if (!protocol) return;
  const fields = frozen.map((c) => c.field);
  if (!reason) {
    throw new ApiError(409, `the protocol was frozen on ${protocol.frozenAt.toISOString()}: ${fields.join(", ")} ${fields.length === 1 ? "is" : "are"} part of it; send amendmentReason to record this change as a dated amendment`, { locked: fields, protocol: protocol.sha256 });
  }
  const before = Object.fromEntries(frozen.map((c) => [c.field, c.before]));
  const after = Object.fromEntries(frozen.map((c) => [c.field, c.after]));
  const amendment = await tx.protocolAmendment.create({ data: { studyId, fields, before: before as object, after: after as object, reason, byId: actor.id } });
  await recordAudit(tx, { actorId: actor.id, action: "protocol.amend", entityType: "ProtocolAmendment", entityId: amendment.id, studyId, before, after: { ...after, reason }, requestId: actor.requestId });
}

/** The assignment run's check: the frozen seed and design, or a 409 naming them. */
export async function frozenAssignment(tx: Tx, studyId: string): Promise<{ seed: string; design: string } | null> {
  const protocol = await tx.studyProtocol.findUnique({ where: { studyId }, select: { canonical: true } });
  if (!protocol) return null;
  const doc = JSON.parse(protocol.canonical) as { design: { assignmentSeed: string; assignmentDesign: string } };
  return { seed: doc.design.assignmentSeed, design: doc.design.assignmentDesign };
}

/** Whether the freeze form applies: no protocol yet and no assignment made. */
export async function protocolCanBeFrozen(studyId: string): Promise<boolean> {
  const db = getDb();
  const [protocol, assigned, dealt] = await Promise.all([db.studyProtocol.count({ where: { studyId } }), db.assignment.count({ where: { studyId } }), db.comparisonAssignment.count({ where: { studyId } })]);
  return protocol === 0 && assigned === 0 && dealt === 0;
}
