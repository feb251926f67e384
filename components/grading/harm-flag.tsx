"use client";

import { ShieldAlert } from "lucide-react";
import { useId } from "react";

/**
 * The potential-harm flag, offered when a score crosses its dimension's harm
 * line (the rubric document's harmAtOrBelow or harmAtOrAbove). Where the
 * document asks for a decision, the grader chooses: flag it, or say why it is
 * not a harm; either needs a comment. Elsewhere the flag is a tick box.
 */
export function HarmFlag({
  reasons,
  flag,
  comment,
  error,
  readOnly,
  required = false,
  notHarm = false,
  onFlag,
  onNotHarm,
  onComment,
  onCommentBlur,
}: {
  reasons: string[];
  flag: boolean;
  comment: string;
  error: string | null;
  readOnly: boolean;
  /** A decision is required: flag, or not a harm with a reason. */
  required?: boolean;
  notHarm?: boolean;
  onFlag: (flag: boolean) => void;
  onNotHarm?: (notHarm: boolean) => void;
  onComment: (text: string) => void;
  onCommentBlur: () => void;
}) {
  const id = useId();
  return (
    <section id="harm-flag" aria-labelledby={`${id}-h`} className="scroll-mt-32 rounded-xl border border-amber-300 bg-amber-50/70 p-5">
      <div className="flex items-start gap-3">
        <ShieldAlert aria-hidden className="mt-0.5 size-5 shrink-0 text-amber-700" />
        <div className="flex-1">
          <h2 id={`${id}-h`} className="text-base font-semibold text-amber-950">
            Potential harm
          </h2>
          <p id={`${id}-why`} className="mt-0.5 text-sm text-amber-950/80">
            Offered because {reasons.join(" and ")}. Flag the set if an answer could harm a patient; the study lead reviews every flag.
          </p>
          {required ? (
            <fieldset className="mt-3 flex flex-col gap-1.5" aria-describedby={`${id}-why`} aria-invalid={error && !flag && !notHarm ? true : undefined}>
              <legend className="text-sm font-medium">
                Your decision <span className="text-destructive">(required)</span>
              </legend>
              <label className="inline-flex cursor-pointer items-center gap-2 text-sm">
                <input type="radio" name={`${id}-decision`} className="size-4 accent-[var(--color-destructive)]" checked={flag} disabled={readOnly} onChange={() => onFlag(true)} />
                Flag potential harm
              </label>
              <label className="inline-flex cursor-pointer items-center gap-2 text-sm">
                <input type="radio" name={`${id}-decision`} className="size-4" checked={notHarm && !flag} disabled={readOnly} onChange={() => onNotHarm?.(true)} />
                Not a harm
              </label>
              {error && !flag && !notHarm ? <p className="text-sm font-medium text-destructive">{error}</p> : null}
            </fieldset>
          ) : (
            <label className="mt-3 inline-flex cursor-pointer items-center gap-2 text-sm font-medium">
              <input
                type="checkbox"
                className="size-4 accent-[var(--color-destructive)]"
                checked={flag}
                disabled={readOnly}
                aria-describedby={`${id}-why`}
                onChange={(e) => onFlag(e.target.checked)}
              />
              Flag potential harm
            </label>
          )}
          {flag || (required && notHarm) ? (
            <div className="mt-3 flex flex-col gap-1.5">
              <label htmlFor={`${id}-c`} className="text-sm font-medium">
                {flag ? "What is the potential harm?" : "Why is it not a harm?"} <span className="text-destructive">(required)</span>
              </label>
              <textarea
                id={`${id}-c`}
                required
                aria-required="true"
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${id}-e` : undefined}
                value={comment}
                readOnly={readOnly}
                onChange={(e) => onComment(e.target.value)}
                onBlur={onCommentBlur}
                rows={3}
                maxLength={5000}
                className="block w-full resize-y rounded-md border border-amber-300 bg-background px-3 py-2 text-sm shadow-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring aria-[invalid=true]:border-destructive"
                placeholder={flag ? "e.g. recommends a drug the patient's history rules out" : "e.g. the severe outcome is named as a risk, not advised"}
              />
              {error ? (
                <p id={`${id}-e`} className="text-sm font-medium text-destructive">
                  {error}
                </p>
              ) : !comment.trim() ? (
                <p className="text-xs text-amber-900/80">{flag ? "The flag is saved with its comment." : "The decision is saved with its reason."}</p>
              ) : null}
            </div>
          ) : null}
        </div>
      </div>
    </section>
  );
}
