"use client";

import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import type { GradeImportMapping, ItemRewriteRule } from "@/lib/grade-import/mapping";
import type { PreviewTable } from "@/lib/grade-import/preview";

/** The column-mapping form: which column holds what, rater columns and sheet -> dimension for the wide format, item id rewrites. */

export interface DimensionChoice {
  value: string;
  label: string;
}

const selectClass = "h-9 rounded-md border border-border bg-background px-2 text-sm";

function ColumnSelect({ id, label, value, columns, optional, onChange }: { id: string; label: string; value: string | undefined; columns: string[]; optional?: boolean; onChange: (v: string | undefined) => void }) {
  return (
    <div className="flex flex-col gap-1">
      <Label htmlFor={id}>{label}</Label>
      <select id={id} className={selectClass} value={value ?? ""} onChange={(e) => onChange(e.target.value || undefined)}>
        <option value="">{optional ? "(none)" : "Choose a column"}</option>
        {columns.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
    </div>
  );
}

export function MappingFields({
  mapping,
  tables,
  dimensions,
  onChange,
}: {
  mapping: GradeImportMapping;
  tables: PreviewTable[];
  dimensions: DimensionChoice[];
  onChange: (m: GradeImportMapping) => void;
}) {
  const columns = [...new Set(tables.flatMap((t) => t.header).filter(Boolean))];
  const set = (patch: Partial<GradeImportMapping>) => onChange({ ...mapping, ...patch });
  const raterColumns = new Set((mapping.raters ?? []).map((r) => r.column));
  const rewrites = mapping.itemRewrites;
  const setRewrite = (i: number, patch: Partial<ItemRewriteRule>) => set({ itemRewrites: rewrites.map((r, j) => (j === i ? { ...r, ...patch } : r)) });
  return (
    <div className="flex flex-col gap-4">
      <fieldset className="flex flex-wrap gap-4 text-sm">
        <legend className="mb-1 font-medium">Layout</legend>
        <label className="flex items-center gap-2">
          <input type="radio" name="format" checked={mapping.format === "long"} onChange={() => set({ format: "long" })} /> Long: one row per grade
        </label>
        <label className="flex items-center gap-2">
          <input type="radio" name="format" checked={mapping.format === "wide"} onChange={() => set({ format: "wide" })} /> Wide: one row per answer, one column per rater
        </label>
      </fieldset>

      <div className="grid gap-3 sm:grid-cols-4">
        <ColumnSelect id="map-item" label="Item id" value={mapping.item} columns={columns} onChange={(v) => set({ item: v ?? "" })} />
        <ColumnSelect id="map-model" label="Model" value={mapping.model} columns={columns} onChange={(v) => set({ model: v ?? "" })} />
        <ColumnSelect id="map-repetition" label="Repetition" value={mapping.repetition} columns={columns} optional onChange={(v) => set({ repetition: v })} />
        <ColumnSelect id="map-comment" label="Comment" value={mapping.comment} columns={columns} optional onChange={(v) => set({ comment: v })} />
        {mapping.format === "long" ? (
          <>
            <ColumnSelect id="map-rater" label="Rater" value={mapping.rater} columns={columns} onChange={(v) => set({ rater: v })} />
            <ColumnSelect id="map-dimension" label="Dimension" value={mapping.dimension} columns={columns} onChange={(v) => set({ dimension: v })} />
            <ColumnSelect id="map-score" label="Score" value={mapping.score} columns={columns} onChange={(v) => set({ score: v })} />
          </>
        ) : null}
      </div>

      {mapping.format === "wide" ? (
        <>
          <fieldset className="flex flex-col gap-2 text-sm">
            <legend className="mb-1 font-medium">Rater columns (the header becomes the rater&apos;s pseudonym)</legend>
            <div className="flex flex-wrap gap-4">
              {columns.map((c) => (
                <label key={c} className="flex items-center gap-2">
                  <input
                    type="checkbox"
                    checked={raterColumns.has(c)}
                    onChange={(e) => set({ raters: e.target.checked ? [...(mapping.raters ?? []), { column: c }] : (mapping.raters ?? []).filter((r) => r.column !== c) })}
                  />
                  {c}
                </label>
              ))}
            </div>
          </fieldset>
          <fieldset className="flex flex-col gap-2 text-sm">
            <legend className="mb-1 font-medium">{tables.some((t) => t.sheet !== null) ? "Dimension of each sheet" : "Dimension of the file"}</legend>
            {tables.map((t) => {
              const key = t.sheet ?? "";
              const value = t.sheet === null ? (mapping.fileDimension ?? "") : (mapping.sheets?.[key] ?? "");
              return (
                <label key={key} className="flex items-center gap-3">
                  <span className="w-40 font-mono text-xs">{t.sheet ?? "(CSV file)"}</span>
                  <select
                    aria-label={`Dimension of ${t.sheet ?? "the file"}`}
                    className={selectClass}
                    value={value}
                    onChange={(e) => (t.sheet === null ? set({ fileDimension: e.target.value || undefined }) : set({ sheets: { ...mapping.sheets, [key]: e.target.value } }))}
                  >
                    <option value="">(skip)</option>
                    {dimensions.map((d) => (
                      <option key={d.value} value={d.value}>
                        {d.label}
                      </option>
                    ))}
                  </select>
                </label>
              );
            })}
          </fieldset>
        </>
      ) : null}

      <fieldset className="flex flex-col gap-2 text-sm">
        <legend className="mb-1 font-medium">Item id rewrites</legend>
        <p className="text-xs text-muted-foreground">
          A regular expression on the whole id, its replacement ($1 for the first group) and a number to add: <code>1_(\d+)</code> → <code>$1</code> + 50
          turns 1_3 into 53. The first rule that matches applies.
        </p>
        {rewrites.map((r, i) => (
          <div key={i} className="flex flex-wrap items-end gap-2">
            <Input aria-label={`Rule ${i + 1}: match`} className="w-48 font-mono" value={r.match} onChange={(e) => setRewrite(i, { match: e.target.value })} />
            <Input aria-label={`Rule ${i + 1}: replace`} className="w-32 font-mono" value={r.replace} onChange={(e) => setRewrite(i, { replace: e.target.value })} />
            <Input
              aria-label={`Rule ${i + 1}: add`}
              className="w-24"
              inputMode="numeric"
              value={r.add ?? ""}
              onChange={(e) => setRewrite(i, { add: /^-?\d+$/.test(e.target.value) ? Number(e.target.value) : undefined })}
            />
            <Button type="button" variant="ghost" size="sm" onClick={() => set({ itemRewrites: rewrites.filter((_, j) => j !== i) })}>
              Remove
            </Button>
          </div>
        ))}
        <div>
          <Button type="button" variant="outline" size="sm" onClick={() => set({ itemRewrites: [...rewrites, { match: "", replace: "$1" }] })}>
            Add a rewrite rule
          </Button>
        </div>
      </fieldset>

      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={mapping.createItems} onChange={(e) => set({ createItems: e.target.checked })} />
        Create items the study does not have yet (answers without text)
      </label>
    </div>
  );
}
