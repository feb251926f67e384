import { assembleComparison, type MetricComparison } from "./assemble";
import { readComparison } from "./read";

/** The comparison of a study (assemble.ts), or null when the study does not exist. `measure`: the disagreement lists' expert measure (its id). */
export async function metricComparison(studyId: string, query: { measure?: string | null } = {}): Promise<(MetricComparison & { judgedSets: number }) | null> {
  const read = await readComparison(studyId);
  if (!read) return null;
  return { ...assembleComparison({ rubrics: read.rubrics, sets: read.sets, answers: read.answers, measure: query.measure }), judgedSets: read.judgedSets };
}
