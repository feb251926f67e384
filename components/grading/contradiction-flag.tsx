"use client";

import { Split } from "lucide-react";
import { useId } from "react";
import { MAX_CONTRADICTION_NOTE } from "@/lib/grading/contract-schemas";

/**
 * The stability sweep's question (stage 3 of the evaluation pipeline): do the
 * set's answers contradict each other? Asked on sets with two answers or more;
 * part of the grader's own submission, saved and revised with the scores, and
 * never shown to another grader. Rewording is not a contradiction: the
 * question is about clinical content.
 */
export function ContradictionFlag({
  answers,
  flag,
  note,
  readOnly,
  onFlag,
  onNote,
  onNoteBlur,
}: {
  answers: number;
  flag: boolean;
  note: string;
  readOnly: boolean;
  onFlag: (flag: boolean) => void;
  onNote: (text: string) => void;
  onNoteBlur: () => void;
}) {
  const id = useId();
  return (
    <section aria-labelledby={`${id}-h`} className="rounded-xl border border-border bg-card p-5">
      <div className="flex items-start gap-3">
        <Split aria-hidden className="mt-0.5 size-5 shrink-0 text-muted-foreground" />
        <div className="flex-1">
          <h2 id={`${id}-h`} className="text-base font-semibold">
            Do the answers contradict each other?
          </h2>
          <p id={`${id}-why`} className="mt-0.5 text-sm text-muted-foreground">
            Compare the {answers} answers&apos; clinical content: diagnoses, advice, doses, warnings. Different wording is not a contradiction. Other graders do not see your answer.
          </p>
          <label className="mt-3 inline-flex cursor-pointer items-center gap-2 text-sm font-medium">
            <input type="checkbox" className="size-4" checked={flag} disabled={readOnly} aria-describedby={`${id}-why`} onChange={(e) => onFlag(e.target.checked)} />
            The answers contradict each other
          </label>
          {flag ? (
            <div className="mt-3 flex flex-col gap-1.5">
              <label htmlFor={`${id}-n`} className="text-sm font-medium">
                Where? <span className="font-normal text-muted-foreground">(optional)</span>
              </label>
              <textarea
                id={`${id}-n`}
                value={note}
                readOnly={readOnly}
                onChange={(e) => onNote(e.target.value)}
                onBlur={onNoteBlur}
                rows={2}
                maxLength={MAX_CONTRADICTION_NOTE}
                className="block w-full resize-y rounded-md border border-border bg-background px-3 py-2 text-sm shadow-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                placeholder="e.g. answer 2 advises stopping the drug, answers 1 and 3 continuing it"
              />
            </div>
          ) : null}
        </div>
      </div>
    </section>
  );
}
