"use client";

import { useMemo, useState } from "react";
import { formParts } from "@/lib/grading/form-order";
import { gradingFields, liveTotals, NO_PROBLEMS, setComment, setScore, type FormState, type LiveTotal, type StudyShape } from "@/lib/grading/form-state";
import type { RubricDocument } from "@/lib/rubrics/document";
import { AnswerCard } from "./answer-card";
import { AnswerFields, hasSetPart, RubricIntro, SetFields, type FormParts } from "./rubric-sections";

/**
 * The grading form as graders will see it, for a rubric being built (the
 * rubric builder's preview): the same rubric introduction, answer panels and
 * dimension rows as the grading page, their fields in the page's order
 * (gradingFields, lib/grading/form-order.ts), with stand-ins for the answers.
 * The parts are stacked rather than beside the answers: the preview has half
 * a screen. Nothing is saved.
 */
export function GradingFormPreview({ rubric, repetitions }: { rubric: RubricDocument; repetitions: number }) {
  const n = Math.max(1, repetitions);
  const doc = useMemo(() => previewable(rubric), [rubric]);
  const study: StudyShape = useMemo(() => ({ rubrics: [doc], repetitions: n, criteria: null }), [doc, n]);
  const fields = useMemo(() => gradingFields(study), [study]);
  const [state, setState] = useState<FormState>({ scores: {}, comments: {}, harm: { flag: false, comment: "" }, contradiction: { flag: false, note: "" } });
  const totals = useMemo(() => {
    try {
      return liveTotals(state, study);
    } catch {
      return [] as LiveTotal[]; // a total the lead is still editing may not add up yet
    }
  }, [state, study]);
  const answers = Array.from({ length: n }, (_, i) => ({
    repetition: i + 1,
    body: <p className="text-sm text-muted-foreground">The model&apos;s answer {n > 1 ? `${i + 1} of ${n} ` : ""}appears here.</p>,
  }));
  const parts: FormParts = {
    study,
    fields,
    state,
    problems: NO_PROBLEMS,
    readOnly: false,
    answers,
    totals,
    onScore: (key, value) => setState((s) => setScore(s, key, value)),
    onComment: (key, text) => setState((s) => setComment(s, key, text)),
    onCommentBlur: () => undefined,
  };
  return (
    <div className="flex flex-col gap-4" data-testid="grading-form-preview">
      <RubricIntro {...parts} rubric={doc} />
      {formParts(n).map((part) =>
        part === 0 ? (
          hasSetPart(parts) ? (
            <section key={part} data-answer-part={0} className="flex flex-col gap-2 rounded-lg border border-dashed border-border p-4">
              <h3 className="text-base font-semibold">All {n} answers together</h3>
              <SetFields {...parts} />
            </section>
          ) : null
        ) : (
          <section key={part} data-answer-part={part} className="flex flex-col gap-3">
            <AnswerCard repetition={part} headingLevel="h3" caption={`of ${n}`}>
              {answers[part - 1].body}
            </AnswerCard>
            <AnswerFields {...parts} repetition={part} />
          </section>
        ),
      )}
    </div>
  );
}

/**
 * What of a draft rubric can be drawn: dimensions with levels to choose from
 * (criteria come with each question: none here), each key once, and the
 * totals whose dimensions are all there.
 */
export function previewable(doc: RubricDocument): RubricDocument {
  const seen = new Set<string>();
  const dimensions = doc.dimensions.filter((d) => {
    if (seen.has(d.key) || (d.scale.kind !== "criteria" && (d.scale.levels ?? []).length === 0)) return false;
    seen.add(d.key);
    return true;
  });
  const counted = (k: string) => dimensions.some((d) => d.key === k && d.scale.kind === "ordinal" && d.scale.levels!.every((l) => typeof l.value === "number"));
  const totals = doc.totals.filter((t) => (t.method === "criteria_score" ? dimensions.some((d) => d.key === t.dimension) : t.dimensions.every(counted)));
  return { ...doc, dimensions, totals };
}
