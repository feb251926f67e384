/**
 * The grading form's keyboard map, as plain functions so it is unit-tested
 * without a DOM. Digits act only inside a focused dimension (so they never
 * fire while typing a comment); the global shortcuts are Ctrl/⌘+Enter to
 * submit and "?" for the list of shortcuts (not while typing text).
 */

export interface KeyLike {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
  shiftKey?: boolean;
}

/** The score a digit key sets on a dimension graded min..max, or null when the key is not one of its levels. */
export function digitScore(e: KeyLike, min: number, max: number): number | null {
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  if (!/^[0-9]$/.test(e.key)) return null;
  const v = Number(e.key);
  return v >= min && v <= max ? v : null;
}

export type GlobalShortcut = "submit" | "help";

/**
 * A page-wide shortcut, or null. `typing` is true when focus is in a text
 * field: "?" is then an ordinary character, while Ctrl/⌘+Enter still submits.
 */
export function globalShortcut(e: KeyLike, typing: boolean): GlobalShortcut | null {
  if (e.key === "Enter" && (e.ctrlKey || e.metaKey) && !e.altKey) return "submit";
  if (!typing && e.key === "?" && !e.ctrlKey && !e.metaKey && !e.altKey) return "help";
  return null;
}

/** Whether an element takes typed text (where single-key shortcuts must stay off). */
export function isTextEntry(el: { tagName?: string; type?: string; isContentEditable?: boolean } | null | undefined): boolean {
  if (!el) return false;
  if (el.isContentEditable) return true;
  const tag = (el.tagName ?? "").toUpperCase();
  if (tag === "TEXTAREA" || tag === "SELECT") return true;
  if (tag !== "INPUT") return false;
  return !["radio", "checkbox", "button", "submit", "reset", "range", "color", "file", "image"].includes((el.type ?? "text").toLowerCase());
}

/** What the shortcuts dialog lists, in order. */
export const SHORTCUTS: { keys: string[][]; description: string }[] = [
  { keys: [["Tab"], ["Shift", "Tab"]], description: "Move to the next / previous dimension (and its comment button)" },
  { keys: [["←"], ["→"], ["↑"], ["↓"]], description: "Move between the levels of the focused dimension (selects the level)" },
  { keys: [["0"], ["1"], ["…"], ["5"]], description: "Set the focused dimension to that score (S.C.O.R.E. 1–5, SAFE-LLM 0–2 or 0–1)" },
  { keys: [["Space"]], description: "Select the focused level, tick a checkbox, or open a comment" },
  { keys: [["Ctrl", "Enter"], ["⌘", "Enter"]], description: "Submit (or update) the grades when every score is given" },
  { keys: [["?"]], description: "Show this list of shortcuts" },
  { keys: [["Esc"]], description: "Close this dialog" },
];
