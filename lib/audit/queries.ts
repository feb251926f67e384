import { z } from "zod";
import { paginationFields, sortField, textFilter } from "@/lib/tables/search-params";
import { getDb } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";
import { describeChanges, uuidsIn, type ChangeLine } from "./describe";

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
  /** What the event is about, by name ("Q12 · Dr Ana Ruiz"), when known. */
  entityLabel: string | null;
  /** before -> after, one line per field that changed, ids named. */
  changes: ChangeLine[];
  requestId: string | null;
}

/**
 * Names for the ids an audit page shows: users by name, the study's
 * assignments as "question · grader", its escalations and answer sets as
 * "question · model" (the audit log is the lead's, unblinded).
 */
async function namesFor(studyId: string, ids: string[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  if (ids.length === 0) return names;
  const rows = await getDb().$queryRaw<{ id: string; name: string }[]>(Prisma.sql`
    SELECT u.id::text, u.name FROM "User" u WHERE u.id = ANY(${ids}::uuid[])
    UNION ALL
    SELECT a.id::text, q."externalId" || ' · ' || u.name FROM "Assignment" a
      JOIN "ResponseSet" rs ON rs.id = a."responseSetId" JOIN "QaItem" q ON q.id = rs."itemId" JOIN "User" u ON u.id = a."graderId"
      WHERE a.id = ANY(${ids}::uuid[]) AND a."studyId" = ${studyId}::uuid
    UNION ALL
    SELECT e.id::text, q."externalId" || ' · ' || m.name FROM "Escalation" e
      JOIN "ResponseSet" rs ON rs.id = e."responseSetId" JOIN "QaItem" q ON q.id = rs."itemId" JOIN "LlmModel" m ON m.id = rs."modelId"
      WHERE e.id = ANY(${ids}::uuid[]) AND rs."studyId" = ${studyId}::uuid
    UNION ALL
    SELECT rs.id::text, q."externalId" || ' · ' || m.name FROM "ResponseSet" rs
      JOIN "QaItem" q ON q.id = rs."itemId" JOIN "LlmModel" m ON m.id = rs."modelId"
      WHERE rs.id = ANY(${ids}::uuid[]) AND rs."studyId" = ${studyId}::uuid
    UNION ALL
    SELECT s.id::text, s.name FROM "Study" s WHERE s.id = ANY(${ids}::uuid[])`);
  for (const r of rows) names.set(r.id.toLowerCase(), r.name);
  return names;
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
  const ids = new Set<string>();
  for (const r of rows) {
    if (r.entityId) uuidsIn(r.entityId, ids);
    uuidsIn(r.before, ids);
    uuidsIn(r.after, ids);
  }
  const names = await namesFor(studyId, [...ids]);
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
        entityLabel: r.entityId ? (names.get(r.entityId.toLowerCase()) ?? null) : null,
        changes: describeChanges(r.before, r.after, names),
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
