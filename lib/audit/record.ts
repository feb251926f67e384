import type { Db, Tx } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";

export interface AuditInput {
  actorId: string | null;
  action: string;
  entityType: string;
  entityId?: string | null;
  studyId?: string | null;
  before?: unknown;
  after?: unknown;
  requestId?: string | null;
}

const asJson = (v: unknown) => (v === undefined || v === null ? undefined : (JSON.parse(JSON.stringify(v)) as Prisma.InputJsonValue));

/**
 * The INSERT of one event, for a caller that must write it in the same
 * statement as the change itself (as a data-modifying CTE): the grade
 * submission does, to cost one round trip rather than three.
 */
export function auditInsertSql(e: AuditInput): Prisma.Sql {
  const json = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v));
  return Prisma.sql`INSERT INTO "AuditEvent" ("actorId", action, "entityType", "entityId", "studyId", before, after, "requestId")
    VALUES (${e.actorId}::uuid, ${e.action}, ${e.entityType}, ${e.entityId ?? null}, ${e.studyId ?? null}::uuid, ${json(e.before)}::jsonb, ${json(e.after)}::jsonb, ${e.requestId ?? null})`;
}

/** Appends one event. Call it inside the transaction that makes the change, so both land or neither. */
export async function recordAudit(db: Db | Tx, e: AuditInput): Promise<void> {
  await db.auditEvent.create({
    data: {
      actorId: e.actorId,
      action: e.action,
      entityType: e.entityType,
      entityId: e.entityId ?? null,
      studyId: e.studyId ?? null,
      before: asJson(e.before),
      after: asJson(e.after),
      requestId: e.requestId ?? null,
    },
  });
}
