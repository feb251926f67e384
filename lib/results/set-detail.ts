import { describeChanges, uuidsIn, type ChangeLine } from "@/lib/audit/describe";
import { getDb } from "@/lib/db/client";
import { isUuid } from "@/lib/db/uuid";
import type { AssignmentKind, AssignmentStatus, EscalationStatus, SetStatus } from "@/lib/generated/prisma/enums";
import type { HarmReviewStatus } from "@/lib/harm/service";
import { graderPseudonym } from "@/lib/users/pseudonym";
import { setResultOf } from "./sets";
import { disagreementInWords, type Disagreement } from "@/lib/scoring/escalation";
import type { FinalScores, FinalTotals } from "@/lib/scoring/final-scores";
import type { StoredCell } from "@/lib/scoring/study-values";
import { finalDimensionValue } from "@/lib/scoring/rubric-final";
import type { DimensionValue } from "@/lib/scoring/rubric-values";
import type { RubricDocument } from "@/lib/rubrics/document";
import { storedRubrics } from "@/lib/rubrics/study-rubrics";

/**
 * One response set as its lead reviews it (unblinded: the model is named;
 * graders stay pseudonymous, as on every lead page): each grader's cells and
 * comments, harm flags and their review, the escalation and its adjudicator,
 * the final scores, and the audit events about the set, its assignments and
 * its escalation, oldest first.
 */
/** A grader's stored cell (repetition 0: a dimension of the whole set or of the first answer; criterion "" when none), with its comment. */
export type SetDetailCell = Required<StoredCell> & { comment: string | null };

export interface SetDetailGrader {
  assignmentId: string;
  grader: string;
  kind: AssignmentKind;
  status: AssignmentStatus;
  submittedAt: string | null;
  cells: SetDetailCell[];
  harm: { comment: string | null; review: { status: HarmReviewStatus; note: string | null; reviewer: string | null; reviewedAt: string | null } } | null;
  /** The grader flagged the set's answers as contradicting each other (with their note, if any); null: not flagged. */
  contradiction: { note: string | null } | null;
}

export interface SetDetailEvent {
  id: string;
  createdAt: string;
  actor: string | null;
  action: string;
  /** What the event is about: the set, a grader's assignment, the escalation. */
  about: string;
  changes: ChangeLine[];
}

export interface SetDetail {
  id: string;
  externalId: string;
  specialty: string;
  question: string;
  referenceAnswer: string | null;
  model: { name: string; version: string };
  status: SetStatus;
  /** Each answer with its reference-based metrics (0-1; null when the question has no reference answer). */
  answers: { repetition: number; text: string; bleu: number | null; rouge1: number | null; rougeL: number | null; embeddingSimilarity: number | null }[];
  graders: SetDetailGrader[];
  escalation: {
    status: EscalationStatus;
    /** What disagreed, as the escalation recorded it (rubric, dimension, spread, threshold, each grader's value). */
    dimensions: { rubric: string; dimension: string; spread: number | null; threshold: number | null; reason: string; values: { grader: string; value: number | string }[] }[];
    adjudicator: string | null;
    createdAt: string;
    resolvedAt: string | null;
  } | null;
  finalScores: FinalScores | null;
  /**
   * A dimension graded on each answer, per answer: the final value of that
   * answer (the mean over the set's graders, nominal the majority), beside
   * `finalScores`, which holds the dimension's value over the answers.
   * rubric -> dimension -> one value per answer (index 0 = answer 1); null while not final.
   */
  finalPerAnswer: Record<string, Record<string, (number | string | null)[]>> | null;
  totals: FinalTotals | null;
  timeline: SetDetailEvent[];
}

/** Whether the id is one of the study's sets: the set page's guard, read before its loading state streams. */
export async function isSetOfStudy(studyId: string, setId: string): Promise<boolean> {
  if (!isUuid(setId)) return false;
  return (await getDb().responseSet.count({ where: { id: setId, studyId } })) > 0;
}

/** A set's detail for its study's lead; null when the id is not one of the study's sets. */
export async function setDetail(studyId: string, setId: string): Promise<SetDetail | null> {
  if (!isUuid(setId)) return null;
  const db = getDb();
  const set = await db.responseSet.findFirst({
    where: { id: setId, studyId },
    include: {
      item: { include: { specialty: true } },
      model: true,
      study: { select: { rubrics: true, repetitions: true } },
      responses: { orderBy: { repetition: "asc" }, select: { repetition: true, text: true, bleu: true, rouge1: true, rougeL: true, embeddingSimilarity: true } },
      escalation: { include: { adjudicatorAssignment: { select: { graderId: true } } } },
      assignments: {
        // Cancelled work (an adjudication a revision made moot) has no scores worth showing; its events stay in the timeline.
        where: { status: { not: "CANCELLED" } },
        orderBy: [{ kind: "asc" }, { createdAt: "asc" }, { id: "asc" }],
        include: {
          grades: { orderBy: [{ rubric: "asc" }, { repetition: "asc" }, { dimension: "asc" }, { criterion: "asc" }] },
          harmReview: { include: { reviewedBy: { select: { name: true } } } },
        },
      },
    },
  });
  if (!set) return null;
  const allAssignments = await db.assignment.findMany({ where: { responseSetId: set.id }, select: { id: true, graderId: true } });
  const result = await setResultOf(studyId, set.id);
  const pseudonym = (userId: string) => graderPseudonym(studyId, userId);

  // Names for the ids in the events: graders by pseudonym, their assignments as "Q · pseudonym".
  const names = new Map<string, string>();
  const graderIds = new Set(allAssignments.map((a) => a.graderId));
  for (const g of graderIds) names.set(g.toLowerCase(), pseudonym(g));
  for (const a of allAssignments) names.set(a.id.toLowerCase(), `${set.item.externalId} · ${pseudonym(a.graderId)}`);
  if (set.escalation) names.set(set.escalation.id.toLowerCase(), `${set.item.externalId} · escalation`);
  names.set(set.id.toLowerCase(), `${set.item.externalId} · ${set.model.name}`);

  const entityIds = [set.id, ...allAssignments.map((a) => a.id), ...(set.escalation ? [set.escalation.id] : [])];
  const events = await db.auditEvent.findMany({
    where: { studyId, entityId: { in: entityIds } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    include: { actor: { select: { id: true, name: true } } },
  });
  // Other people named in the events (a lead assigning an adjudicator by hand) by name: the lead's own log.
  const others = new Set<string>();
  for (const e of events) {
    uuidsIn(e.before, others);
    uuidsIn(e.after, others);
  }
  const unnamed = [...others].filter((id) => !names.has(id));
  if (unnamed.length) for (const u of await db.user.findMany({ where: { id: { in: unnamed } }, select: { id: true, name: true } })) names.set(u.id.toLowerCase(), u.name);

  return {
    id: set.id,
    externalId: set.item.externalId,
    specialty: set.item.specialty.name,
    question: set.item.question,
    referenceAnswer: set.item.referenceAnswer,
    model: { name: set.model.name, version: set.model.version },
    status: set.status,
    answers: set.responses,
    graders: set.assignments.map((a) => ({
      assignmentId: a.id,
      grader: pseudonym(a.graderId),
      kind: a.kind,
      status: a.status,
      submittedAt: a.submittedAt?.toISOString() ?? null,
      cells: a.grades.map((g) => ({ rubric: g.rubric, dimension: g.dimension, repetition: g.repetition, criterion: g.criterion, score: g.score, category: g.category, na: g.na, comment: g.comment })),
      harm: a.harmFlag
        ? {
            comment: a.harmComment,
            review: {
              status: a.harmReview?.status ?? "OPEN",
              note: a.harmReview?.note ?? null,
              reviewer: a.harmReview?.reviewedBy.name ?? null,
              reviewedAt: a.harmReview?.reviewedAt.toISOString() ?? null,
            },
          }
        : null,
      contradiction: a.contradictionFlag ? { note: a.contradictionNote } : null,
    })),
    escalation: set.escalation
      ? {
          status: set.escalation.status,
          dimensions: pseudonymousDimensions(set.escalation.dimensions, pseudonym),
          adjudicator: set.escalation.adjudicatorAssignment ? pseudonym(set.escalation.adjudicatorAssignment.graderId) : null,
          createdAt: set.escalation.createdAt.toISOString(),
          resolvedAt: set.escalation.resolvedAt?.toISOString() ?? null,
        }
      : null,
    finalScores: result?.finalScores ?? null,
    // A judged set's (hybrid mode) final scores are the judge's, not these graders': no per-answer finals from them.
    finalPerAnswer: result?.finalScores && result.finalBy !== "judge" ? finalPerAnswer(storedRubrics(set.study.rubrics), set.study.repetitions, set.assignments.filter((a) => a.status === "SUBMITTED").map((a) => a.grades)) : null,
    totals: result?.totals ?? null,
    timeline: events.map((e) => ({
      id: e.id.toString(),
      createdAt: e.createdAt.toISOString(),
      actor: e.actor ? (graderIds.has(e.actor.id) ? pseudonym(e.actor.id) : e.actor.name) : null,
      action: e.action,
      about: names.get((e.entityId ?? "").toLowerCase()) ?? e.entityType,
      changes: describeChanges(e.before, e.after, names),
    })),
  };
}

/** The escalation's stored disagreements, each grader's value keyed by pseudonym rather than account id. */
function pseudonymousDimensions(stored: unknown, pseudonym: (id: string) => string): NonNullable<SetDetail["escalation"]>["dimensions"] {
  if (!Array.isArray(stored)) return [];
  return (stored as Disagreement[]).map((d) => ({
    rubric: d.rubric,
    dimension: d.dimension,
    spread: d.spread,
    threshold: d.threshold,
    reason: disagreementInWords(d),
    values: Object.entries(d.values ?? {}).map(([graderId, value]) => ({ grader: pseudonym(graderId), value })),
  }));
}

type GradeRow = { rubric: string; dimension: string; repetition: number; criterion: string; score: number | null; category: string | null; na: boolean };

/**
 * Per each-answer dimension, each answer's final value over the submitted
 * graders (the graders finalScoresOf counts): the rule of the set's final
 * scores (finalDimensionValue) applied to one answer at a time.
 */
export function finalPerAnswer(rubrics: readonly RubricDocument[], repetitions: number, graders: readonly (readonly GradeRow[])[]): NonNullable<SetDetail["finalPerAnswer"]> {
  const out: NonNullable<SetDetail["finalPerAnswer"]> = {};
  for (const doc of rubrics) {
    const dims: Record<string, (number | string | null)[]> = {};
    for (const d of doc.dimensions) {
      if (d.scope !== "each_answer" || d.scale.kind === "criteria" || d.scale.kind === "preference" || d.derived) continue;
      const kind = d.scale.kind;
      dims[d.key] = Array.from({ length: repetitions }, (_, i) => {
        const xs = graders.map((cells): DimensionValue => {
          const c = cells.find((g) => g.rubric === doc.key && g.dimension === d.key && g.repetition === i + 1 && g.criterion === "");
          if (!c) return undefined;
          if (c.na) return "N/A";
          return c.category ?? c.score ?? undefined;
        });
        return finalDimensionValue(kind, xs) ?? null;
      });
    }
    out[doc.key] = dims;
  }
  return out;
}
