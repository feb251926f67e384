/**
 * Shared types for `lib/stats`.
 *
 * Conventions used by every statistic in this folder:
 * - A rating matrix has one row per unit (subject, response, target) and one
 *   column per rater or rubric item. `null`, `undefined` or a non-finite number
 *   is a missing rating. Ragged rows are padded with missing ratings.
 * - Degenerate input never throws and never yields NaN: the headline value is
 *   `null` and `reason` says why, so a page can show "n/a (reason)" instead of
 *   breaking.
 */

/** One rating: a number, or `null`/`undefined` when missing. */
export type Rating = number | null | undefined;

/** Rows = units/subjects, columns = raters or rubric items. */
export type RatingMatrix = ReadonlyArray<ReadonlyArray<Rating>>;

/** A closed interval `[low, high]`. */
export type Interval = [number, number];

/** Fields every result carries when its value could not be computed. */
export interface Degenerate {
  /** Why the value is `null` (absent when the value was computed). */
  reason?: string;
}
