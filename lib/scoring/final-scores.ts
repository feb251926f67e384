import type { SafeLlmScoring } from "@/lib/generated/prisma/enums";
import { bareTotalName, type RubricDocument } from "@/lib/rubrics/document";
import { bandOf, totalRange } from "./rubric-values";
import type { GraderRubricValues } from "./escalation";
import { finalDimensionValue } from "./rubric-final";
import type { DimensionValue } from "./rubric-values";

/** Per rubric and dimension, the final value: ordinal, the mean over the set's graders; nominal, the majority. */
export type FinalScores = Record<string, Record<string, DimensionValue>>;

/**
 * Per rubric: each total's final value (the mean over graders of each
 * grader's total), the headline total and it as a percentage of its maximum.
 * A total with an `alias` in its document is also given under it (the name
 * the API always had for it).
 */
export type FinalTotals = Record<string, Record<string, number | null>>;

/** Per rubric, the band each banded total falls in (DISCERN's "fair"); only rubrics with banded totals appear. */
export type FinalBands = Record<string, Record<string, string | null>>;

/** A grader's totals: rubric key -> total key -> value (null while incomplete). */
export type GraderTotals = Record<string, Record<string, number | null>>;

/**
 * How a reader of grades gives its graders to `finalScoresOf`, whatever it
 * holds for each (plain cells, the dashboard's packed table): accessors made
 * once per read.
 */
export interface FinalGraders<G> {
  values: (grader: G) => GraderRubricValues;
  totals: (grader: G) => GraderTotals;
}

export interface ScoringStudy {
  rubrics: readonly RubricDocument[];
  repetitions: number;
  safeLlmScoring: SafeLlmScoring;
}

/**
 * The total a rubric leads with: its document's headline, or its `overallHeadline` when the study
 * scores each prompt once from its answers (the study's "overall" scoring).
 */
export function headlineOf(doc: RubricDocument, study: Pick<ScoringStudy, "safeLlmScoring">): string | undefined {
  if (study.safeLlmScoring === "OVERALL" && doc.overallHeadline !== undefined && doc.totals.some((t) => t.key === doc.overallHeadline)) return doc.overallHeadline;
  return doc.headline;
}

/**
 * The study's totals in words, from its documents ("CLEAR: Total 5–25 (the headline)"), for
 * pages that explain final scores; a rubric without totals says so.
 */
export function describeTotals(study: Pick<ScoringStudy, "rubrics" | "safeLlmScoring">): string {
  return study.rubrics
    .map((doc) => {
      if (!doc.totals.length) return `${doc.name} has no total: each dimension stands alone`;
      const headline = headlineOf(doc, study);
      const totals = doc.totals.map((t) => {
        const { min, max } = totalRange(doc, t);
        return `${bareTotalName(t.name)} ${min}–${max}${t.method === "percent_applicable" ? "%" : ""}${t.key === headline && doc.totals.length > 1 ? " (the headline)" : ""}`;
      });
      return `${doc.name}: ${totals.join(", ")}`;
    })
    .join("; ");
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/**
 * A set's final scores, exactly as the papers define them: they exist only
 * once the set is agreed or adjudicated; per dimension, over all its graders
 * (the k primaries, plus the adjudicator once they have submitted). Every
 * reader of final scores (the sets API, the Results tab, the exports, the
 * dashboard) comes here, whichever way it read the grades.
 */
export function finalScoresOf<G>(study: ScoringStudy, status: string, graders: readonly G[], read: FinalGraders<G>): { finalScores: FinalScores | null; totals: FinalTotals | null; bands: FinalBands | null } {
  if ((status !== "AGREED" && status !== "ADJUDICATED") || graders.length === 0) return { finalScores: null, totals: null, bands: null };
  const values = graders.map(read.values);
  const graderTotals = graders.map(read.totals);
  const finalScores: FinalScores = {};
  const totals: FinalTotals = {};
  const bands: FinalBands = {};
  for (const doc of study.rubrics) {
    const dims: Record<string, DimensionValue> = {};
    for (const d of doc.dimensions) {
      if (d.scale.kind === "criteria" || d.scale.kind === "preference") continue;
      const v = finalDimensionValue(d.scale.kind, values.map((g) => g[doc.key]?.[d.key]));
      if (v !== undefined) dims[d.key] = v;
    }
    finalScores[doc.key] = dims;
    const out: Record<string, number | null> = {};
    for (const t of doc.totals) {
      const xs = graderTotals.map((g) => g[doc.key]?.[t.key] ?? null);
      out[t.key] = xs.every((x) => x !== null) ? mean(xs as number[]) : null;
      if (t.method === "sum" && t.bands) {
        const v = out[t.key];
        (bands[doc.key] ??= {})[t.key] = v === null ? null : bandOf(t, v);
      }
    }
    const headline = headlineOf(doc, study);
    if (headline !== undefined) {
      const t = doc.totals.find((x) => x.key === headline)!;
      const v = out[headline];
      out.headline = v;
      const max = totalRange(doc, t).max;
      out.percent = v === null || max <= 0 ? null : (100 * v) / max;
    }
    for (const t of doc.totals) if (t.alias !== undefined) out[t.alias] = out[t.key];
    totals[doc.key] = out;
  }
  return { finalScores, totals, bands };
}
