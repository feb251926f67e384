"use client";

import { createColumnHelper, createSortedRowModel, metaHelper, rowSortingFeature, sortFn_alphanumeric, sortFn_basic, tableFeatures, useTable, type SortingState } from "@tanstack/react-table";
import { ArrowDown, ArrowUp, ArrowUpDown } from "lucide-react";
import { useState } from "react";
import type { GraderQuality, GraderQualityReport } from "@/lib/grader-quality/contract";
import { cn } from "@/lib/utils";
import { ExclusionButton } from "./exclusion-button";

const features = tableFeatures({
  rowSortingFeature,
  sortedRowModel: createSortedRowModel(),
  sortFns: { basic: sortFn_basic, alphanumeric: sortFn_alphanumeric },
  columnMeta: metaHelper<{ className?: string }>(),
});
const col = createColumnHelper<typeof features, GraderQuality>();
const ARIA_SORT = { asc: "ascending", desc: "descending" } as const;
const num = (x: number | null, d = 2) => (x === null ? "–" : x.toFixed(d));
const pct = (x: number | null) => (x === null ? "–" : `${Math.round(x * 100)}%`);
const secs = (ms: number | null) => (ms === null ? "–" : `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`);
const N = ({ n }: { n: number }) => <span className="text-xs text-muted-foreground"> n={n}</span>;

function columns(studyId: string) {
  return col.columns([
    col.accessor("name", {
      header: "Grader",
      sortFn: "alphanumeric",
      cell: (c) => (
        <span className="whitespace-nowrap">
          {c.getValue()}
          {c.row.original.excluded ? <span className="ml-2 rounded bg-muted px-1.5 py-0.5 text-xs">excluded</span> : null}
        </span>
      ),
    }),
    col.accessor("sets", { header: "Sets", sortFn: "basic", sortDescFirst: true, meta: { className: "text-right tabular-nums" } }),
    col.accessor((r) => r.time.ratio ?? undefined, {
      id: "time",
      header: "Time vs median",
      sortFn: "basic",
      sortUndefined: "last",
      meta: { className: "text-right tabular-nums whitespace-nowrap" },
      cell: (c) => (
        <span title={`median ${secs(c.row.original.time.medianMs)}`}>
          {c.row.original.time.ratio === null ? "–" : `${num(c.row.original.time.ratio)}×`} <N n={c.row.original.time.n} />
        </span>
      ),
    }),
    col.accessor((r) => r.straightLining.share ?? undefined, {
      id: "straightLining",
      header: "Straight-lining",
      sortFn: "basic",
      sortDescFirst: true,
      sortUndefined: "last",
      meta: { className: "text-right tabular-nums whitespace-nowrap" },
      cell: (c) => (
        <>
          {pct(c.row.original.straightLining.share)} <N n={c.row.original.straightLining.n} />
        </>
      ),
    }),
    col.accessor((r) => r.scaleUse.share ?? undefined, {
      id: "scaleUse",
      header: "Scale used",
      sortFn: "basic",
      sortUndefined: "last",
      meta: { className: "text-right tabular-nums whitespace-nowrap" },
      cell: (c) => (
        <>
          {pct(c.row.original.scaleUse.share)} <N n={c.row.original.scaleUse.n} />
        </>
      ),
    }),
    col.accessor((r) => r.bias.estimate ?? undefined, {
      id: "bias",
      header: "Bias (points, 95% CI)",
      sortFn: "basic",
      sortDescFirst: true,
      sortUndefined: "last",
      meta: { className: "text-right tabular-nums whitespace-nowrap" },
      cell: (c) => {
        const b = c.row.original.bias;
        return (
          <>
            {b.estimate === null ? "–" : `${b.estimate > 0 ? "+" : ""}${num(b.estimate)}`}
            {b.ci ? <span className="text-xs text-muted-foreground"> [{num(b.ci[0])}, {num(b.ci[1])}]</span> : null} <N n={b.n} />
          </>
        );
      },
    }),
    col.accessor((r) => r.agreement.ac2 ?? undefined, {
      id: "agreement",
      header: "AC2 vs peers",
      sortFn: "basic",
      sortUndefined: "last",
      meta: { className: "text-right tabular-nums whitespace-nowrap" },
      cell: (c) => (
        <>
          {num(c.row.original.agreement.ac2)} <N n={c.row.original.agreement.n} />
        </>
      ),
    }),
    col.display({
      id: "exclude",
      header: () => <span className="sr-only">Exclusion</span>,
      cell: (c) => <ExclusionButton studyId={studyId} graderId={c.row.original.graderId} name={c.row.original.name} excluded={c.row.original.excluded !== null} />,
    }),
  ]);
}

/** The graders and their signals, sortable by any of them (client-side: a study has tens of graders, not thousands). */
export function QualityTable({ report }: { report: GraderQualityReport }) {
  const [sorting, setSorting] = useState<SortingState>([]);
  const table = useTable({ features, columns: columns(report.studyId), data: report.graders, getRowId: (r) => r.graderId, state: { sorting }, onSortingChange: setSorting });
  const notes = report.graders[0];
  return (
    <div className="flex flex-col gap-3">
      {/* Focusable: a keyboard user scrolls it too (axe scrollable-region-focusable). */}
      <div tabIndex={0} role="region" aria-label="Graders' quality table" className="overflow-auto rounded-md border border-border focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
        <table className="w-full text-sm" aria-label="Graders' quality signals">
          <thead className="bg-muted text-left text-muted-foreground">
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => {
                  const column = header.column;
                  const sorted = column.getIsSorted();
                  return (
                    <th key={header.id} scope="col" aria-sort={sorted ? ARIA_SORT[sorted] : column.getCanSort() ? "none" : undefined} className={cn("px-3 py-2 font-medium", column.columnDef.meta?.className)}>
                      {column.getCanSort() ? (
                        <button type="button" onClick={column.getToggleSortingHandler()} className="inline-flex items-center gap-1 rounded hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
                          <table.FlexRender header={header} />
                          {sorted === "asc" ? <ArrowUp aria-hidden className="size-3.5" /> : sorted === "desc" ? <ArrowDown aria-hidden className="size-3.5" /> : <ArrowUpDown aria-hidden className="size-3.5 opacity-40" />}
                        </button>
                      ) : (
                        <table.FlexRender header={header} />
                      )}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody>
            {table.getRowModel().rows.map((row) => (
              <tr key={row.id} data-testid={`quality-row-${row.original.graderId}`} className={cn("border-t border-border align-top", row.original.excluded && "bg-muted/40")}>
                {row.getAllCells().map((cell) => (
                  <td key={cell.id} className={cn("px-3 py-1.5", cell.column.columnDef.meta?.className)}>
                    <table.FlexRender cell={cell} />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {notes ? (
        <dl className="grid gap-2 text-sm text-muted-foreground md:grid-cols-2">
          {(
            [
              ["Time vs median", notes.time.note],
              ["Straight-lining", notes.straightLining.note],
              ["Scale used", notes.scaleUse.note],
              ["Bias", notes.bias.note],
              ["AC2 vs peers", notes.agreement.note],
            ] as const
          ).map(([term, text]) => (
            <div key={term}>
              <dt className="font-medium text-foreground">{term}</dt>
              <dd>{text}</dd>
            </div>
          ))}
          {report.notCollected.map((p) => (
            <div key={p.signal}>
              <dt className="font-medium text-foreground">{p.label}</dt>
              <dd>
                <em>{p.status}.</em> {p.note}
              </dd>
            </div>
          ))}
        </dl>
      ) : null}
    </div>
  );
}
