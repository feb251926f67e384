import type { RubricDocument, RubricDimension } from "@/lib/rubrics/document";
import { textProblem } from "@/lib/validation/text";
import { detach } from "@/lib/import/detach";
import { setImmediate as yieldToLoop } from "node:timers/promises";
import type { GradeImportMapping } from "./mapping";
import { ItemRewriter } from "./rewrites";
import type { GradeTable } from "./tables";

/**
 * Turns the rows of a grades file into grades, checked against the study's
 * rubric documents (the dimensions, their levels and scope come from there),
 * one row at a time. Items, models, raters and dimensions become small
 * integers (1-based) so the staged grades are compact; the strings are kept
 * once each.
 */

export interface GradeProblem {
  sheet: string | null;
  /** The spreadsheet's row number, or the CSV line (the header is 1). */
  row: number;
  column: string | null;
  message: string;
}

export interface StagedGrade {
  sheet: number;
  row: number;
  item: number;
  model: number;
  rater: number;
  dim: number;
  repetition: number;
  score: number | null;
  category: string | null;
  na: boolean;
  comment: string | null;
}

export interface ImportDimension {
  rubric: string;
  key: string;
  name: string;
  dimension: RubricDimension;
}

export const MAX_PROBLEMS = 1000;
/** A row to read past: a total, or a value the mapping maps to "". */
export const SKIP = Symbol("skip");
const MAX_ID = 200;

/** Every dimension a file may grade: not criteria (their criteria come per question), not derived (computed, never typed). */
export function importableDimensions(rubrics: readonly RubricDocument[]): ImportDimension[] {
  return rubrics.flatMap((doc) =>
    doc.dimensions.filter((d) => d.scale.kind !== "criteria" && !d.derived).map((d) => ({ rubric: doc.key, key: d.key, name: d.name, dimension: d })),
  );
}

class Interned {
  readonly values: string[] = [];
  private readonly index = new Map<string, number>();
  /** Where each value was first seen, to point at it in a later problem. */
  readonly firstSeen: { sheet: string | null; row: number; column: string }[] = [];
  get(value: string, at: { sheet: string | null; row: number; column: string }): number {
    let i = this.index.get(value);
    if (i === undefined) {
      const own = detach(value);
      this.values.push(own);
      this.firstSeen.push(at);
      i = this.values.length;
      this.index.set(own, i);
    }
    return i;
  }
}

export class GradeRows {
  readonly items = new Interned();
  readonly models = new Interned();
  readonly raters = new Interned();
  readonly sheets: (string | null)[] = [];
  readonly problems: GradeProblem[] = [];
  totalProblems = 0;
  rows = 0;
  private readonly dims: ImportDimension[];
  private readonly byWord = new Map<string, number | "ambiguous">();
  private readonly rewrites: ItemRewriter;
  /** Words naming one of the rubric's totals: a file's total rows are derived from its dimensions, so they are read past. */
  private readonly totals = new Set<string>();

  constructor(
    readonly mapping: GradeImportMapping,
    rubrics: readonly RubricDocument[],
    private readonly repetitions: number,
  ) {
    this.dims = importableDimensions(rubrics);
    this.dims.forEach((d, i) => {
      for (const w of new Set([d.key.toLowerCase(), d.name.trim().toLowerCase(), `${d.rubric}/${d.key}`.toLowerCase()])) {
        const had = this.byWord.get(w);
        this.byWord.set(w, had === undefined || had === i + 1 ? i + 1 : "ambiguous");
      }
    });
    this.rewrites = new ItemRewriter(mapping.itemRewrites);
    for (const doc of rubrics) for (const t of doc.totals) for (const w of [t.key, t.name, `${doc.key}/${t.key}`]) this.totals.add(w.trim().toLowerCase());
  }

  /** The study's N: repetitions run 0 (the set) to N. */
  get repetitionCount(): number {
    return this.repetitions;
  }

  get dimensions(): readonly ImportDimension[] {
    return this.dims;
  }

  problem(p: GradeProblem): void {
    this.totalProblems++;
    if (this.problems.length < MAX_PROBLEMS) this.problems.push(p);
  }

  /** The dimension a word of the file names (its key, its name, or rubric/key), or a message. */
  dimensionFor(word: string): number | string | typeof SKIP {
    const mapped = this.mapping.dimensionValues?.[word] ?? word;
    if (mapped === "" || this.totals.has(mapped.trim().toLowerCase())) return SKIP;
    const hit = this.byWord.get(mapped.trim().toLowerCase());
    if (hit === "ambiguous") return `"${word}" names a dimension in more than one rubric: write rubric/dimension`;
    if (hit === undefined) return `"${word}" is not a dimension of the study's rubric (${this.dims.map((d) => d.key).join(", ")})`;
    return hit;
  }

  /** A sheet's index, and its dimension for the wide format (null: skip the sheet; string: the problem). */
  openSheet(sheet: string | null): { index: number; dim: number | null | string } {
    this.sheets.push(sheet);
    const index = this.sheets.length;
    if (this.mapping.format === "long") return { index, dim: null };
    let word: string | undefined;
    if (sheet === null) word = this.mapping.fileDimension ?? Object.values(this.mapping.sheets ?? {})[0];
    else word = this.mapping.sheets ? this.mapping.sheets[sheet] : sheet;
    if (word === "") return { index, dim: null };
    if (word === undefined) return { index, dim: sheet === null ? "the wide format of a CSV file needs its dimension (fileDimension)" : `the sheet "${sheet}" is not mapped to a dimension` };
    const dim = this.dimensionFor(word);
    if (dim === SKIP) return { index, dim: null };
    return { index, dim: typeof dim === "string" ? `sheet ${sheet ?? "(file)"}: ${dim}` : dim };
  }

  private text(value: string | undefined, what: string, at: { sheet: string | null; row: number; column: string }, max = MAX_ID): string | null {
    const v = (value ?? "").trim();
    if (!v) {
      this.problem({ ...at, message: `${what} is empty` });
      return null;
    }
    if (v.length > max) {
      this.problem({ ...at, message: `${what} is longer than ${max} characters` });
      return null;
    }
    const bad = textProblem(v, "line");
    if (bad) {
      this.problem({ ...at, message: `${what}: ${bad}` });
      return null;
    }
    return v;
  }

  private repetitionOf(d: ImportDimension, raw: string | undefined, at: { sheet: string | null; row: number; column: string }): number | null {
    if (d.dimension.scope === "set") return 0;
    if (d.dimension.scope === "first_answer") return 1;
    const v = (raw ?? "").trim();
    if (!v) {
      if (this.repetitions === 1) return 1;
      this.problem({ ...at, message: `${d.name} is graded on each of the ${this.repetitions} answers: the repetition (1-${this.repetitions}) is needed` });
      return null;
    }
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1 || n > this.repetitions) {
      this.problem({ ...at, message: `repetition "${v}" is not within 1-${this.repetitions}` });
      return null;
    }
    return n;
  }

  private value(d: ImportDimension, raw: string, at: { sheet: string | null; row: number; column: string }): { score: number | null; category: string | null; na: boolean } | null {
    const v = raw.trim();
    const scale = d.dimension.scale;
    if (scale.allowNA && /^(n\/?a|not applicable)$/i.test(v)) return { score: null, category: null, na: true };
    const levels = scale.levels ?? [];
    if (scale.kind === "nominal") {
      const l = levels.find((x) => String(x.value).toLowerCase() === v.toLowerCase() || x.label.toLowerCase() === v.toLowerCase());
      if (l) return { score: null, category: String(l.value), na: false };
    } else {
      const n = Number(v);
      if (v !== "" && Number.isInteger(n) && levels.some((x) => x.value === n)) return { score: n, category: null, na: false };
    }
    const shown = v.length > 40 ? `${v.slice(0, 40)}…` : v;
    this.problem({ ...at, message: `"${shown}" is not a level of ${d.name} (${levels.map((x) => x.value).join(", ")})` });
    return null;
  }

  /** One grade of the file, or null after recording its problems. */
  grade(
    sheetIndex: number,
    sheet: string | null,
    row: number,
    cells: { item?: string; model?: string; repetition?: string; rater?: string; comment?: string },
    dim: number | string,
    rawScore: string,
    columns: { item: string; model: string; repetition?: string; rater: string; score: string; dimension?: string; comment?: string },
  ): StagedGrade | null {
    const at = (column: string) => ({ sheet, row, column });
    const before = this.totalProblems;
    let itemId = this.text(cells.item, "the item id", at(columns.item));
    if (itemId !== null && this.mapping.itemRewrites.length) {
      const rewritten = this.rewrites.rewrite(itemId, sheet);
      if (rewritten === null) this.problem({ ...at(columns.item), message: `the item id "${itemId}" is rewritten to a value that is not an integer, so "add" cannot apply` });
      itemId = rewritten;
    }
    const model = this.text(cells.model, "the model", at(columns.model));
    const rater = this.text(cells.rater, "the rater", at(columns.rater), 100);
    if (typeof dim === "string") this.problem({ ...at(columns.dimension ?? columns.score), message: dim });
    const d = typeof dim === "number" ? this.dims[dim - 1] : null;
    const repetition = d ? this.repetitionOf(d, cells.repetition, at(columns.repetition ?? columns.score)) : null;
    const value = d ? this.value(d, rawScore, at(columns.score)) : null;
    let comment: string | null = null;
    if (cells.comment && cells.comment.trim()) {
      const c = cells.comment.trim();
      const bad = textProblem(c, "multiline");
      if (bad || c.length > 5000) this.problem({ ...at(columns.comment ?? ""), message: `the comment: ${bad ?? "longer than 5,000 characters"}` });
      else comment = c;
    }
    if (this.totalProblems > before || itemId === null || model === null || rater === null || repetition === null || value === null || d === null) return null;
    const item = this.items.get(itemId, at(columns.item));
    const m = this.models.get(model, at(columns.model));
    const r = this.raters.get(rater, at(columns.rater));
    return { sheet: sheetIndex, row, item, model: m, rater: r, dim: dim as number, repetition, ...value, comment };
  }

  /** Every grade of one table of the file. */
  async *table(t: GradeTable): AsyncGenerator<StagedGrade[]> {
    const m = this.mapping;
    const { index, dim: sheetDim } = this.openSheet(t.sheet);
    if (m.format === "wide" && sheetDim === null) {
      await t.rows.return(undefined);
      return;
    }
    const lower = t.header.map((h) => h.trim().toLowerCase());
    const col = (name: string | undefined): number => (name === undefined ? -1 : lower.indexOf(name.trim().toLowerCase()));
    const need = (name: string | undefined, what: string): number => {
      const i = col(name);
      if (name !== undefined && i < 0) this.problem({ sheet: t.sheet, row: t.headerRow, column: name, message: `no column "${name}" (${what}) in the header` });
      return i;
    };
    const iItem = need(m.item, "item");
    const iModel = need(m.model, "model");
    const iRep = need(m.repetition, "repetition");
    const iComment = need(m.comment, "comment");
    const iRater = m.format === "long" ? need(m.rater, "rater") : -1;
    const iDim = m.format === "long" ? need(m.dimension, "dimension") : -1;
    const iScore = m.format === "long" ? need(m.score, "score") : -1;
    const raterCols = m.format === "wide" ? (m.raters ?? []).map((r) => ({ i: need(r.column, "rater"), name: r.name ?? r.column.trim(), column: r.column })) : [];
    if (typeof sheetDim === "string") this.problem({ sheet: t.sheet, row: t.headerRow, column: null, message: sheetDim });
    // A header that lacks a mapped column, or a sheet with no dimension: said once, and its rows not read.
    const unusable = iItem < 0 || iModel < 0 || typeof sheetDim === "string" || raterCols.some((r) => r.i < 0) || (m.format === "long" && (iRater < 0 || iDim < 0 || iScore < 0));
    if (unusable || (m.repetition !== undefined && iRep < 0) || (m.comment !== undefined && iComment < 0)) {
      await t.rows.return(undefined);
      return;
    }
    const dimCache = new Map<string, number | string | typeof SKIP>();
    let lastTurn = performance.now();
    for await (const batch of t.rows) {
      const out: StagedGrade[] = [];
      for (const r of batch) {
        // Checking rows (rewrite rules above all) is synchronous: other requests get a turn every 20 ms.
        if (performance.now() - lastTurn > 20) {
          await yieldToLoop();
          lastTurn = performance.now();
        }
        const c = r.cells;
        if (c.every((v) => v.trim() === "")) continue;
        this.rows++;
        const base = { item: c[iItem], model: c[iModel], repetition: iRep >= 0 ? c[iRep] : undefined, comment: iComment >= 0 ? c[iComment] : undefined };
        if (m.format === "long") {
          const word = (c[iDim] ?? "").trim();
          let dim = dimCache.get(word);
          if (dim === undefined) {
            dim = word ? this.dimensionFor(word) : "the dimension is empty";
            if (dimCache.size < 1000) dimCache.set(word, dim);
          }
          if (dim === SKIP) continue;
          const g = this.grade(index, t.sheet, r.row, { ...base, rater: c[iRater] }, dim, c[iScore] ?? "", {
            item: m.item, model: m.model, repetition: m.repetition, rater: m.rater!, score: m.score!, dimension: m.dimension, comment: m.comment,
          });
          if (g) out.push(g);
        } else {
          for (const rc of raterCols) {
            const raw = c[rc.i] ?? "";
            if (raw.trim() === "") continue; // this rater did not grade this answer
            const g = this.grade(index, t.sheet, r.row, { ...base, rater: rc.name }, sheetDim as number, raw, {
              item: m.item, model: m.model, repetition: m.repetition, rater: rc.column, score: rc.column, comment: m.comment,
            });
            if (g) out.push(g);
          }
        }
      }
      if (out.length) yield out;
    }
  }
}
