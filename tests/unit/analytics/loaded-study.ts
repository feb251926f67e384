/**
 * A S.C.O.R.E.-only study as lib/analytics/assemble loads it, for the tests of
 * the dashboard's statistics: sets of one question and one model, each graded
 * by primaries with a whole S.C.O.R.E. form (or still pending).
 */
import type { LoadedAssignment, LoadedSet, LoadedStudy } from "@/lib/analytics/assemble";
import { cellLayout, encodeCell } from "@/lib/analytics/grader-cells";
import type { SetStatusKey } from "@/lib/analytics/types";
import { templateRubrics } from "@/lib/rubrics/study-rubrics";
import { DEFAULT_THRESHOLDS } from "@/lib/rubrics/thresholds";

export const uuid = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;

export const GRADERS = [1, 2, 3].map((i) => ({ id: uuid(100 + i), name: `Grader ${i}`, active: true, external: false }));

/** The S.C.O.R.E. dimensions in the order of a form's values (reproducibility is graded once for the set). */
export const SCORE_DIMS = ["safety", "consensus_context", "objectivity", "reproducibility", "explainability"];
export type ScoreForm = [number, number, number, number, number];

/** The study (N answers per set, two graders per set) and its cell layout. */
export function scoreStudy(repetitions: number) {
  const study = {
    id: uuid(1),
    name: "S",
    slug: "s",
    status: "OPEN" as const,
    rubrics: templateRubrics(["SCORE"]),
    repetitions,
    gradersPerSet: 2,
    safeLlmScoring: "PER_ANSWER" as const,
    thresholds: DEFAULT_THRESHOLDS,
  };
  return { study, layout: cellLayout(study.rubrics) };
}

export interface GradedSet {
  /** The question's index (its id and Q<item>); by default the set's own index. */
  item?: number;
  model: string;
  specialty: string;
  status: SetStatusKey;
  /** Each primary's form by its index in GRADERS; null: still pending. */
  forms: { grader: number; form: ScoreForm | null }[];
}

/** The loaded study: set i has id uuid(1000 + i), its question uuid(2000 + item). */
export function loadedStudy(repetitions: number, rows: GradedSet[]): LoadedStudy {
  const { study, layout } = scoreStudy(repetitions);
  const cells = (v: ScoreForm) =>
    SCORE_DIMS.map((dimension, i) => encodeCell(layout, { rubric: "SCORE", dimension, repetition: dimension === "reproducibility" ? 0 : 1, score: v[i] }));
  const sets: LoadedSet[] = [];
  const assignments: LoadedAssignment[] = [];
  rows.forEach((r, i) => {
    const id = uuid(1000 + i);
    const item = r.item ?? i;
    sets.push({ id, itemId: uuid(2000 + item), externalId: `Q${item}`, specialty: r.specialty, model: { id: r.model, name: r.model, version: "" }, status: r.status });
    for (const { grader, form } of r.forms) {
      assignments.push({ setId: id, graderId: GRADERS[grader].id, kind: "PRIMARY", status: form ? "SUBMITTED" : "PENDING", cells: form ? cells(form) : null });
    }
  });
  return { study, layout, models: [...new Set(rows.map((r) => r.model))], sets, assignments, graders: GRADERS };
}
