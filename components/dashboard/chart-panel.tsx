"use client";

import { Download, FileImage, FileSpreadsheet, Info } from "lucide-react";
import { useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import type { TableData } from "@/lib/analytics/tables";
import { cn } from "@/lib/utils";
import { DEFAULT_FIGURE, downloadCsv, downloadPng, downloadSvg, FIGURE_DPIS, FIGURE_WIDTHS, type FigureSize, type ImageText } from "./download";

/**
 * One dashboard section: a chart with its numbers beside it (or below, for wide
 * tables), the CSV of those numbers, and the chart as SVG or PNG.
 */
export function ChartPanel({
  id,
  title,
  description,
  csv,
  image,
  layout = "side",
  emphasis = "chart",
  chart,
  table,
  footer,
  empty,
}: {
  id: string;
  title: string;
  description?: React.ReactNode;
  /** The table's rows for the CSV download, and the file name. */
  csv?: { name: string; table: TableData };
  /** The chart's file name (no extension) and what to draw around it in the file. */
  image?: { name: string } & ImageText;
  layout?: "side" | "stacked";
  /** In the side layout, which of the two gets the wider column. */
  emphasis?: "chart" | "table";
  chart?: React.ReactNode;
  table?: React.ReactNode;
  footer?: React.ReactNode;
  /** "Not enough data": shown instead of the chart and the table. */
  empty?: string | null;
}) {
  const chartRef = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState<FigureSize>(DEFAULT_FIGURE);
  const sizeId = useId();
  const svg = () => chartRef.current?.querySelector<SVGSVGElement>("svg[data-chart], svg.recharts-surface") ?? null;
  return (
    <Card data-testid={`panel-${id}`} aria-labelledby={`${id}-title`} role="region" className="break-inside-avoid">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3 space-y-0">
        <div className="flex min-w-0 flex-1 flex-col gap-1.5">
          <CardTitle id={`${id}-title`}>{title}</CardTitle>
          {description ? <CardDescription>{description}</CardDescription> : null}
        </div>
        {empty ? null : (
          <div className="flex flex-wrap items-center gap-2 print:hidden" role="group" aria-label={`Download ${title}`}>
            {csv ? (
              <Button variant="outline" size="sm" onClick={() => downloadCsv(`${csv.name}.csv`, csv.table)}>
                <FileSpreadsheet aria-hidden className="size-4" />
                CSV
              </Button>
            ) : null}
            {image && chart ? (
              <>
                {/* The figure's printed size: a PNG is width x dpi pixels wide and says its dpi; the SVG says its width in inches. */}
                <label htmlFor={`${sizeId}-w`} className="sr-only">
                  Figure width
                </label>
                <select
                  id={`${sizeId}-w`}
                  value={size.widthIn}
                  onChange={(e) => setSize((s) => ({ ...s, widthIn: Number(e.target.value) }))}
                  className="h-8 rounded-md border border-border bg-background px-2 text-xs"
                >
                  {FIGURE_WIDTHS.map((w) => (
                    <option key={w.widthIn} value={w.widthIn}>
                      {w.label}
                    </option>
                  ))}
                </select>
                <label htmlFor={`${sizeId}-dpi`} className="sr-only">
                  Resolution
                </label>
                <select
                  id={`${sizeId}-dpi`}
                  value={size.dpi}
                  onChange={(e) => setSize((s) => ({ ...s, dpi: Number(e.target.value) }))}
                  className="h-8 rounded-md border border-border bg-background px-2 text-xs"
                >
                  {FIGURE_DPIS.map((d) => (
                    <option key={d} value={d}>
                      {d} dpi
                    </option>
                  ))}
                </select>
                <Button
                  variant="outline"
                  size="sm"
                  onClick={() => {
                    const el = svg();
                    if (el) downloadSvg(`${image.name}.svg`, el, image, size);
                  }}
                >
                  <Download aria-hidden className="size-4" />
                  SVG
                </Button>
                <Button
                  variant="outline"
                  size="sm"
                  onClick={() => {
                    const el = svg();
                    if (el) void downloadPng(`${image.name}.png`, el, image, size);
                  }}
                >
                  <FileImage aria-hidden className="size-4" />
                  PNG
                </Button>
              </>
            ) : null}
          </div>
        )}
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {empty ? (
          <NotEnoughData reason={empty} />
        ) : (
          <div
            className={cn(
              "grid gap-6",
              layout === "side" && chart && table
                ? emphasis === "chart"
                  ? "xl:grid-cols-[minmax(0,1.15fr)_minmax(0,1fr)]"
                  : "xl:grid-cols-[minmax(0,0.8fr)_minmax(0,1.2fr)]"
                : "grid-cols-1",
            )}
          >
            {chart ? (
              <div ref={chartRef} className="min-w-0" data-testid={`chart-${id}`}>
                {chart}
              </div>
            ) : null}
            {table ? <div className="min-w-0">{table}</div> : null}
          </div>
        )}
        {footer && !empty ? <div className="text-sm text-muted-foreground">{footer}</div> : null}
      </CardContent>
    </Card>
  );
}

export function NotEnoughData({ reason, compact = false }: { reason: string; compact?: boolean }) {
  return (
    <div
      role="status"
      data-testid="not-enough-data"
      className={cn("flex items-start gap-3 rounded-md border border-dashed border-border bg-muted/40 text-sm", compact ? "p-3" : "px-4 py-8 sm:justify-center")}
    >
      <Info aria-hidden className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
      <div>
        <p className="font-medium">Not enough data yet</p>
        <p className="text-muted-foreground">{reason}</p>
      </div>
    </div>
  );
}
