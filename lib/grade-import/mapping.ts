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

/** The item id after the first rule that matches it (on this sheet); null when a rule's `add` meets a non-integer. */
export function rewriteItemId(id: string, rules: readonly ItemRewriteRule[], sheet: string | null, compiled: readonly RE2JS[]): string | null {
  for (let i = 0; i < rules.length; i++) {
    const r = rules[i];
    if (r.sheets && (sheet === null || !r.sheets.includes(sheet))) continue;
    const m = compiled[i].matcher(id);
    if (!m.matches()) continue;
    const out = r.replace.replace(/\$([1-9])/g, (_, n: string) => (Number(n) <= m.groupCount() ? (m.group(Number(n)) ?? "") : ""));
    if (r.add === undefined) return out;
    if (!/^-?\d+$/.test(out.trim())) return null;
    return String(Number(out) + r.add);
  }
  return id;
}

export function compileRewrites(rules: readonly ItemRewriteRule[]): RE2JS[] {
  // RE2 matches in time linear in the id, so a lead's pattern such as (a+)+$ cannot stall the
  // server on every row; whole-id matching, so "1_2" cannot match inside "11_20".
  return rules.map((r) => RE2JS.compile(r.match));
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
