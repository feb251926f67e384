import { decodeCells } from "./grader-cells";
import type { LoadedStudy, StatsQuery } from "./assemble";
import type { Block } from "./types";
import { getDb } from "@/lib/db/client";
import { finalScoresOf } from "@/lib/scoring/final-scores";
import { graderRubricScores } from "@/lib/scoring/study-values";
import { compareJudge, JUDGES_NOTE, type JudgeCell, type PanelSet } from "@/lib/judges/compare";
import type { JudgesBlock } from "@/lib/judges/types";

/** The final sets in scope with each grader's values, as compareJudge reads them (pure). */
export function panelSets(loaded: LoadedStudy, query: StatsQuery, judgeFinal: ReadonlySet<string>, lengths: ReadonlyMap<string, number>): PanelSet[] {
  const { study } = loaded;
  const inModels = query.models?.length ? new Set(query.models) : null;
  const sets = loaded.sets.filter(
    (s) => (s.status === "AGREED" || s.status === "ADJUDICATED") && !judgeFinal.has(s.id) && (!query.specialty || s.specialty === query.specialty) && (!inModels || inModels.has(s.model.name)),
  );
  const wanted = new Set(sets.map((s) => s.id));
  const graders = new Map<string, { id: string; values: ReturnType<typeof graderRubricScores>["values"]; totals: ReturnType<typeof graderRubricScores>["totals"] }[]>();
  for (const a of loaded.assignments) {
    if (a.status !== "SUBMITTED" || !wanted.has(a.setId)) continue;
    const scored = graderRubricScores(study.rubrics, decodeCells(loaded.layout, a.cells ?? []), study.repetitions);
    (graders.get(a.setId) ?? graders.set(a.setId, []).get(a.setId)!).push({ id: a.graderId, ...scored });
  }
  return sets.map((s) => {
    const gs = graders.get(s.id) ?? [];
    const { finalScores, totals } = finalScoresOf(study, s.status, gs, { values: (g) => g.values, totals: (g) => g.totals });
    return { id: s.id, model: s.model.name, finalValues: finalScores ?? {}, finalTotals: totals ?? {}, graders: gs.map((g) => ({ id: g.id, values: g.values })), length: lengths.get(s.id) ?? null };
  });
}

/** Every judge of the study against the panel, for the stats endpoint and the summary export. */
export async function judgesBlock(studyId: string, loaded: LoadedStudy, query: StatsQuery = {}, resamples?: number): Promise<Block<JudgesBlock>> {
  const db = getDb();
  const judges = await db.automatedJudge.findMany({ where: { studyId }, orderBy: { createdAt: "asc" }, select: { id: true, name: true, model: true, version: true } });
  if (judges.length === 0) return { data: null, reason: "No automated judge yet: register one and import its scores (POST /api/v1/studies/{id}/judges)." };
  const [study, finalRows, lengthRows, cellRows] = await Promise.all([
    db.study.findUniqueOrThrow({ where: { id: studyId }, select: { hybridJudgeId: true, hybridCutoff: true } }),
    db.responseSet.findMany({ where: { studyId, finalJudgeId: { not: null } }, select: { id: true, finalJudgeId: true } }),
    db.$queryRaw<{ id: string; length: number }[]>`
      SELECT r."responseSetId"::text AS id, avg(length(r.text))::float8 AS length
      FROM "Response" r JOIN "ResponseSet" rs ON rs.id = r."responseSetId"
      WHERE rs."studyId" = ${studyId}::uuid GROUP BY r."responseSetId"`,
    db.judgeScore.findMany({
      where: { judge: { studyId } },
      select: { judgeId: true, responseSetId: true, rubric: true, dimension: true, repetition: true, score: true, category: true, na: true, expectedScore: true, confidence: true, probabilities: true },
    }),
  ]);
  const rubrics = query.rubrics?.length ? loaded.study.rubrics.filter((r) => query.rubrics!.includes(r.key)) : loaded.study.rubrics;
  const sets = panelSets(loaded, query, new Set(finalRows.map((r) => r.id)), new Map(lengthRows.map((r) => [r.id, r.length])));
  const names = new Map(loaded.graders.map((g) => [g.id, g.name]));
  return {
    data: {
      note: JUDGES_NOTE,
      judges: judges.map((j) => {
        const cells: JudgeCell[] = cellRows
          .filter((c) => c.judgeId === j.id)
          .map((c) => ({ setId: c.responseSetId, rubric: c.rubric, dimension: c.dimension, repetition: c.repetition, score: c.score, category: c.category, na: c.na, expectedScore: c.expectedScore, confidence: c.confidence, hasProbabilities: c.probabilities !== null }));
        const hybrid = study.hybridJudgeId === j.id && study.hybridCutoff !== null ? { cutoff: study.hybridCutoff, finalSets: finalRows.filter((r) => r.finalJudgeId === j.id).length } : null;
        return compareJudge({ study: { ...loaded.study, rubrics }, judge: j, hybrid, sets, cells, graderNames: names, resamples });
      }),
    },
    reason: null,
  };
}
