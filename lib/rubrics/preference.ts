import type { RubricDocument, RubricProblem } from "@/lib/rubrics/document";

/**
 * A study's design decides which scale kinds its rubrics may hold: a pairwise study asks only
 * which of two answers is better (preference axes); a scoring study never does (its grading,
 * escalation, statistics and exports have no value for a preference).
 */
export function designRubricProblems(design: "SCORING" | "PAIRWISE", docs: readonly RubricDocument[]): RubricProblem[] {
  const problems: RubricProblem[] = [];
  docs.forEach((doc, i) =>
    doc.dimensions.forEach((d, j) => {
      const path = `rubrics.${i}.dimensions.${j}.scale.kind`;
      if (design === "PAIRWISE" && d.scale.kind !== "preference") {
        problems.push({ path, message: `a pairwise study compares two answers: "${d.key}" is ${d.scale.kind}, its rubrics hold only preference axes` });
      } else if (design === "SCORING" && d.scale.kind === "preference") {
        problems.push({ path, message: `"${d.key}" is a preference axis: it belongs to a study of the pairwise design` });
      }
    }),
  );
  return problems;
}

/** The preference axes of a pairwise study's rubrics, in form order. */
export function preferenceAxes(docs: readonly RubricDocument[]) {
  return docs.flatMap((doc) => doc.dimensions.filter((d) => d.scale.kind === "preference").map((d) => ({ rubric: doc.key, axis: d })));
}
