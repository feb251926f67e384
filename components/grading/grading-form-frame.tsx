"use client";

import { useSyncExternalStore } from "react";
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
 * What the server sends for the grading form on a full page load: the
 * question, and word that the form is on its way. The form itself (a few
 * hundred controls) is drawn by the browser once its script runs, which it
 * needs before any control works anyway; the server then does not render it
 * on every load for every grader (bench/README.md, grading).
 */
export function GradingFormFrame({
  studyName,
  specialty,
  question,
  position,
  total,
  adjudicator,
}: {
  studyName: string;
  specialty: string;
  question: string;
  position: number;
  total: number;
  adjudicator: boolean;
}) {
  return (
    <div className="flex flex-col gap-8" aria-busy="true">
      <QuestionPanel studyName={studyName} specialty={specialty} question={question} referenceAnswer={null} position={position} total={total} adjudicator={adjudicator} />
      <p role="status" className="text-sm text-muted-foreground">
        Loading the grading form…
      </p>
    </div>
  );
}
