"use client";

import Link from "next/link";
import { DataTable, dataTableColumns } from "@/components/data-table/data-table";
import type { FilterDef } from "@/components/data-table/data-table-toolbar";
import { Badge } from "@/components/ui/badge";
import type { Page } from "@/lib/tables/search-params";
import { formatDate, STATUS_LABEL, STATUS_VARIANT } from "./labels";

export interface StudyTableRow {
  id: string;
  name: string;
  slug: string;
  status: "DRAFT" | "OPEN" | "CLOSED";
  rubrics: string[];
  rubricNames: string[];
  repetitions: number;
  gradersPerSet: number;
  items: number;
  responseSets: number;
  createdAt: string;
  /** Potential-harm flags not yet reviewed. */
  openHarmFlags: number;
}

const col = dataTableColumns<StudyTableRow>();
const columns = col.columns([
  col.accessor("name", {
    header: "Study",
    cell: (c) => (
      <div className="flex flex-col">
        <Link href={`/studies/${c.row.original.id}`} className="font-medium text-primary underline-offset-4 hover:underline">
          {c.getValue()}
        </Link>
        <span className="text-xs text-muted-foreground">{c.row.original.slug}</span>
      </div>
    ),
  }),
  col.accessor("status", {
    header: "Status",
    cell: (c) => <Badge variant={STATUS_VARIANT[c.getValue()]}>{STATUS_LABEL[c.getValue()]}</Badge>,
  }),
  col.accessor("rubrics", {
    header: "Rubrics",
    enableSorting: false,
    meta: { className: "whitespace-nowrap" },
    cell: (c) => c.row.original.rubricNames.join(" + "),
  }),
  col.accessor("items", { header: "Questions", meta: { className: "whitespace-nowrap text-right tabular-nums" }, sortDescFirst: true }),
  col.accessor("responseSets", { header: "Answer sets", enableSorting: false, meta: { className: "whitespace-nowrap text-right tabular-nums" } }),
  col.display({
    id: "nk",
    header: () => <span title="answers per prompt (N) × primary graders per set (k)">N × k</span>,
    meta: { className: "whitespace-nowrap text-right tabular-nums" },
    cell: (c) => `${c.row.original.repetitions} × ${c.row.original.gradersPerSet}`,
  }),
  col.accessor("openHarmFlags", {
    header: "Harm flags",
    enableSorting: false,
    meta: { className: "whitespace-nowrap text-right tabular-nums" },
    cell: (c) =>
      c.getValue() > 0 ? (
        <Link href={`/studies/${c.row.original.id}/harm?review=OPEN`} className="underline-offset-4 hover:underline">
          <Badge variant="warning">{c.getValue()} to review</Badge>
        </Link>
      ) : (
        <span className="text-muted-foreground">none open</span>
      ),
  }),
  col.accessor("createdAt", { header: "Created", sortDescFirst: true, meta: { className: "whitespace-nowrap" }, cell: (c) => formatDate(c.getValue()) }),
]);

const rowId = (r: StudyTableRow) => r.id;

const filters: FilterDef[] = [
  { kind: "search", param: "q", label: "Search studies", placeholder: "Name or slug" },
  {
    kind: "select",
    param: "status",
    label: "Status",
    allLabel: "Any status",
    options: [
      { value: "DRAFT", label: "Draft" },
      { value: "OPEN", label: "Open" },
      { value: "CLOSED", label: "Closed" },
    ],
  },
];

export function StudiesTable({ page, sort }: { page: Page<StudyTableRow>; sort: string }) {
  return (
    <DataTable
      label="Studies"
      columns={columns}
      page={page}
      sort={sort}
      getRowId={rowId}
      empty="No studies match. Create one with “New study”."
      filters={filters}
    />
  );
}
