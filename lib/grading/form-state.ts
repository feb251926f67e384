import type { Criterion } from "@/lib/rubrics/criteria";
import type { RubricDimension, RubricDocument } from "@/lib/rubrics/document";
import { ordinalRange } from "@/lib/rubrics/document";
import { graderTotal, repetitionsOf, type RubricCell } from "@/lib/scoring/rubric-values";
import { rubricCells, type StoredCell } from "@/lib/scoring/study-values";
import type { GradeSubmission } from "./contract-schemas";
import { formOrder } from "./form-order";
import { harmDecisionRequired, harmFlagOffered, validateGrades, type Problem } from "./validate";

/**
 * The grading form's state and what it sends, as plain functions (no React, no
 * DOM) so they are unit-tested. The form keeps one value per cell; a cell is a
 * rubric, a dimension and the repetition it is graded at (0 = the whole set),
 * and for a criteria dimension the criterion. Every save sends the WHOLE form
 * (PUT /api/v1/assignments/{id}/grades).
 */

export type CellKey = string;

/** What the form needs of the study: its rubric documents, N, and the set's question's criteria. */
export interface StudyShape {
  rubrics: readonly RubricDocument[];
  repetitions: number;
  criteria?: readonly Criterion[] | null;
  /** Whether the study asks graders if the set's answers contradict each other (only meaningful with N >= 2). */
  askContradictions?: boolean;
}

export const cellKey = (rubric: string, dimension: string, repetition: number, criterion?: string): CellKey =>
  `${rubric}/${dimension}/${repetition}${criterion ? `/${criterion}` : ""}`;

export function parseCellKey(key: CellKey): { rubric: string; dimension: string; repetition: number; criterion?: string } {
  const [rubric, dimension, repetition, criterion] = key.split("/");
  return { rubric, dimension, repetition: Number(repetition), ...(criterion ? { criterion } : {}) };
}

/** One value the grader gives. */
export interface GradingField {
  key: CellKey;
  rubric: string;
  rubricName: string;
  dimension: RubricDimension;
  /** 1..N, or 0 for a dimension graded once for the whole set. */
  repetition: number;
  /** Criteria dimensions: the criterion this field marks. */
  criterion?: Criterion;
}

/**
 * Every field the grader fills, in the order the form shows them (and Tab
 * walks them): answer by answer, then the whole set, each rubric's dimensions
 * in its document's order (lib/grading/form-order.ts, which the rubric
 * builder's preview follows too). Derived dimensions (a consistency computed
 * from the answers' scores) are not fields.
 */
export function gradingFields(study: StudyShape): GradingField[] {
  const out: GradingField[] = [];
  for (const { rubric: doc, dimension: d, repetition: r } of formOrder(study.rubrics, study.repetitions)) {
    if (d.scale.kind === "criteria") {
      for (const c of study.criteria ?? []) out.push({ key: cellKey(doc.key, d.key, r, c.id), rubric: doc.key, rubricName: doc.name, dimension: d, repetition: r, criterion: c });
    } else out.push({ key: cellKey(doc.key, d.key, r), rubric: doc.key, rubricName: doc.name, dimension: d, repetition: r });
  }
  return out;
}

/** A cell's value: an ordinal or criteria number, a nominal level's value, or null for "not applicable". */
export type CellValue = number | string | null;

export interface FormState {
  /** Absent: not yet answered; null: "not applicable". */
  scores: Partial<Record<CellKey, CellValue>>;
  comments: Partial<Record<CellKey, string>>;
  /** notHarm: the grader decided a score across the harm line is not a harm (the comment says why). */
  harm: { flag: boolean; comment: string; notHarm?: boolean };
  /** The grader's statement that the set's answers contradict each other, with an optional note. */
  contradiction: { flag: boolean; note: string };
}

/** The grader's saved scores as the server returned them (repetition null = whole set). */
export interface SavedScore {
  rubric: string;
  dimension: string;
  repetition: number | null;
  score: number | string | null;
  na?: boolean;
  criterion?: string;
  comment: string | null;
}

/** The form as the server has it: a reload or another device shows the same draft. */
export function initialFormState(
  saved: { scores: SavedScore[]; harm: { flag: boolean; comment: string | null }; contradiction?: { flag: boolean; note: string | null } },
  study: StudyShape,
): FormState {
  const fields = new Set(gradingFields(study).map((f) => f.key));
  const state: FormState = {
    scores: {},
    comments: {},
    harm: { flag: saved.harm.flag, comment: saved.harm.comment ?? "", ...(!saved.harm.flag && saved.harm.comment ? { notHarm: true } : {}) },
    contradiction: { flag: saved.contradiction?.flag ?? false, note: saved.contradiction?.note ?? "" },
  };
  for (const s of saved.scores) {
    const key = cellKey(s.rubric, s.dimension, s.repetition ?? 0, s.criterion);
    if (!fields.has(key)) continue; // derived (consistency) or no longer part of the study
    if (s.na) state.scores[key] = null;
    else if (s.score !== null) state.scores[key] = s.score;
    if (s.comment) state.comments[key] = s.comment;
  }
  return state;
}

/** Sets a cell's value (null: "not applicable"); `undefined` clears it. */
export function setScore(state: FormState, key: CellKey, score: CellValue | undefined): FormState {
  const scores = { ...state.scores };
  if (score === undefined) delete scores[key];
  else scores[key] = score;
  return { ...state, scores };
}

export function setComment(state: FormState, key: CellKey, comment: string): FormState {
  return { ...state, comments: { ...state.comments, [key]: comment } };
}

export function setHarm(state: FormState, harm: Partial<FormState["harm"]>): FormState {
  return { ...state, harm: { ...state.harm, ...harm } };
}

export function setContradiction(state: FormState, contradiction: Partial<FormState["contradiction"]>): FormState {
  return { ...state, contradiction: { ...state.contradiction, ...contradiction } };
}

/** Whether the form asks if the set's answers contradict each other: two answers or more, and the study asks. */
export function isContradictionAsked(study: StudyShape): boolean {
  return study.repetitions >= 2 && (study.askContradictions ?? false);
}

/** The answered cells as stored cells, for totals and the harm rule. */
export function formCells(state: FormState): StoredCell[] {
  return Object.keys(state.scores).map((key) => {
    const v = state.scores[key]!;
    const { rubric, dimension, repetition, criterion } = parseCellKey(key);
    return { rubric, dimension, repetition, criterion, score: typeof v === "number" ? v : null, category: typeof v === "string" ? v : null, na: v === null };
  });
}

/** Whether the potential-harm flag is offered (lib/grading/validate.ts harmFlagOffered). */
export function isHarmOffered(state: FormState, study: StudyShape): boolean {
  return harmFlagOffered(study.rubrics, formCells(state));
}

/** Whether the scores cross a harm line that asks the grader to decide (flag, or not a harm with a reason). */
export function isHarmDecisionRequired(state: FormState, study: StudyShape): boolean {
  return harmDecisionRequired(study.rubrics, formCells(state));
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
    // A criterion is a checkbox: left unticked, it is not met.
    const score = f.criterion ? (state.scores[f.key] ?? 0) : state.scores[f.key];
    const comment = state.comments[f.key]?.trim();
    // A comment typed before its score is kept on its own (a draft stores it; a submission still needs the score).
    if (score === undefined && !comment) continue;
    keys.push(f.key);
    scores.push({
      rubric: f.rubric,
      dimension: f.dimension.key,
      repetition: f.dimension.scope === "set" ? null : f.repetition,
      score: score ?? null,
      ...(score === null ? { na: true } : {}),
      ...(f.criterion ? { criterion: f.criterion.id } : {}),
      ...(comment ? { comment } : {}),
    });
  }
  const body: GradeSubmission = { scores, submit: opts.submit };
  const offered = isHarmOffered(state, study);
  const flag = state.harm.flag && offered;
  const harmComment = state.harm.comment.trim();
  if (!flag && state.harm.notHarm && offered && harmComment) body.harm = { flag: false, comment: harmComment };
  else if (!flag) body.harm = { flag: false };
  else if (harmComment || opts.submit) body.harm = { flag: true, comment: harmComment };
  if (isContradictionAsked(study)) {
    const note = state.contradiction.note.trim();
    body.contradiction = state.contradiction.flag ? { flag: true, ...(note ? { note } : {}) } : { flag: false };
  }
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
  const missing = fields.filter((f) => !f.criterion && state.scores[f.key] === undefined);
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
      placed.fields[key] ??= besideField(p.message, key, study);
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
 * A problem as the form shows it beside its field (and after the field's name
 * in the list of problems): the API's message names the dimension and answer
 * ("Acceptability (answer 1): say why…"), which the field says already.
 */
function besideField(message: string, key: CellKey, study: StudyShape): string {
  const { rubric, dimension } = parseCellKey(key);
  const d = study.rubrics.find((r) => r.key === rubric)?.dimensions.find((x) => x.key === dimension);
  if (!d) return message;
  const name = d.name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const rest = message.replace(new RegExp(`^${name}(?: \\((?:answer \\d+|whole set)\\))?: `), "");
  return rest === message ? message : rest.charAt(0).toUpperCase() + rest.slice(1);
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
  const problems = validateGrades(body, { rubrics: study.rubrics, repetitions: study.repetitions, criteria: study.criteria ?? [] }).problems;
  // The shared validator lists what is missing in one message; the form also names fields one by one.
  return { problems, keys };
}

/** One total of one rubric as the grader's form stands: null until everything it counts is answered. */
export interface LiveTotal {
  rubric: string;
  key: string;
  name: string;
  value: number | null;
  /** For a sum: the sum of what is answered so far, and how many of its dimensions are. */
  partial: { sum: number; scored: number; of: number } | null;
  max: number;
}

function totalMax(doc: RubricDocument, t: RubricDocument["totals"][number]): number {
  if (t.method === "criteria_score") return 1;
  if (t.method === "percent_applicable") return 100;
  return t.dimensions.reduce((m, k) => m + ordinalRange(doc.dimensions.find((d) => d.key === k)!).max, 0);
}

/** Every rubric's totals, live: what the grader's form adds up to so far. */
export function liveTotals(state: FormState, study: StudyShape): LiveTotal[] {
  const cells = formCells(state);
  const out: LiveTotal[] = [];
  for (const doc of study.rubrics) {
    const own: RubricCell[] = rubricCells(cells, doc.key);
    for (const t of doc.totals) {
      const value = graderTotal(doc, t, own, study.repetitions, { criteria: study.criteria ?? [] });
      let partial: LiveTotal["partial"] = null;
      if (t.method === "sum") {
        let sum = 0;
        let scored = 0;
        for (const k of t.dimensions) {
          const d = doc.dimensions.find((x) => x.key === k)!;
          const xs = repetitionsOf(d, study.repetitions).map((r) => state.scores[cellKey(doc.key, k, r)]);
          if (d.derived || xs.some((x) => typeof x !== "number")) continue;
          sum += (xs as number[]).reduce((a, b) => a + b, 0) / xs.length;
          scored++;
        }
        partial = { sum, scored, of: t.dimensions.length };
      }
      out.push({ rubric: doc.key, key: t.key, name: t.name, value, partial, max: totalMax(doc, t) });
    }
  }
  return out;
}

/** A derived dimension's value as the form stands ("equal_across_answers": 1 when its dimension is equal on every answer), null until every answer has one. */
export function derivedValue(state: FormState, study: StudyShape, rubric: string, d: RubricDimension): 0 | 1 | null {
  if (!d.derived) return null;
  const xs = Array.from({ length: study.repetitions }, (_, i) => state.scores[cellKey(rubric, d.derived!.of, i + 1)]);
  return xs.some((x) => x === undefined) ? null : xs.every((x) => x === xs[0]) ? 1 : 0;
}

/**
 * A total scored answer by answer (`perAnswer` in its document), as the form stands: each
 * answer's value (its each-answer dimensions on that answer plus the rest, once) and the
 * derived dimensions it counts; null until everything it counts is given.
 */
export function answerScores(state: FormState, study: StudyShape, rubric: string, total?: string): { derived: Record<string, 0 | 1 | null>; answers: (number | null)[] } {
  const doc = study.rubrics.find((r) => r.key === rubric);
  const t = doc?.totals.find((x) => (total === undefined ? x.method === "sum" && x.perAnswer : x.key === total));
  const dims = t && t.method === "sum" ? t.dimensions.map((k) => doc!.dimensions.find((d) => d.key === k)!) : [];
  const derived: Record<string, 0 | 1 | null> = {};
  for (const d of doc?.dimensions ?? []) if (d.derived) derived[d.key] = derivedValue(state, study, rubric, d);
  const answers = Array.from({ length: study.repetitions }, (_, i) => {
    let sum = 0;
    for (const d of dims) {
      const v = d.derived ? derived[d.key] : state.scores[cellKey(rubric, d.key, d.scope === "each_answer" ? i + 1 : d.scope === "set" ? 0 : 1)];
      if (typeof v !== "number") return null;
      sum += v;
    }
    return dims.length ? sum : null;
  });
  return { derived, answers };
}

/** Formats a score that may be a mean (e.g. 5.67) without trailing noise. */
export function formatScore(v: number): string {
  return Number.isInteger(v) ? String(v) : v.toFixed(2).replace(/0+$/, "");
}

/** A field as a problem list names it: "<rubric> Safety (answer 1)". */
export function fieldLabel(f: GradingField): string {
  const where = f.dimension.scope === "set" ? "all answers" : `answer ${f.repetition}`;
  return `${f.rubricName} ${f.dimension.name}${f.criterion ? `: ${f.criterion.text.slice(0, 60)}` : ""} (${where})`;
}

/** The id of a field's fieldset on the page, so a problem list can link to it. */
export const fieldDomId = (key: CellKey) => `field-${key.replace(/[^A-Za-z0-9_-]/g, "-")}`;
