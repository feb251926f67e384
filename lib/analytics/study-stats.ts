import { assembleWithFinals, type StatsOptions, type StatsQuery } from "./assemble";
import { sql } from "@/lib/db/sql";
import { Prisma } from "@/lib/generated/prisma/client";
import { judgesBlock } from "@/lib/analytics/judges";
import { loadStudy } from "./load";
import type { RubricDocument } from "@/lib/rubrics/document";
import { storedRubrics } from "@/lib/rubrics/study-rubrics";
import { DERIVED_ON_REQUEST, derivedPairwiseBlock, pairwiseStudyBlock, type PairwiseRun } from "./pairwise";
import type { StudyStats } from "./types";

export type { StatsQuery, StatsOptions } from "./assemble";
export type { StudyStats } from "./types";

/**
 * Every number the study dashboard shows, for a lead (model names unblinded):
 * radar profiles, Cronbach's alpha per specialty, the Cliff's delta heatmap,
 * inter-rater agreement per dimension, the ranking and progress. Filters:
 * one specialty (default all), a subset of the study's rubrics, a subset of
 * models (by name). Each block is `{data, reason}`, data null with the reason
 * when there is not enough data. Null when the study does not exist.
 * One read of five SQL statements (load.ts), then pure code (assemble.ts), with the Cliff's
 * delta bootstrap in a worker thread on large studies. The `pairwise` block: a pairwise study's
 * preferences (one more statement, pairwise-load.ts), or a scoring study's final scores read as
 * preferences (pairwise.ts), its bootstrap in a worker thread too.
 */
export async function computeStudyStats(studyId: string, query: StatsQuery = {}, options: StatsOptions & { pairwise?: PairwiseRun } = {}): Promise<StudyStats | null> {
  const [head] = await sql.rows<{ design: string; rubrics: unknown }>(Prisma.sql`SELECT design::text AS design, rubrics FROM "Study" WHERE id = ${studyId}::uuid`);
  if (!head) return null;
  const pairwiseDesign = head.design === "PAIRWISE";
  const chosen = (all: RubricDocument[]) => (query.rubrics?.length ? all.filter((r) => query.rubrics!.includes(r.key)) : all);
  // A pairwise study's block starts at once (its own read), before the scoring statistics' read, which it does not
  // need: its read and its bootstraps are the dashboard's critical path.
  const direct = pairwiseDesign ? pairwiseStudyBlock(studyId, chosen(storedRubrics(head.rubrics)), query, options.pairwise) : null;
  // Awaited below; this only keeps an early failure from counting as unhandled meanwhile.
  direct?.catch(() => undefined);
  const loaded = await loadStudy(studyId);
  if (!loaded) return null;
  if (direct) {
    // Its scope, filters and options; its judges give preferences (GET /judges/preferences), so no scoring judges' block.
    const assembled = await assembleWithFinals(loaded, query, options);
    return { ...scoringBlocksOfPairwise(assembled.stats), judges: { data: null, reason: PAIRWISE_JUDGES }, pairwise: await direct };
  }
  const [assembled, judges] = await Promise.all([assembleWithFinals(loaded, query, options), judgesBlock(studyId, loaded, query)]);
  const pairwise = query.pairwise ? await derivedPairwiseBlock(assembled.finals, assembled.measures, options.pairwise) : { data: null, reason: DERIVED_ON_REQUEST };
  return { ...assembled.stats, judges, pairwise };
}

/** Why a pairwise study's scoring blocks are empty: its graders give preferences, never scores. */
export const PAIRWISE_NO_SCORES = "A pairwise study's graders give preferences, not scores: its figures are in the pairwise block";
export const PAIRWISE_JUDGES = "A pairwise study's judges give preferences: their agreement with the panel is at GET /api/v1/studies/{id}/judges/preferences";
const PAIRWISE_PROGRESS = "A pairwise study's progress is its comparisons': GET /api/v1/studies/{id}/comparisons counts them by status";

/**
 * A pairwise study's scoring blocks say why they are empty, rather than "no response set is final
 * yet" (none ever will be) and a progress of response sets nobody grades.
 */
function scoringBlocksOfPairwise(stats: StudyStats): StudyStats {
  const none = { data: null, reason: PAIRWISE_NO_SCORES };
  return {
    ...stats,
    radar: stats.radar.map((r) => ({ ...r, data: null, reason: PAIRWISE_NO_SCORES })),
    alpha: none,
    cliffs: none,
    agreement: none,
    ranking: none,
    journal: none,
    progress: { data: null, reason: PAIRWISE_PROGRESS },
  };
}
