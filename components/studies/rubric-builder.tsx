"use client";

import { Download, Plus } from "lucide-react";
import { useId, useMemo, useRef, useState } from "react";
import { focusSoon } from "@/components/grading/form-focus";
import { GradingFormPreview } from "@/components/grading/form-preview";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { parseRubricDocument, repetitionProblems, type RubricDimension, type RubricDocument } from "@/lib/rubrics/document";
import { describeProblem, wordsOf } from "@/lib/rubrics/problem-words";
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
  const [fixedKeys] = useState<ReadonlySet<string>>(() => new Set(initial?.totals.map((t) => t.key) ?? []));
  const n = Math.max(1, repetitions);
  const doc = useMemo(() => documentOf(draft), [draft]);
  const parsed = useMemo(() => parseRubricDocument(doc), [doc]);
  const allProblems = useMemo(() => (parsed.ok ? repetitionProblems(parsed.rubric, n) : parsed.problems), [parsed, n]);
  // A problem shows once the lead has touched its field (or the dimension or total it is in), or tried to save: a new rubric does not open in red.
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set());
  const [saveTried, setSaveTried] = useState(false);
  const problemsRef = useRef<HTMLUListElement>(null);
  const problems = useMemo(
    () =>
      allProblems
        .filter((p) => saveTried || [...touched].some((t) => p.path === t || p.path.startsWith(`${t}.`)))
        .map((p) => ({ path: p.path, message: wordsOf(p, doc) })),
    [allProblems, saveTried, touched, doc],
  );
  const touch = (e: React.SyntheticEvent) => {
    const where = (e.target as HTMLElement).closest?.("[data-touch]")?.getAttribute("data-touch");
    if (!where) return;
    const paths = where.split(" ");
    setTouched((t) => (paths.every((x) => t.has(x)) ? t : new Set([...t, ...paths])));
  };
  const save = () => {
    if (parsed.ok && !allProblems.length) return onSave(parsed.rubric);
    setSaveTried(true);
    focusSoon(() => problemsRef.current?.focus());
  };
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
      <div className="flex flex-col gap-1 text-sm" data-touch={paths.join(" ")}>
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
    <section className="@container flex flex-col gap-4 rounded-md border border-primary/40 p-4" aria-label="Rubric builder" onBlur={touch} onChange={touch}>
      {/* Side by side only where both halves have room (a level's label box, a row of five levels); else the preview follows the editor. */}
      <div className="grid gap-4 @5xl:grid-cols-2">
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
          <div data-touch="totals headline">
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
          </div>
          {problems.length ? (
            <ul ref={problemsRef} tabIndex={-1} className="list-disc pl-5 text-sm text-destructive outline-none" aria-label="Problems with this rubric">
              {problems.map((p) => (
                <li key={`${p.path}:${p.message}`} data-problem-path={p.path}>
                  {describeProblem(p)}
                </li>
              ))}
            </ul>
          ) : null}
          <div className="flex flex-wrap items-center gap-2">
            <Button type="button" onClick={save}>
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
          <GradingFormPreview rubric={doc} repetitions={n} />
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
        </div>
      </div>
    </section>
  );
}
