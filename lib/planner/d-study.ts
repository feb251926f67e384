import { ApiError } from "@/lib/errors/api-error";
import { getPool } from "@/lib/db/client";
import { storedRubrics } from "@/lib/rubrics/study-rubrics";
import { gStudy, dStudy, type GDesign } from "@/lib/stats/g-study";
import { iccSets } from "@/lib/stats/planner";
import type { PlannerAnswer, PlannerRequest } from "./contract";

type DStudyRequest = Extract<PlannerRequest, { target: "dstudy" }>;

/**
 * The D-study target: variance components from a study's submitted primary grades on one
 * ordinal dimension, and what 1-6 graders per set would give. The data are balanced first (the
 * estimators need it): answers with the most common number of grades, questions with the most
 * common number of such answers; what is left out is reported.
 */
export async function dStudyPlan(request: DStudyRequest, study: { id: string; rubrics: unknown; repetitions: number }): Promise<PlannerAnswer> {
  const docs = storedRubrics(study.rubrics);
  const doc = request.rubric ? docs.find((d) => d.key === request.rubric) : docs[0];
  if (!doc) throw new ApiError(422, `the study has no rubric "${request.rubric}"`, { errors: [{ path: "rubric", message: "no such rubric in the study" }], total: 1 });
  const dim = request.dimension ? doc.dimensions.find((d) => d.key === request.dimension) : doc.dimensions.find((d) => d.scale.kind === "ordinal");
  if (!dim || dim.scale.kind !== "ordinal") {
    const message = request.dimension ? `"${request.dimension}" is not an ordinal dimension of "${doc.key}"` : `"${doc.key}" has no ordinal dimension`;
    throw new ApiError(422, message, { errors: [{ path: "dimension", message }], total: 1 });
  }
  const { rows } = await getPool().query<{ item: string; answer: string; grader: string; score: number }>(
    `SELECT rs."itemId"::text AS item, rs."modelId"::text || ':' || g.repetition AS answer, a."graderId"::text AS grader, g.score
    FROM "Grade" g
    JOIN "Assignment" a ON a.id = g."assignmentId"
    JOIN "ResponseSet" rs ON rs.id = a."responseSetId"
    WHERE a."studyId" = $1::uuid AND a.kind = 'PRIMARY' AND a.status = 'SUBMITTED'
      AND g.rubric = $2 AND g.dimension = $3 AND g.criterion = '' AND g.score IS NOT NULL AND NOT g.na`,
    [study.id, doc.key, dim.key],
  );
  const byItem = new Map<string, Map<string, Map<string, number>>>();
  for (const r of rows) {
    const answers = byItem.get(r.item) ?? byItem.set(r.item, new Map()).get(r.item)!;
    const graders = answers.get(r.answer) ?? answers.set(r.answer, new Map()).get(r.answer)!;
    graders.set(r.grader, r.score);
  }
  const mode = (values: number[]) => {
    const count = new Map<number, number>();
    for (const v of values) count.set(v, (count.get(v) ?? 0) + 1);
    return [...count].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]?.[0] ?? 0;
  };
  const allAnswers = [...byItem.values()].flatMap((m) => [...m.values()]);
  const k = mode(allAnswers.map((g) => g.size));
  const complete = [...byItem].map(([item, answers]) => [item, [...answers].filter(([, g]) => g.size === k)] as const);
  const np = mode(complete.map(([, a]) => a.length));
  const kept = complete.filter(([, a]) => a.length === np && np >= 2);
  const droppedAnswers = allAnswers.length - kept.length * np;
  const droppedQuestions = byItem.size - kept.length;
  const graderSets = new Set(kept.flatMap(([, a]) => a.map(([, g]) => [...g.keys()].sort().join(","))));
  const design: GDesign = graderSets.size === 1 ? "crossed" : "nested";
  const scores = kept.map(([, answers]) => answers.map(([, g]) => [...g].sort((x, y) => (x[0] < y[0] ? -1 : 1)).map(([, s]) => s)));
  const g = gStudy(scores, design);
  if (g.reason) {
    const message = `the study's grades cannot give variance components yet: ${g.reason} (after keeping answers with ${k} grades on "${dim.key}")`;
    throw new ApiError(422, message, { errors: [{ path: "studyId", message }], total: 1 });
  }
  const ciWidth = request.ciWidth ?? 0.2;
  const graders = request.graders ?? [1, 2, 3, 4, 5, 6];
  const single = dStudy(g, [1])[0].absolute;
  const table = dStudy(g, graders).map((row) => {
    const plan = single !== null && single > 0 && single < 1 && row.graders >= 2 ? iccSets(single, row.graders, ciWidth) : null;
    const answers = plan && !("problem" in plan) ? plan.sets : null;
    return { ...row, answers, sets: answers === null ? null : Math.ceil(answers / Math.max(1, study.repetitions)) };
  });
  const current = table.find((r) => r.graders === g.gradersPerAnswer) ?? table.find((r) => r.answers !== null);
  return {
    target: "dstudy",
    sets: current?.sets ?? 0,
    method: `G-study of "${dim.name}" (${design === "crossed" ? "graders crossed with answers, (p:q) x r" : "graders nested in answers, r:(p:q)"}; ANOVA estimators, Brennan 2001), D-study for other numbers of graders, and the sets for an ICC interval of full width ${ciWidth} (Bonett 2002) at the single-grader dependability`,
    assumptions: [
      `${g.questions} questions x ${g.answersPerQuestion} answers x ${g.gradersPerAnswer} graders of the study's submitted primary grades${droppedAnswers || droppedQuestions ? `; ${droppedAnswers} answers and ${droppedQuestions} questions left out to balance the data` : ""}`,
      design === "nested" ? "each answer had its own graders, so graders' leniency is part of the residual" : "the same graders scored every answer",
      "new graders and questions behave like the study's (random facets)",
      ...(g.negative.length ? [`negative estimates set to 0: ${g.negative.join(", ")}`] : []),
    ],
    details: { ...(single === null ? {} : { singleGraderDependability: single }), ciWidth },
    gStudy: { design, questions: g.questions, answersPerQuestion: g.answersPerQuestion, gradersPerAnswer: g.gradersPerAnswer, dropped: { answers: droppedAnswers, questions: droppedQuestions }, components: g.components, negative: g.negative },
    dStudy: table,
  };
}
