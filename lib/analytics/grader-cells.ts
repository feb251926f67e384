/**
 * A grader's answers on one response set in a compact form, for the
 * dashboard's one-query read of a whole study. The database packs each Grade
 * row into one integer (`cellCodeSql`), so ten thousand sets come back as a few
 * tens of thousands of small integer arrays instead of half a million objects.
 *
 * The packing follows a layout made from the study's rubric documents: every
 * (rubric, dimension) that holds a value gets an index; a value is its ordinal
 * score, its nominal level's place, or "not applicable". Criteria marks and a
 * draft's comment-only cells are not packed (the dashboard does not read them).
 */
import { Prisma } from "@/lib/generated/prisma/client";
import type { RubricDimension, RubricDocument } from "@/lib/rubrics/document";
import type { CellSource } from "@/lib/scoring/rubric-values";
import type { StoredCell } from "@/lib/scoring/study-values";

/** Values of the packed code: ordinal scores are stored as score + ORDINAL, nominal levels as NOMINAL + their place. */
const ORDINAL = 10_000;
const NOMINAL = 20_000;
const NA = 30_000;
const VALUE_SPAN = 32_768;
/** Repetitions 0..MAX_REPETITION (the study allows at most 20). */
const REPETITIONS = 21;

export interface CellLayout {
  /** "rubric/dimension", in index order. */
  keys: string[];
  dims: { rubric: string; dimension: RubricDimension }[];
  /** "rubric/dimension/level" of every nominal level, for its place (1-based) in the code. */
  nominalLevels: string[];
  /** rubric -> dimension -> index in `dims`, for the row lookups. */
  slots: Map<string, Map<string, number>>;
}

/** The layout of a study's packed cells (the same rubrics always give the same layout). */
export function cellLayout(rubrics: readonly RubricDocument[]): CellLayout {
  const layout: CellLayout = { keys: [], dims: [], nominalLevels: [], slots: new Map() };
  for (const doc of rubrics) {
    const slots = new Map<string, number>();
    layout.slots.set(doc.key, slots);
    for (const d of doc.dimensions) {
      if (d.scale.kind === "criteria") continue;
      slots.set(d.key, layout.dims.length);
      layout.keys.push(`${doc.key}/${d.key}`);
      layout.dims.push({ rubric: doc.key, dimension: d });
      if (d.scale.kind === "nominal") for (const l of d.scale.levels ?? []) layout.nominalLevels.push(`${doc.key}/${d.key}/${l.value}`);
    }
  }
  return layout;
}

/**
 * SQL expression packing a Grade row (alias) into one integer, given the
 * layout's keys and nominal levels as text[] parameters; null for a row the
 * layout does not hold.
 */
export const cellCodeSql = (alias: string, keys: Prisma.Sql, levels: Prisma.Sql) => {
  const g = Prisma.raw(alias);
  return Prisma.sql`
  ((array_position(${keys}, ${g}.rubric || '/' || ${g}.dimension) - 1) * ${Prisma.raw(String(REPETITIONS))} + ${g}.repetition) * ${Prisma.raw(String(VALUE_SPAN))}
  + CASE WHEN ${g}.na THEN ${Prisma.raw(String(NA))}
         WHEN ${g}.category IS NOT NULL THEN ${Prisma.raw(String(NOMINAL))} + coalesce(array_position(${levels}, ${g}.rubric || '/' || ${g}.dimension || '/' || ${g}.category), 0)
         ELSE ${g}.score + ${Prisma.raw(String(ORDINAL))} END`;
};

/** The rows cellCodeSql packs: a value, not a criterion's mark. */
export const packedCellsWhere = (alias: string) => {
  const g = Prisma.raw(alias);
  return Prisma.sql`${g}.criterion = '' AND (${g}.score IS NOT NULL OR ${g}.category IS NOT NULL OR ${g}.na)`;
};

/** Packed codes as the database sends them (int4send, one after another: 4 bytes each, big-endian) back to integers. */
export function codesFromBytes(bytes: Uint8Array): Int32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Int32Array(bytes.byteLength >> 2);
  for (let i = 0; i < out.length; i++) out[i] = view.getInt32(i * 4);
  return out;
}

/** The same packing in TypeScript (tests build packed rows with it). */
export function encodeCell(layout: CellLayout, c: StoredCell): number {
  const index = layout.keys.indexOf(`${c.rubric}/${c.dimension}`);
  const value = c.na ? NA : c.category != null ? NOMINAL + layout.nominalLevels.indexOf(`${c.rubric}/${c.dimension}/${c.category}`) + 1 : c.score! + ORDINAL;
  return (index * REPETITIONS + c.repetition) * VALUE_SPAN + value;
}

/** A grader's packed codes back to their cells. */
export function decodeCells(layout: CellLayout, codes: ArrayLike<number>): StoredCell[] {
  const out: StoredCell[] = [];
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i];
    const value = c % VALUE_SPAN;
    const slot = Math.floor(c / VALUE_SPAN);
    const dim = layout.dims[Math.floor(slot / REPETITIONS)];
    if (!dim) continue;
    const repetition = slot % REPETITIONS;
    if (value >= NA) out.push({ rubric: dim.rubric, dimension: dim.dimension.key, repetition, score: null, na: true });
    else if (value >= NOMINAL) {
      const level = layout.nominalLevels[value - NOMINAL - 1];
      out.push({ rubric: dim.rubric, dimension: dim.dimension.key, repetition, score: null, category: level ? level.slice(level.lastIndexOf("/") + 1) : null });
    } else out.push({ rubric: dim.rubric, dimension: dim.dimension.key, repetition, score: value - ORDINAL });
  }
  return out;
}

/**
 * A grader's packed codes as one slot per (dimension, repetition) of the layout
 * holding the code's value part (MISSING where nothing is stored): what the
 * dashboard scores, thirty thousand of them, without a cell object or a map each.
 * Equal to decodeCells read through indexCells (property-tested).
 */
export interface GraderRow {
  layout: CellLayout;
  /** Shared by the rows decoded together (decodeRows): one allocation, not one per grader. Value part + 1; 0 = nothing stored. */
  slots: Int32Array;
  /** Where this row's slots start in `slots`. */
  base: number;
  /** Slots per dimension: repetitions 0..stride-1 (the highest stored in any row of the buffer). */
  stride: number;
}

export function decodeRow(layout: CellLayout, codes: ArrayLike<number>): GraderRow {
  return decodeRows(layout, [codes])[0];
}

/** Several graders' rows in one buffer, as wide as their highest repetition needs (4 slots per dimension at N = 3, not 21). */
export function decodeRows(layout: CellLayout, codes: readonly ArrayLike<number>[]): GraderRow[] {
  let stride = 1;
  for (const row of codes) for (let i = 0; i < row.length; i++) stride = Math.max(stride, (Math.floor(row[i] / VALUE_SPAN) % REPETITIONS) + 1);
  const dims = layout.dims.length;
  const width = dims * stride;
  const slots = new Int32Array(width * codes.length);
  return codes.map((row, k) => {
    const base = k * width;
    for (let i = 0; i < row.length; i++) {
      const c = row[i];
      const slot = Math.floor(c / VALUE_SPAN);
      const dim = Math.floor(slot / REPETITIONS);
      if (dim < dims) slots[base + dim * stride + (slot % REPETITIONS)] = (c % VALUE_SPAN) + 1;
    }
    return { layout, slots, base, stride };
  });
}

/** A dimension's index in the layout (for scoreAtSlot), or -1 if the layout does not hold it. */
export function slotIndex(layout: CellLayout, rubric: string, dimension: string): number {
  return layout.slots.get(rubric)?.get(dimension) ?? -1;
}

/** The value part stored at (dimension index, repetition), or MISSING. */
function valueAt(row: GraderRow, dim: number, repetition: number): number {
  if (dim < 0 || repetition < 0 || repetition >= row.stride) return MISSING;
  return row.slots[row.base + dim * row.stride + repetition] - 1;
}
const MISSING = -1;

/** A row's ordinal score at a slotIndex and repetition (null: missing, N/A, nominal): the agreement matrices' hot read. */
export function scoreAtSlot(row: GraderRow, dim: number, repetition: number): number | null {
  const v = valueAt(row, dim, repetition);
  return v === MISSING || v >= NOMINAL ? null : v - ORDINAL;
}

/** The level's value as decodeCells gives it (the text after the last "/"). */
function levelAt(layout: CellLayout, value: number): string | undefined {
  const level = layout.nominalLevels[value - NOMINAL - 1];
  return level === undefined ? undefined : level.slice(level.lastIndexOf("/") + 1);
}

/** The slot's value part, or MISSING (a dimension the layout does not hold, a repetition not stored). */
function slotValue(row: GraderRow, rubric: string, dimension: string, repetition: number): number {
  return valueAt(row, slotIndex(row.layout, rubric, dimension), repetition);
}

/** One rubric of a row as lib/scoring/rubric-values reads a grader's cells. */
export function rowSource(row: GraderRow, rubric: string): CellSource {
  const dims = row.layout.slots.get(rubric);
  const { layout } = row;
  return (dimension, repetition) => {
    const v = valueAt(row, dims?.get(dimension) ?? -1, repetition);
    if (v === MISSING) return undefined;
    if (v >= NA) return "N/A";
    if (v >= NOMINAL) return levelAt(layout, v);
    return v - ORDINAL;
  };
}

/** A row's ordinal score (null: missing, N/A, nominal), as scoreAt on decodeCells. */
export function rowScore(row: GraderRow, rubric: string, dimension: string, repetition: number): number | null {
  const v = slotValue(row, rubric, dimension, repetition);
  return v === MISSING || v >= NOMINAL ? null : v - ORDINAL;
}

/** A row's nominal value (null: missing, N/A, ordinal, unknown level), as decodeCells' category. */
export function rowCategory(row: GraderRow, rubric: string, dimension: string, repetition: number): string | null {
  const v = slotValue(row, rubric, dimension, repetition);
  return v >= NOMINAL && v < NA ? (levelAt(row.layout, v) ?? null) : null;
}

/** The numeric score of a cell (ordinal), or null (missing, N/A, nominal). */
export function scoreAt(cells: readonly StoredCell[], rubric: string, dimension: string, repetition: number): number | null {
  for (const c of cells) if (c.rubric === rubric && c.dimension === dimension && c.repetition === repetition) return c.na ? null : c.score;
  return null;
}
