import { useLayoutEffect } from "react";
import type { AnswerPart } from "./answer-layout";

const KEY = "clingrade.grading.scroll";

interface Place {
  assignmentId: string;
  y: number;
  /** The answer shown on a phone (one at a time there): the place is in its panel. */
  part: AnswerPart;
}

function remembered(): Place | null {
  try {
    const value: unknown = JSON.parse(sessionStorage.getItem(KEY) ?? "null");
    if (value && typeof value === "object" && "assignmentId" in value && "y" in value && "part" in value) {
      const { assignmentId, y, part } = value;
      if (typeof assignmentId === "string" && typeof y === "number" && typeof part === "number") return { assignmentId, y, part };
    }
  } catch {
    // Storage refused (private mode, quota) or garbled: nothing to take back.
  }
  return null;
}

/**
 * Decided once per document, by the first form drawn in it (the one over a full
 * load's frame): the place to take back, if the page was reloaded (or loaded again
 * from history) at that set's own address. Null once taken back.
 */
let decided: { assignmentId: string; place: Place | null } | undefined;

/** The place a reload left on this set, not yet taken back (the same answer at every call until then). */
export function placeToRestore(assignmentId: string): Place | null {
  if (decided === undefined) {
    const place = remembered();
    const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
    const returned = nav?.type === "reload" || nav?.type === "back_forward";
    // The document was loaded at this set's own address, not at another page that navigated here since.
    const loadedHere = nav !== undefined && new URL(nav.name).pathname === window.location.pathname;
    decided = { assignmentId, place: place?.assignmentId === assignmentId && returned && loadedHere ? place : null };
  }
  return decided.assignmentId === assignmentId ? decided.place : null;
}

/**
 * A reload lands where the grader was on the set, in the answer they had open
 * on a phone (the form opens on `placeToRestore`'s part). The browser cannot do
 * it alone: a full load's HTML holds only the form's frame, shorter than the
 * form, so its own restoration is clamped before the form is drawn. The place
 * is kept in this tab's session storage when the page goes away and taken back
 * once, after the form's first layout.
 */
export function useScrollMemory(assignmentId: string, part: AnswerPart): void {
  useLayoutEffect(() => {
    const place = placeToRestore(assignmentId);
    if (decided) decided.place = null;
    try {
      sessionStorage.removeItem(KEY);
    } catch {
      // As above.
    }
    if (place) window.scrollTo(0, place.y);
  }, [assignmentId]);

  useLayoutEffect(() => {
    const keep = () => {
      try {
        sessionStorage.setItem(KEY, JSON.stringify({ assignmentId, y: Math.round(window.scrollY), part } satisfies Place));
      } catch {
        // A place not kept only means a reload starts at the top.
      }
    };
    window.addEventListener("pagehide", keep);
    return () => window.removeEventListener("pagehide", keep);
  }, [assignmentId, part]);
}
