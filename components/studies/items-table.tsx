"use client";

import { DataTable, dataTableColumns } from "@/components/data-table/data-table";
import type { FilterDef } from "@/components/data-table/data-table-toolbar";
import type { Page } from "@/lib/tables/search-params";
import { Badge } from "@/components/ui/badge";

export interface ItemTableRow {
  id: string;
  externalId: string;
  specialty: string;
  question: string;
  models: { modelId: string; model: string; repetitions: number }[];
  complete: boolean;
  /** N of the study, to show "reps / N". */
  n: number;
}

const col = dataTableColumns<ItemTableRow>();
const columns = col.columns([
  col.accessor("externalId", { header: "Item", cell: (c) => <span className="font-mono text-xs">{c.getValue()}</span> }),
  col.accessor("specialty", { header: "Specialty" }),
  col.accessor("question", {
    header: "Question",
    meta: { className: "max-w-md" },
    cell: (c) => (
      <span className="line-clamp-2" title={c.getValue()}>
        {c.getValue()}
      </span>
    ),
  }),
  col.accessor("models", {
    header: "Models (answers / N)",
    enableSorting: false,
    cell: (c) =>
      c.getValue().length === 0 ? (
        <span className="text-muted-foreground">no models yet</span>
      ) : (
        <ul className="flex flex-wrap gap-1">
          {c.getValue().map((m) => (
            <li key={m.modelId}>
              <Badge variant={m.repetitions === c.row.original.n ? "outline" : "warning"}>
                {m.model} {m.repetitions}/{c.row.original.n}
              </Badge>
            </li>
          ))}
        </ul>
      ),
  }),
  col.accessor("complete", {
    header: "Complete",
    cell: (c) => <Badge variant={c.getValue() ? "success" : "warning"}>{c.getValue() ? "yes" : "no"}</Badge>,
  }),
]);

const rowId = (r: ItemTableRow) => r.id;

export function ItemsTable({ page, sort, specialties }: { page: Page<ItemTableRow>; sort: string; specialties: string[] }) {
  const filters: FilterDef[] = [
    { kind: "search", param: "q", label: "Search items", placeholder: "Question text or item id" },
    { kind: "select", param: "specialty", label: "Specialty", allLabel: "All specialties", options: specialties.map((s) => ({ value: s, label: s })) },
    {
      kind: "select",
      param: "complete",
      label: "Completeness",
      allLabel: "Complete and incomplete",
      options: [
        { value: "true", label: "Complete" },
        { value: "false", label: "Incomplete" },
      ],
    },
  ];
  return (
    <DataTable
      label="Items"
      columns={columns}
      page={page}
      sort={sort}
      getRowId={rowId}
      empty="No items match. Import questions and answers from the Import tab."
      filters={filters}
    />
  );
}
