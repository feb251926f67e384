"use client";

import { Lock } from "lucide-react";
import Link from "next/link";
import { DataTable, dataTableColumns } from "@/components/data-table/data-table";
import type { FilterDef } from "@/components/data-table/data-table-toolbar";
import type { Page } from "@/lib/tables/search-params";
import { Badge } from "@/components/ui/badge";
import { QUEUE_STATUSES, QUEUE_STATUS_LABELS } from "@/lib/queue/params";
import type { QueueRow } from "@/lib/queue/queries";

const STATUS = {
  PENDING: { label: "To do", variant: "secondary" },
  IN_PROGRESS: { label: "Draft", variant: "warning" },
  SUBMITTED: { label: "Submitted", variant: "success" },
} as const;

// On a phone the table fits the screen: the specialty moves under the question and the status column stays in view.
const col = dataTableColumns<QueueRow>();
const columns = col.columns([
  col.accessor("number", { header: "#", enableSorting: false, meta: { className: "w-8 tabular-nums text-muted-foreground sm:w-12" } }),
  col.accessor("question", {
    header: "Question",
    enableSorting: false,
    meta: { className: "max-w-xl py-2.5 whitespace-normal" },
    cell: (c) => {
      const r = c.row.original;
      return (
        <div className="flex min-w-0 flex-col gap-1">
          <div className="flex flex-wrap items-start gap-2">
            <Link
              href={`/grade/${r.id}`}
              data-testid="queue-preview"
              className="line-clamp-2 min-w-0 font-medium text-foreground [overflow-wrap:anywhere] underline underline-offset-2 decoration-muted-foreground/50 hover:text-primary focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
            >
              {r.question}
            </Link>
            {r.setLabel ? (
              <Badge variant="outline" className="shrink-0 whitespace-nowrap" data-testid="set-label">
                {r.setLabel}
              </Badge>
            ) : null}
          </div>
          <span className="text-xs text-muted-foreground sm:hidden">{r.specialty}</span>
        </div>
      );
    },
  }),
  col.accessor("specialty", { header: "Specialty", enableSorting: false, meta: { className: "hidden w-40 sm:table-cell" } }),
  col.accessor("status", {
    header: "Status",
    enableSorting: false,
    meta: { className: "w-24 whitespace-normal sm:w-48" },
    cell: (c) => {
      const r = c.row.original;
      return (
        <div className="flex flex-wrap items-center gap-1.5">
          <Badge variant={STATUS[r.status].variant}>{STATUS[r.status].label}</Badge>
          {r.kind === "ADJUDICATOR" ? <Badge variant="outline">Third grader</Badge> : null}
          {r.studyOpen ? null : (
            <span className="inline-flex items-center gap-1 text-xs">
              <Lock aria-hidden className="size-3" />
              Study closed: read-only
            </span>
          )}
        </div>
      );
    },
  }),
]);

const rowId = (r: QueueRow) => r.id;

const filters: FilterDef[] = [
  {
    kind: "select",
    param: "status",
    label: "Status",
    allLabel: "All statuses",
    options: QUEUE_STATUSES.map((value) => ({ value, label: QUEUE_STATUS_LABELS[value] })),
  },
];

/** One page of one study's sets in the grader's own order (server-paged). */
export function QueueTable({ page, label }: { page: Page<QueueRow>; label: string }) {
  return <DataTable label={label} columns={columns} page={page} sort="number" getRowId={rowId} filters={filters} empty="No answer sets in this state." />;
}
