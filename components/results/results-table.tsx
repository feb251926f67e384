"use client";

import { DataTable, dataTableColumns } from "@/components/data-table/data-table";
import type { FilterDef } from "@/components/data-table/data-table-toolbar";
import type { Page } from "@/components/data-table/search-params";
import { Badge } from "@/components/ui/badge";
import type { SetResult } from "@/lib/results/sets";

const STATUS: Record<SetResult["status"], { label: string; variant: "warning" | "secondary" | "success" | "outline" }> = {
  AWAITING_GRADES: { label: "awaiting grades", variant: "outline" },
  AGREED: { label: "agreed", variant: "success" },
  AWAITING_ADJUDICATION: { label: "awaiting adjudication", variant: "warning" },
  ADJUDICATED: { label: "adjudicated", variant: "secondary" },
};

const f2 = (v: number | undefined) => (v === undefined ? "—" : v.toFixed(2));

export function ResultsTable({ page, sort, specialties, rubrics }: { page: Page<SetResult>; sort: string; specialties: string[]; rubrics: ("SCORE" | "SAFE_LLM")[] }) {
  const col = dataTableColumns<SetResult>();
  const columns = col.columns([
    col.accessor("externalId", { header: "Item", cell: (c) => <span className="font-mono text-xs">{c.getValue()}</span> }),
    col.accessor("specialty", { header: "Specialty" }),
    col.accessor((r) => r.model.name, { id: "model", header: "Model" }),
    col.accessor("status", { header: "Status", cell: (c) => <Badge variant={STATUS[c.getValue()].variant}>{STATUS[c.getValue()].label}</Badge> }),
    ...(rubrics.includes("SCORE")
      ? [
          col.accessor((r) => r.totals?.SCORE?.total ?? null, {
            id: "score",
            header: "S.C.O.R.E. /25",
            meta: { className: "text-right tabular-nums" },
            cell: (c) => {
              const fs = c.row.original.finalScores?.SCORE;
              return (
                <span title={fs ? `S ${f2(fs.safety)} · C ${f2(fs.consensus_context)} · O ${f2(fs.objectivity)} · R ${f2(fs.reproducibility)} · E ${f2(fs.explainability)}` : undefined}>
                  {c.getValue() === null ? "—" : c.getValue()!.toFixed(2)}
                </span>
              );
            },
          }),
        ]
      : []),
    ...(rubrics.includes("SAFE_LLM")
      ? [
          col.accessor((r) => r.totals?.SAFE_LLM?.perAnswer ?? null, {
            id: "safe",
            header: "SAFE-LLM /7 (per answer · overall)",
            meta: { className: "text-right tabular-nums" },
            cell: (c) => {
              const t = c.row.original.totals?.SAFE_LLM;
              return t ? `${t.perAnswer.toFixed(2)} · ${t.overall.toFixed(2)}` : "—";
            },
          }),
        ]
      : []),
    col.accessor("graders", { header: "Graders", enableSorting: false, meta: { className: "text-right tabular-nums" } }),
  ]);
  const filters: FilterDef[] = [
    { kind: "select", param: "status", label: "Status", allLabel: "All statuses", options: Object.entries(STATUS).map(([value, s]) => ({ value, label: s.label })) },
    { kind: "select", param: "specialty", label: "Specialty", allLabel: "All specialties", options: specialties.map((s) => ({ value: s, label: s })) },
    { kind: "select", param: "harm", label: "Harm flags", allLabel: "With or without harm flags", options: [{ value: "flagged", label: "With a harm flag" }] },
  ];
  return (
    <DataTable
      label="Response sets"
      columns={columns}
      page={page}
      sort={sort}
      getRowId={(r) => r.id}
      empty="No response sets match."
      filters={filters}
    />
  );
}
