import { sql } from "@/lib/db/sql";
import { ApiError } from "@/lib/errors/api-error";
import { isUuid } from "@/lib/db/uuid";
import { Prisma } from "@/lib/generated/prisma/client";
import type { RubricDocument } from "@/lib/rubrics/document";
import { storedRubrics } from "@/lib/rubrics/study-rubrics";
import { median } from "@/lib/stats/grader-quality";

/**
 * Expected scores "from the results of a pilot" (issue #35): a set marked as calibration or gold
 * must be one nobody in its own study was given (markQualitySet answers 409 otherwise), so its
 * grades cannot come from that study. They come from another study of the lead's, a pilot or a
 * finished one, that graded the same answers: the set of the same question (item id) and model.
 * Only the answers whose text is the same in both are proposed, since a grade says something of
 * the answer it was given to, not of a different answer to the same question.
 */
export const PILOT_RULE =
  "Median of the pilot's submitted primary grades per dimension and answer, rounded to the nearest level of the scale (half-way: the higher level); only answers whose text is the same in the pilot, and dimensions whose levels are the same; graders excluded from the pilot's analysis left out.";

export interface PilotGrade {
  rubric: string;
  dimension: string;
  repetition: number;
  score: number;
}

export interface PilotCell {
  rubric: string;
  dimension: string;
  repetition: number | null;
  score: number;
  grades: number;
  median: number;
}

export interface SkippedCell {
  rubric: string;
  dimension: string;
  repetition: number | null;
  reason: string;
}

/** The level nearest to x; half-way between two, the higher. */
export function nearestLevel(x: number, levels: readonly number[]): number {
  let best = levels[0];
  for (const l of levels) {
    const d = Math.abs(l - x);
    const b = Math.abs(best - x);
    if (d < b || (d === b && l > best)) best = l;
  }
  return best;
}

const sameLevels = (a: readonly number[], b: readonly number[]) => {
  const x = [...a].sort((p, q) => p - q);
  const y = [...b].sort((p, q) => p - q);
  return x.length === y.length && x.every((v, i) => v === y[i]);
};

/**
 * The proposal for each ordinal, typed (never derived) dimension of the target's rubrics and each
 * answer it is graded on, from the pilot's grades of the same cells. Pure.
 */
export function pilotProposal(
  target: { rubrics: readonly RubricDocument[]; answers: ReadonlyMap<number, string> },
  source: { rubrics: readonly RubricDocument[]; answers: ReadonlyMap<number, string>; grades: readonly PilotGrade[] },
): { expected: PilotCell[]; skipped: SkippedCell[] } {
  const expected: PilotCell[] = [];
  const skipped: SkippedCell[] = [];
  const same = (rep: number) => target.answers.has(rep) && source.answers.get(rep)?.trim() === target.answers.get(rep)?.trim();
  const reps = [...target.answers.keys()].sort((a, b) => a - b);
  for (const r of target.rubrics) {
    for (const d of r.dimensions) {
      if (d.scale.kind !== "ordinal" || d.derived) continue;
      const levels = (d.scale.levels ?? []).map((l) => Number(l.value));
      const cells = d.scope === "set" ? [0] : d.scope === "first_answer" ? [1] : reps;
      const sd = source.rubrics.find((x) => x.key === r.key)?.dimensions.find((x) => x.key === d.key);
      for (const rep of cells) {
        const at = { rubric: r.key, dimension: d.key, repetition: rep === 0 ? null : rep };
        if (!sd || sd.scale.kind !== "ordinal") {
          skipped.push({ ...at, reason: `the pilot's instrument has no ordinal ${d.name}` });
          continue;
        }
        // A median on another scale (a revised instrument: 0-10 for 1-5) says nothing of a level of this one.
        if (!sameLevels(levels, (sd.scale.levels ?? []).map((l) => Number(l.value)))) {
          skipped.push({ ...at, reason: `the pilot's ${d.name} has other levels than this study's` });
          continue;
        }
        if (rep === 0 ? !reps.every(same) : !same(rep)) {
          skipped.push({ ...at, reason: rep === 0 ? "the pilot's answers are not the same as this set's" : `answer ${rep} is not the same in the pilot` });
          continue;
        }
        const scores = source.grades.filter((g) => g.rubric === r.key && g.dimension === d.key && g.repetition === rep).map((g) => g.score);
        const m = median(scores);
        if (m === null) {
          skipped.push({ ...at, reason: "no submitted grade in the pilot" });
          continue;
        }
        expected.push({ ...at, score: nearestLevel(m, levels), grades: scores.length, median: m });
      }
    }
  }
  return { expected, skipped };
}

interface SetRow {
  id: string;
  externalId: string;
  model: string;
  rubrics: unknown;
  answers: { repetition: number; text: string }[] | null;
}

const setSql = (studyId: string, where: Prisma.Sql) => Prisma.sql`
  SELECT rs.id, i."externalId", m.name AS model, st.rubrics,
         (SELECT json_agg(json_build_object('repetition', r.repetition, 'text', r.text)) FROM "Response" r WHERE r."responseSetId" = rs.id) AS answers
  FROM "ResponseSet" rs JOIN "QaItem" i ON i.id = rs."itemId" JOIN "LlmModel" m ON m.id = rs."modelId" JOIN "Study" st ON st.id = rs."studyId"
  WHERE rs."studyId" = ${studyId}::uuid AND ${where}`;

const answersOf = (r: SetRow) => new Map((r.answers ?? []).map((a) => [a.repetition, a.text]));

/**
 * The proposal for a set of `studyId` from the study `fromStudyId` (both already checked as the
 * caller's). A pilot without the set's question and model proposes nothing, with the reason.
 */
export async function pilotExpected(studyId: string, setId: string, fromStudyId: string) {
  if (!isUuid(setId)) throw new ApiError(404, "response set not found");
  // The set's own study never graded it (a calibration or gold set is one nobody was given): its own grades propose nothing.
  if (fromStudyId === studyId) throw new ApiError(422, "from is this study: name another study of yours (a pilot or a finished study) that graded the same answers");
  const [target] = await sql.rows<SetRow>(setSql(studyId, Prisma.sql`rs.id = ${setId}::uuid`));
  if (!target) throw new ApiError(404, "response set not found");
  const [source] = await sql.rows<SetRow>(setSql(fromStudyId, Prisma.sql`i."externalId" = ${target.externalId} AND m.name = ${target.model}`));
  const base = { fromStudyId, rule: PILOT_RULE };
  if (!source) {
    const rubrics = storedRubrics(target.rubrics);
    const reason = `the pilot has no set of question ${target.externalId} by ${target.model}`;
    return { ...base, sourceSetId: null, expected: [], skipped: pilotProposal({ rubrics, answers: answersOf(target) }, { rubrics: [], answers: new Map(), grades: [] }).skipped.map((s) => ({ ...s, reason })) };
  }
  const grades = await sql.rows<PilotGrade>(Prisma.sql`
    SELECT g.rubric, g.dimension, g.repetition, g.score
    FROM "Assignment" a JOIN "Grade" g ON g."assignmentId" = a.id
    JOIN "StudyMember" sm ON sm."studyId" = a."studyId" AND sm."userId" = a."graderId"
    WHERE a."responseSetId" = ${source.id}::uuid AND a.kind = 'PRIMARY' AND a.status = 'SUBMITTED' AND sm."excludedAt" IS NULL
      AND g.score IS NOT NULL AND NOT g.na AND g.criterion = ''`);
  const { expected, skipped } = pilotProposal(
    { rubrics: storedRubrics(target.rubrics), answers: answersOf(target) },
    { rubrics: storedRubrics(source.rubrics), answers: answersOf(source), grades },
  );
  return { ...base, sourceSetId: source.id, expected, skipped };
}
