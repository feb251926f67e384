import { z } from "zod";
import { paginationFields, sortField, textFilter } from "@/components/data-table/search-params";
import { getDb } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";

/** The audit log of a study, as a regulator would ask for it: who changed what, when, from what to what. */
export const auditQuerySchema = z.object({
  ...paginationFields(50),
  sort: sortField(["createdAt"] as const, "-createdAt"),
  actor: z.uuid().optional().meta({ description: "only events by this user" }),
  action: textFilter("only events whose action starts with this, e.g. grade. or study."),
  from: z.iso.date().optional().meta({ description: "from this day (UTC), inclusive" }),
  to: z.iso.date().optional().meta({ description: "to this day (UTC), inclusive" }),
});
export type AuditQuery = z.output<typeof auditQuerySchema>;

export interface AuditRow {
  id: string;
  createdAt: string;
  actor: { id: string; name: string; email: string } | null;
  action: string;
  entityType: string;
  entityId: string | null;
  before: unknown;
  after: unknown;
  requestId: string | null;
}

export async function listAuditEvents(studyId: string, q: AuditQuery) {
  const where: Prisma.AuditEventWhereInput = {
    studyId,
    ...(q.actor ? { actorId: q.actor } : {}),
    ...(q.action ? { action: { startsWith: q.action } } : {}),
    ...(q.from || q.to
      ? { createdAt: { ...(q.from ? { gte: new Date(`${q.from}T00:00:00Z`) } : {}), ...(q.to ? { lt: new Date(new Date(`${q.to}T00:00:00Z`).getTime() + 86_400_000) } : {}) } }
      : {}),
  };
  const db = getDb();
  const [total, rows] = await Promise.all([
    db.auditEvent.count({ where }),
    db.auditEvent.findMany({
      where,
      orderBy: [{ createdAt: q.sort === "createdAt" ? "asc" : "desc" }, { id: q.sort === "createdAt" ? "asc" : "desc" }],
      skip: (q.page - 1) * q.pageSize,
      take: q.pageSize,
      include: { actor: { select: { id: true, name: true, email: true } } },
    }),
  ]);
  return {
    total,
    page: q.page,
    pageSize: q.pageSize,
    rows: rows.map(
      (r): AuditRow => ({
        id: r.id.toString(),
        createdAt: r.createdAt.toISOString(),
        actor: r.actor,
        action: r.action,
        entityType: r.entityType,
        entityId: r.entityId,
        before: r.before,
        after: r.after,
        requestId: r.requestId,
      }),
    ),
  };
}

/** The people who appear in a study's audit log, for the filter. */
export async function auditActors(studyId: string) {
  const rows = await getDb().auditEvent.findMany({ where: { studyId, actorId: { not: null } }, distinct: ["actorId"], select: { actor: { select: { id: true, name: true } } } });
  return rows.map((r) => r.actor!).sort((a, b) => a.name.localeCompare(b.name));
}
