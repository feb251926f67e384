/** The grading form's small helpers: why the harm flag is offered, and moving focus to a field. */
import { fieldDomId, formCells, type CellKey, type FormState, type StudyShape } from "@/lib/grading/form-state";
import { crossingInWords, harmCrossings } from "@/lib/rubrics/harm-line";
import { isTextEntry } from "./keyboard-logic";

/** Why the harm flag is offered: each score across its dimension's harm line ("Extent of harm is 4 (Severe harm) on answer 1"). */
export function harmReasons(state: FormState, study: StudyShape): string[] {
  return harmCrossings(study.rubrics, formCells(state)).map(crossingInWords);
}

/** What a deferred focus move needs of the page: injected by the unit tests. */
export interface FocusEnv {
  /** The focused element (document.activeElement). */
  active: () => unknown;
  /** The element focus rests on when nothing has it (document.body). */
  body: () => unknown;
  /** Runs `fn` on the next frame (requestAnimationFrame). */
  frame: (fn: () => void) => void;
}

const pageEnv: FocusEnv = {
  active: () => document.activeElement,
  body: () => document.body,
  frame: (fn) => void requestAnimationFrame(fn),
};

/**
 * Moves focus on the next frame (once React has shown what it moves to), unless
 * the grader has moved it meanwhile: a deferred move must never take focus from
 * the field the grader went on to type in, whose keystrokes would then be lost
 * (a loaded machine can leave a frame late by more than a Tab and an Enter).
 *
 * `since`: the element focused when the move was decided (by default: now);
 * a move decided before an await passes what was focused before it.
 * `notFromText`: nor from a text field even if focus is still there (a late
 * answer from the server while the grader keeps typing).
 */
export function focusSoon(move: () => void, opts: { since?: unknown; notFromText?: boolean; env?: FocusEnv } = {}): void {
  const env = opts.env ?? pageEnv;
  const before = "since" in opts ? opts.since : env.active();
  env.frame(() => {
    const now = env.active();
    const idle = now === null || now === undefined || now === env.body();
    if (!idle && now !== before) return;
    if (!idle && opts.notFromText && isTextEntry(now as Parameters<typeof isTextEntry>[0])) return;
    move();
  });
}

/** Moves keyboard focus to a field's chosen level (or its first), scrolling it into view (after its tab, on a phone, is shown). */
export function focusField(key: CellKey, env?: FocusEnv) {
  focusSoon(() => focusFieldNow(key), { env });
}
function focusFieldNow(key: CellKey) {
  const el = document.getElementById(fieldDomId(key));
  const radio = el?.querySelector<HTMLInputElement>('input[type="radio"]:checked') ?? el?.querySelector<HTMLInputElement>('input[type="radio"]');
  el?.scrollIntoView({ block: "center", behavior: "smooth" });
  radio?.focus({ preventScroll: true });
}
