import type { Db, Tx } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";

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
