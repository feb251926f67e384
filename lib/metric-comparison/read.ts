import { setResultsOf, type GraderRecord, type LoadedAssignment } from "@/lib/analytics/assemble";
import { loadStudy } from "@/lib/analytics/load";
import { getPool } from "@/lib/db/client";
import { REFERENCE_METRICS } from "@/lib/reference-metrics/metrics";
import type { RubricDocument } from "@/lib/rubrics/document";
import type { ComparisonAnswer, ComparisonSet } from "./assemble";

/**
 * What the comparison reads: every set with the panel's final scores, through the dashboard's
 * reader (lib/analytics/load.ts: grades packed per assignment, one snapshot) and finalScoresOf as
 * everywhere; and every answer's stored metrics. Sets whose final scores an automated judge gave
 * (hybrid mode) are not experts' scores: they count in the heatmap, not in the correlations.
 */
const COLUMNS = REFERENCE_METRICS.map((m) => `r."${m.key}"`);
// The answers' metrics as they are stored: one row per answer with any metric; BLEU's statistics as bytes would cost more to write than these 10 small integers cost to parse.
const ANSWERS_SQL = `
SELECT r."responseSetId"::text AS s, ${COLUMNS.map((c, i) => `${c} AS m${i}`).join(", ")}, r."bleuStats" AS st
FROM "Response" r JOIN "ResponseSet" rs ON rs.id = r."responseSetId"
WHERE rs."studyId" = $1::uuid AND (${COLUMNS.map((c) => `${c} IS NOT NULL`).join(" OR ")})`;

const JUDGED_SQL = `SELECT id::text AS id FROM "ResponseSet" WHERE "studyId" = $1::uuid AND "finalJudgeId" IS NOT NULL`;

export interface ComparisonRead {
  rubrics: RubricDocument[];
  sets: ComparisonSet[];
  answers: ComparisonAnswer[];
  /** Final sets left out of the correlations: their final scores are an automated judge's. */
  judgedSets: number;
}

export async function readComparison(studyId: string): Promise<ComparisonRead | null> {
  const pool = getPool();
  // The two reads overlap: the answers' metrics do not depend on the grades.
  const [loaded, answerRows, judged] = await Promise.all([
    loadStudy(studyId),
    pool.query<{ s: string; st: number[] | null } & Record<string, number | null>>(ANSWERS_SQL, [studyId]),
    pool.query<{ id: string }>(JUDGED_SQL, [studyId]),
  ]);
  if (!loaded) return null;
  const bySet = new Map<string, LoadedAssignment[]>();
  const records = new Map<LoadedAssignment, GraderRecord>();
  for (const a of loaded.assignments) {
    if (a.status !== "SUBMITTED" || !a.record) continue;
    records.set(a, a.record);
    const list = bySet.get(a.setId);
    if (list) list.push(a);
    else bySet.set(a.setId, [a]);
  }
  const judgedIds = new Set(judged.rows.map((r) => r.id));
  const results = setResultsOf(loaded, loaded.sets, bySet, records);
  const sets: ComparisonSet[] = results.map((s) => ({
    id: s.id,
    externalId: s.externalId,
    model: s.model.name,
    specialty: s.specialty,
    finalScores: judgedIds.has(s.id) ? null : s.finalScores,
    totals: judgedIds.has(s.id) ? null : s.totals,
  }));
  const answers: ComparisonAnswer[] = answerRows.rows.map((r) => ({
    setId: r.s,
    values: Object.fromEntries(REFERENCE_METRICS.map((m, i) => [m.key, r[`m${i}`] ?? null])),
    bleuStats: r.st,
  }));
  return { rubrics: loaded.study.rubrics, sets, answers, judgedSets: judgedIds.size };
}
