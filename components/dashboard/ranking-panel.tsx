"use client";

import {
  createColumnHelper,
  createSortedRowModel,
  metaHelper,
  rowSortingFeature,
  sortFn_alphanumeric,
  sortFn_basic,
  tableFeatures,
  useTable,
  type SortingState,
} from "@tanstack/react-table";
import { ArrowDown, ArrowUp, ArrowUpDown } from "lucide-react";
import { useState } from "react";
import { Bar, BarChart, CartesianGrid, ErrorBar, Tooltip, XAxis, YAxis } from "recharts";
import { measureName, rankingDescription, scaleRange } from "@/lib/analytics/captions";
import { fmt, rankingTable } from "@/lib/analytics/tables";
import type { Block, ComparisonMeasure, RankingRow } from "@/lib/analytics/types";
import { cn } from "@/lib/utils";
import { ChartPanel } from "./chart-panel";
import { rubricColor, useRubricName } from "./rubric-names";
import { modelColor } from "./colors";
import { fileName } from "./download";
import { Legend } from "./legend";
import { nRange } from "@/lib/analytics/captions";

const features = tableFeatures({
  rowSortingFeature,
  sortedRowModel: createSortedRowModel(),
  sortFns: { basic: sortFn_basic, alphanumeric: sortFn_alphanumeric },
  columnMeta: metaHelper<{ className?: string }>(),
});
const col = createColumnHelper<typeof features, RankingRow>();
const ARIA_SORT = { asc: "ascending", desc: "descending" } as const;

/** A mean's place on its scale, 0 at the lowest value and 100 at the highest. */
const placeOf = (v: number, r: Pick<RankingRow, "min" | "max">) => (r.max > r.min ? (100 * (v - r.min)) / (r.max - r.min) : 0);
const seriesKey = (r: Pick<RankingRow, "rubric" | "measure" | "measureKind">) => `${r.rubric}__${r.measureKind}__${r.measure}`;

function columns(allModels: string[], rubricName: (key: string) => string, keys: string[]) {
  return col.columns([
    col.accessor("rank", { header: "Rank", sortFn: "basic", meta: { className: "text-right tabular-nums" } }),
    col.accessor("model", {
      header: "Model",
      sortFn: "alphanumeric",
      cell: (c) => (
        <span className="inline-flex items-center gap-2 whitespace-nowrap">
          <span aria-hidden className="size-2.5 shrink-0 rounded-full" style={{ background: modelColor(c.getValue(), allModels) }} />
          {c.getValue()}
        </span>
      ),
    }),
    col.accessor("specialty", { header: "Specialty", sortFn: "alphanumeric" }),
    col.accessor((r) => `${rubricName(r.rubric)} · ${r.label}`, { id: "measure", header: "Rubric · measure", sortFn: "alphanumeric" }),
    col.accessor("n", { header: "n", sortFn: "basic", sortDescFirst: true, meta: { className: "text-right tabular-nums" } }),
    col.accessor("mean", {
      header: "Mean ± SD",
      sortFn: "basic",
      sortDescFirst: true,
      sortUndefined: "last",
      meta: { className: "text-right tabular-nums whitespace-nowrap" },
      cell: (c) => {
        const r = c.row.original;
        return (
          <span>
            <span className="font-medium">{fmt(r.mean)}</span>
            <span className="text-muted-foreground"> ± {fmt(r.sd)}</span>
            <span className="text-xs text-muted-foreground"> on {scaleRange(r)}</span>
          </span>
        );
      },
    }),
    col.display({
      id: "bar",
      header: () => <span className="sr-only">Place on the scale</span>,
      cell: (c) => {
        const r = c.row.original;
        const pct = r.mean === null ? 0 : placeOf(r.mean, r);
        return (
          <div className="h-2 w-24 rounded-full bg-muted" aria-hidden>
            <div className="h-2 rounded-full" style={{ width: `${Math.max(0, Math.min(100, pct))}%`, background: rubricColor(seriesKey(r), keys) }} />
          </div>
        );
      },
    }),
  ]);
}

function SortableRanking({ rows, allModels, keys }: { rows: RankingRow[]; allModels: string[]; keys: string[] }) {
  const rubricName = useRubricName();
  const [sorting, setSorting] = useState<SortingState>([]);
  const table = useTable({
    features,
    columns: columns(allModels, rubricName, keys),
    data: rows,
    getRowId: (r) => `${seriesKey(r)}|${r.specialty}|${r.model}`,
    state: { sorting },
    onSortingChange: setSorting,
  });
  return (
    <div className="max-h-[26rem] overflow-auto rounded-md border border-border">
      <table className="w-full text-sm" aria-label="Ranking of models">
        <thead className="sticky top-0 bg-muted text-left text-muted-foreground">
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
            <tr key={row.id} className="border-t border-border hover:bg-muted/40">
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
  );
}

/**
 * Mean ± SD per model and specialty on each measure (a rubric's total, or its
 * dimensions when it has none), sortable; the chart shows the scope, each mean
 * placed on its own scale from the rubric document.
 */
export function RankingPanel({
  block,
  scope,
  measures,
  allModels,
  slug,
  filterTag,
}: {
  block: Block<{ rows: RankingRow[] }>;
  scope: string;
  measures: ComparisonMeasure[];
  allModels: string[];
  slug: string;
  filterTag: string;
}) {
  const rubricName = useRubricName();
  const rows = block.data?.rows ?? [];
  const inScope = rows.filter((r) => r.specialty === scope);
  const models = [...new Set(inScope.map((r) => r.model))].sort((a, b) => allModels.indexOf(a) - allModels.indexOf(b));
  const keys = measures.map((m) => seriesKey({ rubric: m.rubric, measure: m.key, measureKind: m.kind }));
  const data = models.map((model) => {
    const row: Record<string, unknown> = { model };
    measures.forEach((m, i) => {
      const k = keys[i];
      const x = inScope.find((y) => y.model === model && seriesKey(y) === k);
      row[k] = x?.mean === null || x?.mean === undefined ? null : placeOf(x.mean, x);
      row[`${k}_err`] = x?.sd !== null && x?.sd !== undefined && x.max > x.min ? (100 * x.sd) / (x.max - x.min) : null;
      row[`${k}_raw`] = x ? `${fmt(x.mean)} ± ${fmt(x.sd)} on ${scaleRange(x)} (n = ${x.n})` : "n/a";
    });
    return row;
  });
  const label = (i: number) => `${rubricName(measures[i].rubric)} · ${measureName(measures[i])}`;
  const legend = measures.map((_, i) => ({ label: label(i), color: rubricColor(keys[i], keys) }));
  const ns = inScope.map((r) => r.n);
  return (
    <ChartPanel
      id="ranking"
      title="Ranking of models"
      description={rankingDescription(measures, rubricName, scope)}
      empty={block.reason}
      csv={block.data ? { name: fileName(slug, "ranking", filterTag), table: rankingTable(rows, rubricName) } : undefined}
      image={
        block.data
          ? {
              name: fileName(slug, "ranking", filterTag),
              title: `Mean ± SD per model, ${scope}`,
              subtitle: `Each mean on its own scale: 0% its lowest value, 100% its highest; n = ${nRange(ns)} final response sets per model and measure`,
              legend,
            }
          : undefined
      }
      chart={
        block.data ? (
          <figure className="flex flex-col gap-2">
            <BarChart responsive style={{ width: "100%", maxWidth: 760, height: 300, margin: "0 auto" }} data={data} margin={{ top: 12, right: 16, bottom: 8, left: 0 }} barCategoryGap="26%">
              <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e2e8f0" />
              <XAxis dataKey="model" tick={{ fontSize: 12, fill: "#334155" }} interval={0} tickLine={false} />
              <YAxis domain={[0, 110]} ticks={[0, 25, 50, 75, 100]} allowDataOverflow tickFormatter={(v: number) => `${v}%`} tick={{ fontSize: 11, fill: "#64748b" }} width={44} />
              <Tooltip formatter={(_value, name, item) => [String((item.payload as Record<string, unknown>)[`${String(name)}_raw`]), label(keys.indexOf(String(name)))]} />
              {keys.map((k) => (
                <Bar key={k} dataKey={k} name={k} fill={rubricColor(k, keys)} radius={[3, 3, 0, 0]} maxBarSize={48} isAnimationActive={false}>
                  <ErrorBar dataKey={`${k}_err`} width={8} strokeWidth={1.5} stroke="#0f172a" direction="y" />
                </Bar>
              ))}
            </BarChart>
            <Legend entries={legend} />
          </figure>
        ) : null
      }
      layout="stacked"
      table={block.data ? <SortableRanking rows={rows} allModels={allModels} keys={keys} /> : null}
    />
  );
}
