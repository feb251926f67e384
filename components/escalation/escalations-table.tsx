"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { DataTable, dataTableColumns } from "@/components/data-table/data-table";
import type { FilterDef } from "@/components/data-table/data-table-toolbar";
import type { Page } from "@/lib/tables/search-params";
import { apiRequest } from "@/components/studies/api-client";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import type { EscalationRow } from "@/lib/escalation/queries";

const STATUS: Record<EscalationRow["status"], { label: string; variant: "warning" | "secondary" | "success" | "outline" }> = {
  NEEDS_GRADER: { label: "needs a grader", variant: "warning" },
  ASSIGNED: { label: "with adjudicator", variant: "secondary" },
  RESOLVED: { label: "adjudicated", variant: "success" },
  CANCELLED: { label: "cancelled", variant: "outline" },
};

const fmt = (v: number | string | null) => (typeof v === "number" ? (Number.isInteger(v) ? String(v) : v.toFixed(2)) : String(v ?? "—"));

/** The adjudicator and the lead's hand assignment; `route` is where the escalation's assign endpoint lives (a comparison's has its own). */
export function AssignCell({
  row,
  graders,
  route = "escalations",
}: {
  row: Pick<EscalationRow, "id" | "status" | "externalId"> & { adjudicator: { name: string } | null };
  graders: { id: string; name: string }[];
  route?: "escalations" | "comparison-escalations";
}) {
  const router = useRouter();
  const [graderId, setGraderId] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (row.status === "RESOLVED" || row.status === "CANCELLED") return <span className="text-muted-foreground">{row.adjudicator?.name ?? "—"}</span>;
  return (
    <form
      className="flex flex-col gap-1"
      onSubmit={async (e) => {
        e.preventDefault();
        if (!graderId) return;
        setBusy(true);
        const r = await apiRequest("POST", `/api/v1/${route}/${row.id}/assign`, { graderId });
        setBusy(false);
        if (!r.ok) return setError(r.error);
        setError(null);
        router.refresh();
      }}
    >
      <span className="text-sm">{row.adjudicator ? row.adjudicator.name : <em className="text-warning">nobody yet</em>}</span>
      <div className="flex gap-1">
        <label className="sr-only" htmlFor={`adj-${row.id}`}>
          Adjudicator for {row.externalId}
        </label>
        <select id={`adj-${row.id}`} className="h-8 rounded-md border border-border bg-background px-2 text-sm" value={graderId} onChange={(e) => setGraderId(e.target.value)}>
          <option value="">{row.adjudicator ? "Hand to…" : "Assign…"}</option>
          {graders.map((g) => (
            <option key={g.id} value={g.id}>
              {g.name}
            </option>
          ))}
        </select>
        <Button size="sm" variant="outline" type="submit" disabled={!graderId || busy}>
          Assign
        </Button>
      </div>
      {error ? (
        <span role="alert" className="text-xs text-destructive">
          {error}
        </span>
      ) : null}
    </form>
  );
}

export function EscalationsTable({ page, sort, specialties, graders }: { page: Page<EscalationRow>; sort: string; specialties: string[]; graders: { id: string; name: string }[] }) {
  const col = dataTableColumns<EscalationRow>();
  const columns = col.columns([
    col.accessor("externalId", {
      header: "Set",
      cell: (c) => (
        <span>
          <span className="font-mono text-xs">{c.getValue()}</span> <span className="text-muted-foreground">· {c.row.original.model}</span>
        </span>
      ),
    }),
    col.accessor("specialty", { header: "Specialty" }),
    col.accessor("dimensions", {
      header: "Disagreement (each grader's value)",
      enableSorting: false,
      cell: (c) => (
        <ul className="flex flex-col gap-0.5 text-sm">
          {c.getValue().map((d) => (
            <li key={`${d.rubric}-${d.dimension}`}>
              <span className="font-medium">{d.name}</span> <span className="text-muted-foreground">({d.reason})</span>:{" "}
              <span className="text-muted-foreground">{d.values.map((v) => `${v.grader} ${v.label ? `${fmt(v.value)} “${v.label}”` : fmt(v.value)}`).join(", ")}</span>
            </li>
          ))}
        </ul>
      ),
    }),
    col.accessor("status", { header: "Status", cell: (c) => <Badge variant={STATUS[c.getValue()].variant}>{STATUS[c.getValue()].label}</Badge> }),
    col.display({ id: "adjudicator", header: "Adjudicator", cell: (c) => <AssignCell row={c.row.original} graders={graders} /> }),
    col.accessor("ageHours", { id: "age", header: "Age", cell: (c) => `${c.getValue() < 48 ? `${c.getValue()} h` : `${Math.round(c.getValue() / 24)} d`}` }),
  ]);
  const filters: FilterDef[] = [
    {
      kind: "select",
      param: "status",
      label: "Status",
      allLabel: "All statuses",
      options: Object.entries(STATUS).map(([value, s]) => ({ value, label: s.label })),
    },
    { kind: "select", param: "specialty", label: "Specialty", allLabel: "All specialties", options: specialties.map((s) => ({ value: s, label: s })) },
  ];
  return (
    <DataTable
      label="Escalations"
      columns={columns}
      page={page}
      sort={sort}
      getRowId={(r) => r.id}
      empty="No escalations: every graded set so far is within the thresholds."
      filters={filters}
    />
  );
}
