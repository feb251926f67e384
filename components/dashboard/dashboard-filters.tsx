"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useTransition } from "react";
import { withParams } from "@/lib/tables/search-params";
import { Label } from "@/components/ui/label";
import { useRubricName } from "./rubric-names";
import { cn } from "@/lib/utils";
import { modelColor } from "./colors";

const selectClass =
  "h-9 rounded-md border border-border bg-background px-3 text-sm shadow-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-50";

/** One choice of what models are compared on: "total", "dimensions" or a dimension's key, with its label. */
export interface MeasureOption {
  value: string;
  label: string;
}

/**
 * Specialty, rubric and model filters and what models are compared on, kept in
 * the URL (?specialty=&rubric=&models=&measure=) so a view can be shared.
 */
export function DashboardFilters({
  specialties,
  rubrics,
  models,
  measures,
  selected,
}: {
  specialties: string[];
  rubrics: string[];
  models: string[];
  /** The choices of the comparison (lib/results/measures.ts), first the default. */
  measures: MeasureOption[];
  selected: { specialty: string | null; rubrics: string[]; models: string[]; measure: string };
}) {
  const rubricName = useRubricName();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const [pending, startTransition] = useTransition();
  const go = (changes: Record<string, string | null>) => startTransition(() => router.replace(`${pathname}${withParams(params.toString(), changes)}`, { scroll: false }));
  const rubricValue = selected.rubrics.length === rubrics.length ? "" : selected.rubrics[0];
  const toggle = (m: string) => {
    const next = selected.models.includes(m) ? selected.models.filter((x) => x !== m) : [...selected.models, m];
    go({ models: next.length === models.length ? null : models.filter((x) => next.includes(x)).join(",") });
  };
  return (
    <section aria-label="Filters" aria-busy={pending} className={cn("flex flex-wrap items-end gap-x-6 print:hidden gap-y-4 rounded-lg border border-border bg-muted/30 p-4", pending && "opacity-70")}>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="filter-specialty">Specialty</Label>
        <select id="filter-specialty" className={selectClass} value={selected.specialty ?? ""} onChange={(e) => go({ specialty: e.target.value || null })}>
          <option value="">All specialties</option>
          {specialties.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </div>
      {rubrics.length > 1 ? (
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="filter-rubric">Rubric</Label>
          <select id="filter-rubric" className={selectClass} value={rubricValue} onChange={(e) => go({ rubric: e.target.value || null })}>
            <option value="">Every rubric</option>
            {rubrics.map((r) => (
              <option key={r} value={r}>
                {rubricName(r)}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      {measures.length > 1 ? (
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="filter-measure">Compare models on</Label>
          <select id="filter-measure" className={selectClass} value={selected.measure} onChange={(e) => go({ measure: e.target.value === "total" ? null : e.target.value })}>
            {measures.map((m) => (
              <option key={m.value} value={m.value}>
                {m.label}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      {models.length > 0 ? (
        <fieldset className="flex flex-col gap-1.5">
          <legend className="mb-1.5 text-sm font-medium leading-none">Models</legend>
          <div className="flex flex-wrap gap-2">
            {models.map((m) => {
              const on = selected.models.includes(m);
              const last = on && selected.models.length === 1;
              return (
                <label
                  key={m}
                  className={cn(
                    "inline-flex h-9 cursor-pointer items-center gap-2 rounded-md border px-3 text-sm shadow-sm transition-colors focus-within:ring-2 focus-within:ring-ring",
                    on ? "border-foreground/20 bg-background" : "border-border bg-muted/50 text-muted-foreground line-through",
                    last && "cursor-not-allowed",
                  )}
                  title={last ? "At least one model stays selected" : undefined}
                >
                  <input type="checkbox" className="sr-only" checked={on} disabled={last} onChange={() => toggle(m)} />
                  <span aria-hidden className="size-2.5 rounded-full" style={{ background: on ? modelColor(m, models) : "#cbd5e1" }} />
                  {m}
                </label>
              );
            })}
          </div>
        </fieldset>
      ) : null}
      {selected.specialty || rubricValue || selected.models.length !== models.length || selected.measure !== "total" ? (
        <button type="button" className="h-9 text-sm text-primary underline-offset-4 hover:underline" onClick={() => go({ specialty: null, rubric: null, models: null, measure: null })}>
          Reset filters
        </button>
      ) : null}
    </section>
  );
}
