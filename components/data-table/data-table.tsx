"use client";

import {
  createColumnHelper,
  functionalUpdate,
  metaHelper,
  rowPaginationFeature,
  rowSortingFeature,
  tableFeatures,
  useTable,
  type ColumnDef,
  type PaginationState,
  type RowData,
  type SortingState,
} from "@tanstack/react-table";
import { ArrowDown, ArrowUp, ArrowUpDown, ChevronLeft, ChevronRight, ChevronsLeft, ChevronsRight } from "lucide-react";
import { useMemo } from "react";
import { Button } from "@/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { cn } from "@/lib/utils";
import { DataTableToolbar, type FilterDef } from "./data-table-toolbar";
import { PAGE_SIZES, pageCount, sortToState, stateToSort, type Page } from "@/lib/tables/search-params";
import { useTableUrl } from "./use-table-url";

/**
 * TanStack Table v9 in server mode: sorting and pagination state come from the
 * URL (read by the server page), `manualSorting`/`manualPagination` leave the
 * rows as the server ordered and sliced them, and every state change becomes
 * a new URL rather than client-side processing.
 */
export interface DataTableColumnMeta {
  /** Classes for the column's header and cells (alignment, width). */
  className?: string;
}
export const dataTableFeatures = tableFeatures({ rowSortingFeature, rowPaginationFeature, columnMeta: metaHelper<DataTableColumnMeta>() });
export type DataTableFeatures = typeof dataTableFeatures;

/** Column helper for a server-driven table of `T`. Define columns at module scope so they stay stable. */
export function dataTableColumns<T extends RowData>() {
  return createColumnHelper<DataTableFeatures, T>();
}

export interface DataTableProps<T extends RowData> {
  /** Accessible name of the table. */
  label: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each column keeps its own value type
  columns: ColumnDef<DataTableFeatures, T, any>[];
  /** The page the server read: its rows, the total and where it is. */
  page: Page<T>;
  /** The sort the server applied, e.g. `-createdAt`. */
  sort: string;
  getRowId: (row: T) => string;
  /** The filters above the table (search params the server reads); none draws no toolbar. */
  filters?: readonly FilterDef[];
  /** More controls at the toolbar's end (the audit log's date range). */
  toolbar?: React.ReactNode;
  empty?: React.ReactNode;
  pageSizes?: readonly number[];
}

const ARIA_SORT = { asc: "ascending", desc: "descending" } as const;

/** A server-driven table under its filters: every list page of the app (studies, items, graders, escalations, results, audit). */
export function DataTable<T extends RowData>({ filters, toolbar, ...table }: DataTableProps<T>) {
  if (!filters && !toolbar) return <PagedTable {...table} />;
  return (
    <div className="flex flex-col gap-4">
      <DataTableToolbar filters={filters ?? []}>{toolbar}</DataTableToolbar>
      <PagedTable {...table} />
    </div>
  );
}

function PagedTable<T extends RowData>({ label, columns, page: { rows, total, page, pageSize }, sort, getRowId, empty, pageSizes = PAGE_SIZES }: Omit<DataTableProps<T>, "filters" | "toolbar">) {
  const { navigate, pending } = useTableUrl();
  const sorting = useMemo<SortingState>(() => [sortToState(sort)], [sort]);
  const pagination = useMemo<PaginationState>(() => ({ pageIndex: page - 1, pageSize }), [page, pageSize]);

  const table = useTable({
    features: dataTableFeatures,
    columns,
    data: rows,
    getRowId,
    manualSorting: true,
    manualPagination: true,
    rowCount: total,
    // One column at a time, always sorted: the server needs a definite order to page through.
    enableMultiSort: false,
    enableSortingRemoval: false,
    state: { sorting, pagination },
    onSortingChange: (updater) => {
      const next = functionalUpdate(updater, sorting)[0];
      if (next) navigate({ sort: stateToSort(next) });
    },
    onPaginationChange: (updater) => {
      const next = functionalUpdate(updater, pagination);
      if (next.pageSize !== pagination.pageSize) navigate({ pageSize: next.pageSize });
      else navigate({ page: next.pageIndex + 1 });
    },
  });

  const pages = pageCount(total, pageSize);
  const from = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = Math.min(total, page * pageSize);
  const sizes = pageSizes.includes(pageSize) ? pageSizes : [...pageSizes, pageSize].sort((a, b) => a - b);

  return (
    <div className="flex flex-col gap-3" aria-busy={pending}>
      <Table aria-label={label} className={cn(pending && "opacity-60 transition-opacity")}>
        <TableHeader>
          {table.getHeaderGroups().map((group) => (
            <TableRow key={group.id}>
              {group.headers.map((header) => {
                const column = header.column;
                const sorted = column.getIsSorted();
                return (
                  <TableHead key={header.id} aria-sort={sorted ? ARIA_SORT[sorted] : column.getCanSort() ? "none" : undefined} className={column.columnDef.meta?.className}>
                    {header.isPlaceholder ? null : column.getCanSort() ? (
                      <button
                        type="button"
                        onClick={column.getToggleSortingHandler()}
                        className="inline-flex items-center gap-1 rounded hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                      >
                        <table.FlexRender header={header} />
                        {sorted === "asc" ? (
                          <ArrowUp aria-hidden className="size-3.5" />
                        ) : sorted === "desc" ? (
                          <ArrowDown aria-hidden className="size-3.5" />
                        ) : (
                          <ArrowUpDown aria-hidden className="size-3.5 opacity-40" />
                        )}
                        <span className="sr-only">{sorted ? `, sorted ${ARIA_SORT[sorted]}` : ", sort"}</span>
                      </button>
                    ) : (
                      <table.FlexRender header={header} />
                    )}
                  </TableHead>
                );
              })}
            </TableRow>
          ))}
        </TableHeader>
        <TableBody>
          {table.getRowModel().rows.length === 0 ? (
            <TableRow>
              <TableCell colSpan={columns.length} className="py-8 text-center text-muted-foreground">
                {empty ?? "Nothing matches."}
              </TableCell>
            </TableRow>
          ) : (
            table.getRowModel().rows.map((row) => (
              <TableRow key={row.id}>
                {row.getAllCells().map((cell) => (
                  <TableCell key={cell.id} className={cell.column.columnDef.meta?.className}>
                    <table.FlexRender cell={cell} />
                  </TableCell>
                ))}
              </TableRow>
            ))
          )}
        </TableBody>
      </Table>

      <nav aria-label={`${label} pages`} className="flex flex-wrap items-center justify-between gap-3 text-sm">
        <p className="text-muted-foreground" aria-live="polite">
          {total === 0 ? "No rows" : `Rows ${from}–${to} of ${total}`}
        </p>
        <div className="flex flex-wrap items-center gap-2">
          <label className="flex items-center gap-2 text-muted-foreground">
            Rows per page
            <select
              className="h-8 rounded-md border border-border bg-background px-2 text-foreground"
              value={pageSize}
              onChange={(e) => table.setPageSize(Number(e.target.value))}
            >
              {sizes.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </label>
          <span className="px-2 tabular-nums">
            Page {Math.min(page, pages)} of {pages}
          </span>
          <Button variant="outline" size="sm" aria-label="First page" disabled={page <= 1} onClick={() => table.setPageIndex(0)}>
            <ChevronsLeft aria-hidden className="size-4" />
          </Button>
          <Button variant="outline" size="sm" aria-label="Previous page" disabled={page <= 1} onClick={() => table.setPageIndex(Math.min(page, pages + 1) - 2)}>
            <ChevronLeft aria-hidden className="size-4" />
          </Button>
          <Button variant="outline" size="sm" aria-label="Next page" disabled={page >= pages} onClick={() => table.nextPage()}>
            <ChevronRight aria-hidden className="size-4" />
          </Button>
          <Button variant="outline" size="sm" aria-label="Last page" disabled={page >= pages} onClick={() => table.setPageIndex(pages - 1)}>
            <ChevronsRight aria-hidden className="size-4" />
          </Button>
        </div>
      </nav>
    </div>
  );
}
