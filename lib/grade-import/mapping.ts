import { RE2JS } from "re2js";
import "@/lib/api/zod-openapi";
import { z } from "zod";
import { lineText } from "@/lib/validation/text";

/**
 * How the columns of a grades file map onto grades: which column holds the
 * item, the model, the repetition, and either (long format) the rater, the
 * dimension and the score, or (wide format) one score column per rater with
 * the dimension given by the sheet (or the file).
 *
 * Item ids can be rewritten before they are matched (`itemRewrites`): each
 * rule is a regular expression on the whole id and a replacement with $1..$9;
 * `add` then adds an integer to the result, which must be an integer. The
 * cardiology workbook's quirk, requests 51-70 labelled 1_1..1_20, is the rule
 * `{ "match": "^1_(\\d+)$", "replace": "$1", "add": 50 }`. Rules apply in
 * order, the first that matches wins, optionally only on some sheets.
 */

/** The largest compiled program a rewrite rule may have: its size is the factor in the time of each match. */
export function regexMaxProgram(): number {
  const configured = Number(typeof process === "undefined" ? undefined : process.env.IMPORT_REGEX_MAX_PROGRAM);
  return Number.isFinite(configured) && configured > 0 ? Math.floor(configured) : 1000;
}

const column = lineText().trim().min(1, { error: "a column name is needed" }).max(200);

export const ItemRewrite = z
  .strictObject({
    match: z
      .string()
      .min(1)
      .max(200)
      .refine(
        (s) => {
          try {
            RE2JS.compile(s);
            return true;
          } catch {
            return false;
          }
        },
        { error: "not a valid regular expression (RE2 syntax: no lookaround or backreferences)" },
      )
      .refine(
        (s) => {
          try {
            return RE2JS.compile(s).programSize() <= regexMaxProgram();
          } catch {
            return true;
          }
        },
        { error: () => `the regular expression compiles to more than ${regexMaxProgram()} instructions (IMPORT_REGEX_MAX_PROGRAM): simplify it (e.g. a smaller {n,m} repetition)` },
      ),
    replace: z.string().max(200),
    add: z.int().min(-1_000_000).max(1_000_000).optional(),
    sheets: z.array(lineText().max(200)).max(100).optional().meta({ description: "Only on these sheets (default: all)" }),
  })
  .meta({ description: "Rewrites an item id matching `match` (a whole-id regular expression) to `replace` ($1..$9), plus `add` when set" });

export const GradeImportMappingSchema = z
  .strictObject({
    format: z.enum(["long", "wide"]),
    item: column.meta({ description: "The column of the item (question) id" }),
    model: column.meta({ description: "The column of the model (system) name" }),
    repetition: column.optional().meta({ description: "The column of the repetition 1..N; none: 1 (studies with N = 1) or set-level dimensions" }),
    comment: column.optional(),
    rater: column.optional().meta({ description: "Long format: the column of the rater's pseudonym" }),
    dimension: column.optional().meta({ description: "Long format: the column naming the dimension (its key or name)" }),
    score: column.optional().meta({ description: "Long format: the column of the score" }),
    raters: z
      .array(z.strictObject({ column, name: lineText().trim().min(1).max(100).optional() }))
      .max(100)
      .optional()
      .meta({ description: "Wide format: the rater columns; name is the pseudonym (default: the column's header)" }),
    sheets: z
      .record(lineText().max(200), lineText().max(200))
      .optional()
      .meta({ description: "Wide format: sheet name -> dimension (key or name); \"\" skips a sheet. Default: the sheet's own name" }),
    fileDimension: lineText().max(200).optional().meta({ description: "Wide CSV: the dimension of the whole file" }),
    dimensionValues: z
      .record(lineText().max(200), lineText().max(200))
      .optional()
      .meta({ description: "Long format: a value of the dimension column -> dimension key, where the file's words are neither key nor name" }),
    itemRewrites: z.array(ItemRewrite).max(20).default([]),
    createItems: z.boolean().default(true).meta({ description: "false: items the study does not have are problems rather than created" }),
  })
  .superRefine((m, ctx) => {
    if (m.format === "long") {
      for (const k of ["rater", "dimension", "score"] as const) if (!m[k]) ctx.addIssue({ code: "custom", path: [k], message: `the long format needs the ${k} column` });
    } else if (!m.raters?.length) ctx.addIssue({ code: "custom", path: ["raters"], message: "the wide format needs at least one rater column" });
  })
  .meta({ description: "Which columns of the file hold what" });

export type GradeImportMapping = z.output<typeof GradeImportMappingSchema>;
export type ItemRewriteRule = z.output<typeof ItemRewrite>;

/** One rule on an id: undefined when it does not apply or match, null when its `add` meets a non-integer. */
export function rewriteOne(id: string, r: ItemRewriteRule, sheet: string | null, compiled: RE2JS): string | null | undefined {
  if (r.sheets && (sheet === null || !r.sheets.includes(sheet))) return undefined;
  const m = compiled.matcher(id);
  if (!m.matches()) return undefined;
  const out = r.replace.replace(/\$([1-9])/g, (_, n: string) => (Number(n) <= m.groupCount() ? (m.group(Number(n)) ?? "") : ""));
  if (r.add === undefined) return out;
  if (!/^-?\d+$/.test(out.trim())) return null;
  return String(Number(out) + r.add);
}

/** The item id after the first rule that matches it (on this sheet); null when a rule's `add` meets a non-integer. */
export function rewriteItemId(id: string, rules: readonly ItemRewriteRule[], sheet: string | null, compiled: readonly RE2JS[]): string | null {
  for (let i = 0; i < rules.length; i++) {
    const out = rewriteOne(id, rules[i], sheet, compiled[i]);
    if (out !== undefined) return out;
  }
  return id;
}

const ALIASES: Record<"item" | "model" | "repetition" | "rater" | "dimension" | "score" | "comment", string[]> = {
  item: ["item_id", "item", "itemid", "question_id", "request"],
  model: ["model", "system", "llm"],
  repetition: ["repetition", "rep"],
  rater: ["rater", "grader", "reviewer", "evaluator"],
  dimension: ["dimension", "criterion", "criteria"],
  score: ["score", "value", "rating"],
  comment: ["comment", "note"],
};

const norm = (s: string) => s.trim().toLowerCase().replace(/[\s-]+/g, "_");

/** The long-format mapping a header suggests (a CSV sent without a mapping, and the browser's first guess). */
export function guessLongMapping(header: readonly string[]): GradeImportMapping | null {
  const found: Partial<Record<keyof typeof ALIASES, string>> = {};
  for (const [k, names] of Object.entries(ALIASES) as [keyof typeof ALIASES, string[]][]) {
    const h = header.find((c) => names.includes(norm(c)));
    if (h) found[k] = h;
  }
  if (!found.item || !found.model || !found.rater || !found.dimension || !found.score) return null;
  return { format: "long", item: found.item, model: found.model, repetition: found.repetition, rater: found.rater, dimension: found.dimension, score: found.score, comment: found.comment, itemRewrites: [], createItems: true };
}
