import { useLayoutEffect } from "react";

const KEY = "clingrade.grading.scroll";

/** Whether a form has mounted in this document yet: only the first, drawn over a full load's frame, may take a place back. */
let firstMounted = false;

function remembered(): { assignmentId: string; y: number } | null {
  try {
    const value: unknown = JSON.parse(sessionStorage.getItem(KEY) ?? "null");
    if (value && typeof value === "object" && "assignmentId" in value && "y" in value && typeof value.assignmentId === "string" && typeof value.y === "number") {
      return { assignmentId: value.assignmentId, y: value.y };
    }
  } catch {
    // Storage refused (private mode, quota) or garbled: nothing to take back.
  }
  return null;
}

/**
 * A reload (or a return through history that loads the page again) lands
 * where the grader was on the set. The browser cannot do it alone: a full
 * load's HTML holds only the form's frame, shorter than the form, so its own
 * restoration is clamped before the form is drawn. The place is kept in this
 * tab's session storage when the page goes away and taken back once, by the
 * first form of the document, for the same set at the same address.
 */
export function useScrollMemory(assignmentId: string): void {
  useLayoutEffect(() => {
    if (!firstMounted) {
      firstMounted = true;
      const place = remembered();
      try {
        sessionStorage.removeItem(KEY);
      } catch {
        // As above.
      }
      const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
      const returned = nav?.type === "reload" || nav?.type === "back_forward";
      // The document was loaded at this set's own address, not at another page that navigated here since.
      const loadedHere = nav !== undefined && new URL(nav.name).pathname === window.location.pathname;
      if (place?.assignmentId === assignmentId && returned && loadedHere) window.scrollTo(0, place.y);
    }
    const keep = () => {
      try {
        sessionStorage.setItem(KEY, JSON.stringify({ assignmentId, y: Math.round(window.scrollY) }));
      } catch {
        // A place not kept only means a reload starts at the top.
      }
    };
    window.addEventListener("pagehide", keep);
    return () => window.removeEventListener("pagehide", keep);
  }, [assignmentId]);
}
