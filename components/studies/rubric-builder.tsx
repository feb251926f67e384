"use client";

import { ArrowDown, ArrowUp, Plus, X } from "lucide-react";
import { useId, useMemo, useState } from "react";
import { DimensionField } from "@/components/grading/dimension-field";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import type { CellValue, GradingField } from "@/lib/grading/form-state";
import { ordinalRange, parseRubricDocument, type RubricDimension, type RubricDocument } from "@/lib/rubrics/document";
import { textareaClass } from "./form-field";

/** A key from a name: lower-case letters, digits and _ (what a rubric document's keys allow). */
export function keyOf(name: string, fallback: string): string {
  const k = name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .replace(/^(\d)/, "d$1")
    .slice(0, 63);
  return k || fallback;
}

type ScaleChoice = "likert5" | "zero10" | "yesno" | "nominal";

const SCALES: Record<ScaleChoice, { label: string; scale: RubricDimension["scale"] }> = {
  likert5: {
    label: "Likert 1-5",
    scale: { kind: "ordinal", levels: ["Strongly disagree", "Disagree", "Neutral", "Agree", "Strongly agree"].map((label, i) => ({ value: i + 1, label })) },
  },
  zero10: { label: "0-10", scale: { kind: "ordinal", levels: Array.from({ length: 11 }, (_, i) => ({ value: i, label: String(i) })) } },
  yesno: { label: "No / Yes (0-1)", scale: { kind: "ordinal", levels: [{ value: 0, label: "No" }, { value: 1, label: "Yes" }] } },
  nominal: { label: "Categories (nominal)", scale: { kind: "nominal", levels: [{ value: "a", label: "First category" }, { value: "b", label: "Second category" }] } },
};

const SCOPES: { value: RubricDimension["scope"]; label: string }[] = [
  { value: "first_answer", label: "the first answer" },
  { value: "each_answer", label: "each answer" },
  { value: "set", label: "all answers together" },
];

interface Draft {
  name: string;
  instructions: string;
  dimensions: RubricDimension[];
  /** A total summing the ordinal dimensions (each-answer ones averaged over the answers), as the headline. */
  sum: boolean;
  /** An edited rubric's own totals, kept until the lead changes the total. */
  kept?: Pick<RubricDocument, "totals" | "headline">;
}

/** The document the builder's state stands for. */
export function documentOf(d: Draft): RubricDocument {
  const ordinal = d.dimensions.filter((x) => x.scale.kind === "ordinal" && !x.scale.allowNA);
  const range = ordinal.reduce((r, x) => ({ min: r.min + ordinalRange(x).min, max: r.max + ordinalRange(x).max }), { min: 0, max: 0 });
  if (d.kept) return { key: keyOf(d.name, "rubric"), name: d.name, version: 1, ...(d.instructions.trim() ? { instructions: d.instructions } : {}), dimensions: d.dimensions, ...d.kept };
  const totals: RubricDocument["totals"] =
    d.sum && ordinal.length ? [{ key: "total", name: `Total (${range.min}-${range.max})`, method: "sum", dimensions: ordinal.map((x) => x.key) }] : [];
  return {
    key: keyOf(d.name, "rubric"),
    name: d.name,
    version: 1,
    ...(d.instructions.trim() ? { instructions: d.instructions } : {}),
    dimensions: d.dimensions,
    totals,
    ...(totals.length ? { headline: "total" } : {}),
  };
}

function draftOf(doc: RubricDocument | undefined): Draft {
  if (!doc) return { name: "", instructions: "", dimensions: [], sum: true };
  return {
    name: doc.name,
    instructions: doc.instructions ?? "",
    dimensions: doc.dimensions,
    sum: doc.totals.some((t) => t.method === "sum"),
    kept: { totals: doc.totals, ...(doc.headline ? { headline: doc.headline } : {}) },
  };
}

/**
 * A rubric built in the browser: its dimensions (added, reordered, each with
 * its scale and levels), checked as the server checks it (every problem with
 * its JSON path), and the grader's form drawn beside it as it will look.
 */
export function RubricBuilder({ initial, repetitions, onSave, onCancel }: { initial?: RubricDocument; repetitions: number; onSave: (doc: RubricDocument) => void; onCancel: () => void }) {
  const id = useId();
  const [draft, setDraft] = useState<Draft>(() => draftOf(initial));
  const [preview, setPreview] = useState<Record<string, CellValue>>({});
  const doc = useMemo(() => documentOf(draft), [draft]);
  const parsed = useMemo(() => parseRubricDocument(doc), [doc]);
  const problems = parsed.ok ? [] : parsed.problems;
  const n = Math.max(1, repetitions);

  const setDim = (i: number, patch: Partial<RubricDimension>) =>
    setDraft((d) => ({ ...d, dimensions: d.dimensions.map((x, j) => (j === i ? { ...x, ...patch } : x)) }));
  const setLevel = (i: number, j: number, patch: { value?: string; label?: string }) => {
    const dim = draft.dimensions[i];
    const levels = (dim.scale.levels ?? []).map((l, k) => {
      if (k !== j) return l;
      const value = patch.value === undefined ? l.value : dim.scale.kind === "ordinal" ? Number(patch.value) : patch.value;
      return { ...l, value, label: patch.label ?? l.label };
    });
    setDim(i, { scale: { ...dim.scale, levels } });
  };
  const addDimension = () =>
    setDraft((d) => {
      const k = d.dimensions.length + 1;
      return { ...d, dimensions: [...d.dimensions, { key: `criterion_${k}`, name: `Criterion ${k}`, scope: "first_answer", scale: SCALES.likert5.scale, threshold: 2 }] };
    });
  const move = (i: number, by: number) =>
    setDraft((d) => {
      const dims = [...d.dimensions];
      [dims[i], dims[i + by]] = [dims[i + by], dims[i]];
      return { ...d, dimensions: dims };
    });

  return (
    <section className="flex flex-col gap-4 rounded-md border border-primary/40 p-4" aria-label="Rubric builder">
      <div className="grid gap-4 lg:grid-cols-2">
        <div className="flex flex-col gap-3">
          <label className="flex flex-col gap-1 text-sm" htmlFor={`${id}-name`}>
            Rubric name
            <Input id={`${id}-name`} value={draft.name} onChange={(e) => setDraft((d) => ({ ...d, name: e.target.value }))} maxLength={120} />
          </label>
          <label className="flex flex-col gap-1 text-sm" htmlFor={`${id}-instructions`}>
            Instructions to graders (optional)
            <textarea id={`${id}-instructions`} className={textareaClass} rows={2} value={draft.instructions} onChange={(e) => setDraft((d) => ({ ...d, instructions: e.target.value }))} />
          </label>
          <ol className="flex flex-col gap-3" aria-label="Dimensions">
            {draft.dimensions.map((d, i) => {
              const at = `${id}-d${i}`;
              const preset = (Object.keys(SCALES) as ScaleChoice[]).find((k) => JSON.stringify(SCALES[k].scale.levels) === JSON.stringify(d.scale.levels) && SCALES[k].scale.kind === d.scale.kind);
              return (
                <li key={i} className="flex flex-col gap-2 rounded-md border border-border p-3 text-sm">
                  <div className="flex items-end gap-2">
                    <label className="flex flex-1 flex-col gap-1" htmlFor={`${at}-name`}>
                      Dimension {i + 1} name
                      <Input
                        id={`${at}-name`}
                        value={d.name}
                        // A new dimension's key follows its name; an existing one keeps its key (totals and grades name it).
                        onChange={(e) => setDim(i, { name: e.target.value, ...(d.key === keyOf(d.name, "") || d.key.startsWith("criterion_") ? { key: keyOf(e.target.value, `criterion_${i + 1}`) } : {}) })}
                        maxLength={120}
                      />
                    </label>
                    <Button type="button" variant="ghost" size="sm" disabled={i === 0} onClick={() => move(i, -1)} aria-label={`Move ${d.name} up`}>
                      <ArrowUp aria-hidden className="size-4" />
                    </Button>
                    <Button type="button" variant="ghost" size="sm" disabled={i === draft.dimensions.length - 1} onClick={() => move(i, 1)} aria-label={`Move ${d.name} down`}>
                      <ArrowDown aria-hidden className="size-4" />
                    </Button>
                    <Button type="button" variant="ghost" size="sm" onClick={() => setDraft((x) => ({ ...x, dimensions: x.dimensions.filter((_, j) => j !== i) }))} aria-label={`Remove ${d.name}`}>
                      <X aria-hidden className="size-4" />
                    </Button>
                  </div>
                  <label className="flex flex-col gap-1" htmlFor={`${at}-def`}>
                    Definition (optional)
                    <textarea id={`${at}-def`} className={textareaClass} rows={2} value={d.definition ?? ""} onChange={(e) => setDim(i, { definition: e.target.value || undefined })} />
                  </label>
                  <div className="flex flex-wrap gap-3">
                    <label className="flex flex-col gap-1" htmlFor={`${at}-scope`}>
                      Graded on
                      <select id={`${at}-scope`} className="h-9 rounded-md border border-border bg-background px-2" value={d.scope} onChange={(e) => setDim(i, { scope: e.target.value as RubricDimension["scope"] })}>
                        {SCOPES.map((s) => (
                          <option key={s.value} value={s.value}>
                            {s.label}
                          </option>
                        ))}
                      </select>
                    </label>
                    <label className="flex flex-col gap-1" htmlFor={`${at}-scale`}>
                      Scale
                      <select
                        id={`${at}-scale`}
                        className="h-9 rounded-md border border-border bg-background px-2"
                        value={preset ?? ""}
                        onChange={(e) => {
                          const s = SCALES[e.target.value as ScaleChoice];
                          const { min, max } = s.scale.kind === "ordinal" ? ordinalRange({ ...d, scale: s.scale }) : { min: 0, max: 0 };
                          setDim(i, { scale: s.scale, threshold: s.scale.kind === "ordinal" ? Math.max(1, Math.round((max - min) / 2)) : undefined });
                        }}
                      >
                        {preset ? null : <option value="">Edited levels</option>}
                        {(Object.keys(SCALES) as ScaleChoice[]).map((k) => (
                          <option key={k} value={k}>
                            {SCALES[k].label}
                          </option>
                        ))}
                      </select>
                    </label>
                    {d.scale.kind === "ordinal" ? (
                      <label className="flex flex-col gap-1" htmlFor={`${at}-threshold`}>
                        Escalate at a spread of
                        <Input
                          id={`${at}-threshold`}
                          type="number"
                          min={0}
                          step={0.5}
                          className="w-24"
                          value={d.threshold ?? ""}
                          onChange={(e) => setDim(i, { threshold: e.target.value === "" ? undefined : Number(e.target.value) })}
                        />
                      </label>
                    ) : null}
                    <label className="flex items-center gap-2 self-end pb-2">
                      <input type="checkbox" checked={Boolean(d.scale.allowNA)} onChange={(e) => setDim(i, { scale: { ...d.scale, allowNA: e.target.checked || undefined } })} />
                      Not applicable allowed
                    </label>
                  </div>
                  <details>
                    <summary className="cursor-pointer text-muted-foreground">Levels ({(d.scale.levels ?? []).length})</summary>
                    <table className="mt-2 w-full text-sm">
                      <thead className="text-left text-xs text-muted-foreground">
                        <tr>
                          <th scope="col">Value</th>
                          <th scope="col">Label</th>
                          <th scope="col" className="sr-only">
                            Remove
                          </th>
                        </tr>
                      </thead>
                      <tbody>
                        {(d.scale.levels ?? []).map((l, j) => (
                          <tr key={j}>
                            <td className="pr-2">
                              <Input aria-label={`${d.name} level ${j + 1} value`} className="w-20" value={String(l.value)} onChange={(e) => setLevel(i, j, { value: e.target.value })} />
                            </td>
                            <td className="pr-2">
                              <Input aria-label={`${d.name} level ${j + 1} label`} value={l.label} onChange={(e) => setLevel(i, j, { label: e.target.value })} />
                            </td>
                            <td>
                              <Button
                                type="button"
                                variant="ghost"
                                size="sm"
                                aria-label={`Remove level ${j + 1} of ${d.name}`}
                                onClick={() => setDim(i, { scale: { ...d.scale, levels: (d.scale.levels ?? []).filter((_, k) => k !== j) } })}
                              >
                                <X aria-hidden className="size-4" />
                              </Button>
                            </td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                    <Button
                      type="button"
                      variant="outline"
                      size="sm"
                      className="mt-2"
                      onClick={() => {
                        const levels = d.scale.levels ?? [];
                        const last = levels[levels.length - 1];
                        const value = d.scale.kind === "ordinal" ? Number(last?.value ?? 0) + 1 : `level_${levels.length + 1}`;
                        setDim(i, { scale: { ...d.scale, levels: [...levels, { value, label: String(value) }] } });
                      }}
                    >
                      Add a level
                    </Button>
                  </details>
                </li>
              );
            })}
          </ol>
          <div className="flex flex-wrap items-center gap-3">
            <Button type="button" variant="outline" onClick={addDimension}>
              <Plus aria-hidden className="size-4" /> Add a dimension
            </Button>
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" checked={draft.sum} onChange={(e) => setDraft((d) => ({ ...d, sum: e.target.checked, kept: undefined }))} />
              {draft.kept?.totals.length ? `Totals: ${draft.kept.totals.map((t) => t.name).join("; ")} (untick to sum the scored dimensions instead)` : "Total: the sum of the scored dimensions"}
            </label>
          </div>
          {problems.length ? (
            <ul className="list-disc pl-5 text-sm text-destructive" aria-label="Problems with this rubric">
              {problems.map((p) => (
                <li key={`${p.path}:${p.message}`}>
                  <code className="text-xs">{p.path}</code>: {p.message}
                </li>
              ))}
            </ul>
          ) : null}
          <div className="flex gap-2">
            <Button type="button" disabled={!parsed.ok} onClick={() => parsed.ok && onSave(parsed.rubric)}>
              Add this rubric
            </Button>
            <Button type="button" variant="ghost" onClick={onCancel}>
              Cancel
            </Button>
          </div>
        </div>
        <div className="flex flex-col gap-2" aria-label="Preview of the grader's form" role="region">
          <p className="text-sm font-medium">What graders will see</p>
          {draft.instructions ? <p className="text-sm text-muted-foreground">{draft.instructions}</p> : null}
          <div className="flex flex-col divide-y divide-border rounded-lg border border-border bg-background">
            {draft.dimensions
              .filter((d) => d.scale.kind !== "criteria" && !d.derived && (d.scale.levels ?? []).length > 0)
              .map((d, i) => {
                const field: GradingField = { key: `preview/${d.key}/${i}`, rubric: doc.key, rubricName: doc.name, dimension: d, repetition: d.scope === "set" ? 0 : 1 };
                return (
                  <DimensionField
                    key={field.key}
                    field={field}
                    scopeLabel={d.scope === "set" ? `All ${n} answers together` : d.scope === "each_answer" ? "Each answer" : "Answer 1"}
                    value={preview[field.key]}
                    comment=""
                    readOnly={false}
                    onChange={(v) => setPreview((p) => ({ ...p, [field.key]: v }))}
                    onComment={() => undefined}
                    onCommentBlur={() => undefined}
                  />
                );
              })}
          </div>
          {doc.totals.length ? <p className="text-sm text-muted-foreground">{doc.totals[0].name}</p> : null}
        </div>
      </div>
    </section>
  );
}
