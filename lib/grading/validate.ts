import { templateOfDocument } from "@/lib/rubrics/templates";
import type { RubricDimension, RubricDocument } from "@/lib/rubrics/document";
import { ordinalRange } from "@/lib/rubrics/document";
import { crossingInWords, harmCrossings, harmLine } from "@/lib/rubrics/harm-line";
import { repetitionsOf, type Criterion } from "@/lib/scoring/rubric-values";
import type { GradeSubmission, ScoreInput } from "./contract-schemas";

export interface Problem {
  /** e.g. "scores[3].score" or "harm.comment" */
  path: string;
  message: string;
}

/** One stored answer of a grader to a dimension (repetition 0 = the whole set). */
export interface GradeCell {
  rubric: string;
  dimension: string;
  repetition: number;
  /** Criteria dimensions: the criterion marked; "" otherwise. */
  criterion: string;
  /** Ordinal and criteria values; null for a nominal value or N/A. */
  score: number | null;
  category: string | null;
  na: boolean;
  comment: string | null;
}

export interface ValidatedGrades {
  problems: Problem[];
  /** Normalised cells to store: set-level at repetition 0, derived dimensions included when computable. */
  cells: GradeCell[];
  complete: boolean;
}

/** What the validator needs of a study: its rubric documents, N, and the set's question's criteria (criteria dimensions). */
export interface GradingStudy {
  rubrics: readonly RubricDocument[];
  repetitions: number;
  criteria?: readonly Criterion[];
}

const cellId = (c: { rubric: string; dimension: string; repetition: number; criterion?: string }) =>
  `${c.rubric}/${c.dimension}/${c.repetition}${c.criterion ? `/${c.criterion}` : ""}`;

function repetitionOf(d: RubricDimension, s: ScoreInput, n: number): number | string {
  if (d.scope === "set") return s.repetition === null || s.repetition === 0 ? 0 : `${d.name} is graded once for the whole set: send repetition null`;
  if (d.scope === "first_answer") return s.repetition === 1 ? 1 : `${d.name} is graded on answer 1 only: send repetition 1`;
  return s.repetition !== null && s.repetition >= 1 && s.repetition <= n ? s.repetition : `${d.name} is graded on each answer: repetition must be 1..${n}`;
}

/** The value a grader sent for a dimension, as stored, or what is wrong with it. */
function valueOf(d: RubricDimension, s: ScoreInput): Pick<GradeCell, "score" | "category" | "na"> | Problem {
  const bad = (message: string, field = "score") => ({ path: field, message });
  // A comment typed before its score: a draft keeps it (a submission still needs the score).
  if (s.score === null && !s.na) return s.comment?.trim() ? { score: null, category: null, na: false } : bad(`${d.name}: send a score, na true, or a comment`);
  if (s.na) {
    if (!d.scale.allowNA) return bad(`${d.name} has no "not applicable": choose a level`, "na");
    if (s.score !== null) return bad(`${d.name}: send score null with na true`);
    return { score: null, category: null, na: true };
  }
  if (d.scale.kind === "criteria") {
    if (s.score !== 0 && s.score !== 1) return bad(`${d.name}: each criterion is met (1) or not met (0), got ${JSON.stringify(s.score)}`);
    return { score: s.score, category: null, na: false };
  }
  if (d.scale.kind === "nominal") {
    const levels = d.scale.levels ?? [];
    if (typeof s.score !== "string" || !levels.some((l) => l.value === s.score)) {
      return bad(`${d.name} must be one of ${levels.map((l) => l.value).join(", ")}, got ${JSON.stringify(s.score)}`);
    }
    return { score: null, category: s.score, na: false };
  }
  const { min, max } = ordinalRange(d);
  const levels = (d.scale.levels ?? []).map((l) => l.value);
  if (typeof s.score !== "number" || s.score < min || s.score > max) return bad(`${d.name} must be between ${min} and ${max}, got ${JSON.stringify(s.score)}`);
  if (!levels.includes(s.score)) return bad(`${d.name} must be one of ${levels.join(", ")}, got ${s.score}`);
  return { score: s.score, category: null, na: false };
}

/** Whether a stored cell holds a value (not only a comment typed before its score). */
export const hasValue = (c: Pick<GradeCell, "score" | "category" | "na">) => c.score !== null || c.category !== null || c.na;

/** equal_across_answers: 1 when the source dimension's value is the same on every answer, else 0; null until all are given. */
function deriveEqual(cells: readonly GradeCell[], rubric: string, of: string, n: number): 0 | 1 | null {
  const xs = Array.from({ length: n }, (_, i) => cells.find((c) => c.rubric === rubric && c.dimension === of && c.repetition === i + 1));
  if (xs.length === 0 || xs.some((x) => !x || !hasValue(x))) return null;
  const v = (c: GradeCell) => (c.na ? "N/A" : (c.score ?? c.category));
  return xs.every((x) => v(x!) === v(xs[0]!)) ? 1 : 0;
}

/** Where a dimension is graded, for messages: "(answer 2)" or "(whole set)". */
const where = (d: RubricDimension, r: number) => (d.scope === "set" ? " (whole set)" : ` (answer ${r})`);

/**
 * Checks a grade submission against the study's rubric documents and N, as the
 * server does for the page and the API alike. Every problem is named; a
 * submission (submit: true) must also be complete. Pure, so it is tested
 * without a server.
 */
export function validateGrades(input: GradeSubmission, study: GradingStudy): ValidatedGrades {
  const n = study.repetitions;
  const problems: Problem[] = [];
  const cells: GradeCell[] = [];
  const seen = new Set<string>();
  /** Cells with a value (not only a draft's comment): what completeness counts. */
  const valued = new Set<string>();
  const sentDerived = new Map<string, { index: number; score: ScoreInput["score"]; comment: string | null }>();
  const criteria = study.criteria ?? [];

  input.scores.forEach((s, i) => {
    const at = `scores[${i}]`;
    const doc = study.rubrics.find((r) => r.key === s.rubric);
    if (!doc) {
      const name = templateOfDocument(s.rubric)?.name ?? s.rubric;
      problems.push({ path: `${at}.rubric`, message: `this study does not use the ${name} rubric` });
      return;
    }
    const d = doc.dimensions.find((x) => x.key === s.dimension);
    if (!d) {
      problems.push({ path: `${at}.dimension`, message: `${s.dimension} is not a ${doc.name} dimension` });
      return;
    }
    const repetition = repetitionOf(d, s, n);
    if (typeof repetition === "string") {
      problems.push({ path: `${at}.repetition`, message: repetition });
      return;
    }
    let criterion = "";
    if (d.scale.kind === "criteria") {
      if (!s.criterion || !criteria.some((c) => c.id === s.criterion)) {
        problems.push({ path: `${at}.criterion`, message: s.criterion ? `this question has no criterion "${s.criterion}"` : `${d.name}: name the criterion (criterion: <id>)` });
        return;
      }
      criterion = s.criterion;
    } else if (s.criterion !== undefined) {
      problems.push({ path: `${at}.criterion`, message: `${d.name} is not a criteria dimension: send no criterion` });
      return;
    }
    const value = valueOf(d, s);
    if ("path" in value) {
      problems.push({ path: `${at}.${value.path}`, message: value.message });
      return;
    }
    const id = cellId({ rubric: s.rubric, dimension: s.dimension, repetition, criterion });
    if (seen.has(id)) {
      problems.push({ path: at, message: `${d.name}${repetition ? ` (answer ${repetition})` : ""}${criterion ? ` criterion ${criterion}` : ""} is sent twice` });
      return;
    }
    seen.add(id);
    if (hasValue(value)) valued.add(id);
    const comment = s.comment?.trim() || null;
    if (d.derived) {
      sentDerived.set(`${s.rubric}/${d.key}`, { index: i, score: s.score, comment });
      return; // stored from the derivation below, never as typed
    }
    if (input.submit && d.requireCommentAtOrBelow !== undefined && value.score !== null && value.score <= d.requireCommentAtOrBelow && !comment) {
      problems.push({ path: `${at}.comment`, message: `${d.name}${where(d, repetition)}: say why in a comment when scoring ${d.requireCommentAtOrBelow} or below` });
    }
    cells.push({ rubric: s.rubric, dimension: s.dimension, repetition, criterion, ...value, comment });
  });

  for (const doc of study.rubrics) {
    for (const d of doc.dimensions) {
      if (!d.derived) continue;
      const derived = deriveEqual(cells, doc.key, d.derived.of, n);
      const sent = sentDerived.get(`${doc.key}/${d.key}`);
      if (sent && derived !== null && sent.score !== derived) {
        const of = doc.dimensions.find((x) => x.key === d.derived!.of)?.name.toLowerCase() ?? d.derived.of;
        problems.push({
          path: `scores[${sent.index}].score`,
          message: `${d.key} is derived from your ${of} scores (${derived === 1 ? "all equal" : "not all equal"}): it must be ${derived}, not ${sent.score}`,
        });
      }
      if (derived !== null) cells.push({ rubric: doc.key, dimension: d.key, repetition: 0, criterion: "", score: derived, category: null, na: false, comment: sent?.comment ?? null });
    }
  }

  // Every dimension the grader answers, at every repetition (and, for criteria, every criterion).
  const missing: string[] = [];
  for (const doc of study.rubrics) {
    for (const d of doc.dimensions) {
      if (d.derived) continue;
      for (const r of repetitionsOf(d, n)) {
        if (d.scale.kind === "criteria") {
          const open = criteria.filter((c) => !valued.has(cellId({ rubric: doc.key, dimension: d.key, repetition: r, criterion: c.id })));
          if (open.length) missing.push(`${doc.name} ${d.name}${where(d, r)}: ${open.length} criteria`);
        } else if (!valued.has(cellId({ rubric: doc.key, dimension: d.key, repetition: r }))) {
          missing.push(`${doc.name} ${d.name}${where(d, r)}`);
        }
      }
    }
  }
  const complete = missing.length === 0;
  if (input.submit && !complete) problems.push({ path: "scores", message: `missing before submitting: ${missing.join(", ")}` });

  if (input.harm?.flag && !input.harm.comment?.trim()) {
    problems.push({ path: "harm.comment", message: "a potential-harm flag needs a comment saying what the harm is" });
  }
  // Across a harm line the grader decides: flag it, or say why it is not a harm. A submission without the decision is refused.
  const undecided = input.submit && !input.harm?.flag && !input.harm?.comment?.trim() ? harmCrossings(study.rubrics, cells).filter((c) => c.required) : [];
  if (undecided.length) {
    problems.push({
      path: "harm",
      message: `${undecided.map(crossingInWords).join("; ")}: across the harm line, flag a potential harm or say why it is not a harm`,
    });
  }
  return { problems, cells, complete };
}

/**
 * Whether the form offers the potential-harm flag: when a score crosses its
 * dimension's harm line (lib/rubrics/harm-line.ts, at or below or at or above
 * a value); a study whose rubrics name no line offers it always.
 */
export function harmFlagOffered(rubrics: readonly RubricDocument[], cells: readonly (Pick<GradeCell, "rubric" | "dimension" | "score"> & { repetition?: number })[]): boolean {
  if (!rubrics.some((r) => r.dimensions.some((d) => harmLine(d)))) return true;
  return harmCrossings(rubrics, cells).length > 0;
}

/** Whether the scores cross a harm line that requires the grader's decision. */
export function harmDecisionRequired(rubrics: readonly RubricDocument[], cells: readonly (Pick<GradeCell, "rubric" | "dimension" | "score"> & { repetition?: number })[]): boolean {
  return harmCrossings(rubrics, cells).some((c) => c.required);
}
