import { sql } from "@/lib/db/sql";
import { Prisma } from "@/lib/generated/prisma/client";
import { excludedWorkSql } from "@/lib/results/exclusion";
import type { PreferenceChoice, PreferenceObservation } from "@/lib/stats/pairwise";

/**
 * Every analysed preference of a pairwise study in one statement: one row per grader, comparison
 * and axis, with the two models, the characters of the answers shown (length bias) and whether the
 * grader was a primary one (agreement). Only submitted work of graders the lead did not exclude
 * (lib/results/exclusion.ts). Through pg directly (lib/db/sql.ts), without Prisma's conversion.
 * Questions are named by their item id (`externalId`) and the rows come in an order of what they
 * are (question, the two answers, axis), not of database ids: the bootstrap's draws and the
 * agreement's sums are then the same for the same study after an archive import.
 */

type Row = { c: string; q: string; g: string; p: boolean; r: string; x: string; ch: "LEFT" | "RIGHT" | "TIE"; lm: string; rm: string; ll: number; rl: number };

/** The statement (exported for the benchmark, which times the bare read of the same rows). */
export const preferencesSql = (studyId: string, specialty: string | null) => Prisma.sql`
  SELECT ca."comparisonId"::text AS c, qi."externalId" AS q, ca."graderId"::text AS g, ca.kind = 'PRIMARY' AS p,
         pr.rubric AS r, pr.axis AS x, pr.choice::text AS ch, lm.name AS lm, rm.name AS rm,
         length(la.text) AS ll, length(ra.text) AS rl
  FROM "ComparisonAssignment" ca
  JOIN "Preference" pr ON pr."assignmentId" = ca.id
  JOIN "Comparison" c ON c.id = ca."comparisonId"
  JOIN "QaItem" qi ON qi.id = c."itemId"
  JOIN "ResponseSet" ls ON ls.id = c."leftSetId"
  JOIN "ResponseSet" rs ON rs.id = c."rightSetId"
  JOIN "LlmModel" lm ON lm.id = ls."modelId"
  JOIN "LlmModel" rm ON rm.id = rs."modelId"
  LEFT JOIN "Response" la ON la."responseSetId" = c."leftSetId" AND la.repetition = c."leftRepetition"
  LEFT JOIN "Response" ra ON ra."responseSetId" = c."rightSetId" AND ra.repetition = c."rightRepetition"
  WHERE ca."studyId" = ${studyId}::uuid AND ca.status = 'SUBMITTED'
    AND NOT ${Prisma.raw(excludedWorkSql("ca"))}
    AND (${specialty}::text IS NULL OR EXISTS (SELECT 1 FROM "Specialty" sp WHERE sp.id = qi."specialtyId" AND sp.name = ${specialty}::text))
  ORDER BY qi."externalId" COLLATE "C", lm.name COLLATE "C", c."leftRepetition", rm.name COLLATE "C", c."rightRepetition", pr.rubric, pr.axis`;

const CHOICE: Record<Row["ch"], PreferenceChoice> = { LEFT: "left", RIGHT: "right", TIE: "tie" };

/**
 * The study's preferences as observations of lib/stats/pairwise.ts. An axis is named
 * `rubric.axis` when the study has several rubrics, else by its key. `worse` lists the axes on
 * which the chosen answer is the worse one (`choiceIsWorse`): their choice is mirrored, so a win
 * always means "better".
 */
export async function loadPreferences(studyId: string, opts: { specialty?: string | null; worse?: ReadonlySet<string>; qualify?: boolean } = {}): Promise<PreferenceObservation[]> {
  const rows = await sql.rows<Row>(preferencesSql(studyId, opts.specialty ?? null));
  const out: PreferenceObservation[] = new Array(rows.length);
  for (let k = 0; k < rows.length; k++) {
    const row = rows[k];
    const axis = opts.qualify ? `${row.r}.${row.x}` : row.x;
    let choice = CHOICE[row.ch];
    if (opts.worse?.has(`${row.r}.${row.x}`) && choice !== "tie") choice = choice === "left" ? "right" : "left";
    out[k] = {
      comparison: row.c,
      question: row.q,
      axis,
      grader: row.g,
      leftModel: row.lm,
      rightModel: row.rm,
      leftLength: row.ll ?? undefined,
      rightLength: row.rl ?? undefined,
      choice,
      primary: row.p,
    };
  }
  return out;
}
