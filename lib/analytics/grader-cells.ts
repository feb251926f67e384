/**
 * A grader's scores on one response set in a compact form, for the dashboard's
 * one-query read of a whole study. The database packs each Grade row into one
 * integer (`dimension index * 10000 + repetition * 100 + score`, see
 * `cellCodeSql`), so ten thousand sets come back as a few tens of thousands of
 * small integer arrays instead of half a million objects.
 *
 * `denseGraderValues` and `denseOverallValues` are the array versions of
 * `graderDimensionValues` and `safeLlmOverallValues` (lib/scoring/grader-values.ts),
 * with the same arithmetic in the same order, so the results are identical to
 * the last bit (tests/unit/analytics/grader-cells.test.ts checks this on random forms).
 */
import { RUBRICS, type DimensionKey, type RubricKey } from "@/lib/rubrics/definitions";
import type { DimensionValues, ScoreCell } from "@/lib/scoring/grader-values";

/** Dimension index used in the packed code: S.C.O.R.E. first, then SAFE-LLM, in rubric order. */
export const DIMENSION_ORDER: readonly DimensionKey[] = [...RUBRICS.SCORE.dimensions, ...RUBRICS.SAFE_LLM.dimensions].map((d) => d.key);
const INDEX = new Map<DimensionKey, number>(DIMENSION_ORDER.map((d, i) => [d, i]));
const ACCURACY = INDEX.get("accuracy")!;

/**
 * SQL expression packing a Grade row into one integer. The dimension list is a literal enum array
 * (constant identifiers from the rubric definitions, so nothing to inject), which PostgreSQL folds
 * once at plan time: each row then compares enum values, with no per-row cast.
 */
export const cellCodeSql = (alias: string) =>
  `(array_position('{${DIMENSION_ORDER.join(",")}}'::"Dimension"[], ${alias}.dimension) - 1) * 10000 + ${alias}.repetition * 100 + ${alias}.score`;

export function encodeCell(c: Pick<ScoreCell, "dimension" | "repetition" | "score">): number {
  return INDEX.get(c.dimension)! * 10000 + c.repetition * 100 + c.score;
}

/**
 * Unpacks a grader's codes into a table: `table[d * (n + 1) + r]` = the score of
 * dimension index d at repetition r (0..n), or -1 when missing. Repetitions
 * beyond n are ignored, as the scoring functions ignore them.
 */
export function decodeCells(codes: ArrayLike<number>, n: number): Int8Array {
  const stride = n + 1;
  const table = new Int8Array(DIMENSION_ORDER.length * stride).fill(-1);
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i];
    const d = Math.floor(c / 10000);
    const r = Math.floor(c / 100) % 100;
    if (d < 0 || d >= DIMENSION_ORDER.length || r > n) continue;
    table[d * stride + r] = c % 100;
  }
  return table;
}

/** The score at (dimension, repetition), or undefined when missing. */
export function scoreAt(table: Int8Array, n: number, dimension: DimensionKey, repetition: number): number | undefined {
  const v = table[INDEX.get(dimension)! * (n + 1) + repetition];
  return v < 0 ? undefined : v;
}

function consistencyOf(table: Int8Array, n: number): 0 | 1 | null {
  if (n === 0) return null;
  const base = ACCURACY * (n + 1);
  const first = table[base + 1];
  if (first < 0) return null;
  let same = true;
  for (let r = 1; r <= n; r++) {
    const v = table[base + r];
    if (v < 0) return null;
    if (v !== first) same = false;
  }
  return same ? 1 : 0;
}

/** Same as `graderDimensionValues(rubric, cells, n)`. */
export function denseGraderValues(rubric: RubricKey, table: Int8Array, n: number): DimensionValues {
  const out: DimensionValues = {};
  const stride = n + 1;
  for (const d of RUBRICS[rubric].dimensions) {
    const base = INDEX.get(d.key)! * stride;
    if (rubric === "SAFE_LLM" && d.key === "consistency") {
      const c = consistencyOf(table, n);
      if (c !== null) out.consistency = c;
      continue;
    }
    if (d.scope === "each_answer") {
      // graderDimensionValues: xs.reduce((a, b) => a + b, 0) / xs.length, in repetition order
      let sum = 0;
      let complete = true;
      for (let r = 1; r <= n; r++) {
        const v = table[base + r];
        if (v < 0) {
          complete = false;
          break;
        }
        sum += v;
      }
      if (complete) out[d.key] = sum / n;
    } else {
      const v = table[base + (d.scope === "set" ? 0 : 1)];
      if (v >= 0) out[d.key] = v;
    }
  }
  return out;
}

/** Same as `safeLlmOverallValues(cells, n)`: best accuracy and comprehensiveness, any supplementation, derived consistency, mean fluency. */
export function denseOverallValues(table: Int8Array, n: number): DimensionValues {
  const out: DimensionValues = {};
  const stride = n + 1;
  // max over the N answers (-Infinity for N = 0, as Math.max()), or undefined when one is missing
  const best = (k: DimensionKey): number | undefined => {
    const base = INDEX.get(k)! * stride;
    let m = -Infinity;
    for (let r = 1; r <= n; r++) {
      const v = table[base + r];
      if (v < 0) return undefined;
      if (v > m) m = v;
    }
    return m;
  };
  const acc = best("accuracy");
  const comp = best("comprehensiveness");
  const supp = best("supplementation");
  if (acc !== undefined) out.accuracy = acc;
  if (comp !== undefined) out.comprehensiveness = comp;
  if (supp !== undefined) out.supplementation = supp >= 1 ? 1 : 0;
  const c = consistencyOf(table, n);
  if (c !== null) out.consistency = c;
  const fb = INDEX.get("fluency")! * stride;
  let sum = 0;
  let complete = true;
  for (let r = 1; r <= n; r++) {
    const v = table[fb + r];
    if (v < 0) {
      complete = false;
      break;
    }
    sum += v;
  }
  if (complete) out.fluency = sum / n;
  return out;
}
