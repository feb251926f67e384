"use client";

import { useEffect, useState } from "react";
import type { GradeSubmission } from "@/lib/grading/contract-schemas";
import type { SaveStatus } from "./autosave-logic";
import { DraftSaver, initialStatus, type AutosaveMode } from "./draft-saver";

export type { AutosaveMode };

const isVisible = () => document.visibilityState === "visible";

/**
 * Wires the DraftSaver to the page: the tab hidden or the window blurred saves
 * at once, leaving the page (or the form, by a link) sends what is unsaved with
 * `keepalive`, and leaving with changes that cannot be saved asks first.
 */
export function useDraftAutosave(opts: {
  assignmentId: string;
  mode: AutosaveMode;
  started: boolean;
  buildDraft: (elapsedMs: number) => GradeSubmission;
  onConflict: (message: string) => void;
}): { saver: DraftSaver; status: SaveStatus } {
  const [status, setStatus] = useState<SaveStatus>(() => initialStatus(opts.mode));
  const [saver] = useState(
    () =>
      new DraftSaver(
        {
          url: `/api/v1/assignments/${opts.assignmentId}/grades`,
          fetch: (url, init) => fetch(url, init),
          now: () => Date.now(),
          setTimeout: (fn, ms) => window.setTimeout(fn, ms),
          clearTimeout: (h) => window.clearTimeout(h as number),
          visible: typeof document === "undefined" ? true : isVisible(),
        },
        { mode: opts.mode, started: opts.started, buildDraft: opts.buildDraft, onStatus: setStatus, onConflict: opts.onConflict },
      ),
  );

  const { mode, buildDraft, onConflict } = opts;
  useEffect(() => {
    saver.configure({ mode, buildDraft, onConflict });
  }, [saver, mode, buildDraft, onConflict]);

  useEffect(() => {
    if (mode === "readonly") return;
    saver.setVisible(isVisible());
    const onVisibility = () => {
      saver.setVisible(isVisible());
      if (!isVisible()) void saver.save({ keepalive: true, timeOnly: true });
    };
    const onBlur = () => void saver.save();
    const onPageHide = () => void saver.save({ keepalive: true, timeOnly: true });
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      void saver.save({ keepalive: true });
      if (saver.shouldWarnOnLeave()) e.preventDefault();
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
      // Leaving the form inside the app (a link): what is unsaved goes now.
      void saver.save({ keepalive: true, timeOnly: true });
    };
  }, [saver, mode]);

  return { saver, status };
}
