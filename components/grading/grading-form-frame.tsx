"use client";

import { useSyncExternalStore } from "react";
import { completeness, initialFormState, type StudyShape } from "@/lib/grading/form-state";
import { FormBanners, submitLabelFor } from "./form-banners";
import type { GradingFormProps } from "./grading-form";
import { GradingToolbar } from "./grading-toolbar";
import { QuestionPanel } from "./question-panel";

type Assignment = GradingFormProps["assignment"];

/** What of the study the form is built from. */
export function studyShapeOf(study: Assignment["study"], criteria: GradingFormProps["item"]["criteria"]): StudyShape {
  return { rubrics: study.rubricDocuments, repetitions: study.repetitions, criteria: criteria ?? null, askContradictions: study.askContradictions };
}

const nothing = () => {};

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
 * What a full page load's HTML holds of the grading form: the toolbar (its
 * controls held in place, hidden), the question, and word that the form is
 * on its way. The form's few hundred controls are drawn by the browser,
 * which must run the form's script before any of them works; the server then
 * does not render them for every grader on every load. The answers come with
 * the form, a moment after the question.
 */
export function GradingFormFrame({ assignment, item, justSubmitted }: Pick<GradingFormProps, "assignment" | "item" | "justSubmitted">) {
  const study = studyShapeOf(assignment.study, item.criteria);
  const done = completeness(initialFormState(assignment, study), study);
  const wasSubmitted = assignment.status === "SUBMITTED";
  // The toolbar and the lines above the question take the place they will have in the form, so
  // the question does not move when the form appears.
  return (
    <div className="flex flex-col">
      <GradingToolbar
        pending
        position={assignment.progress.position}
        total={assignment.progress.total}
        done={assignment.progress.done}
        scored={done.done}
        toScore={done.total}
        onNextMissing={nothing}
        question={item.question}
        status={{ kind: "idle" }}
        onRetry={nothing}
        onShortcuts={nothing}
        onSubmit={nothing}
        submitLabel={submitLabelFor(wasSubmitted)}
        submitting={false}
        readOnly={assignment.readOnly}
      />
      <div className="flex flex-col gap-8">
        <FormBanners justSubmitted={justSubmitted} readOnly={assignment.readOnly} conflict={null} wasSubmitted={wasSubmitted} />
        <QuestionPanel
          studyName={assignment.study.name}
          specialty={item.specialty}
          question={item.questionBody}
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
    </div>
  );
}
