/**
 * Preference rows as columns for the worker thread (lib/analytics/pairwise.ts): each text field
 * a table of its distinct values plus an Int32Array of indices, numbers in typed arrays whose
 * buffers are transferred, not copied. Structured-cloning 100,000 row objects copied each of
 * their six strings (a comparison and question id each) and cost about as much as the analysis.
 */
import type { PreferenceChoice, PreferenceObservation } from "@/lib/stats/pairwise";

const TEXT = ["comparison", "question", "axis", "grader", "leftModel", "rightModel"] as const;
type TextField = (typeof TEXT)[number];
const CHOICES: ReadonlyArray<PreferenceChoice> = ["left", "right", "tie"];

export interface PreferenceColumns {
  length: number;
  text: Record<TextField, { values: string[]; index: Int32Array }>;
  /** NaN: not given. */
  leftLength: Float64Array;
  rightLength: Float64Array;
  /** Index into left / right / tie. */
  choice: Uint8Array;
  /** 1 true, 0 false, 2 not given. */
  primary: Uint8Array;
}

export function toColumns(rows: ReadonlyArray<PreferenceObservation>): PreferenceColumns {
  const n = rows.length;
  const text = {} as PreferenceColumns["text"];
  for (const field of TEXT) {
    const ids = new Map<string, number>();
    const index = new Int32Array(n);
    for (let r = 0; r < n; r++) {
      const v = rows[r][field];
      let id = ids.get(v);
      if (id === undefined) ids.set(v, (id = ids.size));
      index[r] = id;
    }
    text[field] = { values: [...ids.keys()], index };
  }
  const leftLength = new Float64Array(n);
  const rightLength = new Float64Array(n);
  const choice = new Uint8Array(n);
  const primary = new Uint8Array(n);
  for (let r = 0; r < n; r++) {
    const row = rows[r];
    leftLength[r] = row.leftLength ?? NaN;
    rightLength[r] = row.rightLength ?? NaN;
    choice[r] = CHOICES.indexOf(row.choice);
    primary[r] = row.primary === undefined ? 2 : row.primary ? 1 : 0;
  }
  return { length: n, text, leftLength, rightLength, choice, primary };
}

/** The buffers to transfer with postMessage. */
export function columnBuffers(columns: PreferenceColumns): ArrayBuffer[] {
  return [...TEXT.map((f) => columns.text[f].index.buffer), columns.leftLength.buffer, columns.rightLength.buffer, columns.choice.buffer, columns.primary.buffer] as ArrayBuffer[];
}

export function fromColumns(columns: PreferenceColumns): PreferenceObservation[] {
  const { text } = columns;
  const rows: PreferenceObservation[] = new Array(columns.length);
  for (let r = 0; r < columns.length; r++) {
    const row: PreferenceObservation = {
      comparison: text.comparison.values[text.comparison.index[r]],
      question: text.question.values[text.question.index[r]],
      axis: text.axis.values[text.axis.index[r]],
      grader: text.grader.values[text.grader.index[r]],
      leftModel: text.leftModel.values[text.leftModel.index[r]],
      rightModel: text.rightModel.values[text.rightModel.index[r]],
      choice: CHOICES[columns.choice[r]],
    };
    if (!Number.isNaN(columns.leftLength[r])) row.leftLength = columns.leftLength[r];
    if (!Number.isNaN(columns.rightLength[r])) row.rightLength = columns.rightLength[r];
    if (columns.primary[r] !== 2) row.primary = columns.primary[r] === 1;
    rows[r] = row;
  }
  return rows;
}
