"use client";

import { Download, Plus } from "lucide-react";
import { useId, useMemo, useState } from "react";
import { DimensionField } from "@/components/grading/dimension-field";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import type { CellValue, GradingField } from "@/lib/grading/form-state";
import { parseRubricDocument, repetitionProblems, type RubricDimension, type RubricDocument } from "@/lib/rubrics/document";
import { textareaClass } from "./form-field";
import { DimensionEditor } from "./rubric-dimension-editor";
import { automaticSum, documentOf, draftOf, renameInTotals, SCALES, type Draft } from "./rubric-draft";
import { FieldProblems, invalidProps, problemsAt } from "./rubric-problems";
import { TotalsEditor } from "./rubric-totals-editor";

export { documentOf, keyOf } from "./rubric-draft";

/**
 * A rubric built in the browser: its description (instructions, source), its
 * dimensions (added, reordered, each with its scale, levels and escalation
 * rules) and totals, checked as the server checks it with every problem shown
 * beside the field its JSON path names, and the grader's form drawn beside it.
 */
export function RubricBuilder({ initial, repetitions, onSave, onCancel }: { initial?: RubricDocument; repetitions: number; onSave: (doc: RubricDocument) => void; onCancel: () => void }) {
  const id = useId();
  const [draft, setDraft] = useState<Draft>(() => draftOf(initial));
  const [preview, setPreview] = useState<Record<string, CellValue>>({});
  const [fixedKeys] = useState<ReadonlySet<string>>(() => new Set(initial?.totals.map((t) => t.key) ?? []));
  const n = Math.max(1, repetitions);
  const doc = useMemo(() => documentOf(draft), [draft]);
  const parsed = useMemo(() => parseRubricDocument(doc), [doc]);
  const problems = useMemo(() => (parsed.ok ? repetitionProblems(parsed.rubric, n) : parsed.problems), [parsed, n]);
  const auto = draft.sum ? automaticSum(draft.dimensions) : null;

  const setDim = (i: number, patch: Partial<RubricDimension>) =>
    setDraft((d) => {
      const before = d.dimensions[i];
      const renamed = patch.key !== undefined && patch.key !== before.key;
      return {
        ...d,
        // A derived dimension names the one it derives from by key: it follows a rename too.
        dimensions: d.dimensions.map((x, j) => (j === i ? { ...x, ...patch } : renamed && x.derived?.of === before.key ? { ...x, derived: { ...x.derived, of: patch.key! } } : x)),
        ...(renamed ? { totals: renameInTotals(d.totals ?? [], before.key, patch.key!) } : {}),
      };
    });
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
  const text = (field: "name" | "source" | "instructions", label: string, paths: string[], multiline: boolean) => {
    const ps = paths.flatMap((p) => problemsAt(problems, p));
    const pid = `${id}-${field}-problems`;
    return (
      <div className="flex flex-col gap-1 text-sm">
        <label htmlFor={`${id}-${field}`}>{label}</label>
        {multiline ? (
          <textarea id={`${id}-${field}`} className={textareaClass} rows={2} value={draft[field] ?? ""} onChange={(e) => setDraft((d) => ({ ...d, [field]: e.target.value }))} {...invalidProps(pid, ps)} />
        ) : (
          <Input id={`${id}-${field}`} value={draft[field] ?? ""} onChange={(e) => setDraft((d) => ({ ...d, [field]: e.target.value }))} maxLength={120} {...invalidProps(pid, ps)} />
        )}
        <FieldProblems id={pid} problems={ps} />
      </div>
    );
  };

  return (
    <section className="flex flex-col gap-4 rounded-md border border-primary/40 p-4" aria-label="Rubric builder">
      <div className="grid gap-4 lg:grid-cols-2">
        <div className="flex flex-col gap-3">
          {text("name", "Rubric name", ["name", "key"], false)}
          {text("source", "Source (citation, optional)", ["source"], true)}
          {text("instructions", "Instructions to graders (optional)", ["instructions"], true)}
          <ol className="flex flex-col gap-3" aria-label="Dimensions">
            {draft.dimensions.map((d, i) => (
              <DimensionEditor
                key={i}
                dim={d}
                index={i}
                count={draft.dimensions.length}
                repetitions={n}
                problems={problems}
                domId={`${id}-d${i}`}
                onChange={(patch) => setDim(i, patch)}
                onMove={(by) => move(i, by)}
                onRemove={() => setDraft((x) => ({ ...x, dimensions: x.dimensions.filter((_, j) => j !== i) }))}
              />
            ))}
          </ol>
          <div>
            <Button type="button" variant="outline" onClick={addDimension}>
              <Plus aria-hidden className="size-4" /> Add a dimension
            </Button>
          </div>
          <TotalsEditor
            domId={`${id}-totals`}
            sum={draft.sum}
            dimensions={draft.dimensions}
            auto={auto}
            totals={draft.totals ?? []}
            fixedKeys={fixedKeys}
            headline={doc.headline}
            problems={problems}
            // Editing the automatic total makes it the lead's own: it no longer follows the dimensions.
            onAuto={(on, materialise) => setDraft((d) => ({ ...d, sum: on, totals: materialise ? [materialise, ...(d.totals ?? [])] : d.totals }))}
            onTotals={(totals) => setDraft((d) => ({ ...d, totals }))}
            onHeadline={(headline) => setDraft((d) => ({ ...d, headline }))}
          />
          {problems.length ? (
            <ul className="list-disc pl-5 text-sm text-destructive" aria-label="Problems with this rubric">
              {problems.map((p) => (
                <li key={`${p.path}:${p.message}`}>
                  <code className="text-xs">{p.path}</code>: {p.message}
                </li>
              ))}
            </ul>
          ) : null}
          <div className="flex flex-wrap items-center gap-2">
            <Button type="button" disabled={problems.length > 0} onClick={() => parsed.ok && !problems.length && onSave(parsed.rubric)}>
              Add this rubric
            </Button>
            <Button type="button" variant="ghost" onClick={onCancel}>
              Cancel
            </Button>
            {parsed.ok ? (
              <a
                className="inline-flex items-center gap-1 text-sm underline"
                href={`data:application/json;charset=utf-8,${encodeURIComponent(JSON.stringify(parsed.rubric, null, 2))}`}
                download={`${parsed.rubric.key}-v${parsed.rubric.version}.json`}
              >
                <Download aria-hidden className="size-4" /> Download this rubric as JSON
              </a>
            ) : null}
          </div>
        </div>
        <div className="flex flex-col gap-2" aria-label="Preview of the grader's form" role="region">
          <p className="text-sm font-medium">What graders will see</p>
          {draft.instructions ? <p className="whitespace-pre-line text-sm text-muted-foreground">{draft.instructions}</p> : null}
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
          {doc.totals.length ? (
            <ul className="text-sm text-muted-foreground" aria-label="Totals">
              {doc.totals.map((t, k) => (
                <li key={`${k}-${t.key}`}>
                  {t.name}
                  {t.key === doc.headline ? " (headline)" : ""}
                  {t.method === "sum" && t.bands?.length ? `: ${t.bands.map((b) => `${b.label} ${b.min}-${b.max}`).join(", ")}` : ""}
                </li>
              ))}
            </ul>
          ) : null}
          {draft.source ? <p className="whitespace-pre-line text-xs text-muted-foreground">Source: {draft.source}</p> : null}
        </div>
      </div>
    </section>
  );
}
