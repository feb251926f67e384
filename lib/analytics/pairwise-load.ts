import { sqlTransaction } from "@/lib/db/sql";
import { Prisma } from "@/lib/generated/prisma/client";
import { excludedWorkSql } from "@/lib/results/exclusion";
import type { PreferenceChoice, PreferenceObservation } from "@/lib/stats/pairwise";

/**
 * Every analysed preference of a pairwise study: one row per grader, comparison and axis, with
 * the two models, the characters of the answers shown (length bias) and whether the grader was a
 * primary one (agreement). Only submitted work of graders the lead did not exclude
 * (lib/results/exclusion.ts). Through pg directly (lib/db/sql.ts), without Prisma's conversion.
 * Questions are named by their item id (`externalId`) and the rows come in an order of what they
 * are (question, the two answers, axis, grader), not of database ids: the bootstrap's draws and
 * the agreement's sums are then the same for the same study after an archive import.
 *
 * Two statements in one snapshot: the comparisons (thousands) with their models, answer lengths
 * and order, then the preferences (about a hundred thousand) with only their own columns, put
 * in the comparisons' order here. One statement joining both carried every preference's
 * question, model names and answer text through its joins and sorted them on disk: 600 ms of
 * PostgreSQL and 250 ms of parsing for 99,000 preferences, against about 330 ms in all now
 * (bench/README.md, "pairwise").
 */

type ComparisonRow = { id: string; q: string; lm: string; rm: string; ll: number | null; rl: number | null };
type PreferenceRow = { c: string; g: string; p: boolean; r: string; x: string; ch: "LEFT" | "RIGHT" | "TIE" };

/** The comparisons of the study (one specialty's, or all), in the order their preferences are analysed. */
export const comparisonsSql = (studyId: string, specialty: string | null) => Prisma.sql`
  SELECT c.id::text AS id, qi."externalId" AS q, lm.name AS lm, rm.name AS rm, la.n AS ll, ra.n AS rl
  FROM "Comparison" c
  JOIN "QaItem" qi ON qi.id = c."itemId"
  JOIN "ResponseSet" ls ON ls.id = c."leftSetId"
  JOIN "ResponseSet" rs ON rs.id = c."rightSetId"
  JOIN "LlmModel" lm ON lm.id = ls."modelId"
  JOIN "LlmModel" rm ON rm.id = rs."modelId"
  -- The answers' lengths by index lookups: a join would carry each answer's text to the sort.
  LEFT JOIN LATERAL (SELECT length(r.text) AS n FROM "Response" r WHERE r."responseSetId" = c."leftSetId" AND r.repetition = c."leftRepetition") la ON true
  LEFT JOIN LATERAL (SELECT length(r.text) AS n FROM "Response" r WHERE r."responseSetId" = c."rightSetId" AND r.repetition = c."rightRepetition") ra ON true
  WHERE c."studyId" = ${studyId}::uuid
    AND (${specialty}::text IS NULL OR EXISTS (SELECT 1 FROM "Specialty" sp WHERE sp.id = qi."specialtyId" AND sp.name = ${specialty}::text))
  ORDER BY qi."externalId" COLLATE "C", lm.name COLLATE "C", c."leftRepetition", rm.name COLLATE "C", c."rightRepetition", c.id`;

/** The study's analysed preferences, in no order (loadPreferences orders them by their comparison). */
export const preferencesSql = (studyId: string) => Prisma.sql`
  SELECT ca."comparisonId"::text AS c, ca."graderId"::text AS g, ca.kind = 'PRIMARY' AS p, pr.rubric AS r, pr.axis AS x, pr.choice::text AS ch
  FROM "ComparisonAssignment" ca
  JOIN "Preference" pr ON pr."assignmentId" = ca.id
  WHERE ca."studyId" = ${studyId}::uuid AND ca.status = 'SUBMITTED'
    AND NOT ${Prisma.raw(excludedWorkSql("ca"))}`;

const CHOICE: Record<PreferenceRow["ch"], PreferenceChoice> = { LEFT: "left", RIGHT: "right", TIE: "tie" };

/** Within one comparison: rubric, axis, then grader (code-unit order, as COLLATE "C" orders these keys and ids). */
const byAxisThenGrader = (a: { r: string; x: string; g: string }, b: { r: string; x: string; g: string }) =>
  a.r < b.r ? -1 : a.r > b.r ? 1 : a.x < b.x ? -1 : a.x > b.x ? 1 : a.g < b.g ? -1 : a.g > b.g ? 1 : 0;

/**
 * The study's preferences as observations of lib/stats/pairwise.ts. An axis is named
 * `rubric.axis` when the study has several rubrics, else by its key. `worse` lists the axes on
 * which the chosen answer is the worse one (`choiceIsWorse`): their choice is mirrored, so a win
 * always means "better".
 */
export async function loadPreferences(studyId: string, opts: { specialty?: string | null; worse?: ReadonlySet<string>; qualify?: boolean } = {}): Promise<PreferenceObservation[]> {
  // Each comparison's preferences, gathered as they arrive, then read out in the comparisons' order.
  const { comparisons, groups } = await sqlTransaction(
    async (tx) => {
      const comparisons = await tx.rows<ComparisonRow>(comparisonsSql(studyId, opts.specialty ?? null));
      const at = new Map<string, number>();
      for (let k = 0; k < comparisons.length; k++) at.set(comparisons[k].id, k);
      const groups: PreferenceRow[][] = new Array(comparisons.length);
      // Preferences of comparisons outside the specialty have no place and are left out.
      await tx.each<PreferenceRow>(preferencesSql(studyId), (row) => {
        const k = at.get(row.c);
        if (k === undefined) return;
        (groups[k] ??= []).push(row);
      });
      return { comparisons, groups };
    },
    { snapshot: true },
  );
  const out: PreferenceObservation[] = [];
  for (let k = 0; k < comparisons.length; k++) {
    const group = groups[k];
    if (!group) continue;
    const cmp = comparisons[k];
    if (group.length > 1) group.sort(byAxisThenGrader);
    for (const row of group) {
      let choice = CHOICE[row.ch];
      if (opts.worse?.has(`${row.r}.${row.x}`) && choice !== "tie") choice = choice === "left" ? "right" : "left";
      out.push({
        comparison: row.c,
        question: cmp.q,
        axis: opts.qualify ? `${row.r}.${row.x}` : row.x,
        grader: row.g,
        leftModel: cmp.lm,
        rightModel: cmp.rm,
        leftLength: cmp.ll ?? undefined,
        rightLength: cmp.rl ?? undefined,
        choice,
        primary: row.p,
      });
    }
  }
  return out;
}
