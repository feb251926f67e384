import { describe, expect, it } from "vitest";
import { excerptOf, MAX_COUNTED, ScreenMatcher } from "@/lib/screening/match";
import { ScreenRulesSchema, type ScreenRule } from "@/lib/screening/rules";

const term = (pattern: string, name = pattern): ScreenRule => ({ name, kind: "term", pattern });
const regex = (pattern: string, name = pattern, ignoreCase = false): ScreenRule => ({ name, kind: "regex", pattern, ignoreCase });

describe("screen matching", () => {
  it("matches terms as whole words in any case and any script", () => {
    const m = new ScreenMatcher([term("warfarin"), term("Überdosis"), term("high dose")]);
    expect(m.match("WARFARIN, then Warfarin.").map((h) => [h.rule, h.matches])).toEqual([[0, 2]]);
    expect(m.match("prewarfarin and warfarinised and warfarin_x")).toEqual([]);
    expect(m.match("eine überdosis")[0]).toMatchObject({ rule: 1, matches: 1 });
    expect(m.match("Überdosisgefahr")).toEqual([]);
    expect(m.match("a HIGH\n  dose here")[0]).toMatchObject({ rule: 2, excerpt: "a [HIGH dose] here" });
  });

  it("takes a term's regex characters literally", () => {
    const m = new ScreenMatcher([term("a.b (c)")]);
    expect(m.match("axb (c)")).toEqual([]);
    expect(m.match("x a.b (c) y")).toHaveLength(1);
  });

  it("matches RE2 regexes, case-sensitive unless asked, counting matches up to a cap", () => {
    const m = new ScreenMatcher([regex("\\d+ ?mg"), regex("insulin", "ins", true)]);
    const hits = m.match("5mg, 10 mg and INSULIN");
    expect(hits.map((h) => [h.rule, h.matches])).toEqual([
      [0, 2],
      [1, 1],
    ]);
    expect(new ScreenMatcher([regex("a")]).match("a".repeat(5000))[0].matches).toBe(MAX_COUNTED);
  });

  it("excerpts the text around the first match on one line", () => {
    const text = `${"x".repeat(100)} needle ${"y".repeat(100)}`;
    const s = text.indexOf("needle");
    expect(excerptOf(text, s, s + 6)).toBe(`…${"x".repeat(59)} [needle] ${"y".repeat(59)}…`);
  });

  it("stops a rule past its budget with a 422 naming it", () => {
    const m = new ScreenMatcher([term("fast"), regex("(\\w+\\s+){5,40}\\w+\\s+$", "Slow one")], 50);
    const text = "lorem ipsum dolor sit amet ".repeat(4000);
    expect(() => {
      for (let i = 0; i < 100; i++) m.match(text);
    }).toThrow(/the screening rule "Slow one" \(rule 2: .*\) took longer than 50 ms/);
  });

  it("refuses rules that are unsafe or useless, naming them", () => {
    const problems = (rules: unknown) => {
      const r = ScreenRulesSchema.safeParse(rules);
      return r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    };
    expect(problems([regex("(a)\\1", "Backref")])).toEqual(['0.pattern: rule "Backref": not a valid regular expression (RE2 syntax: no lookaround or backreferences)']);
    expect(problems([regex("a|", "Empty")])).toEqual(['0.pattern: rule "Empty": the regular expression matches empty text, so it would screen out every answer']);
    expect(problems([term("--")])).toEqual(["0.pattern: a term needs at least one letter or digit"]);
    expect(problems([term("a", "Same"), term("b", "same")])).toEqual(['1.name: two rules are named "same": each rule\'s name is its reason, name them apart']);
    // No rule is a valid list: a screen may be the judge alone (the request asks for one or the other).
    expect(problems([])).toEqual([]);
  });
});
