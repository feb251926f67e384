/**
 * Small helpers shared by the statistics modules (not part of the public API).
 */
import type { Rating, RatingMatrix } from "./types";

/** A rating is present when it is a finite number; null/undefined/NaN/±Infinity are missing. */
export function isPresent(v: Rating): v is number {
  return typeof v === "number" && Number.isFinite(v);
}

/** Number of columns of a possibly ragged matrix (the longest row). */
export function columnCount(rows: ReadonlyArray<ReadonlyArray<unknown>>): number {
  let k = 0;
  for (const row of rows) if (row.length > k) k = row.length;
  return k;
}

/**
 * Copy a matrix into a rectangular `(number | null)[][]` of `k` columns, turning every
 * missing rating into `null`.
 */
export function normalise(rows: RatingMatrix): { data: (number | null)[][]; n: number; k: number } {
  const k = columnCount(rows);
  const data = rows.map((row) => {
    const out: (number | null)[] = new Array(k);
    for (let j = 0; j < k; j++) {
      const v = row[j];
      out[j] = isPresent(v) ? v : null;
    }
    return out;
  });
  return { data, n: data.length, k };
}

/** Sorted distinct present values of a matrix. */
export function observedValues(data: ReadonlyArray<ReadonlyArray<number | null>>): number[] {
  const set = new Set<number>();
  for (const row of data) for (const v of row) if (v !== null) set.add(v);
  return [...set].sort((a, b) => a - b);
}

/**
 * The category list for an agreement coefficient: the declared `categories` (deduplicated,
 * sorted ascending, as irrCAC's `Weights` sorts numeric categories) or, when none are
 * declared, the values observed. Returns a `reason` when a present rating is not a declared
 * category: irrCAC would silently drop it, which hides data-entry errors, so we refuse.
 */
export function resolveCategories(
  data: ReadonlyArray<ReadonlyArray<number | null>>,
  categories: ReadonlyArray<number> | undefined,
): { categories: number[]; reason?: string } {
  const observed = observedValues(data);
  if (categories === undefined) return { categories: observed };
  const declared = [...new Set(categories.filter((c) => Number.isFinite(c)))].sort((a, b) => a - b);
  const known = new Set(declared);
  const stray = observed.filter((v) => !known.has(v));
  if (stray.length > 0) {
    return {
      categories: declared,
      reason: `rating value(s) ${stray.slice(0, 5).join(", ")} not among the declared categories`,
    };
  }
  return { categories: declared };
}

/** Validate a confidence level; returns a reason when it is not in (0, 1). */
export function levelReason(level: number): string | undefined {
  if (!(Number.isFinite(level) && level > 0 && level < 1)) {
    return `confidence level must be strictly between 0 and 1 (got ${String(level)})`;
  }
  return undefined;
}

/** True when every argument is a finite number. */
export function allFinite(...xs: number[]): boolean {
  for (const x of xs) if (!Number.isFinite(x)) return false;
  return true;
}

/**
 * How many units each row of a matrix stands for. A rating matrix of a large study repeats a
 * few patterns (three graders on a 1-5 scale make at most 216), so the statistics that depend
 * only on the multiset of rows take the distinct rows and their counts (`ratingPatterns`);
 * without counts every row is one unit, and the arithmetic is exactly the unweighted one.
 */
export interface UnitCounts {
  /** Units per row, aligned with the matrix's rows (positive integers). */
  counts?: ReadonlyArray<number>;
}

/** A row of up to four small integer ratings (a rating scale's) as one number, without building a string; null otherwise. */
function numericKey(row: ReadonlyArray<number | null>): number | null {
  if (row.length > 4) return null;
  let key = row.length;
  for (const v of row) {
    const code = v === null ? 0 : v + 1001;
    if (!Number.isInteger(code) || code < 0 || code > 2047) return null;
    key = key * 2048 + code;
  }
  return key;
}

/** The distinct rows of a numeric matrix (null = missing) and how many times each occurs, in order of first occurrence. */
export function ratingPatterns(rows: ReadonlyArray<ReadonlyArray<number | null>>): { rows: (number | null)[][]; counts: number[] } {
  const byKey = new Map<string | number, number>();
  const out: (number | null)[][] = [];
  const counts: number[] = [];
  for (const row of rows) {
    const key = numericKey(row) ?? row.join(",");
    const at = byKey.get(key);
    if (at === undefined) {
      byKey.set(key, out.length);
      out.push([...row]);
      counts.push(1);
    } else counts[at]++;
  }
  return { rows: out, counts };
}

/**
 * Classification counts r_ik (Gwet's notation): for each unit with at least one rating, how many
 * raters put it in category k. Units without any rating are dropped, as irrCAC does
 * (`ratings.dropna(how="all")`). `ri` is the number of ratings of each kept unit.
 */
export function classificationCounts(
  data: ReadonlyArray<ReadonlyArray<number | null>>,
  categories: ReadonlyArray<number>,
  counts?: ReadonlyArray<number>,
): { r: number[][]; ri: number[]; w: number[] } {
  const index = new Map<number, number>();
  categories.forEach((c, i) => index.set(c, i));
  const r: number[][] = [];
  const ri: number[] = [];
  const w: number[] = [];
  data.forEach((row, u) => {
    const tally = new Array<number>(categories.length).fill(0);
    let m = 0;
    for (const v of row) {
      if (v === null) continue;
      const i = index.get(v);
      if (i === undefined) continue; // callers reject undeclared values beforehand
      tally[i]++;
      m++;
    }
    if (m > 0) {
      r.push(tally);
      ri.push(m);
      w.push(counts ? counts[u] : 1);
    }
  });
  return { r, ri, w };
}

export type WeightScheme = "identity" | "linear" | "quadratic";

/**
 * Agreement weights on category values, as irrCAC's `Weights` class builds them (categories
 * sorted ascending): identity; linear 1 - |x_k - x_l| / (max - min); quadratic
 * 1 - (x_k - x_l)^2 / (max - min)^2. Needs at least two categories for the non-identity schemes.
 */
export function weightMatrix(values: ReadonlyArray<number>, scheme: WeightScheme): number[][] {
  const q = values.length;
  const range = q > 0 ? values[q - 1] - values[0] : 0;
  const w: number[][] = [];
  for (let k = 0; k < q; k++) {
    const row = new Array<number>(q);
    for (let l = 0; l < q; l++) {
      if (scheme === "identity" || k === l) row[l] = k === l ? 1 : 0;
      else if (scheme === "linear") row[l] = 1 - Math.abs(values[k] - values[l]) / range;
      else row[l] = 1 - ((values[k] - values[l]) / range) ** 2;
    }
    w.push(row);
  }
  return w;
}
