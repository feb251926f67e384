import type { Degenerate } from "./types";

/**
 * A judge's labels against a reference's (the panel's): the confusion matrix
 * and macro-averaged F1 (the mean over the classes of each class's F1; paper
 * 002's primary metric for categorical judgments). Pairs with a missing label
 * are left out. A class that is never predicted nor true is not averaged; a
 * class with no true and no predicted member is absent from the average, as
 * scikit-learn does with the labels given as those observed.
 */
export interface ConfusionMatrix<L extends string | number = string | number> {
  /** The classes, in the order given (then any label seen that was not given). */
  labels: L[];
  /** counts[i][j]: reference labels[i], judged labels[j]. */
  counts: number[][];
  n: number;
}

export interface ClassificationResult<L extends string | number = string | number> extends Degenerate {
  matrix: ConfusionMatrix<L>;
  /** Share of pairs where the labels agree. */
  accuracy: number | null;
  /** Per class: precision, recall and F1 (0 when undefined, as scikit-learn's zero_division=0). */
  perClass: { label: L; precision: number; recall: number; f1: number; support: number }[];
  macroF1: number | null;
  n: number;
}

type Label = string | number | null | undefined;

export function confusionMatrix<L extends string | number>(reference: ReadonlyArray<L | null | undefined>, judged: ReadonlyArray<L | null | undefined>, labels: ReadonlyArray<L> = []): ConfusionMatrix<L> {
  const all: L[] = [...labels];
  const index = new Map<L, number>(all.map((l, i) => [l, i]));
  const pairs: [L, L][] = [];
  const n = Math.min(reference.length, judged.length);
  for (let i = 0; i < n; i++) {
    const r = reference[i];
    const j = judged[i];
    if (r === null || r === undefined || j === null || j === undefined || (typeof r === "number" && !Number.isFinite(r)) || (typeof j === "number" && !Number.isFinite(j))) continue;
    for (const l of [r, j]) if (!index.has(l)) index.set(l, all.push(l) - 1);
    pairs.push([r, j]);
  }
  const counts = all.map(() => all.map(() => 0));
  for (const [r, j] of pairs) counts[index.get(r)!][index.get(j)!]++;
  return { labels: all, counts, n: pairs.length };
}

/** Confusion matrix, accuracy and macro F1 over the classes present in the reference or the judge's labels. */
export function classification<L extends string | number>(reference: ReadonlyArray<L | null | undefined>, judged: ReadonlyArray<L | null | undefined>, labels: ReadonlyArray<L> = []): ClassificationResult<L> {
  const matrix = confusionMatrix(reference, judged, labels);
  const { counts, n } = matrix;
  if (reference.length !== judged.length) return { matrix, accuracy: null, perClass: [], macroF1: null, n: 0, reason: `reference and judged must be paired (lengths ${reference.length} and ${judged.length})` };
  if (n === 0) return { matrix, accuracy: null, perClass: [], macroF1: null, n, reason: "no unit has both labels" };
  const q = matrix.labels.length;
  let agree = 0;
  const perClass: ClassificationResult<L>["perClass"] = [];
  for (let c = 0; c < q; c++) {
    agree += counts[c][c];
    const tp = counts[c][c];
    const support = counts[c].reduce((s, x) => s + x, 0);
    const predicted = counts.reduce((s, row) => s + row[c], 0);
    if (support === 0 && predicted === 0) continue;
    const precision = predicted ? tp / predicted : 0;
    const recall = support ? tp / support : 0;
    const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
    perClass.push({ label: matrix.labels[c], precision, recall, f1, support });
  }
  const macroF1 = perClass.reduce((s, x) => s + x.f1, 0) / perClass.length;
  return { matrix, accuracy: agree / n, perClass, macroF1, n };
}

export type { Label as ClassLabel };
