"use client";

import { useId } from "react";
import { DataTable, dataTableColumns } from "@/components/data-table/data-table";
import type { FilterDef } from "@/components/data-table/data-table-toolbar";
import type { Page } from "@/components/data-table/search-params";
import { useTableUrl } from "@/components/data-table/use-table-url";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import type { AuditRow } from "@/lib/audit/queries";

function DateFilter({ param, label }: { param: string; label: string }) {
  const { navigate, searchParams } = useTableUrl();
  const id = useId();
  return (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} type="date" className="w-40" defaultValue={searchParams.get(param) ?? ""} onChange={(e) => navigate({ [param]: e.target.value || null })} />
    </div>
  );
}

/** Before -> after, compactly: JSON as text (never HTML), scrollable when long. */
function Json({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className="text-muted-foreground">—</span>;
  return <pre className="max-h-40 max-w-md overflow-auto whitespace-pre-wrap break-words rounded bg-muted p-2 font-mono text-xs">{JSON.stringify(value, null, 1)}</pre>;
}

const col = dataTableColumns<AuditRow>();
const columns = col.columns([
  col.accessor("createdAt", {
    header: "When (UTC)",
    cell: (c) => <time dateTime={c.getValue()} className="whitespace-nowrap font-mono text-xs">{c.getValue().replace("T", " ").slice(0, 19)}</time>,
  }),
  col.accessor((r) => r.actor?.name ?? "system", { id: "actor", header: "Who", enableSorting: false, cell: (c) => <span title={c.row.original.actor?.email}>{c.getValue()}</span> }),
  col.accessor("action", { header: "What", enableSorting: false, cell: (c) => <code className="font-mono text-xs">{c.getValue()}</code> }),
  col.accessor((r) => `${r.entityType}${r.entityId ? ` ${r.entityId.slice(0, 8)}` : ""}`, { id: "entity", header: "On", enableSorting: false }),
  col.accessor("before", { header: "Before", enableSorting: false, cell: (c) => <Json value={c.getValue()} /> }),
  col.accessor("after", { header: "After", enableSorting: false, cell: (c) => <Json value={c.getValue()} /> }),
]);

export function AuditTable({ page, sort, actors, actions }: { page: Page<AuditRow>; sort: string; actors: { id: string; name: string }[]; actions: string[] }) {
  const filters: FilterDef[] = [
    { kind: "select", param: "actor", label: "Who", allLabel: "Everyone", options: actors.map((a) => ({ value: a.id, label: a.name })) },
    { kind: "select", param: "action", label: "Type", allLabel: "All types", options: actions.map((a) => ({ value: a, label: a })) },
  ];
  return (
    <DataTable
      label="Audit log"
      columns={columns}
      page={page}
      sort={sort}
      getRowId={(r) => r.id}
      empty="No events match."
      filters={filters}
      toolbar={
        <>
          <DateFilter param="from" label="From" />
          <DateFilter param="to" label="To" />
        </>
      }
    />
  );
}
