import { RE2JS } from "re2js";
import { ApiError } from "@/lib/errors/api-error";
import type { ScreenRule } from "./rules";

/**
 * Matching the screen's rules against answers, each rule timed. RE2 is linear
 * in the text, but the factor is the program's size, and one rule over every
 * answer of a large study can still take long: each rule's time is summed, and
 * past SCREEN_REGEX_BUDGET_MS the screen stops with a 422 naming the rule. A
 * single match that alone outlasts the budget cannot be interrupted here (the
 * thread is busy in it): the thread's parent watches the `progress` array and
 * stops the thread (./run.ts).
 */

export const DEFAULT_SCREEN_BUDGET_MS = 2000;

export function screenBudgetMs(): number {
  const configured = Number(process.env.SCREEN_REGEX_BUDGET_MS);
  return Number.isFinite(configured) && configured > 0 ? configured : DEFAULT_SCREEN_BUDGET_MS;
}

export function ruleTooSlow(rules: readonly Pick<ScreenRule, "name" | "pattern">[], i: number, budget: number): ApiError {
  const r = rules[i];
  const message = `the screening rule "${r.name}" (rule ${i + 1}: ${r.pattern.slice(0, 80)}) took longer than ${budget.toLocaleString("en")} ms over the study's answers (SCREEN_REGEX_BUDGET_MS): simplify it (anchor it, avoid nested repetition); nothing was stored`;
  return new ApiError(422, message, { errors: [{ path: `rules.${i}.pattern`, rule: r.name, message }], total: 1, limit: "SCREEN_REGEX_BUDGET_MS" });
}

export interface RuleHit {
  rule: number;
  matches: number;
  excerpt: string;
}

/** Matches counted per answer and rule, at most this many (an excerpt shows the first). */
export const MAX_COUNTED = 1000;
const AROUND = 60;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A term as a whole-word, case-insensitive pattern; "word" includes every script's letters, not only ASCII (RE2's \b). */
function termPattern(term: string): RegExp {
  const words = term.trim().split(/\s+/).map(escapeRegExp).join("\\s+");
  return new RegExp(`(?<![\\p{L}\\p{N}_])${words}(?![\\p{L}\\p{N}_])`, "giu");
}

/** The text around [start, end), on one line, at most AROUND characters each side. */
export function excerptOf(text: string, start: number, end: number): string {
  const from = Math.max(0, start - AROUND);
  const to = Math.min(text.length, Math.max(end, start + 1) + AROUND);
  const flat = (s: string) => s.replace(/\s+/g, " ");
  const matched = text.slice(start, Math.min(end, start + 200));
  return `${from > 0 ? "…" : ""}${flat(text.slice(from, start)).trimStart()}[${flat(matched)}]${flat(text.slice(Math.min(end, start + 200), to)).trimEnd()}${to < text.length ? "…" : ""}`;
}

type Compiled = { kind: "term"; re: RegExp } | { kind: "regex"; re: RE2JS };

export class ScreenMatcher {
  private readonly compiled: Compiled[];
  private readonly spent: number[];

  /** `progress` (shared with the parent): [rule being matched + 1 (0: none), matches started]. */
  constructor(
    private readonly rules: readonly ScreenRule[],
    private readonly budget = screenBudgetMs(),
    private readonly progress: Int32Array | null = null,
  ) {
    this.compiled = rules.map((r) =>
      r.kind === "term" ? { kind: "term", re: termPattern(r.pattern) } : { kind: "regex", re: RE2JS.compile(r.pattern, r.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0) },
    );
    this.spent = rules.map(() => 0);
  }

  private matchOne(c: Compiled, text: string): { matches: number; start: number; end: number } | null {
    if (c.kind === "term") {
      c.re.lastIndex = 0;
      let first: RegExpExecArray | null = null;
      let matches = 0;
      for (let m = c.re.exec(text); m && matches < MAX_COUNTED; m = c.re.exec(text)) {
        first ??= m;
        matches++;
      }
      return first ? { matches, start: first.index, end: first.index + first[0].length } : null;
    }
    const m = c.re.matcher(text);
    if (!m.find()) return null;
    const start = m.start();
    const end = m.end();
    let matches = 1;
    while (matches < MAX_COUNTED && m.find()) matches++;
    return { matches, start, end };
  }

  /** Every rule that matches `text`, with its count and the text around its first match. */
  match(text: string): RuleHit[] {
    const hits: RuleHit[] = [];
    for (let i = 0; i < this.rules.length; i++) {
      if (this.progress) {
        Atomics.store(this.progress, 0, i + 1);
        Atomics.add(this.progress, 1, 1);
      }
      const t0 = performance.now();
      const found = this.matchOne(this.compiled[i], text);
      this.spent[i] += performance.now() - t0;
      if (this.progress) Atomics.store(this.progress, 0, 0);
      if (this.spent[i] > this.budget) throw ruleTooSlow(this.rules, i, this.budget);
      if (found) hits.push({ rule: i, matches: found.matches, excerpt: excerptOf(text, found.start, found.end) });
    }
    return hits;
  }
}
