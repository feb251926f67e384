"use client";

import { Search, X } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { useTableUrl } from "./use-table-url";

export type FilterDef =
  | { kind: "search"; param: string; label: string; placeholder?: string }
  | { kind: "select"; param: string; label: string; allLabel?: string; options: readonly { value: string; label: string }[] };

/**
 * The filters of a server-driven table, each bound to one search param.
 * Text search waits for a pause in typing before it asks the server.
 */
export function DataTableToolbar({ filters, children }: { filters: readonly FilterDef[]; children?: React.ReactNode }) {
  return (
    <div role="search" className="flex flex-wrap items-end gap-3">
      {filters.map((f) => (f.kind === "search" ? <SearchFilter key={f.param} filter={f} /> : <SelectFilter key={f.param} filter={f} />))}
      {children ? <div className="ml-auto flex items-end gap-2">{children}</div> : null}
    </div>
  );
}

function SearchFilter({ filter }: { filter: Extract<FilterDef, { kind: "search" }> }) {
  const { navigate, searchParams } = useTableUrl();
  const id = useId();
  const current = searchParams.get(filter.param) ?? "";
  const [text, setText] = useState(current);
  const [lastCurrent, setLastCurrent] = useState(current);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // The URL changed under us (back button, a link): show what it says.
  if (current !== lastCurrent) {
    setLastCurrent(current);
    setText(current);
  }
  useEffect(() => () => clearTimeout(timer.current), []);

  function change(value: string) {
    setText(value);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => navigate({ [filter.param]: value.trim() || null }), 350);
  }

  return (
    <div className="flex min-w-56 flex-col gap-1.5">
      <Label htmlFor={id}>{filter.label}</Label>
      <div className="relative">
        <Search aria-hidden className="pointer-events-none absolute left-2.5 top-2.5 size-4 text-muted-foreground" />
        <Input
          id={id}
          type="search"
          value={text}
          placeholder={filter.placeholder}
          className="pl-8"
          onChange={(e) => change(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              clearTimeout(timer.current);
              navigate({ [filter.param]: text.trim() || null });
            }
          }}
        />
      </div>
    </div>
  );
}

function SelectFilter({ filter }: { filter: Extract<FilterDef, { kind: "select" }> }) {
  const { navigate, searchParams } = useTableUrl();
  const id = useId();
  const value = searchParams.get(filter.param) ?? "";
  return (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={id}>{filter.label}</Label>
      <div className="flex items-center gap-1">
        <select
          id={id}
          value={value}
          onChange={(e) => navigate({ [filter.param]: e.target.value || null })}
          className="h-9 rounded-md border border-border bg-background px-2 text-sm"
        >
          <option value="">{filter.allLabel ?? "All"}</option>
          {filter.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
        {value ? (
          <Button type="button" variant="ghost" size="sm" aria-label={`Clear ${filter.label}`} onClick={() => navigate({ [filter.param]: null })}>
            <X aria-hidden className="size-4" />
          </Button>
        ) : null}
      </div>
    </div>
  );
}
