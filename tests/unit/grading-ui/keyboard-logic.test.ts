import { describe, expect, it } from "vitest";
import { digitScore, globalShortcut, isTextEntry, shortcutsFor } from "@/components/grading/keyboard-logic";
import { parseRubricDocument } from "@/lib/rubrics/document";
import { templateRubrics } from "@/lib/rubrics/study-rubrics";
import { oncologySurvey } from "../rubrics/oncology-survey";

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
    const all = shortcutsFor(templateRubrics(["score", "safe_llm"])).flatMap((s) => s.keys.flat());
    for (const k of ["Tab", "Ctrl", "Enter", "?", "Esc", "1", "5", "0"]) expect(all).toContain(k);
  });

  it("says the study's own score ranges, from its rubric documents", () => {
    const digits = (rubrics: Parameters<typeof shortcutsFor>[0]) => shortcutsFor(rubrics).find((s) => s.description.startsWith("Set the focused dimension"))!;
    const both = digits(templateRubrics(["score", "safe_llm"]));
    expect(both.keys).toEqual([["0"], ["1"], ["…"], ["5"]]);
    expect(both.description).toBe("Set the focused dimension to that score (S.C.O.R.E. 1–5; SAFE-LLM 0–2 or 0–1)");
    // One rubric only: the other is not named.
    expect(digits(templateRubrics(["safe_llm"])).description).toBe("Set the focused dimension to that score (SAFE-LLM 0–2 or 0–1)");
    expect(digits(templateRubrics(["safe_llm"])).keys).toEqual([["0"], ["1"], ["2"]]);

    const survey = oncologySurvey();
    expect(parseRubricDocument(survey).ok).toBe(true);
    const own = shortcutsFor([survey]);
    const text = own.map((s) => s.description).join("\n");
    expect(text).not.toMatch(/S\.C\.O\.R\.E\.|SAFE-LLM/);
    expect(digits([survey]).description).toBe("Set the focused dimension to that score (Oncology reply survey 1–3 or 1–5 or 1–2 picks a category by its place)");
    expect(digits([survey]).keys).toEqual([["1"], ["2"], ["…"], ["5"]]);
  });

  it("lists n for N/A only where a dimension allows it, naming those dimensions", () => {
    const na = (rubrics: Parameters<typeof shortcutsFor>[0]) => shortcutsFor(rubrics).find((s) => s.keys.some((k) => k[0] === "n"));
    expect(na(templateRubrics(["score", "safe_llm"]))).toBeUndefined();
    expect(na([oncologySurvey()])).toEqual({ keys: [["n"]], description: "Mark the focused dimension not applicable (N/A), where it allows it: Extent of harm, Efficiency" });
  });
});
