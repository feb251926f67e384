import { RE2JS } from "re2js";
import { ApiError } from "@/lib/errors/api-error";
import { rewriteOne, type ItemRewriteRule } from "./mapping";

/**
 * The item-id rewrite rules of one import, run under a time budget. RE2
 * matches in time linear in the id, but the factor is the program's size, and
 * a lead's rule over every id of a large file can still take seconds: each
 * rule's time is summed, and past IMPORT_REGEX_BUDGET_MS the import stops with
 * a 422 naming the rule. Results are kept per id (a file repeats its ids).
 */

export const DEFAULT_REGEX_BUDGET_MS = 2000;

export function regexBudgetMs(): number {
  const configured = Number(process.env.IMPORT_REGEX_BUDGET_MS);
  return Number.isFinite(configured) && configured > 0 ? configured : DEFAULT_REGEX_BUDGET_MS;
}

export function regexTooSlow(rule: number, pattern: string, budget: number): ApiError {
  const column = `mapping.itemRewrites.${rule}.match`;
  const message = `the item-id rewrite rule ${rule + 1} (${pattern.slice(0, 80)}) took longer than ${budget.toLocaleString("en")} ms over the file's ids (IMPORT_REGEX_BUDGET_MS): simplify it (anchor it, avoid nested repetition); nothing was imported`;
  return new ApiError(422, message, { errors: [{ sheet: null, row: 0, column, message }], total: 1, limit: "IMPORT_REGEX_BUDGET_MS" });
}

const MAX_CACHED = 200_000;

export class ItemRewriter {
  private readonly compiled: RE2JS[];
  private readonly spent: number[];
  private readonly budget = regexBudgetMs();
  private readonly cache = new Map<string, string | null>();

  constructor(private readonly rules: readonly ItemRewriteRule[]) {
    this.compiled = rules.map((r) => RE2JS.compile(r.match));
    this.spent = rules.map(() => 0);
  }

  rewrite(id: string, sheet: string | null): string | null {
    const key = `${sheet ?? ""}\u0000${id}`;
    const hit = this.cache.get(key);
    if (hit !== undefined || this.cache.has(key)) return hit ?? null;
    // One rule at a time, each timed: the first that matches wins (as rewriteItemId).
    let out: string | null = id;
    for (let i = 0; i < this.rules.length; i++) {
      const t0 = performance.now();
      const one = rewriteOne(id, this.rules[i], sheet, this.compiled[i]);
      this.spent[i] += performance.now() - t0;
      if (this.spent[i] > this.budget) throw regexTooSlow(i, this.rules[i].match, this.budget);
      if (one !== undefined) {
        out = one;
        break;
      }
    }
    if (this.cache.size < MAX_CACHED) this.cache.set(key, out);
    return out;
  }
}
