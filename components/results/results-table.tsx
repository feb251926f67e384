"use client";

import Link from "next/link";
import { DataTable, dataTableColumns } from "@/components/data-table/data-table";
import type { FilterDef } from "@/components/data-table/data-table-toolbar";
import type { Page } from "@/lib/tables/search-params";
import { Badge } from "@/components/ui/badge";
import { ordinalRange, type RubricDimension, type RubricDocument } from "@/lib/rubrics/document";
import type { SetResult } from "@/lib/results/sets";

const scaleOf = (d: RubricDimension) => {
  const { min, max } = ordinalRange(d);
  return `${min}-${max}`;
};

const STATUS: Record<SetResult["status"], { label: string; variant: "warning" | "secondary" | "success" | "outline" }> = {
  AWAITING_GRADES: { label: "awaiting grades", variant: "outline" },
  AGREED: { label: "agreed", variant: "success" },
  AWAITING_ADJUDICATION: { label: "awaiting adjudication", variant: "warning" },
  ADJUDICATED: { label: "adjudicated", variant: "secondary" },
};

const f2 = (v: unknown) => (typeof v === "number" ? v.toFixed(2) : v === undefined || v === null ? "—" : String(v));

/** A final value as the lead reads it: a number to two places, a nominal level by its label, N/A. */
function finalText(dim: RubricDimension, v: number | string | undefined): string {
  if (typeof v === "string" && v !== "N/A") return dim.scale.levels?.find((l) => l.value === v)?.label ?? v;
  return f2(v);
}

/** The filter on one final value: each nominal level, and N/A where a dimension allows it. */
function finalOptions(docs: RubricDocument[]) {
  const many = docs.length > 1;
  return docs.flatMap((r) =>
    r.dimensions
      .filter((d) => d.scale.kind !== "criteria")
      .flatMap((d) => {
        const name = `${many ? `${r.name} · ` : ""}${d.name}`;
        const levels = d.scale.kind === "nominal" ? (d.scale.levels ?? []).map((l) => ({ value: `${r.key}.${d.key}=${l.value}`, label: `${name}: ${l.label}` })) : [];
        return d.scale.allowNA ? [...levels, { value: `${r.key}.${d.key}=na`, label: `${name}: N/A` }] : levels;
      }),
  );
}

/**
 * The Results tab: each set with a column per dimension (its final value; a
 * nominal level by its label) and per total, from the study's rubric documents;
 * every column sorts, and a final value can be filtered on.
 */
export function ResultsTable({ studyId, page, sort, specialties, rubrics: docs }: { studyId: string; page: Page<SetResult>; sort: string; specialties: string[]; rubrics: RubricDocument[] }) {
  const many = docs.length > 1;
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
    ...docs.flatMap((r) => [
      ...r.dimensions
        .filter((d) => d.scale.kind !== "criteria")
        .map((d) =>
          col.accessor((row) => row.finalScores?.[r.key]?.[d.key] ?? null, {
            id: `d.${r.key}.${d.key}`,
            header: `${many ? `${r.name} · ` : ""}${d.name}${d.scale.kind === "ordinal" ? ` (${scaleOf(d)})` : ""}`,
            meta: { className: d.scale.kind === "nominal" ? "" : "text-right tabular-nums" },
            cell: (c) => finalText(d, c.getValue() ?? undefined),
          }),
        ),
      ...r.totals.map((t) =>
        col.accessor((row) => row.totals?.[r.key]?.[t.key] ?? null, {
          id: `t.${r.key}.${t.key}`,
          header: `${many ? `${r.name} · ` : ""}${t.name}${t.key === r.headline ? " (headline)" : ""}`,
          meta: { className: "text-right tabular-nums font-medium" },
          cell: (c) => f2(c.getValue()),
        }),
      ),
    ]),
    col.accessor("graders", { header: "Graders", enableSorting: false, meta: { className: "text-right tabular-nums" } }),
  ]);
  const filters: FilterDef[] = [
    { kind: "select", param: "status", label: "Status", allLabel: "All statuses", options: Object.entries(STATUS).map(([value, s]) => ({ value, label: s.label })) },
    { kind: "select", param: "specialty", label: "Specialty", allLabel: "All specialties", options: specialties.map((s) => ({ value: s, label: s })) },
    { kind: "select", param: "harm", label: "Harm flags", allLabel: "With or without harm flags", options: [{ value: "flagged", label: "With a harm flag" }] },
    ...(finalOptions(docs).length ? [{ kind: "select" as const, param: "final", label: "Final value", allLabel: "Any final value", options: finalOptions(docs) }] : []),
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
