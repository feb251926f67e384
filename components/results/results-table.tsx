"use client";

import Link from "next/link";
import { DataTable, dataTableColumns } from "@/components/data-table/data-table";
import type { FilterDef } from "@/components/data-table/data-table-toolbar";
import type { Page } from "@/lib/tables/search-params";
import { Badge } from "@/components/ui/badge";
import type { RubricDocument } from "@/lib/rubrics/document";
import type { SetResult } from "@/lib/results/sets";

const STATUS: Record<SetResult["status"], { label: string; variant: "warning" | "secondary" | "success" | "outline" }> = {
  AWAITING_GRADES: { label: "awaiting grades", variant: "outline" },
  AGREED: { label: "agreed", variant: "success" },
  AWAITING_ADJUDICATION: { label: "awaiting adjudication", variant: "warning" },
  ADJUDICATED: { label: "adjudicated", variant: "secondary" },
};

const f2 = (v: unknown) => (typeof v === "number" ? v.toFixed(2) : v === undefined || v === null ? "—" : String(v));

export function ResultsTable({ studyId, page, sort, specialties, rubrics: docs }: { studyId: string; page: Page<SetResult>; sort: string; specialties: string[]; rubrics: RubricDocument[] }) {
  const rubrics = docs.map((r) => r.key);
  const others = docs.filter((r) => r.key !== "SCORE" && r.key !== "SAFE_LLM" && r.headline);
  const col = dataTableColumns<SetResult>();
  const columns = col.columns([
    // The item opens the set's detail (each grader's scores, flags, escalation, audit).
    col.accessor("externalId", {
      header: "Item",
      cell: (c) => (
        <Link href={`/studies/${studyId}/results/${c.row.original.id}`} className="font-mono text-xs underline underline-offset-2" aria-label={`${c.getValue()} · ${c.row.original.model.name}: open the set`}>
          {c.getValue()}
        </Link>
      ),
    }),
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
              return t ? `${f2(t.per_answer)} · ${f2(t.overall)}` : "—";
            },
          }),
        ]
      : []),
    // Any other rubric: its headline total (the first one sorts).
    ...others.map((r, i) =>
      col.accessor((row) => row.totals?.[r.key]?.headline ?? null, {
        id: i === 0 ? "total" : `total_${r.key}`,
        header: `${r.name} (${r.totals.find((t) => t.key === r.headline)?.name ?? r.headline})`,
        enableSorting: i === 0,
        meta: { className: "text-right tabular-nums" },
        cell: (c) => {
          const fs = c.row.original.finalScores?.[r.key];
          const v = c.getValue();
          return <span title={fs ? r.dimensions.filter((d) => d.key in fs).map((d) => `${d.name} ${f2(fs[d.key])}`).join(" · ") : undefined}>{v === null ? "—" : v.toFixed(2)}</span>;
        },
      }),
    ),
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
