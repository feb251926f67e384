/**
 * The grading form's keyboard map, as plain functions so it is unit-tested
 * without a DOM. Digits act only inside a focused dimension (so they never
 * fire while typing a comment); the global shortcuts are Ctrl/⌘+Enter to
 * submit and "?" for the list of shortcuts (not while typing text).
 */
import { ordinalRange, type RubricDocument } from "@/lib/rubrics/document";

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

export interface Shortcut {
  keys: string[][];
  description: string;
}

/** The digit keys a study's rubrics use and what they set, said per rubric from its documents ("<rubric> 1–5"). */
function digitShortcut(rubrics: readonly RubricDocument[]): Shortcut | null {
  let lo = Infinity;
  let hi = -Infinity;
  const parts: string[] = [];
  for (const r of rubrics) {
    const ranges: string[] = [];
    for (const d of r.dimensions) {
      if (d.derived || !d.scale.levels) continue;
      const { min, max } = d.scale.kind === "ordinal" ? ordinalRange(d) : { min: 1, max: d.scale.levels.length };
      const range = d.scale.kind === "ordinal" ? `${min}–${max}` : `1–${max} picks a category by its place`;
      if (!ranges.includes(range)) ranges.push(range);
      // Only single digits are keys.
      lo = Math.min(lo, Math.max(0, min));
      hi = Math.max(hi, Math.min(9, max));
    }
    if (ranges.length) parts.push(`${r.name} ${ranges.join(" or ")}`);
  }
  if (!parts.length || lo > hi) return null;
  const keys = hi - lo <= 2 ? Array.from({ length: hi - lo + 1 }, (_, i) => [String(lo + i)]) : [[String(lo)], [String(lo + 1)], ["…"], [String(hi)]];
  return { keys, description: `Set the focused dimension to that score (${parts.join("; ")})` };
}

/** What the shortcuts dialog lists, in order, for a study's rubric documents: their score ranges, and N/A where one allows it. */
export function shortcutsFor(rubrics: readonly RubricDocument[]): Shortcut[] {
  const digits = digitShortcut(rubrics);
  const na = rubrics.flatMap((r) => r.dimensions.filter((d) => d.scale.allowNA && !d.derived).map((d) => d.name));
  return [
    { keys: [["Tab"], ["Shift", "Tab"]], description: "Move to the next / previous dimension (and its comment button)" },
    { keys: [["←"], ["→"], ["↑"], ["↓"]], description: "Move between the levels of the focused dimension (selects the level)" },
    ...(digits ? [digits] : []),
    ...(na.length ? [{ keys: [["n"]], description: `Mark the focused dimension not applicable (N/A), where it allows it: ${na.join(", ")}` }] : []),
    { keys: [["Space"]], description: "Select the focused level, tick a checkbox, or open a comment" },
    { keys: [["Ctrl", "Enter"], ["⌘", "Enter"]], description: "Submit (or update) the grades when every score is given" },
    { keys: [["?"]], description: "Show this list of shortcuts" },
    { keys: [["Esc"]], description: "Close this dialog" },
  ];
}
