/**
 * Nominal ratings may be labels ("a", "yes", "partly") as well as numbers: a rubric's nominal
 * scale stores string level values. The nominal coefficients (Cohen's unweighted kappa, Fleiss'
 * kappa, Gwet's AC1, Krippendorff's alpha nominal) encode labels as integer codes here and then
 * run their numeric code, for which only equality of codes matters.
 *
 * A label is compared as text: the number 2 and the string "2" are the same category (a
 * spreadsheet column often mixes both). An empty or blank string is a missing rating.
 */
import type { Rating } from "./types";
import { isPresent } from "./internal";

/** A category label: a number or a string. */
export type Category = string | number;
/** One nominal rating: a label, or null/undefined/blank when missing. */
export type NominalRating = Category | null | undefined;
/** Rows = units, columns = raters; labels or numbers. */
export type NominalMatrix = ReadonlyArray<ReadonlyArray<NominalRating>>;

function labelOf(v: NominalRating): string | null {
  if (typeof v === "string") return v.trim() === "" ? null : v;
  return isPresent(v as Rating) ? String(v) : null;
}

/** True when some present rating (or declared category) is a string. */
function hasStrings(rows: NominalMatrix, categories?: ReadonlyArray<Category>): boolean {
  if (categories?.some((c) => typeof c === "string")) return true;
  for (const row of rows) for (const v of row) if (typeof v === "string" && v.trim() !== "") return true;
  return false;
}

export interface EncodedNominal {
  /** Ratings as integer codes (null = missing); numbers unchanged when no label is a string. */
  rows: (number | null)[][];
  /** Declared categories as codes (undefined when none were declared). */
  categories?: number[];
  /** The label of each code, in code order (empty when the input was numeric). */
  labels: string[];
  reason?: string;
}

/**
 * Encode string labels as codes 0..q-1: declared categories in their declared order, else the
 * labels observed in sorted order. Purely numeric input is passed through untouched, so numeric
 * results stay bit-for-bit what they were. A label outside the declared categories is refused
 * (as `resolveCategories` refuses a stray number).
 */
export function encodeNominal(rows: NominalMatrix, categories?: ReadonlyArray<Category>): EncodedNominal {
  if (!hasStrings(rows, categories)) {
    return {
      rows: rows.map((row) => row.map((v) => (isPresent(v as Rating) ? (v as number) : null))),
      categories: categories as number[] | undefined,
      labels: [],
    };
  }
  const code = new Map<string, number>();
  let labels: string[];
  if (categories !== undefined) {
    labels = [...new Set(categories.map((c) => labelOf(c)).filter((c): c is string => c !== null))];
  } else {
    const seen = new Set<string>();
    for (const row of rows) for (const v of row) {
      const l = labelOf(v);
      if (l !== null) seen.add(l);
    }
    labels = [...seen].sort();
  }
  labels.forEach((l, i) => code.set(l, i));
  const stray = new Set<string>();
  const encoded = rows.map((row) =>
    row.map((v) => {
      const l = labelOf(v);
      if (l === null) return null;
      const c = code.get(l);
      if (c === undefined) {
        stray.add(l);
        return null;
      }
      return c;
    }),
  );
  const result: EncodedNominal = {
    rows: encoded,
    categories: categories !== undefined ? labels.map((_, i) => i) : undefined,
    labels,
  };
  if (stray.size > 0) {
    const shown = [...stray].slice(0, 5).map((s) => JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s));
    result.reason = `rating label(s) ${shown.join(", ")} not among the declared categories`;
  }
  return result;
}

/** True when a matrix or category list holds a string label (weighted statistics refuse them). */
export function holdsLabels(rows: NominalMatrix, categories?: ReadonlyArray<Category>): boolean {
  return hasStrings(rows, categories);
}
