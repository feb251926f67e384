import { RE2JS } from "re2js";
import "@/lib/api/zod-openapi";
import { z } from "zod";
import { regexMaxProgram } from "@/lib/grade-import/mapping";
import { lineText } from "@/lib/validation/text";

/**
 * The lead's screening rules: a term (a word or phrase, matched whole-word and
 * case-insensitively) or a regular expression in RE2 syntax (linear-time: no
 * lookaround or backreferences), each with a name that is the reason an
 * answer is screened out. A regex's compiled program is bounded as the grade
 * import's rewrite rules are (IMPORT_REGEX_MAX_PROGRAM), and its time over
 * the answers by SCREEN_REGEX_BUDGET_MS (./match.ts).
 */

export const MAX_RULES = 100;

function compiles(s: string, ignoreCase = false): RE2JS | null {
  try {
    return RE2JS.compile(s, ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
  } catch {
    return null;
  }
}

export const ScreenRuleSchema = z
  .strictObject({
    name: lineText().trim().min(1, { error: "name the rule: the name is the reason an answer is screened out" }).max(120),
    kind: z.enum(["term", "regex"]),
    pattern: lineText().min(1, { error: "the pattern is empty" }).max(500),
    ignoreCase: z.boolean().optional().meta({ description: "Regex only: match regardless of case (terms always do)" }),
    reason: z.string().trim().max(1000).optional().meta({ description: "Why the rule exists, for the lead and the audit" }),
  })
  .superRefine((r, ctx) => {
    if (r.kind === "term") {
      if (!/[\p{L}\p{N}]/u.test(r.pattern)) ctx.addIssue({ code: "custom", path: ["pattern"], message: "a term needs at least one letter or digit" });
      return;
    }
    const re = compiles(r.pattern, r.ignoreCase);
    if (!re) {
      ctx.addIssue({ code: "custom", path: ["pattern"], message: `rule "${r.name}": not a valid regular expression (RE2 syntax: no lookaround or backreferences)` });
    } else if (re.programSize() > regexMaxProgram()) {
      ctx.addIssue({
        code: "custom",
        path: ["pattern"],
        message: `rule "${r.name}": the regular expression compiles to more than ${regexMaxProgram()} instructions (IMPORT_REGEX_MAX_PROGRAM): simplify it (e.g. a smaller {n,m} repetition)`,
      });
    } else if (re.matcher("").find()) {
      ctx.addIssue({ code: "custom", path: ["pattern"], message: `rule "${r.name}": the regular expression matches empty text, so it would screen out every answer` });
    }
  })
  .meta({ description: "A term (whole-word, case-insensitive) or an RE2 regular expression; the name is the reason shown to the lead" });

export type ScreenRule = z.output<typeof ScreenRuleSchema>;

export const ScreenRulesSchema = z
  .array(ScreenRuleSchema)
  .max(MAX_RULES)
  .superRefine((rules, ctx) => {
    const seen = new Set<string>();
    rules.forEach((r, i) => {
      const key = r.name.toLowerCase();
      if (seen.has(key)) ctx.addIssue({ code: "custom", path: [i, "name"], message: `two rules are named "${r.name}": each rule's name is its reason, name them apart` });
      seen.add(key);
    });
  });
