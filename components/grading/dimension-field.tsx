"use client";

import { useId, useRef, useState } from "react";
import { fieldDomId, type GradingField } from "@/lib/grading/form-state";
import { cn } from "@/lib/utils";
import { digitScore, isTextEntry } from "./keyboard-logic";

export interface DimensionFieldProps {
  field: GradingField;
  value: number | undefined;
  comment: string;
  error?: string;
  readOnly: boolean;
  /** "Answer 1", "All 3 answers side by side"… shown next to the name. */
  scopeLabel: string;
  onChange: (value: number) => void;
  onComment: (text: string) => void;
  onCommentBlur: () => void;
}

/**
 * One dimension to grade: a native radio group (fieldset + legend) with the
 * rubric's definition and every level's wording. Tab enters the group, arrow
 * keys move between levels, a digit sets the score directly; the optional
 * comment stays collapsed behind a button.
 */
export function DimensionField({ field, value, comment, error, readOnly, scopeLabel, onChange, onComment, onCommentBlur }: DimensionFieldProps) {
  const d = field.dimension;
  const uid = useId();
  const domId = fieldDomId(field.key);
  const defId = `${uid}-def`;
  const errId = `${uid}-err`;
  const commentId = `${uid}-comment`;
  const likert = d.levels.every((l) => !l.example) && d.levels.length === 5;
  const [commentOpen, setCommentOpen] = useState(comment.trim() !== "");
  const [hovered, setHovered] = useState<number | null>(null);
  const [focused, setFocused] = useState<number | null>(null);
  const groupRef = useRef<HTMLFieldSetElement>(null);
  const textareaRef = useRef<HTMLTextAreaElement>(null);

  function onKeyDown(e: React.KeyboardEvent<HTMLFieldSetElement>) {
    if (readOnly || isTextEntry(e.target as HTMLElement)) return;
    const v = digitScore(e, d.min, d.max);
    if (v === null) return;
    e.preventDefault();
    onChange(v);
    groupRef.current?.querySelector<HTMLInputElement>(`input[type="radio"][value="${v}"]`)?.focus();
  }

  const shownLevel = d.levels.find((l) => l.value === (focused ?? hovered ?? value));
  const hasExamples = d.levels.some((l) => l.example);

  return (
    <fieldset
      ref={groupRef}
      id={domId}
      data-cell={field.key}
      onKeyDown={onKeyDown}
      aria-describedby={[defId, error ? errId : null].filter(Boolean).join(" ")}
      className="dimension-field"
      data-error={error ? "" : undefined}
    >
      <legend className="dimension-legend">
        <span className="text-[0.9375rem] font-semibold">{d.name}</span>
        <span className="text-xs font-medium text-muted-foreground">
          <span className="sr-only">, graded on </span>
          {scopeLabel}
        </span>
        <span className="ml-auto text-xs tabular-nums text-muted-foreground">
          <span className="sr-only">score from </span>
          {`${d.min}–${d.max}`}
        </span>
      </legend>
      <p id={defId} className="clear-both pt-1 text-sm leading-relaxed text-muted-foreground">
        {d.definition}
      </p>

      <div
        className={cn("mt-3 grid", likert ? "grid-cols-5 gap-2" : "grid-cols-1 gap-1.5")}
        onMouseLeave={() => setHovered(null)}
      >
        {d.levels.map((l) => {
          const checked = value === l.value;
          return (
            <label
              key={l.value}
              onMouseEnter={() => setHovered(l.value)}
              className="level-option"
              data-likert={likert ? "" : undefined}
              data-checked={checked ? "" : undefined}
              data-readonly={readOnly ? "" : undefined}
            >
              <input
                type="radio"
                className="sr-only"
                name={field.key}
                value={l.value}
                checked={checked}
                disabled={readOnly}
                onChange={() => onChange(l.value)}
                aria-describedby={l.example ? `${uid}-ex-${l.value}` : undefined}
                onFocus={() => setFocused(l.value)}
                onBlur={() => setFocused(null)}
              />
              <span aria-hidden={!likert ? undefined : true} className="level-value">
                {l.value}
              </span>
              <span className="level-label">
                <span className="sr-only">{likert ? `${l.value} — ` : " — "}</span>
                {l.label}
              </span>
            </label>
          );
        })}
      </div>

      <div hidden>
        {d.levels.map((l) =>
          l.example ? (
            <span key={l.value} id={`${uid}-ex-${l.value}`}>
              {`Example: ${l.example}`}
            </span>
          ) : null,
        )}
      </div>
      {hasExamples ? (
        <p className="mt-2 min-h-5 text-xs leading-relaxed text-muted-foreground" aria-hidden>
          {shownLevel?.example ? (
            <>
              <span className="font-medium text-foreground">Example for {shownLevel.value}:</span> {shownLevel.example}
            </>
          ) : shownLevel ? null : (
            <span>Focus or point at a level to see the rubric&apos;s example.</span>
          )}
        </p>
      ) : null}

      {error ? (
        <p id={errId} className="mt-2 text-sm font-medium text-destructive">
          {error}
        </p>
      ) : null}

      <div className="mt-2">
        <button
          type="button"
          aria-expanded={commentOpen}
          aria-controls={commentId}
          onClick={() => {
            const open = !commentOpen;
            setCommentOpen(open);
            if (open) requestAnimationFrame(() => textareaRef.current?.focus());
          }}
          className="comment-toggle"
        >
          {comment.trim() ? "Comment" : "Add comment"}
          <span className="sr-only">{` on ${d.name} (${scopeLabel})`}</span>
        </button>
        {/* The box exists only while open (its text lives in the form's state): the form has 17 of them, mostly unused. */}
        <div id={commentId} hidden={!commentOpen} className="mt-2">
          {commentOpen ? (
            <>
              <textarea
                ref={textareaRef}
                aria-label={`Comment on ${d.name} (${scopeLabel}), optional`}
                value={comment}
                readOnly={readOnly}
                onChange={(e) => onComment(e.target.value)}
                onBlur={onCommentBlur}
                rows={2}
                maxLength={5000}
                placeholder="Optional: why this score?"
                className="block w-full resize-y rounded-md border border-border bg-background px-3 py-2 text-sm shadow-sm placeholder:text-muted-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
              />
              {value === undefined && comment.trim() ? <p className="mt-1 text-xs text-warning">This comment is saved once you choose a score.</p> : null}
            </>
          ) : null}
        </div>
      </div>
    </fieldset>
  );
}
