import type { StudyStatusKey } from "./settings";

/**
 * The study life cycle: DRAFT -> OPEN -> CLOSED, and CLOSED -> OPEN to
 * reopen (audited like every transition). Nothing goes back to DRAFT: once a
 * study has been open, graders may have seen it.
 */
export type StatusAction = "study.open" | "study.close" | "study.reopen";

export type Transition = { ok: true; action: StatusAction } | { ok: false; message: string };

const ALLOWED: Record<StudyStatusKey, Partial<Record<StudyStatusKey, StatusAction>>> = {
  DRAFT: { OPEN: "study.open" },
  OPEN: { CLOSED: "study.close" },
  CLOSED: { OPEN: "study.reopen" },
};

export function statusTransition(from: StudyStatusKey, to: StudyStatusKey): Transition {
  const action = ALLOWED[from][to];
  if (action) return { ok: true, action };
  if (from === to) return { ok: false, message: `the study is already ${from}` };
  const allowed = Object.keys(ALLOWED[from]);
  return {
    ok: false,
    message: `a ${from} study cannot become ${to}; from ${from} it can only become ${allowed.join(" or ")}`,
  };
}

/** The timestamps a transition sets: openedAt marks the start of the current open period, closedAt its end. */
export function transitionTimestamps(action: StatusAction, now: Date): { openedAt?: Date; closedAt?: Date | null } {
  if (action === "study.close") return { closedAt: now };
  return { openedAt: now, closedAt: null };
}
