import { assembleStudyStatsAsync, type StatsOptions, type StatsQuery } from "./assemble";
import { judgesBlock } from "@/lib/analytics/judges";
import { loadStudy } from "./load";
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
 * delta bootstrap in a worker thread on large studies.
 */
export async function computeStudyStats(studyId: string, query: StatsQuery = {}, options: StatsOptions = {}): Promise<StudyStats | null> {
  const loaded = await loadStudy(studyId);
  if (!loaded) return null;
  const [stats, judges] = await Promise.all([assembleStudyStatsAsync(loaded, query, options), judgesBlock(studyId, loaded, query)]);
  return { ...stats, judges };
}
