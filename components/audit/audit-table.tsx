"use client";

import { useId } from "react";
import { DataTable, dataTableColumns } from "@/components/data-table/data-table";
import type { FilterDef } from "@/components/data-table/data-table-toolbar";
import type { Page } from "@/lib/tables/search-params";
import { useTableUrl } from "@/components/data-table/use-table-url";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import type { ChangeLine } from "@/lib/audit/describe";
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

const SHOWN = 6;

function ChangeItem({ c }: { c: ChangeLine }) {
  return (
    <li className="break-words">
      <span className="text-muted-foreground">{c.field}:</span>{" "}
      {c.before !== null && c.after !== null ? (
        <>
          <del className="decoration-muted-foreground/60">{c.before}</del> <span aria-label="changed to">→</span> <ins className="no-underline font-medium">{c.after}</ins>
        </>
      ) : c.after !== null ? (
        <span className="font-medium">{c.after}</span>
      ) : (
        <>
          <del>{c.before}</del> <span className="text-muted-foreground">(removed)</span>
        </>
      )}
    </li>
  );
}

/** Before -> after, one line per changed field, ids shown by name; long lists fold (no scrolling box). */
function Changes({ changes }: { changes: ChangeLine[] }) {
  if (changes.length === 0) return <span className="text-muted-foreground">—</span>;
  return (
    <div className="max-w-xl text-xs">
      <ul className="flex flex-col gap-0.5">
        {changes.slice(0, SHOWN).map((c) => (
          <ChangeItem key={c.field} c={c} />
        ))}
      </ul>
      {changes.length > SHOWN ? (
        <details className="mt-1">
          <summary className="cursor-pointer text-primary">{changes.length - SHOWN} more</summary>
          <ul className="mt-0.5 flex flex-col gap-0.5">
            {changes.slice(SHOWN).map((c) => (
              <ChangeItem key={c.field} c={c} />
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  );
}

const ENTITY: Record<string, string> = { User: "account", StudyMember: "grader", Assignment: "grading", Escalation: "escalation", Study: "study", ApiToken: "API token" };

const col = dataTableColumns<AuditRow>();
const columns = col.columns([
  col.accessor("createdAt", {
    header: "When (UTC)",
    cell: (c) => <time dateTime={c.getValue()} className="whitespace-nowrap font-mono text-xs">{c.getValue().replace("T", " ").slice(0, 19)}</time>,
  }),
  col.accessor((r) => r.actor?.name ?? "system", { id: "actor", header: "Who", enableSorting: false, cell: (c) => <span title={c.row.original.actor?.email}>{c.getValue()}</span> }),
  col.accessor("action", { header: "What", enableSorting: false, cell: (c) => <code className="font-mono text-xs">{c.getValue()}</code> }),
  col.accessor((r) => r.entityLabel ?? (r.entityId ? `${r.entityId.slice(0, 8)}…` : ""), {
    id: "entity",
    header: "On",
    enableSorting: false,
    cell: (c) => (
      <span>
        <span className="block text-xs text-muted-foreground">{ENTITY[c.row.original.entityType] ?? c.row.original.entityType}</span>
        {c.getValue()}
      </span>
    ),
  }),
  col.accessor("changes", { header: "Before → after", enableSorting: false, cell: (c) => <Changes changes={c.getValue()} /> }),
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
