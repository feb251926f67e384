"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type { GradeSubmission } from "@/lib/grading/contract-schemas";
import { KEEPALIVE_MAX_BYTES, retryDelayMs, SAVE_DEBOUNCE_MS, VisibleTimeClock, type SaveStatus } from "./autosave-logic";

export type AutosaveMode = "draft" | "revise" | "readonly";

interface Options {
  assignmentId: string;
  mode: AutosaveMode;
  /** The assignment already has a draft on the server (time on task may be saved without a change). */
  started: boolean;
  /** The whole form as a draft body, built from the latest state. */
  buildDraft: (elapsedMs: number) => GradeSubmission;
  /** The server refused for good (409: the study was closed, or it was submitted elsewhere). */
  onConflict: (message: string) => void;
}

export interface Autosave {
  status: SaveStatus;
  /** Call after every change of the form. */
  changed: () => void;
  /** Save now if anything is unsaved (a comment box lost focus). */
  flush: () => void;
  retryNow: () => void;
  /** Before submitting: cancels the pending draft save and waits for the one in flight. */
  settle: () => Promise<void>;
  takeElapsed: () => number;
  giveBackElapsed: (ms: number) => void;
  /** After a successful submit: no draft save may follow. */
  stop: () => void;
  /** Submitted changes: nothing is unsaved any more. */
  markSaved: () => void;
}

const isVisible = () => typeof document === "undefined" || document.visibilityState === "visible";

/**
 * Draft autosave: a PUT of the whole form (submit: false) ~800 ms after the
 * last change, and at once (keepalive) when the tab is hidden, the window
 * loses focus, the page is left or the form unmounts. One save at a time, the
 * newest state always wins; a failed save is retried with backoff and no change
 * is dropped. Each save carries the visible time since the previous one.
 * A submitted assignment ("revise") is not autosaved: its changes wait for
 * "Update submitted grades" and leaving with them unsaved asks first.
 */
export function useDraftAutosave({ assignmentId, mode, started, buildDraft, onConflict }: Options): Autosave {
  const [status, setStatus] = useState<SaveStatus>(mode === "readonly" ? { kind: "readonly" } : { kind: "idle" });
  const url = `/api/v1/assignments/${assignmentId}/grades`;

  const clock = useRef<VisibleTimeClock | null>(null);
  const version = useRef(0);
  const savedVersion = useRef(0);
  const inFlight = useRef<{ promise: Promise<void>; version: number } | null>(null);
  const again = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const failures = useRef(0);
  const stopped = useRef(false);
  const startedRef = useRef(started);
  const modeRef = useRef(mode);
  const buildRef = useRef(buildDraft);
  const conflictRef = useRef(onConflict);

  useEffect(() => {
    modeRef.current = mode;
    buildRef.current = buildDraft;
    conflictRef.current = onConflict;
  });

  const getClock = () => (clock.current ??= new VisibleTimeClock(Date.now(), isVisible()));

  const clearTimer = () => {
    if (timer.current !== undefined) clearTimeout(timer.current);
    timer.current = undefined;
  };

  const save = useCallback(
    (opts: { keepalive?: boolean; timeOnly?: boolean } = {}): Promise<void> => {
      if (modeRef.current !== "draft" || stopped.current) return Promise.resolve();
      const v = version.current;
      const dirty = v !== savedVersion.current;
      if (inFlight.current) {
        // The newest state goes out after the save in flight, unless that one already carries it.
        if (dirty && inFlight.current.version !== v) {
          if (opts.keepalive) return send(v, opts.keepalive); // the page is going away: do not wait
          again.current = true;
        }
        return inFlight.current.promise;
      }
      if (!dirty && !(opts.timeOnly && startedRef.current)) return Promise.resolve();
      return send(v, opts.keepalive ?? false, !dirty);
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );

  function send(v: number, keepalive: boolean, timeOnly = false): Promise<void> {
    clearTimer();
    const elapsed = getClock().take(Date.now());
    if (timeOnly && elapsed < 1_000) {
      getClock().giveBack(elapsed);
      return Promise.resolve();
    }
    const body = JSON.stringify(buildRef.current(elapsed));
    if (!timeOnly) setStatus({ kind: "saving" });
    const promise = (async () => {
      let retry = false;
      try {
        const res = await fetch(url, {
          method: "PUT",
          headers: { "content-type": "application/json" },
          body,
          credentials: "same-origin",
          cache: "no-store",
          keepalive: keepalive && body.length < KEEPALIVE_MAX_BYTES,
        });
        if (res.ok) {
          savedVersion.current = Math.max(savedVersion.current, v);
          startedRef.current = true;
          failures.current = 0;
          setStatus(version.current === savedVersion.current ? { kind: "saved", at: Date.now() } : { kind: "pending" });
          return;
        }
        getClock().giveBack(elapsed);
        const payload = (await res.json().catch(() => null)) as { error?: string } | null;
        if (res.status === 409) {
          stopped.current = true;
          const message = payload?.error ?? "this assignment can no longer be changed";
          setStatus({ kind: "error", message, retrying: false });
          conflictRef.current(message);
          return;
        }
        if (res.status === 422) {
          // Not something a retry fixes: the next change is saved again.
          setStatus({ kind: "error", message: payload?.error ?? "the draft was refused", retrying: false });
          return;
        }
        retry = true;
        failures.current += 1;
        setStatus({
          kind: "error",
          message: res.status === 401 ? "your session has ended: sign in again in another tab, your changes are kept here" : `the server answered ${res.status}`,
          retrying: true,
        });
      } catch {
        getClock().giveBack(elapsed);
        retry = true;
        failures.current += 1;
        setStatus({ kind: "error", message: "the server could not be reached", retrying: true });
      } finally {
        inFlight.current = null;
        if (retry && !stopped.current) {
          clearTimer();
          timer.current = setTimeout(() => void save(), retryDelayMs(failures.current));
        } else if (again.current && !stopped.current) {
          again.current = false;
          void save();
        }
      }
    })();
    inFlight.current = { promise, version: v };
    return promise;
  }

  const changed = useCallback(() => {
    version.current += 1;
    if (modeRef.current === "revise") {
      setStatus({ kind: "unsaved" });
      return;
    }
    if (modeRef.current !== "draft" || stopped.current) return;
    // While saves are failing, keep saying so until one succeeds.
    if (failures.current === 0) setStatus({ kind: "pending" });
    clearTimer();
    timer.current = setTimeout(() => void save(), SAVE_DEBOUNCE_MS);
  }, [save]);

  // Visibility, focus and leaving the page.
  useEffect(() => {
    if (mode === "readonly") return;
    const c = getClock();
    const onVisibility = () => {
      c.setVisible(isVisible(), Date.now());
      if (!isVisible()) void save({ keepalive: true, timeOnly: true });
    };
    const onBlur = () => void save();
    const onPageHide = () => void save({ keepalive: true, timeOnly: true });
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      const unsaved = version.current !== savedVersion.current;
      if (modeRef.current === "draft") {
        void save({ keepalive: true, timeOnly: true });
        // Only ask when saving has been failing: otherwise the keepalive request carries the change.
        if (unsaved && failures.current > 0) e.preventDefault();
      } else if (modeRef.current === "revise" && unsaved) {
        e.preventDefault();
      }
    };
    document.addEventListener("visibilitychange", onVisibility);
    window.addEventListener("blur", onBlur);
    window.addEventListener("pagehide", onPageHide);
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => {
      document.removeEventListener("visibilitychange", onVisibility);
      window.removeEventListener("blur", onBlur);
      window.removeEventListener("pagehide", onPageHide);
      window.removeEventListener("beforeunload", onBeforeUnload);
      // Leaving the page inside the app (a link): what is unsaved goes now.
      clearTimer();
      void save({ keepalive: true, timeOnly: true });
    };
  }, [mode, save]);

  return {
    status,
    changed,
    flush: () => void save(),
    retryNow: () => {
      clearTimer();
      void save();
    },
    settle: async () => {
      clearTimer();
      while (inFlight.current) await inFlight.current.promise;
      clearTimer();
    },
    takeElapsed: () => getClock().take(Date.now()),
    giveBackElapsed: (ms) => getClock().giveBack(ms),
    stop: () => {
      stopped.current = true;
      clearTimer();
    },
    markSaved: () => {
      savedVersion.current = version.current;
      failures.current = 0;
    },
  };
}
