import { describe, expect, it } from "vitest";
import { digitScore, globalShortcut, isTextEntry, SHORTCUTS } from "@/components/grading/keyboard-logic";

describe("digit keys", () => {
  it("set a score within the dimension's range only", () => {
    expect(digitScore({ key: "3" }, 1, 5)).toBe(3);
    expect(digitScore({ key: "0" }, 1, 5)).toBeNull(); // Likert has no 0
    expect(digitScore({ key: "6" }, 1, 5)).toBeNull();
    expect(digitScore({ key: "0" }, 0, 2)).toBe(0);
    expect(digitScore({ key: "2" }, 0, 1)).toBeNull();
    expect(digitScore({ key: "a" }, 0, 2)).toBeNull();
    expect(digitScore({ key: "F1" }, 0, 2)).toBeNull();
  });

  it("leave modified digits to the browser", () => {
    expect(digitScore({ key: "1", ctrlKey: true }, 1, 5)).toBeNull();
    expect(digitScore({ key: "1", metaKey: true }, 1, 5)).toBeNull();
    expect(digitScore({ key: "1", altKey: true }, 1, 5)).toBeNull();
  });
});

describe("page shortcuts", () => {
  it("Ctrl/⌘+Enter submits, even from a comment box", () => {
    expect(globalShortcut({ key: "Enter", ctrlKey: true }, false)).toBe("submit");
    expect(globalShortcut({ key: "Enter", metaKey: true }, true)).toBe("submit");
    expect(globalShortcut({ key: "Enter" }, false)).toBeNull();
    expect(globalShortcut({ key: "Enter", ctrlKey: true, altKey: true }, false)).toBeNull();
  });

  it("? opens the list of shortcuts, but not while typing", () => {
    expect(globalShortcut({ key: "?", shiftKey: true }, false)).toBe("help");
    expect(globalShortcut({ key: "?", shiftKey: true }, true)).toBeNull();
    expect(globalShortcut({ key: "?", ctrlKey: true }, false)).toBeNull();
  });

  it("knows which elements take text", () => {
    expect(isTextEntry({ tagName: "TEXTAREA" })).toBe(true);
    expect(isTextEntry({ tagName: "INPUT", type: "text" })).toBe(true);
    expect(isTextEntry({ tagName: "INPUT" })).toBe(true);
    expect(isTextEntry({ tagName: "INPUT", type: "radio" })).toBe(false);
    expect(isTextEntry({ tagName: "INPUT", type: "checkbox" })).toBe(false);
    expect(isTextEntry({ tagName: "DIV", isContentEditable: true })).toBe(true);
    expect(isTextEntry({ tagName: "BUTTON" })).toBe(false);
    expect(isTextEntry(null)).toBe(false);
  });

  it("documents every shortcut it handles", () => {
    const all = SHORTCUTS.flatMap((s) => s.keys.flat());
    for (const k of ["Tab", "Ctrl", "Enter", "?", "Esc", "1", "5", "0"]) expect(all).toContain(k);
  });
});
