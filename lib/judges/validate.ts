import type { RubricDimension, RubricDocument } from "@/lib/rubrics/document";
import { scaleRange } from "@/lib/rubrics/study-rubrics";
import {
  expectedScore,
  mostProbableLevel,
  modalSample,
  probabilityConfidence,
  sampleConfidence,
  sampleMean,
  type LevelProbability,
} from "@/lib/stats/judge-readings";
import { textProblem } from "@/lib/validation/text";

/**
 * Checks a judge's rows against the study's rubric documents and turns each
 * into the judgment to store, with both readings and the confidence. Pure:
 * the caller gives the study's answers; every problem is named with its row
 * and column, and a file with any problem writes nothing.
 */

/** Probabilities may miss 1 by this much (rounding in the judge's output); they are then divided by their sum. Beyond it the row is refused. */
export const PROBABILITY_TOLERANCE = 1e-6;
export const MAX_RATIONALE_CHARS = 20_000;
export const MAX_SAMPLES = 100;
/** The values a row may give for "not applicable". */
export const NA_VALUES = new Set(["NA", "N/A", "na", "n/a"]);

/** One judgment as a caller gives it: the CSV row, the JSON element, or the runner's parsed reply. */
export interface JudgeRowInput {
  /** The lead's item id (QaItem.externalId). */
  itemId: string;
  /** The model's name in the study. */
  model: string;
  /** 1..N for answer dimensions; 0 or null for whole-set dimensions. */
  repetition: number | null;
  /** Needed only when the dimension's key is in more than one of the study's rubrics. */
  rubric?: string | null;
  dimension: string;
  /** The level's value (integer for ordinal, the key for nominal) or "NA"; optional when probabilities or samples say it. */
  score?: number | string | null;
  /** Probability per level, keyed by the level's value. */
  probabilities?: Record<string, number> | null;
  /** Several samples of the same judgment (values of levels), when there are no probabilities. */
  samples?: ReadonlyArray<number | string> | null;
  /** The judge's own confidence, 0-1; used as given instead of the computed one. */
  confidence?: number | null;
  rationale?: string | null;
}

export interface JudgeRowProblem {
  /** 1-based row (the first under a CSV header is 1); 0 for the request as a whole. */
  row: number;
  column: string | null;
  message: string;
}

/** What is stored: one JudgeScore row. */
export interface Judgment {
  responseSetId: string;
  rubric: string;
  dimension: string;
  repetition: number;
  score: number | null;
  category: string | null;
  na: boolean;
  probabilities: Record<string, number> | null;
  expectedScore: number | null;
  samples: (number | string)[] | null;
  confidence: number | null;
  rationale: string | null;
}

export interface StudyAnswers {
  repetitions: number;
  rubrics: readonly RubricDocument[];
  /** `${itemExternalId}\u0000${modelName}` -> response set id. */
  sets: ReadonlyMap<string, string>;
  items: ReadonlySet<string>;
  models: ReadonlySet<string>;
}

export const setKey = (itemId: string, model: string) => `${itemId}\u0000${model}`;

export interface ValidatedRows {
  judgments: Judgment[];
  problems: JudgeRowProblem[];
  /** Rows whose probabilities were within the tolerance of 1 and were divided by their sum. */
  renormalised: number;
}

function dimensionOf(rubrics: readonly RubricDocument[], rubric: string | null | undefined, key: string): { doc: RubricDocument; d: RubricDimension } | string {
  if (rubric) {
    const doc = rubrics.find((r) => r.key === rubric);
    if (!doc) return `no rubric "${rubric}" in this study (rubrics: ${rubrics.map((r) => r.key).join(", ")})`;
    const d = doc.dimensions.find((x) => x.key === key);
    return d ? { doc, d } : `no dimension "${key}" in rubric ${doc.key} (dimensions: ${doc.dimensions.map((x) => x.key).join(", ")})`;
  }
  const found = rubrics.flatMap((doc) => doc.dimensions.filter((d) => d.key === key).map((d) => ({ doc, d })));
  if (found.length === 1) return found[0];
  if (found.length > 1) return `"${key}" is a dimension of rubrics ${found.map((f) => f.doc.key).join(" and ")}: add a rubric column saying which`;
  const all = rubrics.flatMap((r) => r.dimensions.map((d) => d.key));
  return `no dimension "${key}" in this study's rubrics (dimensions: ${all.join(", ")})`;
}

const levelText = (d: RubricDimension) => (d.scale.levels ?? []).map((l) => String(l.value)).join(", ");

/** The rubric level a value names (an ordinal level given as "3" or 3, a nominal key), or null. */
function levelOf(d: RubricDimension, v: number | string): number | string | null {
  for (const l of d.scale.levels ?? []) {
    if (typeof l.value === "number" ? Number(v) === l.value && String(v).trim() !== "" : String(v) === l.value) return l.value;
  }
  return null;
}

/** Checks every row; the judgments are meaningful only when there are no problems. */
export function validateJudgeRows(rows: ReadonlyArray<JudgeRowInput>, study: StudyAnswers, rowNumber: (i: number) => number = (i) => i + 1): ValidatedRows {
  const problems: JudgeRowProblem[] = [];
  const judgments: Judgment[] = [];
  const seen = new Map<string, number>();
  let renormalised = 0;

  rows.forEach((r, i) => {
    const row = rowNumber(i);
    const before = problems.length;
    const add = (column: string | null, message: string) => problems.push({ row, column, message });

    const setId = study.sets.get(setKey(r.itemId, r.model));
    if (!setId) {
      if (!study.items.has(r.itemId)) add("item_id", `unknown answer: no item "${r.itemId}" in this study`);
      else if (!study.models.has(r.model)) add("model", `unknown answer: no model "${r.model}" in this study`);
      else add("model", `unknown answer: model "${r.model}" has no answers for item "${r.itemId}"`);
    }
    const found = dimensionOf(study.rubrics, r.rubric, r.dimension);
    if (typeof found === "string") {
      add(r.rubric && found.startsWith("no rubric") ? "rubric" : "dimension", found);
      return;
    }
    const { doc, d } = found;
    if (d.scale.kind === "criteria") return add("dimension", `"${d.key}" is a criteria dimension: judges score ordinal and nominal dimensions`);
    if (d.derived) return add("dimension", `"${d.key}" is derived from the other scores, never scored`);

    let repetition: number;
    if (d.scope === "set") {
      if (r.repetition !== null && r.repetition !== 0) add("repetition", `${d.key} is scored once for the whole set: repetition 0 or empty`);
      repetition = 0;
    } else if (d.scope === "first_answer") {
      if (r.repetition !== 1) add("repetition", `${d.key} is scored on answer 1 only: repetition 1`);
      repetition = 1;
    } else {
      repetition = r.repetition ?? -1;
      if (!Number.isInteger(repetition) || repetition < 1 || repetition > study.repetitions) add("repetition", `repetition must be an integer from 1 to ${study.repetitions} (the study's answers per prompt)`);
    }

    const levels = d.scale.levels ?? [];
    const ordinal = d.scale.kind === "ordinal";
    // Probabilities: one per level, each 0-1, summing to 1.
    let dist: LevelProbability[] | null = null;
    if (r.probabilities && Object.keys(r.probabilities).length > 0) {
      const given = r.probabilities;
      const pBefore = problems.length;
      for (const k of Object.keys(given)) {
        if (levelOf(d, k) === null) add(`p_${k}`, `"${k}" is not a level of ${d.key} (levels: ${levelText(d)})`);
      }
      const byLevel = new Map(Object.entries(given).map(([k, p]) => [levelOf(d, k), p] as const));
      const out: LevelProbability[] = [];
      for (const l of levels) {
        const p = byLevel.get(l.value);
        if (p === undefined || p === null || (typeof p === "number" && Number.isNaN(p))) add(`p_${l.value}`, `missing the probability of level ${l.value} of ${d.key}: give one per level`);
        else if (typeof p !== "number" || !Number.isFinite(p) || p < 0 || p > 1) add(`p_${l.value}`, `the probability of level ${l.value} must be a number from 0 to 1`);
        else out.push({ level: l.value, p });
      }
      if (problems.length === pBefore) {
        const sum = out.reduce((s, x) => s + x.p, 0);
        if (Math.abs(sum - 1) > PROBABILITY_TOLERANCE) {
          add("probabilities", `the probabilities of ${d.key} sum to ${+sum.toFixed(9)}, not 1 (within ${PROBABILITY_TOLERANCE}); they are not renormalised`);
        } else {
          if (sum !== 1) renormalised++;
          dist = out.map((x) => ({ level: x.level, p: x.p / sum }));
        }
      }
    }

    let samples: (number | string)[] | null = null;
    if (r.samples && r.samples.length > 0) {
      if (dist) add("samples", "give probabilities or samples, not both");
      else if (r.samples.length > MAX_SAMPLES) add("samples", `at most ${MAX_SAMPLES} samples`);
      else {
        const mapped = r.samples.map((s) => levelOf(d, s));
        const bad = r.samples.filter((_, j) => mapped[j] === null);
        if (bad.length) add("samples", `${bad.slice(0, 3).map((b) => `"${b}"`).join(", ")} ${bad.length === 1 ? "is" : "are"} not a level of ${d.key} (levels: ${levelText(d)})`);
        else samples = mapped as (number | string)[];
      }
    }

    // The score: given, or the most probable level, or the most frequent sample.
    let value: number | string | null = null;
    let na = false;
    const raw = r.score;
    const blank = raw === undefined || raw === null || (typeof raw === "string" && raw.trim() === "");
    if (!blank && typeof raw === "string" && NA_VALUES.has(raw.trim())) {
      if (!d.scale.allowNA) add("score", `${d.key} has no "not applicable": give one of its levels (${levelText(d)})`);
      else if (dist || samples) add("score", "a judgment that is not applicable has no probabilities or samples");
      na = true;
    } else if (!blank) {
      value = levelOf(d, raw as number | string);
      if (value === null) add("score", `${JSON.stringify(raw)} is not a level of ${d.key} (levels: ${levelText(d)})`);
    }
    const probable = dist ? mostProbableLevel(dist) : samples ? modalSample(samples, levels.map((l) => l.value)) : null;
    if (value !== null && dist && value !== probable) {
      add("score", `the score ${value} is not the most probable level (${probable}, ties to the lower level): leave score empty or give the most probable level`);
    }
    if (value === null && !na) value = probable;
    if (value === null && !na && problems.length === before) add("score", `no score: give a level of ${d.key} (${levelText(d)}), its probabilities or samples`);

    let confidence: number | null = null;
    if (r.confidence !== undefined && r.confidence !== null) {
      if (typeof r.confidence !== "number" || !Number.isFinite(r.confidence) || r.confidence < 0 || r.confidence > 1) add("confidence", "confidence must be a number from 0 to 1");
      else confidence = r.confidence;
    } else if (dist) confidence = probabilityConfidence(dist);
    else if (samples) confidence = sampleConfidence(samples, ordinal ? scaleRange(d) : null);

    let rationale: string | null = null;
    if (r.rationale !== undefined && r.rationale !== null && r.rationale !== "") {
      if (typeof r.rationale !== "string") add("rationale", "rationale must be text");
      else if (r.rationale.length > MAX_RATIONALE_CHARS) add("rationale", `rationale is longer than ${MAX_RATIONALE_CHARS.toLocaleString("en")} characters`);
      else {
        const t = textProblem(r.rationale, "multiline");
        if (t) add("rationale", `rationale ${t}`);
        else rationale = r.rationale;
      }
    }

    if (setId) {
      const k = `${setId}|${doc.key}|${d.key}|${repetition}`;
      const earlier = seen.get(k);
      if (earlier !== undefined) add(null, `repeats row ${earlier}: one judgment per item, model, repetition and dimension`);
      else seen.set(k, row);
    }
    if (problems.length > before || !setId) return;

    const expected = ordinal
      ? dist
        ? expectedScore(dist as LevelProbability<number>[])
        : samples
          ? sampleMean(samples as number[])
          : null
      : null;
    judgments.push({
      responseSetId: setId,
      rubric: doc.key,
      dimension: d.key,
      repetition,
      score: !na && ordinal ? (value as number) : null,
      category: !na && !ordinal ? (value as string) : null,
      na,
      probabilities: dist ? Object.fromEntries(dist.map((x) => [String(x.level), x.p])) : null,
      expectedScore: expected,
      samples,
      confidence,
      rationale,
    });
  });
  return { judgments, problems, renormalised };
}
