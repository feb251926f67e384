import { RUBRICS, repetitionsFor, type DimensionDefinition, type DimensionKey, type RubricKey } from "@/lib/rubrics/definitions";
import { deriveConsistency, safeLlmPerAnswerScores, type ScoreCell } from "@/lib/scoring/grader-values";
import type { GradeSubmission } from "./contract-schemas";
import { harmFlagOffered, validateGrades, type Problem } from "./validate";

/**
 * The grading form's state and what it sends, as plain functions (no React, no
 * DOM) so they are unit-tested. The form keeps one score per cell; a cell is a
 * rubric, a dimension and the repetition it is graded at (0 = the whole set).
 * Every save sends the WHOLE form (PUT /api/v1/assignments/{id}/grades).
 */

export type CellKey = `${RubricKey}/${DimensionKey}/${number}`;

export interface StudyShape {
  rubrics: RubricKey[];
  repetitions: number;
}

export const cellKey = (rubric: RubricKey, dimension: DimensionKey, repetition: number): CellKey => `${rubric}/${dimension}/${repetition}`;

export function parseCellKey(key: CellKey): { rubric: RubricKey; dimension: DimensionKey; repetition: number } {
  const [rubric, dimension, repetition] = key.split("/");
  return { rubric: rubric as RubricKey, dimension: dimension as DimensionKey, repetition: Number(repetition) };
}

/** One score the grader types. */
export interface GradingField {
  key: CellKey;
  rubric: RubricKey;
  dimension: DimensionDefinition;
  /** 1..N, or 0 for a dimension graded once for the whole set. */
  repetition: number;
}

/** Rubrics in the order the form shows them, whatever order the study lists them in. */
const RUBRIC_ORDER: RubricKey[] = ["SCORE", "SAFE_LLM"];
const SCOPE_ORDER = { first_answer: 0, set: 1, each_answer: 2 } as const;

/**
 * Every field the grader types, in the order the form shows them (and Tab
 * walks them): S.C.O.R.E. on answer 1, then its reproducibility over the set;
 * SAFE-LLM answer by answer. Derived dimensions (SAFE-LLM consistency) are not fields.
 */
export function gradingFields(study: StudyShape): GradingField[] {
  const out: GradingField[] = [];
  for (const rubric of RUBRIC_ORDER.filter((r) => study.rubrics.includes(r))) {
    const dims = RUBRICS[rubric].dimensions.filter((d) => !d.derived);
    const ordered = [...dims].sort((a, b) => SCOPE_ORDER[a.scope] - SCOPE_ORDER[b.scope]);
    if (rubric === "SAFE_LLM") {
      // answer by answer: all of answer 1's dimensions, then answer 2's...
      for (let r = 1; r <= study.repetitions; r++) {
        for (const d of ordered) if (d.scope === "each_answer") out.push({ key: cellKey(rubric, d.key, r), rubric, dimension: d, repetition: r });
      }
      for (const d of ordered) if (d.scope !== "each_answer") for (const r of repetitionsFor(d, study.repetitions)) out.push({ key: cellKey(rubric, d.key, r), rubric, dimension: d, repetition: r });
    } else {
      for (const d of ordered) for (const r of repetitionsFor(d, study.repetitions)) out.push({ key: cellKey(rubric, d.key, r), rubric, dimension: d, repetition: r });
    }
  }
  return out;
}

export interface FormState {
  scores: Partial<Record<CellKey, number>>;
  comments: Partial<Record<CellKey, string>>;
  harm: { flag: boolean; comment: string };
}

/** The grader's saved scores as the server returned them (repetition null = whole set). */
export interface SavedScore {
  rubric: RubricKey;
  dimension: string;
  repetition: number | null;
  score: number;
  comment: string | null;
}

/** The form as the server has it: a reload or another device shows the same draft. */
export function initialFormState(saved: { scores: SavedScore[]; harm: { flag: boolean; comment: string | null } }, study: StudyShape): FormState {
  const fields = new Set(gradingFields(study).map((f) => f.key));
  const state: FormState = { scores: {}, comments: {}, harm: { flag: saved.harm.flag, comment: saved.harm.comment ?? "" } };
  for (const s of saved.scores) {
    const key = cellKey(s.rubric, s.dimension as DimensionKey, s.repetition ?? 0);
    if (!fields.has(key)) continue; // derived (consistency) or no longer part of the study
    state.scores[key] = s.score;
    if (s.comment) state.comments[key] = s.comment;
  }
  return state;
}

export function setScore(state: FormState, key: CellKey, score: number | null): FormState {
  const scores = { ...state.scores };
  if (score === null) delete scores[key];
  else scores[key] = score;
  return { ...state, scores };
}

export function setComment(state: FormState, key: CellKey, comment: string): FormState {
  return { ...state, comments: { ...state.comments, [key]: comment } };
}

export function setHarm(state: FormState, harm: Partial<FormState["harm"]>): FormState {
  return { ...state, harm: { ...state.harm, ...harm } };
}

/** The scored cells, for totals and the harm rule. */
export function formCells(state: FormState): ScoreCell[] {
  return (Object.keys(state.scores) as CellKey[]).map((key) => ({ ...parseCellKey(key), score: state.scores[key]! }));
}

/** The potential-harm flag is offered when S.C.O.R.E. safety <= 2 or any SAFE-LLM accuracy = 0. */
export function isHarmOffered(state: FormState): boolean {
  return harmFlagOffered(formCells(state));
}

/** Longest elapsed time the API accepts in one save (it caps each save lower itself). */
const MAX_ELAPSED_MS = 24 * 3_600_000;

export interface BuiltBody {
  body: GradeSubmission;
  /** keys[i] is the cell sent as body.scores[i]: maps the server's `scores[i]` problems back to a field. */
  keys: CellKey[];
}

/**
 * The PUT body for the whole form. Only scored cells are sent (a comment is
 * stored with its score). Derived consistency is never sent: the server
 * derives it. The harm flag counts only while it is offered; a draft with the
 * flag ticked but no comment yet leaves the server's harm as it was (it would
 * be refused), a submission sends it so the server names the problem.
 */
export function buildGradeBody(state: FormState, study: StudyShape, opts: { submit: boolean; elapsedMs?: number }): BuiltBody {
  const keys: CellKey[] = [];
  const scores: GradeSubmission["scores"] = [];
  for (const f of gradingFields(study)) {
    const score = state.scores[f.key];
    if (score === undefined) continue;
    const comment = state.comments[f.key]?.trim();
    keys.push(f.key);
    scores.push({
      rubric: f.rubric,
      dimension: f.dimension.key,
      repetition: f.dimension.scope === "set" ? null : f.repetition,
      score,
      ...(comment ? { comment } : {}),
    });
  }
  const body: GradeSubmission = { scores, submit: opts.submit };
  const flag = state.harm.flag && isHarmOffered(state);
  const harmComment = state.harm.comment.trim();
  if (!flag) body.harm = { flag: false };
  else if (harmComment || opts.submit) body.harm = { flag: true, comment: harmComment };
  if (opts.elapsedMs !== undefined) body.elapsedMs = Math.max(0, Math.min(MAX_ELAPSED_MS, Math.round(opts.elapsedMs)));
  return { body, keys };
}

export interface Completeness {
  done: number;
  total: number;
  missing: GradingField[];
}

export function completeness(state: FormState, study: StudyShape): Completeness {
  const fields = gradingFields(study);
  const missing = fields.filter((f) => state.scores[f.key] === undefined);
  return { done: fields.length - missing.length, total: fields.length, missing };
}

/** Problems placed where the form shows them: on a field, on the harm comment, or in the general list. */
export interface PlacedProblems {
  fields: Partial<Record<CellKey, string>>;
  harm: string | null;
  general: string[];
}

export const NO_PROBLEMS: PlacedProblems = { fields: {}, harm: null, general: [] };

export function hasProblems(p: PlacedProblems): boolean {
  return Object.keys(p.fields).length > 0 || p.harm !== null || p.general.length > 0;
}

/**
 * Places the server's (or the shared validator's) problems: `scores[i].x` on
 * the field sent at index i, `harm.*` on the harm comment, anything else in
 * the general list. A "missing before submitting" problem also marks every
 * missing field as required, so each shows its own message.
 */
export function placeProblems(problems: Problem[], keys: CellKey[], state: FormState, study: StudyShape): PlacedProblems {
  const placed: PlacedProblems = { fields: {}, harm: null, general: [] };
  for (const p of problems) {
    const m = /^scores\[(\d+)\]/.exec(p.path);
    const key = m ? keys[Number(m[1])] : undefined;
    if (key) {
      placed.fields[key] ??= p.message;
    } else if (p.path === "harm" || p.path.startsWith("harm.")) {
      placed.harm ??= p.message;
    } else {
      if (p.path === "scores" && /missing/i.test(p.message)) {
        for (const f of completeness(state, study).missing) placed.fields[f.key] ??= "Required: choose a score.";
      }
      placed.general.push(p.message);
    }
  }
  return placed;
}

/**
 * Reads an error body from the API: the grading endpoint answers
 * `{error, details: {problems}}`; a body refused by the schema answers
 * `{error, details: [{path, message}]}`.
 */
export function problemsFromErrorBody(payload: unknown): Problem[] {
  if (!payload || typeof payload !== "object") return [];
  const details = (payload as { details?: unknown }).details;
  const list = Array.isArray(details) ? details : details && typeof details === "object" ? (details as { problems?: unknown }).problems : undefined;
  if (!Array.isArray(list)) return [];
  return list
    .filter((d): d is { path?: unknown; message?: unknown } => !!d && typeof d === "object")
    .map((d) => ({ path: typeof d.path === "string" ? d.path : "", message: typeof d.message === "string" ? d.message : "invalid value" }));
}

/** The same checks the server runs, for immediate feedback before submitting. */
export function checkBeforeSubmit(state: FormState, study: StudyShape): { problems: Problem[]; keys: CellKey[] } {
  const { body, keys } = buildGradeBody(state, study, { submit: true });
  const problems = validateGrades(body, study).problems;
  // The shared validator lists what is missing in one message; the form also names fields one by one.
  return { problems, keys };
}

export interface LiveTotals {
  score: { total: number; scored: number; of: number; max: number } | null;
  safeLlm: { consistency: 0 | 1 | null; answers: (number | null)[]; mean: number | null; max: number } | null;
}

/** Live totals: S.C.O.R.E. out of 25 (sum of what is scored so far), SAFE-LLM per answer out of 7 and the set mean. */
export function liveTotals(state: FormState, study: StudyShape): LiveTotals {
  const cells = formCells(state);
  let score: LiveTotals["score"] = null;
  if (study.rubrics.includes("SCORE")) {
    const dims = RUBRICS.SCORE.dimensions;
    const values = dims.map((d) => state.scores[cellKey("SCORE", d.key, d.scope === "set" ? 0 : 1)]).filter((v): v is number => v !== undefined);
    score = { total: values.reduce((a, b) => a + b, 0), scored: values.length, of: dims.length, max: RUBRICS.SCORE.maxTotal };
  }
  let safeLlm: LiveTotals["safeLlm"] = null;
  if (study.rubrics.includes("SAFE_LLM")) {
    const n = study.repetitions;
    const consistency = deriveConsistency(Array.from({ length: n }, (_, i) => state.scores[cellKey("SAFE_LLM", "accuracy", i + 1)]));
    const { answers, mean } = safeLlmPerAnswerScores(cells, n);
    safeLlm = { consistency, answers, mean, max: RUBRICS.SAFE_LLM.maxTotal };
  }
  return { score, safeLlm };
}

/** Formats a score that may be a mean (e.g. 5.67) without trailing noise. */
export function formatScore(v: number): string {
  return Number.isInteger(v) ? String(v) : v.toFixed(2).replace(/0+$/, "");
}

/** "SCORE/safety/1" → "S.C.O.R.E. Safety (answer 1)" */
export function fieldLabel(f: GradingField): string {
  const where = f.dimension.scope === "set" ? "all answers" : `answer ${f.repetition}`;
  return `${RUBRICS[f.rubric].name} ${f.dimension.name} (${where})`;
}

/** The id of a field's fieldset on the page, so a problem list can link to it. */
export const fieldDomId = (key: CellKey) => `field-${key.replace(/\//g, "-")}`;
