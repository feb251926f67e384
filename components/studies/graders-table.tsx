"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { DataTable, dataTableColumns } from "@/components/data-table/data-table";
import type { FilterDef } from "@/components/data-table/data-table-toolbar";
import type { Page } from "@/lib/tables/search-params";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { apiRequest } from "./api-client";
import { GraderDeadlineCell } from "@/components/mail/grader-deadline-cell";
import { GraderSpecialtiesCell } from "./grader-specialties";
import { formatDate } from "./labels";

export interface GraderTableRow {
  userId: string;
  studyId: string;
  name: string;
  email: string;
  specialties: string[];
  active: boolean;
  accountActive: boolean;
  addedAt: string;
  assigned: number;
  submitted: number;
  deadline: string | null;
}

function RemoveButton({ row }: { row: GraderTableRow }) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!row.active) return <span className="text-xs text-muted-foreground">—</span>;
  return (
    <div className="flex flex-col items-end gap-1">
      <Button
        type="button"
        variant="outline"
        size="sm"
        disabled={pending}
        aria-label={`Remove ${row.name} from this study`}
        onClick={async () => {
          const open = row.assigned - row.submitted;
          const holds = open > 0 ? ` They hold ${open} open assignment${open === 1 ? "" : "s"}: run Assign graders afterwards to move ${open === 1 ? "it" : "them"} to the other graders.` : "";
          if (!window.confirm(`Remove ${row.name} from this study? Their submitted grades stay.${holds}`)) return;
          setPending(true);
          const result = await apiRequest("DELETE", `/api/v1/studies/${row.studyId}/graders/${row.userId}`);
          setPending(false);
          if (!result.ok) setError(result.error);
          else router.refresh();
        }}
      >
        {pending ? "Removing…" : "Remove"}
      </Button>
      {error ? (
        <p role="alert" className="text-xs text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}

const col = dataTableColumns<GraderTableRow>();
const columns = col.columns([
  col.accessor("name", { header: "Name", cell: (c) => <span className="font-medium">{c.getValue()}</span> }),
  col.accessor("email", { header: "Email" }),
  col.accessor("specialties", {
    header: "Specialties in this study",
    enableSorting: false,
    cell: (c) => {
      const { studyId, userId, name } = c.row.original;
      return <GraderSpecialtiesCell studyId={studyId} userId={userId} name={name} specialties={c.getValue()} />;
    },
  }),
  col.accessor("assigned", {
    header: "Assigned",
    sortDescFirst: true,
    meta: { className: "whitespace-nowrap text-right tabular-nums" },
  }),
  col.accessor("submitted", {
    header: "Submitted",
    sortDescFirst: true,
    meta: { className: "whitespace-nowrap text-right tabular-nums" },
    cell: (c) => {
      const { assigned, submitted } = c.row.original;
      return (
        <span title={assigned ? `${Math.round((100 * submitted) / assigned)}% of assigned` : undefined}>
          {submitted} / {assigned}
        </span>
      );
    },
  }),
  col.accessor("deadline", {
    header: "Own deadline",
    enableSorting: false,
    cell: (c) => {
      const { studyId, userId, name, active } = c.row.original;
      if (!active) return <span className="text-xs text-muted-foreground">—</span>;
      return <GraderDeadlineCell studyId={studyId} userId={userId} name={name} deadline={c.getValue()} />;
    },
  }),
  col.accessor("active", {
    header: "Status",
    enableSorting: false,
    cell: (c) => (
      <div className="flex flex-wrap gap-1">
        <Badge variant={c.getValue() ? "success" : "secondary"}>{c.getValue() ? "active" : "removed"}</Badge>
        {c.row.original.accountActive ? null : <Badge variant="warning">account deactivated</Badge>}
      </div>
    ),
  }),
  col.accessor("addedAt", { header: "Added", sortDescFirst: true, meta: { className: "whitespace-nowrap" }, cell: (c) => formatDate(c.getValue()) }),
  col.display({ id: "actions", header: () => <span className="sr-only">Actions</span>, meta: { className: "text-right" }, cell: (c) => <RemoveButton row={c.row.original} /> }),
]);

const rowId = (r: GraderTableRow) => r.userId;

const filters: FilterDef[] = [
  { kind: "search", param: "q", label: "Search graders", placeholder: "Name or email" },
  {
    kind: "select",
    param: "active",
    label: "Membership",
    allLabel: "Active and removed",
    options: [
      { value: "true", label: "Active" },
      { value: "false", label: "Removed" },
    ],
  },
];

export function GradersTable({ page, sort }: { page: Page<GraderTableRow>; sort: string }) {
  return (
    <DataTable
      label="Graders"
      columns={columns}
      page={page}
      sort={sort}
      getRowId={rowId}
      empty="No graders match. Add one with the form above."
      filters={filters}
    />
  );
}
