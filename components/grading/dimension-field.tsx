"use client";

import { useId, useRef, useState } from "react";
import { fieldDomId, type CellValue, type GradingField } from "@/lib/grading/form-state";
import { cn } from "@/lib/utils";
import { digitScore, isTextEntry } from "./keyboard-logic";
import { focusSoon } from "./form-focus";

export interface DimensionFieldProps {
  field: GradingField;
  /** undefined: not answered yet; null: "not applicable". */
  value: CellValue | undefined;
  comment: string;
  error?: string;
  readOnly: boolean;
  /** "Answer 1", "All 3 answers side by side"… shown next to the name. */
  scopeLabel: string;
  onChange: (value: CellValue) => void;
  onComment: (text: string) => void;
  onCommentBlur: () => void;
}

/**
 * One dimension to grade: a native radio group (fieldset + legend) with the
 * rubric's definition and every level's wording. Tab enters the group, arrow
 * keys move between levels, a digit sets the score directly; the comment
 * stays collapsed behind a button, and opens by itself, marked required, when
 * the score is at or below the rubric's `requireCommentAtOrBelow`. Any ordinal or nominal dimension of
 * any rubric: on a nominal scale a digit picks the level by its place (1 the
 * first); "n" picks "not applicable" where the rubric allows it.
 */
export function DimensionField({ field, value, comment, error, readOnly, scopeLabel, onChange, onComment, onCommentBlur }: DimensionFieldProps) {
  const d = field.dimension;
  const uid = useId();
  const domId = fieldDomId(field.key);
  const defId = `${uid}-def`;
  const errId = `${uid}-err`;
  const commentId = `${uid}-comment`;
  const levels = d.scale.levels ?? [];
  const ordinal = d.scale.kind === "ordinal";
  const numbers = levels.map((l) => Number(l.value));
  const min = Math.min(...numbers);
  const max = Math.max(...numbers);
  const likert = ordinal && levels.every((l) => !l.example) && levels.length === 5;
  const NA = "__na__";
  const [commentOpen, setCommentOpen] = useState(comment.trim() !== "");
  const [hovered, setHovered] = useState<string | number | null>(null);
  const [focused, setFocused] = useState<string | number | null>(null);
  const groupRef = useRef<HTMLFieldSetElement>(null);
  const textareaRef = useRef<HTMLTextAreaElement>(null);

  function onKeyDown(e: React.KeyboardEvent<HTMLFieldSetElement>) {
    if (readOnly || isTextEntry(e.target as HTMLElement)) return;
    let v: CellValue | undefined;
    if (d.scale.allowNA && e.key.toLowerCase() === "n" && !e.ctrlKey && !e.metaKey && !e.altKey) v = null;
    else if (ordinal) v = digitScore(e, min, max) ?? undefined;
    else {
      const place = digitScore(e, 1, levels.length);
      v = place === null ? undefined : levels[place - 1].value;
    }
    if (v === undefined) return;
    e.preventDefault();
    onChange(v);
    groupRef.current?.querySelector<HTMLInputElement>(`input[type="radio"][value="${v === null ? NA : v}"]`)?.focus();
  }

  const shownLevel = levels.find((l) => l.value === (focused ?? hovered ?? value));
  // The rubric asks why at or below a value: there the comment is required, and the box is open.
  const commentRule = ordinal ? d.requireCommentAtOrBelow : undefined;
  const commentRequired = commentRule !== undefined && typeof value === "number" && value <= commentRule;
  const open = commentOpen || commentRequired;
  const need = commentRequired ? "required" : "optional";
  const hasExamples = levels.some((l) => l.example);

  return (
    <fieldset
      ref={groupRef}
      id={domId}
      data-cell={field.key}
      onKeyDown={onKeyDown}
      aria-describedby={[d.definition ? defId : null, error ? errId : null].filter(Boolean).join(" ") || undefined}
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
          {ordinal ? `${min}–${max}` : `${levels.length} choices`}
        </span>
      </legend>
      {d.definition ? (
        <p id={defId} className="clear-both pt-1 text-sm leading-relaxed text-muted-foreground">
          {d.definition}
        </p>
      ) : null}

      <div
        // Below the floated legend, always: a grid has no width of its own, so beside the float it was squeezed to nothing and its levels overlapped.
        className={cn("clear-both mt-3 grid", likert ? "grid-cols-5 gap-2" : "grid-cols-1 gap-1.5")}
        onMouseLeave={() => setHovered(null)}
      >
        {levels.map((l, i) => {
          const checked = value === l.value;
          // A level labelled by its own number ("1".."5") reads once, not "1, 1 — 1", and is drawn as the label's own text.
          const numberOnly = likert && String(l.label).trim() === String(l.value);
          const shown = ordinal ? l.value : i + 1;
          return (
            <label
              key={l.value}
              onMouseEnter={() => setHovered(l.value)}
              className="level-option"
              data-likert={likert ? "" : undefined}
              data-number={numberOnly ? "" : undefined}
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
                // The name the label's two parts would read as, said in one attribute rather than a hidden separator element per level.
                aria-label={numberOnly ? undefined : `${shown} — ${l.label}`}
                aria-describedby={l.example ? `${uid}-ex-${l.value}` : undefined}
                onFocus={() => setFocused(l.value)}
                onBlur={() => setFocused(null)}
              />
              {numberOnly ? (
                l.value
              ) : (
                <>
                  <span className="level-value">{shown}</span>
                  <span className="level-label">{l.label}</span>
                </>
              )}
            </label>
          );
        })}
        {d.scale.allowNA ? (
          <label className="level-option" data-checked={value === null ? "" : undefined} data-readonly={readOnly ? "" : undefined}>
            <input
              type="radio"
              className="sr-only"
              name={field.key}
              value={NA}
              checked={value === null}
              disabled={readOnly}
              onChange={() => onChange(null)}
              aria-label="n — Not applicable"
            />
            <span className="level-value">n</span>
            <span className="level-label">Not applicable</span>
          </label>
        ) : null}
      </div>

      {hasExamples ? (
        <div hidden>
          {levels.map((l) =>
            l.example ? (
              <span key={l.value} id={`${uid}-ex-${l.value}`}>
                {`Example: ${l.example}`}
              </span>
            ) : null,
          )}
        </div>
      ) : null}
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
          aria-expanded={open}
          aria-controls={commentId}
          disabled={commentRequired}
          onClick={() => {
            const next = !commentOpen;
            setCommentOpen(next);
            if (next) focusSoon(() => textareaRef.current?.focus());
          }}
          aria-label={`${comment.trim() ? "Comment" : "Add comment"} on ${d.name} (${scopeLabel})${commentRequired ? ", required" : ""}`}
          className="comment-toggle"
        >
          {comment.trim() ? "Comment" : "Add comment"}
          {commentRequired ? " (required)" : ""}
        </button>
        {commentRule !== undefined && !commentRequired ? <span className="ml-2 text-xs text-muted-foreground">Required for a score of {commentRule} or below</span> : null}
        {/* The box exists only while open (its text lives in the form's state): the form has 17 of them, mostly unused. */}
        <div id={commentId} hidden={!open} className="mt-2">
          {open ? (
            <>
              <textarea
                ref={textareaRef}
                aria-label={`Comment on ${d.name} (${scopeLabel}), ${need}`}
                aria-required={commentRequired || undefined}
                value={comment}
                readOnly={readOnly}
                onChange={(e) => onComment(e.target.value)}
                onBlur={onCommentBlur}
                rows={2}
                maxLength={5000}
                placeholder={commentRequired ? `Required at ${commentRule} or below: why this score?` : "Optional: why this score?"}
                className="block w-full resize-y rounded-md border border-border bg-background px-3 py-2 text-sm shadow-sm placeholder:text-muted-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
              />
              {value === undefined && comment.trim() ? <p className="mt-1 text-xs text-muted-foreground">Kept with your draft; choose a score before you submit.</p> : null}
            </>
          ) : null}
        </div>
      </div>
    </fieldset>
  );
}
