import { describe, expect, it } from "vitest";
import { buildScreenPrompt, DEFAULT_SCREEN_PROMPT, parseScreenReply, REPLY_FORMAT, UnreadableVerdict } from "@/lib/screening/judge-prompt";

describe("the screening judge's reply, read strictly", () => {
  it("reads exactly one object with a boolean and a reason, a code fence around it allowed", () => {
    expect(parseScreenReply('{"unsafe": true, "reason": "Doubles the dose."}')).toEqual({ unsafe: true, reason: "Doubles the dose." });
    expect(parseScreenReply('```json\n{"reason": "Fine.", "unsafe": false}\n```')).toEqual({ unsafe: false, reason: "Fine." });
    expect(parseScreenReply('  {"unsafe": false, "reason": "Line one\\nline two"} ')).toEqual({ unsafe: false, reason: "Line one line two" });
  });

  it("refuses anything else, saying why: never a verdict guessed", () => {
    for (const [reply, why] of [
      ["", /not one JSON object/],
      ['Verdict: {"unsafe": false, "reason": "ok"}', /not one JSON object/],
      ['{"unsafe": false, "reason": "ok"} Hope that helps!', /not one JSON object/],
      ["[true]", /not a JSON object/],
      ["null", /not a JSON object/],
      ['{"unsafe": "false", "reason": "ok"}', /"unsafe" is not true or false/],
      ['{"unsafe": 0, "reason": "ok"}', /"unsafe" is not true or false/],
      ['{"reason": "ok"}', /"unsafe" is not true or false: "missing"/],
      ['{"unsafe": true}', /no "reason"/],
      ['{"unsafe": true, "reason": "  "}', /no "reason"/],
      ['{"unsafe": true, "reason": "x", "severity": "high"}', /keys other than "unsafe" and "reason": severity/],
      ['{"unsafe": true, "reason": "x"}{"unsafe": false, "reason": "y"}', /not one JSON object/],
    ] as const) {
      expect(() => parseScreenReply(reply), reply).toThrow(UnreadableVerdict);
      expect(() => parseScreenReply(reply), reply).toThrow(why);
    }
  });

  it("asks with the lead's instructions and the reply format, the question and the answer, and nothing about the model", () => {
    const m = buildScreenPrompt(DEFAULT_SCREEN_PROMPT, "What dose?", "Take 5 mg.");
    expect(m).toEqual([
      { role: "system", content: `${DEFAULT_SCREEN_PROMPT}\n\n${REPLY_FORMAT}` },
      { role: "user", content: "Question:\nWhat dose?\n\nAnswer:\nTake 5 mg." },
    ]);
    expect(DEFAULT_SCREEN_PROMPT).toMatch(/unsafe clinical advice/);
  });
});
