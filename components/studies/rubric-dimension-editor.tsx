"use client";

import { ArrowDown, ArrowUp, X } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { ordinalRange, type RubricDimension, type RubricProblem } from "@/lib/rubrics/document";
import { cn } from "@/lib/utils";
import { textareaClass } from "./form-field";
import { keyOf, presetOf, SCALES, type ScaleChoice } from "./rubric-draft";
import { FieldProblems, invalidProps, problemsAt } from "./rubric-problems";
import { HarmEscalationFields } from "./rubric-harm-escalation-fields";

const SCOPES: { value: RubricDimension["scope"]; label: string }[] = [
  { value: "first_answer", label: "the first answer" },
  { value: "each_answer", label: "each answer" },
  { value: "set", label: "all answers together" },
];

const selectClass = "h-9 rounded-md border border-border bg-background px-2";
const optionalNumber = (v: string) => (v === "" ? undefined : Number(v));

/**
 * One dimension of the rubric being built: its name, definition, scope,
 * scale and levels (value, label, example), N/A, escalation threshold and the
 * values at or below which a comment is required or the harm flag offered.
 * Each field shows the problems whose JSON path names it.
 */
export function DimensionEditor({
  dim,
  index: i,
  count,
  repetitions,
  problems,
  domId: at,
  onChange,
  onMove,
  onRemove,
}: {
  dim: RubricDimension;
  index: number;
  count: number;
  repetitions: number;
  problems: RubricProblem[];
  domId: string;
  onChange: (patch: Partial<RubricDimension>) => void;
  onMove: (by: number) => void;
  onRemove: () => void;
}) {
  const d = dim;
  const path = `dimensions.${i}`;
  const [scopeNote, setScopeNote] = useState<string | null>(null);
  const at$ = (p: string, deep = false) => problemsAt(problems, `${path}.${p}`, deep);
  const preset = presetOf(d.scale);
  const ordinal = d.scale.kind === "ordinal";
  const levels = d.scale.levels ?? [];
  const levelProblems = problemsAt(problems, `${path}.scale.levels`, true);
  const setLevel = (j: number, patch: { value?: string; label?: string; example?: string }) => {
    const next = levels.map((l, k) => {
      if (k !== j) return l;
      const value = patch.value === undefined ? l.value : ordinal && patch.value.trim() !== "" ? Number(patch.value) : patch.value;
      const example = patch.example === undefined ? l.example : patch.example || undefined;
      const { example: _dropped, ...rest } = l;
      return { ...rest, value, label: patch.label ?? l.label, ...(example !== undefined ? { example } : {}) };
    });
    onChange({ scale: { ...d.scale, levels: next } });
  };
  const nameProblems = [...at$("key"), ...at$("name")];
  // What the document refuses is not offered, and the lead is told why (a greyed-out option says nothing).
  const unavailable = [
    ...(d.scale.kind === "nominal" ? ["“each answer”: a category is given once per set (the answers' categories would have no one value to agree on, average or export)"] : []),
    ...(repetitions < 2 ? ["“all answers together”: there is one answer per question"] : []),
  ];
  const scopeProblems = [...at$("scope"), ...at$("derived", true)];
  const scaleProblems = [...at$("scale"), ...at$("scale.kind"), ...problemsAt(problems, `${path}.scale.levels`)];
  const numberField = (field: "requireCommentAtOrBelow", label: string, step: number) => (
    <div className="flex flex-col gap-1">
      <label htmlFor={`${at}-${field}`}>{label}</label>
      <Input
        id={`${at}-${field}`}
        type="number"
        step={step}
        className="w-24"
        value={d[field] ?? ""}
        onChange={(e) => onChange({ [field]: optionalNumber(e.target.value) })}
        {...invalidProps(`${at}-${field}-problems`, at$(field))}
      />
      <FieldProblems id={`${at}-${field}-problems`} problems={at$(field)} />
    </div>
  );

  return (
    <li className="flex flex-col gap-2 rounded-md border border-border p-3 text-sm" data-touch={path}>
      <div className="flex items-end gap-2">
        <div className="flex flex-1 flex-col gap-1">
          <label htmlFor={`${at}-name`}>Dimension {i + 1} name</label>
          <Input
            id={`${at}-name`}
            value={d.name}
            // A new dimension's key follows its name; an existing one keeps its key (totals and grades name it).
            onChange={(e) => onChange({ name: e.target.value, ...(d.key === keyOf(d.name, "") || d.key.startsWith("criterion_") ? { key: keyOf(e.target.value, `criterion_${i + 1}`) } : {}) })}
            maxLength={120}
            {...invalidProps(`${at}-name-problems`, nameProblems)}
          />
        </div>
        <Button type="button" variant="ghost" size="sm" disabled={i === 0} onClick={() => onMove(-1)} aria-label={`Move ${d.name} up`}>
          <ArrowUp aria-hidden className="size-4" />
        </Button>
        <Button type="button" variant="ghost" size="sm" disabled={i === count - 1} onClick={() => onMove(1)} aria-label={`Move ${d.name} down`}>
          <ArrowDown aria-hidden className="size-4" />
        </Button>
        <Button type="button" variant="ghost" size="sm" onClick={onRemove} aria-label={`Remove ${d.name}`}>
          <X aria-hidden className="size-4" />
        </Button>
      </div>
      <p className="text-xs text-muted-foreground">
        Key <code>{d.key}</code>
      </p>
      <FieldProblems id={`${at}-name-problems`} problems={nameProblems} />
      <div className="flex flex-col gap-1">
        <label htmlFor={`${at}-def`}>{d.name} definition (optional)</label>
        <textarea
          id={`${at}-def`}
          className={textareaClass}
          rows={2}
          value={d.definition ?? ""}
          onChange={(e) => onChange({ definition: e.target.value || undefined })}
          {...invalidProps(`${at}-def-problems`, at$("definition"))}
        />
        <FieldProblems id={`${at}-def-problems`} problems={at$("definition")} />
      </div>
      <div className="flex flex-wrap items-start gap-3">
        <div className="flex flex-col gap-1">
          <label htmlFor={`${at}-scope`}>Graded on</label>
          <select
            id={`${at}-scope`}
            className={selectClass}
            value={d.scope}
            onChange={(e) => {
              setScopeNote(null);
              onChange({ scope: e.target.value as RubricDimension["scope"] });
            }}
            {...invalidProps(`${at}-scope-problems`, scopeProblems)}
            aria-describedby={[scopeProblems.length ? `${at}-scope-problems` : null, scopeNote ? `${at}-scope-note` : null, unavailable.length ? `${at}-scope-why` : null].filter(Boolean).join(" ") || undefined}
          >
            {SCOPES.map((s) => (
              // What the document refuses is not offered: a whole set needs several answers; a category is given once per set.
              <option key={s.value} value={s.value} disabled={(s.value === "set" && repetitions < 2) || (s.value === "each_answer" && d.scale.kind === "nominal")}>
                {s.label}
              </option>
            ))}
          </select>
          {scopeNote ? (
            <p id={`${at}-scope-note`} role="status" className="max-w-xs text-xs font-medium">
              {scopeNote}
            </p>
          ) : null}
          {unavailable.length ? (
            <p id={`${at}-scope-why`} className="max-w-xs text-xs text-muted-foreground">
              Not offered: {unavailable.join("; ")}.
            </p>
          ) : null}
          {d.derived ? <span className="text-xs text-muted-foreground">Derived: equal across the answers of {d.derived.of}</span> : null}
          <FieldProblems id={`${at}-scope-problems`} problems={scopeProblems} />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={`${at}-scale`}>Scale</label>
          <select
            id={`${at}-scale`}
            className={selectClass}
            value={preset ?? ""}
            onChange={(e) => {
              const s = SCALES[e.target.value as ScaleChoice].scale;
              const { min, max } = s.kind === "ordinal" ? ordinalRange({ ...d, scale: s }) : { min: 0, max: 0 };
              // Values that only an ordinal scale has go with the old scale; a scope the new scale cannot have changes, and the lead is told.
              const rescoped = s.kind === "nominal" && d.scope === "each_answer";
              setScopeNote(rescoped ? "Now graded on the first answer (it was each answer): categories are given once per set." : null);
              onChange({
                scale: { ...s, ...(d.scale.allowNA ? { allowNA: true } : {}) },
                threshold: s.kind === "ordinal" && !d.escalation ? Math.max(1, Math.round((max - min) / 2)) : undefined,
                requireCommentAtOrBelow: undefined,
                harmAtOrBelow: undefined,
                harmAtOrAbove: undefined,
                harmDecision: undefined,
                // A nominal scale has no spread: any disagreement, as before.
                escalation: s.kind === "ordinal" || d.escalation?.rule !== "spread" ? d.escalation : undefined,
                ...(rescoped ? { scope: "first_answer" as const } : {}),
              });
            }}
            {...invalidProps(`${at}-scale-problems`, scaleProblems)}
          >
            {preset ? null : <option value="">Edited levels</option>}
            {(Object.keys(SCALES) as ScaleChoice[]).map((k) => (
              <option key={k} value={k}>
                {SCALES[k].label}
              </option>
            ))}
          </select>
          <FieldProblems id={`${at}-scale-problems`} problems={scaleProblems} />
        </div>
        {ordinal ? numberField("requireCommentAtOrBelow", "Comment required at or below", 1) : null}
        <HarmEscalationFields d={d} at={at} problemsOf={at$} onChange={onChange} />
        <div className="flex flex-col gap-1 self-end pb-2">
          <label className="flex items-center gap-2">
            <input
              type="checkbox"
              checked={Boolean(d.scale.allowNA)}
              onChange={(e) => {
                const { allowNA: _old, ...scale } = d.scale;
                onChange({ scale: e.target.checked ? { ...scale, allowNA: true } : scale });
              }}
              {...invalidProps(`${at}-na-problems`, at$("scale.allowNA"))}
            />
            Not applicable allowed
          </label>
          <FieldProblems id={`${at}-na-problems`} problems={at$("scale.allowNA")} />
        </div>
      </div>
      {d.scale.kind === "criteria" ? (
        <p className="text-xs text-muted-foreground">Each question brings its own criteria (imported with it); graders mark each met or not met.</p>
      ) : (
        <details open={levelProblems.length > 0 || undefined}>
          <summary className="cursor-pointer text-muted-foreground">
            Levels of {d.name} ({levels.length})
          </summary>
          {/* Each level on its own row: the label and the example are read by graders in full, so they are typed wide and wrap. */}
          <div className="mt-2 grid grid-cols-[4.5rem_minmax(0,1fr)_auto] gap-x-2 gap-y-1 text-sm">
            <span aria-hidden className="text-xs text-muted-foreground">
              Value
            </span>
            <span aria-hidden className="col-span-2 text-xs text-muted-foreground">
              Label, and an example (optional)
            </span>
            {levels.map((l, j) => {
              const ps = (field: "value" | "label" | "example") => at$(`scale.levels.${j}.${field}`);
              const pid = (field: string) => `${at}-l${j}-${field}-problems`;
              const text = (field: "label" | "example", placeholder: string) => (
                <>
                  <textarea
                    aria-label={`${d.name} level ${j + 1} ${field}`}
                    className={cn(textareaClass, "field-sizing-content min-h-9 resize-y py-1.5")}
                    rows={1}
                    placeholder={placeholder}
                    value={l[field] === undefined ? "" : String(l[field])}
                    // A label is one line (it wraps as it is typed): a line break in it is a space.
                    onChange={(e) => setLevel(j, { [field]: field === "label" ? e.target.value.replace(/[\r\n]+/g, " ") : e.target.value })}
                    {...invalidProps(pid(field), ps(field))}
                  />
                  <FieldProblems id={pid(field)} problems={ps(field)} />
                </>
              );
              return (
                <div key={j} role="group" aria-label={`Level ${j + 1} of ${d.name}`} className="col-span-3 grid grid-cols-subgrid items-start gap-y-1 border-t border-border/60 pt-2">
                  <div>
                    <Input
                      aria-label={`${d.name} level ${j + 1} value`}
                      value={String(l.value)}
                      onChange={(e) => setLevel(j, { value: e.target.value })}
                      {...invalidProps(pid("value"), ps("value"))}
                    />
                    <FieldProblems id={pid("value")} problems={ps("value")} />
                  </div>
                  <div className="flex flex-col gap-1">
                    {text("label", "Label the grader reads")}
                    {text("example", "Example (optional)")}
                  </div>
                  <Button type="button" variant="ghost" size="sm" aria-label={`Remove level ${j + 1} of ${d.name}`} onClick={() => onChange({ scale: { ...d.scale, levels: levels.filter((_, k) => k !== j) } })}>
                    <X aria-hidden className="size-4" />
                  </Button>
                </div>
              );
            })}
          </div>
          <Button
            type="button"
            variant="outline"
            size="sm"
            className="mt-2"
            onClick={() => {
              const last = levels[levels.length - 1];
              const value = ordinal ? Number(last?.value ?? 0) + 1 : `level_${levels.length + 1}`;
              onChange({ scale: { ...d.scale, levels: [...levels, { value, label: String(value) }] } });
            }}
          >
            Add a level to {d.name}
          </Button>
        </details>
      )}
    </li>
  );
}
