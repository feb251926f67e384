"use client";

import { CircleCheck, Send, LoaderCircle } from "lucide-react";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import {
  buildGradeBody,
  checkBeforeSubmit,
  completeness,
  formatScore,
  gradingFields,
  hasProblems,
  initialFormState,
  isHarmDecisionRequired,
  isContradictionAsked,
  isHarmOffered,
  liveTotals,
  NO_PROBLEMS,
  placeProblems,
  problemsFromErrorBody,
  setComment,
  setContradiction,
  setHarm,
  setScore,
  type CellKey,
  type CellValue,
  type FormState,
  type PlacedProblems,
  type StudyShape,
} from "@/lib/grading/form-state";
import type { BlindedAssignment } from "@/lib/grading/service";
import { FormBanners, submitLabelFor } from "./form-banners";
import { focusField, focusSoon, harmReasons } from "./form-focus";
import { GradingFormFrame, studyShapeOf, useHydrated } from "./grading-form-frame";
import { ContradictionFlag } from "./contradiction-flag";
import { HarmFlag } from "./harm-flag";
import { SubmitProblems } from "./submit-problems";
import { GradingToolbar } from "./grading-toolbar";
import { globalShortcut, isTextEntry } from "./keyboard-logic";
import { QuestionPanel } from "./question-panel";
import { AnswerLayout, type AnswerPart } from "./answer-layout";
import { answerOfField, RubricIntro, type FormParts, type RenderedAnswer } from "./rubric-sections";
import { ShortcutsDialog } from "./shortcuts-dialog";
import { placeToRestore, useScrollMemory } from "./scroll-memory";
import { useDraftAutosave, type AutosaveMode } from "./use-draft-autosave";

export interface GradingFormProps {
  assignment: Omit<BlindedAssignment, "answers" | "item">;
  /** The question (its text for the toolbar, `questionBody` rendered on the server) and the reference answer, rendered too. */
  item: { specialty: string; question: string; questionBody: ReactNode; referenceAnswer: ReactNode | null; criteria?: BlindedAssignment["item"]["criteria"] };
  /** The answers by repetition, already rendered (on the server). */
  answers: RenderedAnswer[];
  justSubmitted: boolean;
}

/**
 * The blinded grading form: the question, the N answers labelled by repetition
 * only, and the study's rubric(s). Drafts save themselves; the server checks
 * every submission and its answer is the one that counts. The browser draws
 * it; a full load's HTML holds its frame (grading-form-frame.tsx).
 */
export function GradingForm(props: GradingFormProps) {
  const hydrated = useHydrated();
  return hydrated ? <GradingFormBody {...props} /> : <GradingFormFrame assignment={props.assignment} item={props.item} justSubmitted={props.justSubmitted} />;
}

function GradingFormBody({ assignment, item, answers, justSubmitted }: GradingFormProps) {
  const router = useRouter();
  const study: StudyShape = useMemo(() => studyShapeOf(assignment.study, item.criteria), [assignment.study, item.criteria]);
  const fields = useMemo(() => gradingFields(study), [study]);
  const [state, setState] = useState<FormState>(() => initialFormState(assignment, study));
  const stateRef = useRef(state);
  const [problems, setProblems] = useState<PlacedProblems>(NO_PROBLEMS);
  const [submitError, setSubmitError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [submitted, setSubmitted] = useState<string | null>(null);
  const [conflict, setConflict] = useState<string | null>(null);
  const [helpOpen, setHelpOpen] = useState(false);
  // On a phone one answer shows at a time: the part (answer, or 0 for the whole set) on screen.
  const [activePart, setActivePart] = useState<AnswerPart>(() => placeToRestore(assignment.id)?.part ?? 1);
  useScrollMemory(assignment.id, activePart);
  const fieldByKey = useMemo(() => new Map(fields.map((f) => [f.key, f])), [fields]);
  /** Shows the part that holds a field, then focuses it. */
  const revealField = useCallback(
    (key: CellKey) => {
      const f = fieldByKey.get(key);
      if (f) setActivePart(answerOfField(f));
      focusField(key);
    },
    [fieldByKey],
  );
  const headingRef = useRef<HTMLHeadingElement>(null);
  const problemsRef = useRef<HTMLDivElement>(null);

  const wasSubmitted = assignment.status === "SUBMITTED";
  const readOnly = assignment.readOnly || conflict !== null;
  const mode: AutosaveMode = readOnly ? "readonly" : wasSubmitted ? "revise" : "draft";

  const buildDraft = useCallback((elapsedMs: number) => buildGradeBody(stateRef.current, study, { submit: false, elapsedMs }).body, [study]);
  const { saver, status: saveStatus } = useDraftAutosave({
    assignmentId: assignment.id,
    mode,
    started: assignment.status !== "PENDING",
    buildDraft,
    onConflict: setConflict,
  });

  const update = useCallback(
    (fn: (s: FormState) => FormState) => {
      const next = fn(stateRef.current);
      stateRef.current = next;
      setState(next);
      saver.changed();
    },
    [saver],
  );

  // Problems shown after a submit attempt clear themselves as the grader fixes them.
  const onScore = useCallback(
    (key: CellKey, value: CellValue) => {
      update((s) => setScore(s, key, value));
      setProblems((p) => {
        if (!p.fields[key]) return p;
        const fieldsLeft = { ...p.fields };
        delete fieldsLeft[key];
        return { ...p, fields: fieldsLeft };
      });
    },
    [update],
  );
  const onComment = useCallback((key: CellKey, text: string) => update((s) => setComment(s, key, text)), [update]);

  const flush = useCallback(() => void saver.save(), [saver]);

  const totals = useMemo(() => liveTotals(state, study), [state, study]);
  const done = useMemo(() => completeness(state, study), [state, study]);
  const harmOffered = isHarmOffered(state, study);

  const submit = useCallback(async () => {
    if (readOnly || submitting || submitted) return;
    setSubmitError(null);
    const check = checkBeforeSubmit(stateRef.current, study);
    if (check.problems.length) {
      setProblems(placeProblems(check.problems, check.keys, stateRef.current, study));
      focusSoon(() => problemsRef.current?.focus());
      return;
    }
    setProblems(NO_PROBLEMS);
    setSubmitting(true);
    // The grader may go on typing while the server answers: its problems must not take focus from them.
    const focusedAtSubmit = document.activeElement;
    await saver.settle();
    const elapsed = saver.takeElapsed();
    const { body, keys } = buildGradeBody(stateRef.current, study, { submit: true, elapsedMs: elapsed });
    try {
      const res = await fetch(`/api/v1/assignments/${assignment.id}/grades`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
        credentials: "same-origin",
        cache: "no-store",
      });
      const payload = (await res.json().catch(() => null)) as { error?: string; nextAssignmentId?: string | null } | null;
      if (res.ok) {
        saver.stop();
        const next = payload?.nextAssignmentId ?? null;
        setSubmitted(next ? "Grades submitted. Opening the next answer set…" : "Grades submitted. Back to your queue…");
        router.push(next ? `/grade/${next}?submitted=1` : "/queue?submitted=1");
        return;
      }
      saver.giveBackElapsed(elapsed);
      if (res.status === 422) {
        const placed = placeProblems(problemsFromErrorBody(payload), keys, stateRef.current, study);
        setProblems(hasProblems(placed) ? placed : { ...NO_PROBLEMS, general: [payload?.error ?? "The grades were refused."] });
        focusSoon(() => problemsRef.current?.focus(), { since: focusedAtSubmit, notFromText: true });
      } else if (res.status === 409) {
        setConflict(payload?.error ?? "This assignment can no longer be changed.");
      } else if (res.status === 401) {
        setSubmitError("Your session has ended. Sign in again in another tab, then submit again: your grades are still here.");
      } else {
        setSubmitError(`The server could not submit the grades (${payload?.error ?? `HTTP ${res.status}`}). Your grades are still here: try again.`);
      }
      void saver.save();
    } catch {
      saver.giveBackElapsed(elapsed);
      setSubmitError("The server could not be reached. Your grades are still here: try again.");
      void saver.save();
    } finally {
      setSubmitting(false);
    }
  }, [assignment.id, saver, readOnly, router, study, submitted, submitting]);

  // Page-wide shortcuts: Ctrl/⌘+Enter submits, "?" lists the shortcuts.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented) return;
      const action = globalShortcut(e, isTextEntry(document.activeElement as HTMLElement | null));
      if (action === "submit" && !helpOpen) {
        e.preventDefault();
        void submit();
      } else if (action === "help") {
        e.preventDefault();
        setHelpOpen(true);
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [helpOpen, submit]);

  // A new page: focus its heading (screen readers announce it; Tab starts from there).
  useEffect(() => {
    headingRef.current?.focus({ preventScroll: true });
    if (justSubmitted) window.history.replaceState(window.history.state, "", window.location.pathname);
  }, [justSubmitted]);

  const parts: FormParts = {
    study,
    fields,
    state,
    problems,
    readOnly,
    answers,
    totals,
    onScore,
    onComment,
    onCommentBlur: flush,
  };
  const submitLabel = submitLabelFor(wasSubmitted);
  const missingFirst = done.missing[0];

  return (
    <div className="flex min-w-0 flex-col">
      <GradingToolbar
        position={assignment.progress.position}
        total={assignment.progress.total}
        done={assignment.progress.done}
        scored={done.done}
        toScore={done.total}
        onNextMissing={() => missingFirst && revealField(missingFirst.key)}
        question={item.question}
        status={saveStatus}
        onRetry={() => saver.retryNow()}
        onShortcuts={() => setHelpOpen(true)}
        onSubmit={() => void submit()}
        submitLabel={submitLabel}
        submitting={submitting}
        readOnly={readOnly}
      />

      <div className="flex flex-col gap-8">
        <FormBanners justSubmitted={justSubmitted} readOnly={readOnly} conflict={conflict} wasSubmitted={wasSubmitted} />

        <QuestionPanel
          ref={headingRef}
          studyName={assignment.study.name}
          specialty={item.specialty}
          question={item.questionBody}
          referenceAnswer={item.referenceAnswer}
          position={assignment.progress.position}
          total={assignment.progress.total}
          adjudicator={assignment.kind === "ADJUDICATOR"}
        />

        <div className="grid grid-cols-1 gap-3 lg:grid-cols-2">
          {study.rubrics.map((r) => (
            <RubricIntro key={r.key} {...parts} rubric={r} />
          ))}
        </div>

        <AnswerLayout {...parts} active={activePart} onActive={setActivePart} />

        {isContradictionAsked(study) ? (
          <ContradictionFlag
            answers={study.repetitions}
            flag={state.contradiction.flag}
            note={state.contradiction.note}
            readOnly={readOnly}
            onFlag={(flag) => update((s) => setContradiction(s, { flag }))}
            onNote={(note) => update((s) => setContradiction(s, { note }))}
            onNoteBlur={flush}
          />
        ) : null}

        {harmOffered ? (
          <HarmFlag
            reasons={harmReasons(state, study)}
            flag={state.harm.flag}
            comment={state.harm.comment}
            error={problems.harm}
            readOnly={readOnly}
            required={isHarmDecisionRequired(state, study)}
            notHarm={state.harm.notHarm ?? false}
            onFlag={(flag) => {
              update((s) => setHarm(s, flag ? { flag, notHarm: false } : { flag }));
              setProblems((p) => ({ ...p, harm: null }));
            }}
            onNotHarm={(notHarm) => {
              update((s) => setHarm(s, { notHarm, flag: false }));
              setProblems((p) => ({ ...p, harm: null }));
            }}
            onComment={(comment) => {
              update((s) => setHarm(s, { comment }));
              if (comment.trim()) setProblems((p) => (p.harm ? { ...p, harm: null } : p));
            }}
            onCommentBlur={flush}
          />
        ) : null}

        {readOnly ? null : (
          <section aria-labelledby="submit-heading" className="rounded-xl border border-border bg-muted/30 p-5">
            <h2 id="submit-heading" className="text-base font-semibold">
              {wasSubmitted ? "Update your submitted grades" : "Submit"}
            </h2>
            <p className="mt-1 text-sm text-muted-foreground">
              {done.done === done.total ? "Every score is given." : `${done.total - done.done} of ${done.total} scores still to give.`}{" "}
              <span className="pointer-coarse:hidden" data-testid="press-hint">
                Press <kbd className="rounded border border-border bg-background px-1 font-mono text-xs">Ctrl</kbd> +{" "}
                <kbd className="rounded border border-border bg-background px-1 font-mono text-xs">Enter</kbd> anywhere to submit.
              </span>{" "}
              Your draft is saved as you go.
            </p>

            {hasProblems(problems) ? <SubmitProblems ref={problemsRef} fields={fields} problems={problems} onReveal={revealField} /> : null}
            {submitError ? (
              <p role="alert" className="mt-4 rounded-lg border border-destructive/40 bg-red-50 px-4 py-2.5 text-sm text-destructive">
                {submitError}
              </p>
            ) : null}
            {submitted ? (
              <p role="status" className="mt-4 flex items-center gap-2 text-sm font-medium text-success">
                <CircleCheck aria-hidden className="size-4" />
                {submitted}
              </p>
            ) : null}

            <div className="mt-4 flex flex-wrap items-center gap-3">
              <Button type="button" size="lg" onClick={() => void submit()} disabled={submitting || submitted !== null}>
                {submitting ? <LoaderCircle aria-hidden className="size-4 animate-spin" /> : <Send aria-hidden className="size-4" />}
                {submitLabel}
              </Button>
              {study.rubrics.map((r) => {
                const t = totals.find((x) => x.rubric === r.key && x.key === r.headline);
                if (!t) return null;
                const value = t.value ?? (t.partial ? t.partial.sum : null);
                return (
                  <span key={r.key} className="text-sm text-muted-foreground tabular-nums">
                    {r.totals.some((x) => x.key === t.key && x.method === "sum" && x.perAnswer) && study.repetitions > 1 ? `${r.name} mean` : r.name} <span className="font-semibold text-foreground">{value === null ? "—" : formatScore(value)}</span> / {t.max}
                  </span>
                );
              })}
            </div>
          </section>
        )}
      </div>

      <ShortcutsDialog open={helpOpen} onOpenChange={setHelpOpen} rubrics={study.rubrics} />
    </div>
  );
}
