"use client";

import { BookOpen, ChevronRight } from "lucide-react";
import { forwardRef, type ReactNode } from "react";

/**
 * The clinical question (rendered on the server, like the answers: see
 * question-body.tsx), its specialty and, when the study shows it, the
 * reference answer (collapsed). The page's h1 is the panel's "Question" label:
 * the question itself may hold paragraphs and lists, which a heading cannot.
 */
export const QuestionPanel = forwardRef<
  HTMLHeadingElement,
  { studyName: string; specialty: string; question: ReactNode; referenceAnswer: ReactNode | null; position: number; total: number; adjudicator: boolean }
>(function QuestionPanel({ studyName, specialty, question, referenceAnswer, position, total, adjudicator }, ref) {
  return (
    <section aria-labelledby="question-heading" className="min-w-0 rounded-xl border border-border bg-background p-5 shadow-sm md:p-6">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground">
        <span className="rounded-full bg-primary/10 px-2.5 py-0.5 font-semibold text-primary">{specialty}</span>
        <span>
          Answer set {position} of {total}
        </span>
        {adjudicator ? <span className="rounded-full border border-border px-2 py-0.5 font-medium text-foreground">Third grader</span> : null}
        <span className="min-w-0 truncate" title={studyName}>
          {studyName}
        </span>
      </div>
      <h1 id="question-heading" ref={ref} tabIndex={-1} className="mt-4 text-xs font-semibold uppercase tracking-wider text-muted-foreground outline-none">
        Question
      </h1>
      <div className="mt-1 max-w-4xl" data-testid="question-body">
        {question}
      </div>
      {referenceAnswer ? (
        <details className="group mt-4 rounded-lg border border-border bg-muted/40 open:bg-muted/30">
          <summary className="flex cursor-pointer list-none items-center gap-2 rounded-lg px-4 py-2.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring [&::-webkit-details-marker]:hidden">
            <ChevronRight aria-hidden className="size-4 text-muted-foreground transition-transform group-open:rotate-90" />
            <BookOpen aria-hidden className="size-4 text-muted-foreground" />
            Reference answer
            <span className="font-normal text-muted-foreground">(for comparison, optional)</span>
          </summary>
          <div className="border-t border-border px-4 py-3">
            {referenceAnswer}
          </div>
        </details>
      ) : null}
    </section>
  );
});
