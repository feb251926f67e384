import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lineText, multilineText, textProblem, textProblemsIn } from "@/lib/validation/text";

/** Any UTF-16 code unit, lone surrogates included. */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));

describe("the text rule", () => {
  it.each([
    ["\u0000", "U+0000"],
    ["a\u0001", "U+0001"],
    ["\u001B[31m", "U+001B"],
    ["del\u007F", "U+007F"],
    ["next line\u0085", "U+0085"],
    ["\u009F", "U+009F"],
    ["form\u000Cfeed", "U+000C"],
    ["vertical\u000Btab", "U+000B"],
  ])("refuses the control character in %j everywhere", (s, code) => {
    expect(textProblem(s, "line")).toContain(code);
    expect(textProblem(s, "multiline")).toContain(code);
  });

  it("allows tab and line breaks in multi-line text only", () => {
    for (const s of ["a\tb", "line 1\nline 2", "windows\r\nline"]) {
      expect(textProblem(s, "multiline")).toBeNull();
      expect(textProblem(s, "line")).toMatch(/control character U\+000[9AD]/);
    }
  });

  it("refuses unpaired surrogates and keeps pairs", () => {
    expect(textProblem("\uD800")).toBe("contains an unpaired surrogate U+D800 at character 1, which is not valid Unicode");
    expect(textProblem("ok\uDC00")).toContain("U+DC00 at character 3");
    expect(textProblem("\uDC00\uD800")).toContain("U+DC00");
    for (const s of ["😷 fièvre", "👨‍⚕️", "\uFEFF\u202Eevil", "Ñandú", "مرحبا", "\u00A0nbsp", "\u2028"]) expect(textProblem(s, "line")).toBeNull();
  });

  it("accepts exactly the text that reaches PostgreSQL unchanged (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.oneof(codeUnit, fc.constantFrom("\t", "\n", "\0", "\uD83D", "\uDE37")), maxLength: 30 }), (s) => {
        const ok = textProblem(s) === null;
        const survivesUtf8 = Buffer.from(s, "utf8").toString("utf8") === s;
        const controls = [...s].some((c) => /\p{Cc}/u.test(c) && !"\t\n\r".includes(c));
        expect(ok).toBe(survivesUtf8 && !controls);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("the zod text types", () => {
  it("lineText trims, then refuses control characters with the field's path", () => {
    const schema = lineText().min(1).max(10);
    expect(schema.parse("  Cardiology ")).toBe("Cardiology");
    expect(lineText().parse(" name\n")).toBe("name");
    const r = schema.safeParse("Card\u0000io");
    expect(r.success).toBe(false);
    expect(r.error!.issues[0].message).toBe("contains the control character U+0000 at character 5");
  });

  it("multilineText keeps the text as sent and allows line breaks", () => {
    expect(multilineText().parse(" a\n\tb ")).toBe(" a\n\tb ");
    expect(multilineText().safeParse("a\u0085").success).toBe(false);
    expect(multilineText().safeParse("\uD800").success).toBe(false);
  });
});

describe("textProblemsIn (the request body guard)", () => {
  it("names each bad string and key by its path, at any depth", () => {
    const body = { name: "ok", scores: [{ comment: "fine" }, { comment: "bad\u0000" }], harm: { "k\u0001": 1 }, deep: [[["\uDFFF"]]] };
    expect(textProblemsIn(body)).toEqual([
      { path: ["scores", 1, "comment"], message: "scores.1.comment contains the control character U+0000 at character 4 (only tab and line breaks are allowed)" },
      { path: ["harm", "k\u0001"], message: 'the key "k\\u0001" contains the control character U+0001 at character 2 (only tab and line breaks are allowed)' },
      { path: ["deep", 0, 0, 0], message: "deep.0.0.0 contains an unpaired surrogate U+DFFF at character 1, which is not valid Unicode" },
    ]);
    expect(textProblemsIn("\u0000")[0].message).toMatch(/^the value contains/);
    expect(textProblemsIn({ a: 1, b: [true, null, "x\ty"] })).toEqual([]);
  });

  it("stops at max problems and copes with deep documents", () => {
    expect(textProblemsIn(Array.from({ length: 100 }, () => "\u0000"), "multiline", 5)).toHaveLength(5);
    let deep: unknown = "\u0000";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(textProblemsIn(deep)).toHaveLength(1);
  });
});
