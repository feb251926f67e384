import type { Metadata } from "next";
import { AuditTable } from "@/components/audit/audit-table";
import { parseTableParams } from "@/lib/tables/search-params";
import { auditActors, auditQuerySchema, listAuditEvents } from "@/lib/audit/queries";
import { getDb } from "@/lib/db/client";
import { loadStudyForPage } from "@/lib/studies/page-access";

export const metadata: Metadata = { title: "Audit log" };

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function AuditPage({ params, searchParams }: Props) {
  const { id } = await params;
  const { study } = await loadStudyForPage(id);
  const { data: q } = parseTableParams(auditQuerySchema, await searchParams);
  const [page, actors, actions] = await Promise.all([
    listAuditEvents(study.id, q),
    auditActors(study.id),
    getDb().auditEvent.findMany({ where: { studyId: study.id }, distinct: ["action"], select: { action: true }, orderBy: { action: "asc" } }),
  ]);
  return (
    <div className="flex flex-col gap-4">
      <p className="max-w-3xl text-sm text-muted-foreground">
        Every change to this study, append-only: the database refuses to edit or delete an entry, and nothing in Clingrade can. Grade
        revisions show the old and new scores; request ids match the server logs.
      </p>
      <AuditTable page={page} sort={q.sort} actors={actors} actions={actions.map((a) => a.action)} />
    </div>
  );
}
