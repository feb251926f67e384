import { describe, expect, it } from "vitest";
import { focusSoon, type FocusEnv } from "@/components/grading/form-focus";

/**
 * A page as focus sees it: elements, the focused one, frames run when the test
 * says (a loaded machine runs them late), and keys typed into the focused
 * element. The grading form moves focus a frame after a submit attempt (to its
 * problem list) or a click (to a comment box): it must never take focus from
 * the field the grader has gone on to type in meanwhile.
 */
function page() {
  type El = { tagName: string; type?: string; value: string };
  const el = (tagName: string, type?: string): El => ({ tagName, type, value: "" });
  const body = el("BODY");
  let active: El = body;
  const frames: (() => void)[] = [];
  const env: FocusEnv = { active: () => active, body: () => body, frame: (fn) => void frames.push(fn) };
  return {
    el,
    env,
    body,
    focus: (e: El) => void (active = e),
    get active() {
      return active;
    },
    type: (text: string) => void (active.value += text),
    runFrames: () => frames.splice(0).forEach((f) => f()),
  };
}

describe("a deferred focus move", () => {
  it("is made on the next frame when focus has stayed put", () => {
    const p = page();
    const submit = p.el("BUTTON");
    const problems = p.el("DIV");
    p.focus(submit);
    focusSoon(() => p.focus(problems), { env: p.env });
    expect(p.active).toBe(submit);
    p.runFrames();
    expect(p.active).toBe(problems);
  });

  it("is made when focus rests on the page itself", () => {
    const p = page();
    const field = p.el("INPUT", "radio");
    focusSoon(() => p.focus(field), { env: p.env });
    p.runFrames();
    expect(p.active).toBe(field);
  });

  it("does not take focus from the harm comment the grader moved to and typed in before the frame (lost keystrokes)", () => {
    const p = page();
    const checkbox = p.el("INPUT", "checkbox");
    const problems = p.el("DIV");
    const harmComment = p.el("TEXTAREA");
    // Ctrl+Enter on the ticked flag: refused, the problem list is to take focus on the next frame...
    p.focus(checkbox);
    focusSoon(() => p.focus(problems), { env: p.env });
    // ...which comes late: meanwhile the grader follows the link to the comment and types.
    p.focus(harmComment);
    p.type("Answer 2 advises self-care");
    p.runFrames();
    p.type(" for a probable angle-closure attack.");
    expect(p.active).toBe(harmComment);
    expect(harmComment.value).toBe("Answer 2 advises self-care for a probable angle-closure attack.");
  });

  it("decided before the server answered does not take focus from a text field the grader is typing in", () => {
    const p = page();
    const comment = p.el("TEXTAREA");
    const problems = p.el("DIV");
    // Ctrl+Enter from a comment box, the grader goes on typing while the submission is refused by the server.
    p.focus(comment);
    const since = p.active;
    p.type("Clear advice");
    focusSoon(() => p.focus(problems), { since, notFromText: true, env: p.env });
    p.runFrames();
    p.type("; two omissions.");
    expect(comment.value).toBe("Clear advice; two omissions.");
    // From the submit button it still goes to the problems.
    const button = p.el("BUTTON");
    p.focus(button);
    focusSoon(() => p.focus(problems), { since: button, notFromText: true, env: p.env });
    p.runFrames();
    expect(p.active).toBe(problems);
  });
});
