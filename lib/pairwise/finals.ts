import type { Db, Tx } from "@/lib/db/client";
import { storedRubrics } from "@/lib/rubrics/study-rubrics";
import { preferenceAxes } from "@/lib/rubrics/preference";
import { majorityChoice, type Choice } from "./votes";

export interface ComparisonFinal {
  comparisonId: string;
  rubric: string;
  axis: string;
  /** The majority of every submitted grader's vote (the adjudicator's among them); a tie of votes is a tie. */
  choice: Choice;
  votes: number;
}

/**
 * A study's final preference per comparison and axis, once the comparison is settled (agreed or
 * adjudicated): what statistics on final preferences and the lead's tables read.
 */
export async function comparisonFinals(db: Db | Tx, studyId: string): Promise<ComparisonFinal[]> {
  const study = await db.study.findUniqueOrThrow({ where: { id: studyId }, select: { rubrics: true } });
  const axes = preferenceAxes(storedRubrics(study.rubrics));
  const rows = await db.$queryRaw<{ comparisonId: string; rubric: string; axis: string; choices: Choice[] }[]>`
    SELECT c.id AS "comparisonId", p.rubric, p.axis, array_agg(p.choice::text ORDER BY a.id) AS choices
    FROM "Comparison" c
    JOIN "ComparisonAssignment" a ON a."comparisonId" = c.id AND a.status = 'SUBMITTED'
    JOIN "Preference" p ON p."assignmentId" = a.id
    WHERE c."studyId" = ${studyId}::uuid AND c.status IN ('AGREED', 'ADJUDICATED')
    GROUP BY c.id, p.rubric, p.axis
    ORDER BY c.id, p.rubric, p.axis`;
  const known = new Set(axes.map((a) => `${a.rubric}/${a.axis.key}`));
  return rows
    .filter((r) => known.has(`${r.rubric}/${r.axis}`))
    .map((r) => ({ comparisonId: r.comparisonId, rubric: r.rubric, axis: r.axis, choice: majorityChoice(r.choices)!, votes: r.choices.length }));
}
