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
  get(value: string, sheet: string | null, row: number, column: string): number {
    let i = this.index.get(value);
    if (i === undefined) {
      const own = detach(value);
      this.values.push(own);
      this.firstSeen.push({ sheet, row, column });
      i = this.values.length;
      this.index.set(own, i);
    }
    return i;
  }
}

function blankRow(cells: readonly string[]): boolean {
  for (const v of cells) if (v.trim() !== "") return false;
  return true;
}

/** The cells of one grade, as the rows below name them. */
interface GradeCells {
  item: string | undefined;
  model: string | undefined;
  repetition: string | undefined;
  rater: string | undefined;
  comment: string | undefined;
}

/** The columns those cells came from, for problems. */
interface GradeColumns {
  item: string;
  model: string;
  repetition?: string;
  rater: string;
  score: string;
  dimension?: string;
  comment?: string;
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
  /** Per dimension, its levels' values (ordinal) for a lookup without a closure per row. */
  private readonly levelValues: Set<number>[];
  /**
   * Where the row being read is, and the value its score cell holds once
   * checked: kept here rather than in objects made for every row, which a
   * million-row file turned into garbage faster than the import's thread
   * could collect it young (bench/README.md, "grade import").
   */
  private atSheet: string | null = null;
  private atRow = 0;
  private score: number | null = null;
  private category: string | null = null;
  private na = false;

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
    this.levelValues = this.dims.map((d) => new Set((d.dimension.scale.levels ?? []).map((x) => x.value).filter((v): v is number => typeof v === "number")));
  }

  /** A problem's place: the row being read, in `column`. */
  private at(column: string): { sheet: string | null; row: number; column: string } {
    return { sheet: this.atSheet, row: this.atRow, column };
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

  private text(value: string | undefined, what: string, column: string, max = MAX_ID): string | null {
    const v = (value ?? "").trim();
    if (!v) {
      this.problem({ ...this.at(column), message: `${what} is empty` });
      return null;
    }
    if (v.length > max) {
      this.problem({ ...this.at(column), message: `${what} is longer than ${max} characters` });
      return null;
    }
    const bad = textProblem(v, "line");
    if (bad) {
      this.problem({ ...this.at(column), message: `${what}: ${bad}` });
      return null;
    }
    return v;
  }

  private repetitionOf(d: ImportDimension, raw: string | undefined, column: string): number | null {
    if (d.dimension.scope === "set") return 0;
    if (d.dimension.scope === "first_answer") return 1;
    const v = (raw ?? "").trim();
    if (!v) {
      if (this.repetitions === 1) return 1;
      this.problem({ ...this.at(column), message: `${d.name} is graded on each of the ${this.repetitions} answers: the repetition (1-${this.repetitions}) is needed` });
      return null;
    }
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1 || n > this.repetitions) {
      this.problem({ ...this.at(column), message: `repetition "${v}" is not within 1-${this.repetitions}` });
      return null;
    }
    return n;
  }

  /** Reads the score cell into score / category / na; false after recording its problem. */
  private value(dim: number, raw: string, column: string): boolean {
    const d = this.dims[dim - 1];
    const v = raw.trim();
    const scale = d.dimension.scale;
    this.score = null;
    this.category = null;
    this.na = false;
    if (scale.allowNA && /^(n\/?a|not applicable)$/i.test(v)) {
      this.na = true;
      return true;
    }
    const levels = scale.levels ?? [];
    if (scale.kind === "nominal") {
      const l = levels.find((x) => String(x.value).toLowerCase() === v.toLowerCase() || x.label.toLowerCase() === v.toLowerCase());
      if (l) {
        this.category = String(l.value);
        return true;
      }
    } else {
      const n = Number(v);
      if (v !== "" && Number.isInteger(n) && this.levelValues[dim - 1].has(n)) {
        this.score = n;
        return true;
      }
    }
    const shown = v.length > 40 ? `${v.slice(0, 40)}…` : v;
    this.problem({ ...this.at(column), message: `"${shown}" is not a level of ${d.name} (${levels.map((x) => x.value).join(", ")})` });
    return false;
  }

  /** One grade of the file, or null after recording its problems. `cells` and `columns` are not kept. */
  grade(sheetIndex: number, sheet: string | null, row: number, cells: GradeCells, dim: number | string, rawScore: string, columns: GradeColumns): StagedGrade | null {
    this.atSheet = sheet;
    this.atRow = row;
    const before = this.totalProblems;
    let itemId = this.text(cells.item, "the item id", columns.item);
    if (itemId !== null && this.mapping.itemRewrites.length) {
      const rewritten = this.rewrites.rewrite(itemId, sheet);
      if (rewritten === null) this.problem({ ...this.at(columns.item), message: `the item id "${itemId}" is rewritten to a value that is not an integer, so "add" cannot apply` });
      itemId = rewritten;
    }
    const model = this.text(cells.model, "the model", columns.model);
    const rater = this.text(cells.rater, "the rater", columns.rater, 100);
    if (typeof dim === "string") this.problem({ ...this.at(columns.dimension ?? columns.score), message: dim });
    const d = typeof dim === "number" ? this.dims[dim - 1] : null;
    const repetition = d ? this.repetitionOf(d, cells.repetition, columns.repetition ?? columns.score) : null;
    const valued = d ? this.value(dim as number, rawScore, columns.score) : false;
    let comment: string | null = null;
    if (cells.comment && cells.comment.trim()) {
      const c = cells.comment.trim();
      const bad = textProblem(c, "multiline");
      if (bad || c.length > 5000) this.problem({ ...this.at(columns.comment ?? ""), message: `the comment: ${bad ?? "longer than 5,000 characters"}` });
      else comment = c;
    }
    if (this.totalProblems > before || itemId === null || model === null || rater === null || repetition === null || !valued || d === null) return null;
    const item = this.items.get(itemId, sheet, row, columns.item);
    const m = this.models.get(model, sheet, row, columns.model);
    const r = this.raters.get(rater, sheet, row, columns.rater);
    return { sheet: sheetIndex, row, item, model: m, rater: r, dim: dim as number, repetition, score: this.score, category: this.category, na: this.na, comment };
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
    // Made once per table and refilled for each row (grade() keeps neither).
    const cells: GradeCells = { item: undefined, model: undefined, repetition: undefined, rater: undefined, comment: undefined };
    const longColumns: GradeColumns = { item: m.item, model: m.model, repetition: m.repetition, rater: m.rater ?? "", score: m.score ?? "", dimension: m.dimension, comment: m.comment };
    const wideColumns = raterCols.map((rc): GradeColumns => ({ item: m.item, model: m.model, repetition: m.repetition, rater: rc.column, score: rc.column, comment: m.comment }));
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
        if (blankRow(c)) continue;
        this.rows++;
        cells.item = c[iItem];
        cells.model = c[iModel];
        cells.repetition = iRep >= 0 ? c[iRep] : undefined;
        cells.comment = iComment >= 0 ? c[iComment] : undefined;
        if (m.format === "long") {
          const word = (c[iDim] ?? "").trim();
          let dim = dimCache.get(word);
          if (dim === undefined) {
            dim = word ? this.dimensionFor(word) : "the dimension is empty";
            if (dimCache.size < 1000) dimCache.set(word, dim);
          }
          if (dim === SKIP) continue;
          cells.rater = c[iRater];
          const g = this.grade(index, t.sheet, r.row, cells, dim, c[iScore] ?? "", longColumns);
          if (g) out.push(g);
        } else {
          for (let k = 0; k < raterCols.length; k++) {
            const rc = raterCols[k];
            const raw = c[rc.i] ?? "";
            if (raw.trim() === "") continue; // this rater did not grade this answer
            cells.rater = rc.name;
            const g = this.grade(index, t.sheet, r.row, cells, sheetDim as number, raw, wideColumns[k]);
            if (g) out.push(g);
          }
        }
      }
      if (out.length) yield out;
    }
  }
}
