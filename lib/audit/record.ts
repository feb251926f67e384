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

/**
 * The INSERT of one event: what `recordAudit` runs, and what a caller that
 * must write the event in the same statement as the change itself embeds (as
 * a data-modifying CTE): the grade submission does, to cost one round trip
 * rather than three. undefined and null both store SQL NULL.
 */
export function auditInsertSql(e: AuditInput): Prisma.Sql {
  const json = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v));
  return Prisma.sql`INSERT INTO "AuditEvent" ("actorId", action, "entityType", "entityId", "studyId", before, after, "requestId")
    VALUES (${e.actorId}::uuid, ${e.action}, ${e.entityType}, ${e.entityId ?? null}, ${e.studyId ?? null}::uuid, ${json(e.before)}::jsonb, ${json(e.after)}::jsonb, ${e.requestId ?? null})`;
}

/** Appends one event. Call it inside the transaction that makes the change, so both land or neither. */
export async function recordAudit(db: Db | Tx, e: AuditInput): Promise<void> {
  await db.$executeRaw(auditInsertSql(e));
}
