"use client";

import { useSyncExternalStore } from "react";
import type { GradingFormProps } from "./grading-form";
import { QuestionPanel } from "./question-panel";

const subscribeToNothing = () => () => {};

/**
 * False while the server renders and while the browser hydrates that HTML,
 * true from then on, and true at once when the form mounts on a client-side
 * navigation (the way a grader reaches every set after the first).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
}

/**
 * What a full page load's HTML holds of the grading form: the question, and
 * word that the form is on its way. The form's few hundred controls are drawn
 * by the browser, which must run the form's script before any of them works;
 * the server then does not render them for every grader on every load. The
 * answers come with the form, a moment after the question.
 */
export function GradingFormFrame({ assignment, item }: Pick<GradingFormProps, "assignment" | "item">) {
  return (
    <div className="flex flex-col gap-8">
      <QuestionPanel
        studyName={assignment.study.name}
        specialty={item.specialty}
        question={item.question}
        referenceAnswer={null}
        position={assignment.progress.position}
        total={assignment.progress.total}
        adjudicator={assignment.kind === "ADJUDICATOR"}
      />
      <p role="status" aria-busy="true" className="text-sm text-muted-foreground">
        Loading the grading form…
      </p>
      <noscript>
        <p className="text-sm font-medium">The grading form needs JavaScript: turn it on in this browser and reload the page.</p>
      </noscript>
    </div>
  );
}
