import { describe, expect, it } from "vitest";
import {
  answerScores,
  buildGradeBody,
  cellKey,
  checkBeforeSubmit,
  completeness,
  fieldLabel,
  formatScore,
  gradingFields,
  initialFormState,
  isHarmOffered,
  liveTotals,
  parseCellKey,
  placeProblems,
  problemsFromErrorBody,
  setComment,
  setHarm,
  setScore,
  type FormState,
} from "@/lib/grading/form-state";
import { validateGrades } from "@/lib/grading/validate";
import { ordinalRange } from "@/lib/rubrics/document";
import { templateRubrics } from "@/lib/rubrics/study-rubrics";

const both = { rubrics: templateRubrics(["SCORE", "SAFE_LLM"]), repetitions: 3 };
const scoreOnly = { rubrics: templateRubrics(["SCORE"]), repetitions: 3 };
const empty = (): FormState => ({ scores: {}, comments: {}, harm: { flag: false, comment: "" }, contradiction: { flag: false, note: "" } });

function filled(acc: [number, number, number] = [2, 2, 2]): FormState {
  let s = empty();
  for (const f of gradingFields(both)) {
    const v = f.dimension.key === "accuracy" ? acc[f.repetition - 1] : ordinalRange(f.dimension).max;
    s = setScore(s, f.key, v);
  }
  return s;
}

describe("grading fields", () => {
  it("lists them in the page's order: answer 1 (S.C.O.R.E.'s four, SAFE-LLM's), answers 2 and 3, then reproducibility across them; never consistency", () => {
    const keys = gradingFields(both).map((f) => f.key);
    const safe = (r: number) => [`SAFE_LLM/accuracy/${r}`, `SAFE_LLM/comprehensiveness/${r}`, `SAFE_LLM/supplementation/${r}`, `SAFE_LLM/fluency/${r}`];
    expect(keys).toEqual([
      "SCORE/safety/1",
      "SCORE/consensus_context/1",
      "SCORE/objectivity/1",
      "SCORE/explainability/1",
      ...safe(1),
      ...safe(2),
      ...safe(3),
      "SCORE/reproducibility/0",
    ]);
    expect(keys.some((k) => k.includes("consistency"))).toBe(false);
    expect(gradingFields(scoreOnly)).toHaveLength(5);
    expect(gradingFields({ rubrics: templateRubrics(["SAFE_LLM"]), repetitions: 2 })).toHaveLength(8);
  });

  it("round-trips cell keys and names fields for people", () => {
    expect(parseCellKey(cellKey("SCORE", "reproducibility", 0))).toEqual({ rubric: "SCORE", dimension: "reproducibility", repetition: 0 });
    const fields = gradingFields(both);
    const [safety, repro] = [fields[0], fields.find((f) => f.dimension.key === "reproducibility")!];
    expect(fieldLabel(safety)).toBe("S.C.O.R.E. Safety (answer 1)");
    expect(fieldLabel(repro)).toBe("S.C.O.R.E. Reproducibility (all answers)");
  });
});

describe("initial state from the server", () => {
  it("restores scores, comments and harm; set-level scores come back at repetition null; derived consistency is ignored", () => {
    const s = initialFormState(
      {
        scores: [
          { rubric: "SCORE", dimension: "safety", repetition: 1, score: 2, comment: "misleading" },
          { rubric: "SCORE", dimension: "reproducibility", repetition: null, score: 4, comment: null },
          { rubric: "SAFE_LLM", dimension: "consistency", repetition: null, score: 1, comment: null },
          { rubric: "SAFE_LLM", dimension: "accuracy", repetition: 2, score: 0, comment: null },
        ],
        harm: { flag: true, comment: "dose" },
      },
      both,
    );
    expect(s.scores).toEqual({ "SCORE/safety/1": 2, "SCORE/reproducibility/0": 4, "SAFE_LLM/accuracy/2": 0 });
    expect(s.comments).toEqual({ "SCORE/safety/1": "misleading" });
    expect(s.harm).toEqual({ flag: true, comment: "dose" });
  });
});

describe("the PUT body (whole form)", () => {
  it("sends scored cells and comments typed before their score, set-level at repetition null, trimmed comments, no consistency, rounded elapsed time", () => {
    let s = setScore(empty(), "SCORE/reproducibility/0", 3);
    s = setScore(s, "SCORE/safety/1", 5);
    s = setComment(s, "SCORE/safety/1", "  clear advice  ");
    s = setComment(s, "SCORE/objectivity/1", "no score yet"); // a draft keeps it on its own (issue 21, item 4)
    s = setComment(s, "SCORE/explainability/1", "   "); // blank: nothing to keep
    const { body, keys } = buildGradeBody(s, both, { submit: false, elapsedMs: 1234.6 });
    expect(body).toEqual({
      scores: [
        { rubric: "SCORE", dimension: "safety", repetition: 1, score: 5, comment: "clear advice" },
        { rubric: "SCORE", dimension: "objectivity", repetition: 1, score: null, comment: "no score yet" },
        { rubric: "SCORE", dimension: "reproducibility", repetition: null, score: 3 },
      ],
      harm: { flag: false },
      submit: false,
      elapsedMs: 1235,
    });
    expect(keys).toEqual(["SCORE/safety/1", "SCORE/objectivity/1", "SCORE/reproducibility/0"]);
  });

  it("sends N/A as score null with na, and a nominal value as its string", () => {
    const custom = {
      rubrics: [
        {
          key: "custom",
          name: "Custom",
          version: 1,
          dimensions: [
            { key: "clarity", name: "Clarity", scope: "first_answer" as const, scale: { kind: "ordinal" as const, levels: [{ value: 1, label: "Low" }, { value: 2, label: "High" }], allowNA: true } },
            { key: "harm", name: "Harm", scope: "first_answer" as const, scale: { kind: "nominal" as const, levels: [{ value: "none", label: "None" }, { value: "severe", label: "Severe" }] } },
          ],
          totals: [],
        },
      ],
      repetitions: 1,
    };
    const s = setScore(setScore(empty(), "custom/clarity/1", null), "custom/harm/1", "severe");
    const { body } = buildGradeBody(s, custom, { submit: true });
    expect(body.scores).toEqual([
      { rubric: "custom", dimension: "clarity", repetition: 1, score: null, na: true },
      { rubric: "custom", dimension: "harm", repetition: 1, score: "severe" },
    ]);
    expect(validateGrades(body, custom).problems).toEqual([]);
    expect(initialFormState({ scores: body.scores.map((x) => ({ ...x, comment: null })), harm: { flag: false, comment: null } }, custom).scores).toEqual({
      "custom/clarity/1": null,
      "custom/harm/1": "severe",
    });
  });

  it("is what the server's validator accepts, and a complete form validates as complete", () => {
    const { body } = buildGradeBody(filled([2, 1, 2]), both, { submit: true, elapsedMs: 0 });
    const v = validateGrades(body, both);
    expect(v.problems).toEqual([]);
    expect(v.complete).toBe(true);
    expect(v.cells.find((c) => c.dimension === "consistency")?.score).toBe(0);
  });

  it("caps elapsed time at what the API accepts", () => {
    expect(buildGradeBody(empty(), both, { submit: false, elapsedMs: 1e12 }).body.elapsedMs).toBe(24 * 3_600_000);
    expect(buildGradeBody(empty(), both, { submit: false, elapsedMs: -5 }).body.elapsedMs).toBe(0);
    expect(buildGradeBody(empty(), both, { submit: false }).body).not.toHaveProperty("elapsedMs");
  });

  it("sends the harm flag only while it is offered; a draft flag without comment leaves the server's harm alone", () => {
    let s = setHarm(setScore(empty(), "SCORE/safety/1", 4), { flag: true, comment: "x" });
    expect(isHarmOffered(s, both)).toBe(false);
    expect(buildGradeBody(s, both, { submit: false }).body.harm).toEqual({ flag: false });

    s = setScore(s, "SCORE/safety/1", 2);
    expect(isHarmOffered(s, both)).toBe(true);
    expect(buildGradeBody(s, both, { submit: false }).body.harm).toEqual({ flag: true, comment: "x" });

    s = setHarm(s, { comment: "   " });
    expect(buildGradeBody(s, both, { submit: false }).body).not.toHaveProperty("harm");
    expect(buildGradeBody(s, both, { submit: true }).body.harm).toEqual({ flag: true, comment: "" });

    const acc0 = setHarm(setScore(empty(), "SAFE_LLM/accuracy/3", 0), { flag: true, comment: "wrong drug" });
    expect(isHarmOffered(acc0, both)).toBe(true);
    // A rubric naming no harm level offers the flag always.
    expect(isHarmOffered(empty(), { rubrics: templateRubrics(["clear"]), repetitions: 1 })).toBe(true);
  });

  it("clearing a score removes it from the body", () => {
    const s = setScore(setScore(empty(), "SCORE/safety/1", 3), "SCORE/safety/1", undefined);
    expect(buildGradeBody(s, both, { submit: false }).body.scores).toEqual([]);
  });
});

describe("completeness and problems", () => {
  it("counts what is scored and names what is missing, in form order", () => {
    const s = setScore(setScore(empty(), "SCORE/safety/1", 3), "SAFE_LLM/fluency/3", 1);
    const c = completeness(s, both);
    expect(c).toMatchObject({ done: 2, total: 17 });
    expect(c.missing[0].key).toBe("SCORE/consensus_context/1");
    expect(completeness(filled(), both)).toMatchObject({ done: 17, total: 17, missing: [] });
  });

  it("checks before submitting with the shared validator: missing scores and a harm flag without comment", () => {
    expect(checkBeforeSubmit(filled(), both).problems).toEqual([]);
    const incomplete = checkBeforeSubmit(setScore(filled(), "SAFE_LLM/fluency/2", undefined), both);
    expect(incomplete.problems).toHaveLength(1);
    expect(incomplete.problems[0]).toMatchObject({ path: "scores" });
    expect(incomplete.problems[0].message).toContain("SAFE-LLM Fluency (answer 2)");

    const harm = setHarm(setScore(filled(), "SCORE/safety/1", 1), { flag: true, comment: "" });
    expect(checkBeforeSubmit(harm, both).problems).toEqual([{ path: "harm.comment", message: expect.stringContaining("comment") }]);
  });

  it("places problems on the field sent at that index, on the harm comment, or in the general list", () => {
    const s = setScore(empty(), "SCORE/safety/1", 4);
    const keys = ["SCORE/safety/1", "SAFE_LLM/accuracy/2"] as const;
    const placed = placeProblems(
      [
        { path: "scores[1].score", message: "bad score" },
        { path: "harm.comment", message: "needs a comment" },
        { path: "scores", message: "missing before submitting: S.C.O.R.E. Objectivity (answer 1)" },
        { path: "", message: "something else" },
      ],
      [...keys],
      s,
      both,
    );
    expect(placed.fields["SAFE_LLM/accuracy/2"]).toBe("bad score");
    expect(placed.harm).toBe("needs a comment");
    expect(placed.general).toEqual(["missing before submitting: S.C.O.R.E. Objectivity (answer 1)", "something else"]);
    // every missing field is marked, the scored one is not
    expect(placed.fields["SCORE/objectivity/1"]).toMatch(/Required/);
    expect(placed.fields["SCORE/safety/1"]).toBeUndefined();
  });

  it("says a required comment's problem beside its field without repeating the dimension's name", () => {
    const doc = {
      key: "survey",
      name: "Survey",
      version: 1,
      dimensions: [
        {
          key: "acceptability",
          name: "Acceptability (1-3)",
          scope: "each_answer" as const,
          scale: { kind: "ordinal" as const, levels: [1, 2, 3].map((value) => ({ value, label: String(value) })) },
          requireCommentAtOrBelow: 1,
        },
      ],
      totals: [],
    };
    const study = { rubrics: [doc], repetitions: 2 };
    const s = setScore(setScore(empty(), "survey/acceptability/1", 3), "survey/acceptability/2", 1);
    const check = checkBeforeSubmit(s, study);
    // The API's message names the dimension and answer (a client of the API needs them)…
    expect(check.problems).toEqual([{ path: "scores[1].comment", message: "Acceptability (1-3) (answer 2): say why in a comment when scoring 1 or below" }]);
    // …the form shows it under the dimension's name, so it says only what to do.
    const placed = placeProblems(check.problems, check.keys, s, study);
    expect(placed.fields["survey/acceptability/2"]).toBe("Say why in a comment when scoring 1 or below");
    // A message about something else is left as it is.
    expect(placeProblems([{ path: "scores[0].score", message: "Clarity: bad" }], ["survey/acceptability/1"], s, study).fields["survey/acceptability/1"]).toBe("Clarity: bad");
  });

  it("reads both error shapes of the API", () => {
    expect(problemsFromErrorBody({ error: "invalid grades", details: { problems: [{ path: "harm.comment", message: "m" }] } })).toEqual([{ path: "harm.comment", message: "m" }]);
    expect(problemsFromErrorBody({ error: "invalid input", details: [{ path: "scores.0.score", message: "int" }] })).toEqual([{ path: "scores.0.score", message: "int" }]);
    expect(problemsFromErrorBody({ error: "x" })).toEqual([]);
    expect(problemsFromErrorBody(null)).toEqual([]);
  });
});

describe("live totals", () => {
  it("sums S.C.O.R.E. as it is scored, out of 25", () => {
    let s = setScore(empty(), "SCORE/safety/1", 4);
    s = setScore(s, "SCORE/reproducibility/0", 5);
    expect(liveTotals(s, scoreOnly)).toEqual([
      { rubric: "SCORE", key: "total", name: "S.C.O.R.E. total (/25)", value: null, partial: { sum: 9, scored: 2, of: 5 }, max: 25 },
    ]);
  });

  it("derives consistency from the accuracy scores and scores each SAFE-LLM answer out of 7 with the set mean", () => {
    const mean = (s: FormState) => liveTotals(s, both).find((t) => t.rubric === "SAFE_LLM" && t.key === "per_answer")!.value;
    const equal = answerScores(filled([2, 2, 2]), both, "SAFE_LLM");
    expect(equal.derived.consistency).toBe(1);
    expect(equal.answers).toEqual([7, 7, 7]);
    expect(mean(filled([2, 2, 2]))).toBe(7);

    const differ = answerScores(filled([2, 0, 1]), both, "SAFE_LLM");
    expect(differ.derived.consistency).toBe(0);
    expect(differ.answers).toEqual([6, 4, 5]);
    expect(mean(filled([2, 0, 1]))).toBe(5);

    const partialForm = setScore(filled(), "SAFE_LLM/accuracy/3", undefined);
    const partial = answerScores(partialForm, both, "SAFE_LLM");
    expect(partial.derived.consistency).toBeNull();
    expect(partial.answers).toEqual([null, null, null]);
    expect(mean(partialForm)).toBeNull();
  });

  it("formats means without noise", () => {
    expect(formatScore(5)).toBe("5");
    expect(formatScore(17 / 3)).toBe("5.67");
    expect(formatScore(5.5)).toBe("5.5");
  });
});
