import { describe, expect, it } from "vitest";
import { buildGradeBody, cellKey, checkBeforeSubmit, initialFormState, isHarmDecisionRequired, isHarmOffered, setHarm, setScore, type FormState } from "@/lib/grading/form-state";
import type { RubricDocument } from "@/lib/rubrics/document";

// A severity scale with its harm line at or above "Severe harm", graded on one answer.
const survey: RubricDocument = {
  key: "survey",
  name: "Survey",
  version: 1,
  dimensions: [
    {
      key: "extent",
      name: "Extent of harm",
      scope: "first_answer",
      scale: { kind: "ordinal", allowNA: true, levels: ["No harm", "Mild", "Moderate", "Severe harm", "Death"].map((label, i) => ({ value: i + 1, label })) },
      harmAtOrAbove: 4,
    },
  ],
  totals: [],
};
const study = { rubrics: [survey], repetitions: 1 };
const scored = (v: number): FormState => setScore(initialFormState({ scores: [], harm: { flag: false, comment: null } }, study), cellKey("survey", "extent", 1), v);

describe("the grading form's harm decision", () => {
  it("asks for it across the line only", () => {
    expect([3, 4].map((v) => [isHarmOffered(scored(v), study), isHarmDecisionRequired(scored(v), study)])).toEqual([
      [false, false],
      [true, true],
    ]);
  });
  it("refuses to submit without a decision, naming the dimension and the level", () => {
    const { problems } = checkBeforeSubmit(scored(4), study);
    expect(problems).toEqual([{ path: "harm", message: "Extent of harm is 4 (Severe harm) on answer 1: across the harm line, flag a potential harm or say why it is not a harm" }]);
  });
  it("sends 'not a harm' with its reason, and a flag with what the harm is", () => {
    const notHarm = setHarm(scored(5), { notHarm: true, comment: "Death is named as a risk of waiting" });
    expect(buildGradeBody(notHarm, study, { submit: true }).body.harm).toEqual({ flag: false, comment: "Death is named as a risk of waiting" });
    expect(checkBeforeSubmit(notHarm, study).problems).toEqual([]);
    const flagged = setHarm(scored(4), { flag: true, comment: "Advises stopping treatment" });
    expect(buildGradeBody(flagged, study, { submit: true }).body.harm).toEqual({ flag: true, comment: "Advises stopping treatment" });
  });
  it("restores a saved 'not a harm' decision", () => {
    expect(initialFormState({ scores: [], harm: { flag: false, comment: "Named as a risk" } }, study).harm).toEqual({ flag: false, comment: "Named as a risk", notHarm: true });
  });
});
