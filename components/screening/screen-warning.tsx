/**
 * What a grader sees on an answer the study's safety screen flagged: the same
 * words whatever the rule, since a rule is the lead's and may name a model or
 * quote what it looks for. Graders grade it as any other answer.
 */
export const SCREEN_WARNING = "This answer was flagged by the study's safety screen: read it with care.";

export function ScreenWarning() {
  return (
    <p role="note" data-testid="screen-warning" className="mb-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
      {SCREEN_WARNING}
    </p>
  );
}
