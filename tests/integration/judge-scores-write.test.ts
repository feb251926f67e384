import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { writeJudgeScores } from "@/lib/judges/write";
import type { JudgeRowInput } from "@/lib/judges/validate";
import { ApiError } from "@/lib/server/errors";
import { useIsolatedDatabase } from "./helpers/db";
import { makeGradableStudy, MODEL_NAMES } from "./helpers/study-fixture";

useIsolatedDatabase();

async function setup() {
  const s = await makeGradableStudy({ rubrics: ["SCORE", "SAFE_LLM"], items: 2, models: 2, graders: 2 });
  const judge = await getDb().automatedJudge.create({ data: { studyId: s.study.id, name: "GPT judge", model: "gpt-4o" } });
  return { ...s, judge };
}

async function rejected(p: Promise<unknown>): Promise<ApiError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ApiError);
  return e as ApiError;
}

const safety = (over: Partial<JudgeRowInput> = {}): JudgeRowInput => ({ itemId: "Q1", model: MODEL_NAMES[0], repetition: 1, dimension: "safety", score: 4, ...over });

describe("writeJudgeScores", () => {
  it("stores both readings and the confidence, and writing the same rows again changes nothing", async () => {
    const { study, judge } = await setup();
    const rows: JudgeRowInput[] = [
      safety({ score: null, probabilities: { "1": 0, "2": 0.1, "3": 0.4, "4": 0.4, "5": 0.1 } }),
      { itemId: "Q1", model: MODEL_NAMES[0], repetition: 2, dimension: "accuracy", score: 2, rationale: "correct\nand complete" },
      { itemId: "Q1", model: MODEL_NAMES[1], repetition: 0, dimension: "reproducibility", samples: [3, 4, 4] },
    ];
    const first = await writeJudgeScores({ studyId: study.id, judgeId: judge.id, rows });
    expect(first).toMatchObject({ created: 3, updated: 0, unchanged: 0, renormalised: 0 });
    const stored = await getDb().judgeScore.findMany({ where: { judgeId: judge.id }, orderBy: { dimension: "asc" } });
    const byDim = Object.fromEntries(stored.map((s) => [s.dimension, s]));
    // Tie between 3 and 4 (0.4 each): the lower level; expected 2*0.1+3*0.4+4*0.4+5*0.1 = 3.5.
    expect(byDim.safety).toMatchObject({ score: 3, repetition: 1, confidence: 0.4 });
    expect(byDim.safety.expectedScore).toBeCloseTo(3.5, 12);
    expect(byDim.accuracy).toMatchObject({ score: 2, rubric: "SAFE_LLM", repetition: 2, rationale: "correct\nand complete", probabilities: null, confidence: null });
    // Samples 3,4,4 on a 1-5 scale: modal 4, mean 11/3, confidence 1 - 1/4.
    expect(byDim.reproducibility).toMatchObject({ score: 4, repetition: 0, confidence: 0.75, samples: [3, 4, 4] });
    expect(byDim.reproducibility.expectedScore).toBeCloseTo(11 / 3, 12);

    const again = await writeJudgeScores({ studyId: study.id, judgeId: judge.id, rows });
    expect(again).toMatchObject({ created: 0, updated: 0, unchanged: 3 });
    const changed = await writeJudgeScores({ studyId: study.id, judgeId: judge.id, rows: [safety({ score: 5 })] });
    expect(changed).toMatchObject({ created: 0, updated: 1, unchanged: 0 });
    expect(await getDb().judgeScore.count({ where: { judgeId: judge.id } })).toBe(3);
  });

  it("writes nothing when any row has a problem, and names each", async () => {
    const { study, judge } = await setup();
    const e = await rejected(
      writeJudgeScores({
        studyId: study.id,
        judgeId: judge.id,
        rows: [
          safety(),
          safety({ itemId: "Q99" }),
          safety({ model: "Nope", repetition: 1 }),
          safety({ score: 6 }),
          safety({ score: null, probabilities: { "1": 0.2, "2": 0.2, "3": 0.2, "4": 0.2, "5": 0.1 } }),
          safety({ score: null, probabilities: { "1": 0.2, "2": 0.2, "3": 0.2, "4": 0.2, "7": 0.2 } }),
          safety({ itemId: "Q2", score: 3, probabilities: { "1": 0, "2": 0, "3": 0.2, "4": 0.8, "5": 0 } }),
          safety(),
          safety({ itemId: "Q2", rationale: "bad\u0000byte" }),
          safety({ itemId: "Q2", repetition: 2 }),
          safety({ itemId: "Q2", model: MODEL_NAMES[1], confidence: 1.5 }),
          safety({ itemId: "Q2", model: MODEL_NAMES[1], dimension: "no_such" }),
        ],
      }),
    );
    expect(e.status).toBe(422);
    const errors = (e.details as { errors: { row: number; column: string | null; message: string }[] }).errors;
    const at = (row: number) => errors.filter((x) => x.row === row).map((x) => `${x.column}: ${x.message}`).join(" | ");
    expect(errors.some((x) => x.row === 1)).toBe(false);
    expect(at(2)).toMatch(/item_id: unknown answer: no item "Q99"/);
    expect(at(3)).toMatch(/model: unknown answer: no model "Nope"/);
    expect(at(4)).toMatch(/score: 6 is not a level of safety/);
    expect(at(5)).toMatch(/probabilities: .*sum to 0\.9, not 1.*not renormalised/);
    expect(at(6)).toMatch(/p_7: "7" is not a level/);
    expect(at(6)).toMatch(/p_5: missing the probability of level 5/);
    expect(at(7)).toMatch(/score: the score 3 is not the most probable level \(4/);
    expect(at(8)).toMatch(/repeats row 1/);
    expect(at(9)).toMatch(/rationale: rationale contains the control character U\+0000/);
    expect(at(10)).toMatch(/repetition: safety is scored on answer 1 only/);
    expect(at(11)).toMatch(/confidence: confidence must be a number from 0 to 1/);
    expect(at(12)).toMatch(/dimension: no dimension "no_such"/);
    expect(await getDb().judgeScore.count({ where: { judgeId: judge.id } })).toBe(0);
  });

  it("renormalises probabilities within 1e-6 of 1 and says so", async () => {
    const { study, judge } = await setup();
    const res = await writeJudgeScores({
      studyId: study.id,
      judgeId: judge.id,
      rows: [{ itemId: "Q1", model: MODEL_NAMES[0], repetition: 1, dimension: "supplementation", probabilities: { "0": 0.3, "1": 0.7000005 } }],
    });
    expect(res.renormalised).toBe(1);
    const s = await getDb().judgeScore.findFirstOrThrow({ where: { judgeId: judge.id } });
    const p = s.probabilities as Record<string, number>;
    expect(p["0"] + p["1"]).toBeCloseTo(1, 15);
    // Binary: |2p - 1| with p = 0.7000005 / 1.0000005.
    expect(s.confidence).toBeCloseTo(Math.abs((2 * 0.7000005) / 1.0000005 - 1), 12);
    expect(s.score).toBe(1);
  });

  it("refuses another study's judge with 422, and N/A where the rubric has none", async () => {
    const a = await setup();
    const b = await setup();
    const e = await rejected(writeJudgeScores({ studyId: a.study.id, judgeId: b.judge.id, rows: [safety()] }));
    expect(e.status).toBe(422);
    expect(JSON.stringify(e.details)).toMatch(/is not a judge of this study/);
    const na = await rejected(writeJudgeScores({ studyId: a.study.id, judgeId: a.judge.id, rows: [safety({ score: "NA" })] }));
    expect(JSON.stringify(na.details)).toMatch(/safety has no \\"not applicable\\"/);
  });
});
